/* run_spawn.h: running a program from an argument vector (run_spawn.c);
 * no shell is ever involved. */
#ifndef SMEMU_RUN_SPAWN_H
#define SMEMU_RUN_SPAWN_H
#include <stddef.h>

/* Run argv (argv[0] looked up on the PATH when it has no '/'), output to
 * ours; returns its exit status, 128 + signal, 127 when it cannot start. */
int rs_wait(char *const argv[]);
/* The same with stdout captured into buf (NUL-terminated, truncated to n-1
 * bytes) and stderr discarded; -1 when it cannot start. */
int rs_capture(char *const argv[], char *buf, size_t n);

/* Run the program of `smemu run` as rs_wait does, while ignoring ^C
 * (SIGINT, SIGQUIT: the program gets them from the terminal) and passing a
 * SIGTERM or SIGHUP on to it, so that its reports can still be printed. */
int rs_run_program(char *const argv[]);

#endif
