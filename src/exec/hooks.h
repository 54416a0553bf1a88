/* hooks.h: the analyses' entry points on the executor's memory path. They
 * are called only when launch.hooks is set, so with every analysis off the
 * memory handlers pay one test of a flag. */
#ifndef SMEMU_HOOKS_H
#define SMEMU_HOOKS_H
#include "check/race.h"
#include "exec/exec.h"

/* atom.cas's mode number (atom.c), which the bank model counts apart. */
#define ATOM_MODE_CAS 5
#define ATOM_MODE_MIN 1 /* (model/atomcost.h: min/max CAS loops skip the CAS) */
#define ATOM_MODE_MAX 2

/* Bank statistics of one shared-memory instruction (by pc). */
typedef struct bank_stat {
  uint64_t requests, wavefronts, ideal; /* summed over executions */
  uint32_t worst_degree;  /* largest wavefronts - ideal of one execution, +1 */
  uint32_t worst_waves;   /* wavefronts of that execution */
  uint32_t worst_lanes;   /* lanes on its most loaded bank */
  int32_t worst_bank;     /* that bank */
  uint32_t bank_degree;   /* distinct words that bank served in it */
  uint32_t worst_addr[32];/* shared addresses of the lanes of that execution */
  uint32_t worst_active;  /* active lanes of that execution */
  uint32_t worst_size;    /* bytes per lane of that execution (merged width) */
  /* The last pattern this instruction ran with and its figures. Warps repeat
   * a pattern from new bases, and the figures depend only on the lanes, the
   * size, the addresses relative to the first lane's and that address modulo
   * 8: moving every lane by a multiple of the bank width (4 or 8 bytes)
   * rotates the banks and keeps which lanes share a bank or a word. A repeat
   * costs a comparison instead of the model. pat_mask 0: none yet. */
  uint32_t pat_mask, pat_size, pat_align, pat_rel[32];
  uint32_t pat_req, pat_waves, pat_ideal;
  uint64_t ld_requests, ld_wavefronts, ld_ideal; /* an atomic's LDS (a CAS loop's,
                                                    model/atomcost.h): load family */
  uint64_t dsh_requests, dsh_sectors; /* accesses to other blocks' shared memory
                                         (dshared: request, 32-byte sectors) */
} bank_stat;

/* Per-worker analysis state; merged into the launch's at the end. */
typedef struct analysis {
  bank_stat *banks;       /* one per pc, or NULL when banks are off */
  uint32_t ncode;
  int has_race;           /* race / sync / init checks on: `race` is live */
  race_state race;
  struct ginit_an *gin;   /* uninitialised global reads, or NULL (check/ginit.h) */
} analysis;

/* A block starts on this worker. */
void hook_block_start(block *b);

/* A memory instruction of warp w touched addr[l] (size bytes) for lanes m. */
void hook_mem(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);
/* An atomic (hooks see it before it runs). */
void hook_atom(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);

/* cp.async: a read of global and a write of shared memory that Nsight
 * Compute does not count as shared-memory requests (LDGSTS; measured on an
 * H200, tests/hw/extra): the race checks see it, the bank model does not. */
void hook_copy(warp *w, const insn *in, uint32_t m, const uint64_t src[32], const uint64_t dst[32], uint32_t size);

analysis *analysis_new(const launch *L);
void analysis_merge(analysis *into, const analysis *from);
void analysis_free(analysis *a);

#endif
