/* jit.c: the compiled tier's code generator (jit.h). For each straight-line
 * run of a kernel's instructions (no branch, call, return, exit or barrier
 * inside) it emits one LLVM function working on the 32 lanes of a warp as
 * vectors: native code for the forms of forms.h, a call to the interpreter
 * handler for every other instruction (with the warp's counters and pcs
 * set as warp_run sets them), and compiles the kernel's functions with
 * LLVM's ORC JIT. Register slots stay in the warp's register file, so the
 * interpreter and the compiled code can take turns at any region edge.
 * The generator is one translation unit in parts, one concern each, in the
 * order each uses the ones before: process.inc (the process's JIT), cg.inc
 * (code generation state, register slots), alu.inc (lane-local emitters),
 * steps.inc (steps over the whole warp: memory, f64, calls), region.inc,
 * live.inc (liveness, building the regions) and code_cache.inc (compiled
 * code kept, the entry points of exec/tier.h). One unit keeps their many
 * small helpers static: none becomes a name of the library. */
#include "jit/jit.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef SMEMU_HAVE_JIT

int jit_available(void) { return 0; }
jit_code *jit_compile(const program *P, int hooked, char *why, size_t n) {
  (void)P;
  (void)hooked;
  snprintf(why, n, "this build has no compiled tier (LLVM 19 was not found)");
  return NULL;
}
void jit_free(jit_code *J) { (void)J; }
int jit_cached(const program *P, int hooked) {
  (void)P;
  (void)hooked;
  return 0;
}
int jit_start(char *why, size_t n) {
  snprintf(why, n, "this build has no compiled tier (LLVM 19 was not found)");
  return -1;
}
int jit_disk_cache(void) { return 0; }
long jit_compile_child(const program *P, int hooked) {
  (void)P;
  (void)hooked;
  return -1;
}

#else

#include "exec/hooks.h"
#include "ir/merge.h"
#include "jit/forms.h"
#include "jit/jcache.h"
#include "mem/mem.h"
#include "model/fpsem.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* after the LLVM headers: a pointer per LLVM function, loaded at run time */
#include "jit/llvm_dl.h"

int jit_available(void) { return llvm_dl_present(); }

/* this thread's CPU seconds (SMEMU_JIT_STATS: the compile's phases) */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The parts, in this order (each uses the ones before it). */
#include "jit/process.inc"

#include "jit/cg.inc"

#include "jit/alu.inc"

#include "jit/steps.inc"

#include "jit/region.inc"

#include "jit/read_batch.inc"

#include "jit/live.inc"

#include "jit/code_cache.inc"

#endif
