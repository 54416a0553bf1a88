/* run_main.c: build/runtime/smemu-run, `smemu run` on its own, for the
 * tests (and for use before tools/smemu.c dispatches `run`). */
#include "run_cmd.h"

int main(int argc, char **argv) { return smemu_cmd_run(argc - 1, argv + 1); }
