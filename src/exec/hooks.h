/* hooks.h: the analyses' entry points on the executor's memory path. They
 * are called only when launch.hooks is set, so with every analysis off the
 * memory handlers pay one test of a flag. */
#ifndef SMEMU_HOOKS_H
#define SMEMU_HOOKS_H
#include "check/race.h"
#include "exec/exec.h"
#include "model/bankcache.h"

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
  /* Patterns seen and their figures (model/bankcache.h): lanes affine by
   * half-warps in `cache`; any other pattern, the last one: the lanes, the
   * size, the addresses relative to the first lane's and that address
   * modulo BANK_CACHE_PERIOD (moving every lane by a multiple of it keeps
   * every bank, word and segment). A repeat costs a comparison instead of
   * the model. pat_mask 0: none yet. */
  bank_cache cache;
  uint32_t pat_mask, pat_size, pat_base, pat_rel[32];
  uint32_t pat_req, pat_waves, pat_ideal;
  uint64_t ld_requests, ld_wavefronts, ld_ideal; /* an atomic's LDS (a CAS loop's,
                                                    model/atomcost.h): load family */
  uint64_t dsh_requests, dsh_sectors; /* accesses to other blocks' shared memory
                                         (dshared: request, 32-byte sectors) */
} bank_stat;

/* The shared accesses of one warp at one pc of a re-unrolled loop body
 * (program.h, unroll_sect), kept until the block ends and then counted
 * again in the order the SASS's sections run them. */
typedef struct urec {
  uint32_t cnt[32];       /* executions per lane */
  uint32_t *addr[32];     /* the lane's shared address at each execution */
  uint32_t cap[32];       /* entries allocated in addr[l] */
  uint32_t size;          /* bytes per lane (the merged width) */
  int bad;                /* too many executions, or out of memory: no recount */
  uint32_t last_mask;     /* lanes of the last execution (a new loop instance
                             brings back lanes that had left) */
  uint64_t req, waves, ideal; /* what counting in PTX order gave */
} urec;

#define UREC_PCS 16
typedef struct usect_state {
  uint32_t pcs[UREC_PCS]; /* the pcs recorded (group leaders of re-unrolled bodies) */
  int npcs;
  uint32_t nwarps;        /* warps per block */
  urec *rec;              /* [warp * UREC_PCS + slot] */
} usect_state;

/* Per-worker analysis state; merged into the launch's at the end. */
typedef struct analysis {
  bank_stat *banks;       /* one per pc, or NULL when banks are off */
  usect_state *us;        /* re-unrolled loop bodies being recorded, or NULL */
  uint32_t ncode;
  int has_race;           /* race / sync / init checks on: `race` is live */
  race_state race;
  struct ginit_an *gin;   /* uninitialised global reads, or NULL (check/ginit.h) */
  struct pipe_stats *pipe;/* async pipeline statistics, or NULL (async/async.h) */
} analysis;

/* A block starts on this worker. */
void hook_block_start(block *b);
/* The block has run (all its warps are done). */
void hook_block_end(block *b);

/* A memory instruction of warp w touched addr[l] (size bytes) for lanes m. */
void hook_mem(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);
/* hook_mem of a full warp whose lanes are at a0 + (l%16)*stride (lanes
 * 0-15) and a1 + (l%16)*stride (lanes 16-31): the bank model takes its
 * figures from the cache when it has them (as hook_banks_halves). */
void hook_mem_halves(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0, uint64_t a1,
                     uint32_t stride);
/* hook_mem_halves for the compiled tier (any stride, any analyses): a
 * whole-warp shape of the race and init checks (stride 0 or size: a
 * half-warp broadcast or consecutive elements) is checked from the halves
 * (race_halves), anything else as hook_mem_halves. */
void hook_mem_pattern(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0, uint64_t a1,
                      uint64_t stride);
/* A full warp's shared access at pc whose lanes are at a0 + (l%16)*stride
 * (lanes 0-15) and a1 + (l%16)*stride (lanes 16-31), made while the bank
 * model is the only analysis (hooks_banks_only): counted from the bank
 * cache when the pattern has been seen (1), else 0 and the caller calls
 * hook_mem with the addresses. */
int hook_banks_halves(warp *w, const insn *in, uint64_t a0, uint64_t a1, uint32_t stride, uint32_t size);

/* bank_cache_period(w's launch, bytes) - 1 for 4, 8 and 16 bytes in bytes
 * 0, 1 and 2 (compiled code looks the bank cache up itself: jit.c) */
uint32_t hook_banks_masks(const warp *w);

/* The bank model is the only analysis hook_mem serves: an access to global
 * or local memory needs no hook (the bank model counts shared memory). */
static inline int hooks_banks_only(const warp *w) {
  return w->L->want_banks && w->blk->an && !w->blk->an->has_race && !w->L->ginit;
}
/* No analysis looks at a global (or local, param, const) access: the
 * global race and init checks are off (the shared race, init and bank
 * checks pass such accesses by). */
static inline int hooks_global_none(const warp *w) { return !w->L->want_global_races && !w->L->ginit; }
/* A global access needs the analyses' hook. */
static inline int hooks_see_global(const warp *w) {
  return w->L->hooks && !hooks_banks_only(w) && !hooks_global_none(w);
}

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
