/* ginit.h: the initialisation check of global memory (compute-sanitizer's
 * initcheck). A context-wide shadow keeps one bit per byte of every
 * tracked allocation: 1 once something wrote it (a host copy, a fill, a
 * kernel store or atomic). A kernel read of a byte still 0 is an error,
 * kept per worker (one record per access: thread, block, pc, address,
 * size) and merged per launch. Untracked memory (module variables,
 * registered host ranges, whatever the owner marks written) never reports.
 * Only built when SMEMU_ANALYZE_INIT is on: with it off nothing here runs. */
#ifndef SMEMU_GINIT_H
#define SMEMU_GINIT_H
#include "exec/exec.h"
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* One tracked allocation. */
typedef struct ginit_region {
  uintptr_t base;     /* first byte */
  size_t size;        /* bytes */
  _Atomic uint8_t *w; /* a bit per byte (byte i: bit i % 8 of w[i / 8]):
                         1 written (relaxed atomics: blocks on several
                         workers may write one byte) */
} ginit_region;

/* The context's shadow, sorted by base. Changed only between launches. */
typedef struct ginit {
  ginit_region *r;
  size_t n, cap;
} ginit;

/* One uninitialised read. */
typedef struct ginit_rec {
  uint32_t pc;       /* the instruction */
  uint32_t blk;      /* linear block index */
  uint32_t block[3]; /* block index */
  uint32_t tid;      /* linear thread index in the block */
  uint32_t size;     /* bytes of the access */
  uint64_t addr;     /* its first byte */
} ginit_rec;

/* Per worker, then merged per launch: the first GINIT_KEEP records (in
 * block, thread order after the merge) and the count of every record. */
#define GINIT_KEEP 4096
typedef struct ginit_an {
  ginit_rec *rec;
  uint32_t n, cap;
  uint64_t total;   /* all uninitialised reads, kept or not */
  uint64_t *per_pc; /* the same per instruction (ncode entries) */
  uint32_t ncode;
} ginit_an;

ginit *ginit_new(void);
void ginit_free(ginit *g);
/* Track [base, base+size); written: every byte starts written. */
int ginit_track(ginit *g, uintptr_t base, size_t size, int written);
void ginit_forget(ginit *g, uintptr_t base);
/* The host wrote [p, p+n) (a copy to the device, a fill). */
void ginit_mark(ginit *g, uintptr_t p, size_t n);
/* Make the tracked parts of [p, p+n) unwritten again; -1 when none is tracked. */
int ginit_clear(ginit *g, uintptr_t p, size_t n);
/* Unwritten bytes in [p, p+n) (0 when untracked). */
size_t ginit_unwritten(const ginit *g, uintptr_t p, size_t n);
/* The 32-byte sectors of [p, p+n) holding unwritten bytes (how
 * compute-sanitizer reports a copy from such memory): their count, and the
 * first unwritten address of each of the first max in out. */
size_t ginit_sectors(const ginit *g, uintptr_t p, size_t n, uint64_t *out, size_t max);

/* A warp's global accesses (lanes m, size bytes at addr[l]); kind is
 * ACC_READ, ACC_WRITE or ACC_ATOMIC (race.h). Reads and atomics of unwritten
 * bytes are recorded; writes and atomics mark bytes written. */
void ginit_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind);
ginit_an *ginit_an_new(uint32_t ncode);
void ginit_an_free(ginit_an *a);
void ginit_an_merge(ginit_an *into, const ginit_an *from);
/* Sort the merged records by block, thread, pc and keep GINIT_KEEP. */
void ginit_an_finish(ginit_an *a);

#endif
