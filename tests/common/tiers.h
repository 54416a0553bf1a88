/* tiers.h: running one kernel on the interpreter and on the compiled tier
 * and comparing everything they leave behind (results, counters, bank
 * figures, hazards, sync errors, uninitialised reads, faults, messages),
 * and a generator of random valid kernels driven by bytes or a seed.
 * Used by tests/unit/test_jit.c and the differential fuzz target
 * tests/fuzz/fuzz_tiers.c. No cmocka here: failures are returned. */
#ifndef TIERS_H
#define TIERS_H

#include <stddef.h>
#include <stdint.h>

#include "smemu.h"

#define TIERS_MAXBUF 8

/* What a launch left behind. `rep` holds every report as text, with
 * global addresses written relative to the buffers (two contexts allocate
 * at different host addresses). */
typedef struct tiers_outcome {
  int status;
  char msg[4096];
  uint64_t winsn, tinsn;
  const char *tier;
  int has_bc;
  smemu_bank_counts bc;
  char *rep;               /* reports as text (malloc'd) */
  size_t nbufs, size[TIERS_MAXBUF];
  unsigned char *buf[TIERS_MAXBUF];
} tiers_outcome;

/* How to launch: grid and block, buffer bytes (every pointer parameter
 * gets one, filled from `seed`; the bytes of the last one from `unwritten`
 * on are marked unwritten for the init check; 0: all written),
 * analyses, schedule and its seed. */
typedef struct tiers_launch {
  uint32_t grid[3], block[3];
  size_t bytes, unwritten;
  uint64_t seed;
  uint32_t analyses;
  int schedule;
  uint64_t sched_seed;
  uint64_t max_warp_insns; /* 0: 2 000 000 */
} tiers_launch;

/* Runs kernel ki of `ptx` (text; or the file `file` when not NULL) on
 * `tier` (SMEMU_TIER_*). Returns 0, or -1 when the context could not be
 * made or a buffer allocated (o->status < 0 then too). */
int tiers_run(const char *ptx, const char *file, int ki, int tier, const tiers_launch *L, tiers_outcome *o);
void tiers_free(tiers_outcome *o);

/* The number of differences between two outcomes (interp a, jit b), each
 * printed to stdout prefixed with `what`. */
int tiers_compare(const tiers_outcome *a, const tiers_outcome *b, const char *what);

/* Runs both tiers and compares; *compiled += 1 when the jit run really ran
 * compiled. Returns the number of differences. */
int tiers_both(const char *ptx, const char *file, int ki, const tiers_launch *L, const char *what, int *compiled);

/* The compiled tier's cache objects (files named *.o) in dir: how many;
 * the path of one into first (when not NULL). */
int tiers_cache_files(const char *dir, char *first, size_t n);

/* A cache directory of the test's own: made from tmpl (a mkdtemp
 * template, rewritten), set as $SMEMU_CACHE, its jit/ path into jdir.
 * Returns $SMEMU_CACHE's old value (malloc'd, or NULL) for
 * tiers_cache_leave, which puts it back and removes the directory (0, or
 * -1 when it could not be made or removed). */
char *tiers_cache_enter(char *tmpl, char *jdir, size_t n, int *ok);
int tiers_cache_leave(const char *root, char *saved);

/* An input word: a float/integer special value or random bits. */
uint64_t tiers_input_word(uint64_t *s);
uint64_t tiers_splitmix(uint64_t *s);

/* ---- the kernel generator ----
 * A kernel `fz(.param .u64 po, .param .u64 pi, .param .u64 pg)`: each
 * thread loads its registers from pi (KGEN_IN_BYTES per thread, global
 * thread index), runs random instructions, stores every register to po
 * (KGEN_IN_BYTES per thread); pg is a scratch buffer of KGEN_SCRATCH bytes
 * all threads share (global loads, stores and atomics). Choices are read
 * from `bytes` while they last, then from a splitmix stream of `seed`.
 * Kernels are valid PTX; lane-dependent addresses stay in bounds and
 * aligned, except for a rare deliberate fault when `faults` is set. */
#define KGEN_NR 8
#define KGEN_IN_BYTES (8 * 5 * KGEN_NR)
#define KGEN_SCRATCH 4096
typedef struct kgen_opts {
  int len;        /* top-level instructions */
  int full;       /* 1: barriers, loops, vectors, sub-word, atomics, warp
                     collectives, global scratch; 0: test_jit's original mix */
  int faults;     /* 1: rarely emit an out-of-bounds or misaligned access */
} kgen_opts;
/* The PTX text (malloc'd); *used gets the bytes consumed. */
char *kgen_kernel(const uint8_t *bytes, size_t nbytes, uint64_t seed, const kgen_opts *o, size_t *used);

#endif
