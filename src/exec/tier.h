/* tier.h: the compiled tier's contract with the executor. The executor
 * runs a kernel's compiled regions through jit_enter; the compiled tier
 * (src/jit, above this floor) implements the functions declared here, and
 * the public API (src/api) calls them to compile a launch's kernel. Both
 * tiers share the SIMT scheduler, barriers, memory model and analyses: a
 * region runs exactly as warp_run would run its instructions. Without
 * SMEMU_HAVE_JIT the compiled tier is stubs and every launch interprets. */
#ifndef SMEMU_TIER_H
#define SMEMU_TIER_H

#include "exec/exec.h"
#include <stdint.h>

/* A compiled region: runs its instructions from its first pc with the
 * warp's top SIMT entry t, exactly as warp_run would (counters, t->pc,
 * w->pc), and returns how many it ran: all of them, or fewer when a
 * handler it called changed the warp's state (a fault, a wait). */
typedef uint32_t (*jit_region_fn)(warp *w, simt_entry *t);

/* A kernel's compiled code: entry[pc] is the region starting at pc, NULL
 * where none starts (the interpreter runs those pcs). */
typedef struct jit_code {
  jit_region_fn *entry;  /* one per pc of the program */
  uint16_t *len;         /* instructions of the region at each pc */
  uint32_t nregions;     /* regions compiled */
  uint32_t ninsn_native; /* instructions compiled to native code */
  uint32_t ninsn_called; /* instructions run through their handler */
  int hooked;            /* the variant that calls the analyses (jit_compile) */
  uint64_t key[2];       /* what the code was made from (src/jit) */
  void *rt;              /* the LLVM resource tracker owning the code */
} jit_code;

/* 1 when this build has the compiled tier. */
int jit_available(void);

/* Compile program P (once; thread-safe when each P's caller holds its own
 * lock): `hooked` 1 gives the variant for launches with analyses on (its
 * memory instructions call hook_mem, as the handlers do), 0 the variant
 * for launches without (no analysis code at all). Returns NULL when nothing could be compiled or LLVM failed
 * (the interpreter then runs everything); `why` gets a reason. */
jit_code *jit_compile(const program *P, int hooked, char *why, size_t n);
void jit_free(jit_code *J);

/* 1 when P's code (of that variant) is at hand without compiling: this
 * process has it, or the disk cache does (src/jit/code_cache.inc). */
int jit_cached(const program *P, int hooked);

/* Compiling in the background (the auto tier): jit_compile_bg starts
 * compiling P's variant in a child process that leaves the code in the
 * disk cache, and returns at once (NULL when it cannot: no disk cache, no
 * process; compile in the foreground then), so that launches go on
 * interpreted while it runs; jit_bg_ready says whether it has finished;
 * jit_bg_finish waits for it and returns the code (linked from the cache,
 * or compiled here where the child left none; NULL with a reason in why
 * when none could be made) and the compile's CPU seconds, and frees the
 * handle; jit_bg_cancel stops it and frees the handle. Every handle must be
 * finished or cancelled before P is freed. A process that exits stops the
 * compiles still running. */
typedef struct jit_bg jit_bg;
jit_bg *jit_compile_bg(const program *P, int hooked);
int jit_bg_ready(const jit_bg *b);
jit_code *jit_bg_finish(jit_bg *b, double *seconds, char *why, size_t n);
void jit_bg_cancel(jit_bg *b);
/* 1 while as many compiles run in the background as may (one): start the
 * next at a later launch. */
int jit_bg_busy(void);

/* Run the region at pc (J->entry[pc] != NULL) with `budget` (>= 1)
 * instructions left to the warp; returns the instructions run, 0 when the
 * region does not fit the budget or holds the entry's reconvergence point
 * (warp_run must pop the entry there): the interpreter goes on then. */
static inline uint32_t jit_enter(const jit_code *J, warp *w, simt_entry *t, uint32_t pc, uint64_t budget) {
  uint32_t n = J->len[pc];
  if (budget < n || (t->rpc > pc && t->rpc - pc < n)) return 0;
  return J->entry[pc](w, t);
}

#endif
