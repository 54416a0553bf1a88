/* run_spawn.c: starting the programs `smemu run` needs (nvcc, the user's
 * program) with an argument vector, never through a shell, so that no
 * character of a path or argument is ever interpreted. */
#include "run_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int wait_status(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int rs_wait(char *const argv[]) {
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  if (rc != 0) {
    fprintf(stderr, "smemu run: cannot run %s: %s\n", argv[0], strerror(rc));
    return 127;
  }
  return wait_status(pid);
}

int rs_capture(char *const argv[], char *buf, size_t n) {
  int fd[2];
  if (n == 0 || pipe(fd) < 0) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addclose(&fa, fd[1]);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  if (rc != 0) {
    close(fd[0]);
    return -1;
  }
  size_t k = 0;
  for (;;) {
    char sink[4096];
    /* keep reading past a full buffer so the child never blocks on us */
    ssize_t r = k + 1 < n ? read(fd[0], buf + k, n - 1 - k) : read(fd[0], sink, sizeof sink);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    if (k + 1 < n) k += (size_t)r;
  }
  buf[k] = 0;
  close(fd[0]);
  return wait_status(pid);
}

/* ---- the program of `smemu run` ---- */

static volatile pid_t child;

static void forward(int sig) {
  if (child > 0) kill(child, sig);
}

int rs_run_program(char *const argv[]) {
  static const int sigs[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
  struct sigaction old[4], sa;
  posix_spawnattr_t at;
  sigset_t def;
  sigemptyset(&def);
  for (int i = 0; i < 4; i++) sigaddset(&def, sigs[i]);
  posix_spawnattr_init(&at);
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
  /* ^C reaches the whole process group: we ignore it and wait for the
   * program, whose runtime writes the reports before it dies; a SIGTERM or
   * SIGHUP sent to us is passed on to it */
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 4; i++) {
    sa.sa_handler = i < 2 ? SIG_IGN : forward;
    sigaction(sigs[i], &sa, &old[i]);
  }
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, &at, argv, environ);
  posix_spawnattr_destroy(&at);
  if (rc != 0) {
    fprintf(stderr, "smemu run: cannot run %s: %s\n", argv[0], strerror(rc));
    rc = 127;
  } else {
    child = pid;
    rc = wait_status(pid);
    child = 0;
  }
  for (int i = 0; i < 4; i++) sigaction(sigs[i], &old[i], NULL);
  return rc;
}
