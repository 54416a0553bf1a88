/* cfg.h: control-flow analysis of a decoded program: the immediate
 * post-dominator of every branch, where diverged lanes reconverge. */
#ifndef SMEMU_CFG_H
#define SMEMU_CFG_H
#include "ir/program.h"
#include <stddef.h>

/* Sets insn.rpc of every branch of every function. Returns 0 or -1. */
int cfg_reconvergence(program *p, char *err, size_t errsize);

/* Sets program.contended (ir/contention.c). */
void cfg_mark_contention(program *p);

#endif
