/* jit.h: the compiled tier. A kernel's straight-line runs of instructions
 * become native functions (LLVM ORC) that work on all 32 lanes of a warp at
 * once; the SIMT scheduler, barriers, memory model and analyses stay the
 * interpreter's. Instructions the tier does not compile itself are called
 * through their interpreter handler from the compiled code, so both tiers
 * see the same events. Built only with SMEMU_HAVE_JIT (mk/jit.mk). It
 * implements the executor's contract with a compiled tier (exec/tier.h). */
#ifndef SMEMU_JIT_H
#define SMEMU_JIT_H

#include "exec/tier.h"

/* Loads LLVM and starts the process's JIT (what jit_compile does first);
 * 0, or -1 with a reason in why. */
int jit_start(char *why, size_t n);

/* 1 when compiled code can be kept on disk (code_cache.inc's cache). */
int jit_disk_cache(void);

/* Compiles P's variant in a child process, which leaves the object in the
 * disk cache and exits (0: compiled, 1: not); returns its pid, or -1. */
long jit_compile_child(const program *P, int hooked);

#endif
