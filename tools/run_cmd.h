/* run_cmd.h: `smemu run` (run_cmd.c), for tools/smemu.c to dispatch to:
 * argv holds the arguments after the word `run`. Returns the exit status. */
#ifndef SMEMU_RUN_CMD_H
#define SMEMU_RUN_CMD_H

int smemu_cmd_run(int argc, char **argv);

#endif
