/* analysis.h: the analyses' per-worker state (one block at a time),
 * merged per launch: the bank model's per-instruction statistics, the race,
 * sync and init checks' shadow (race.h), the global init check, the
 * pipeline statistics and the cluster race check. The executor sees it
 * only through hooks.h; reports read the merged state. */
#ifndef SMEMU_ANALYSIS_H
#define SMEMU_ANALYSIS_H
#include "check/pipe.h"
#include "check/race.h"
#include "model/bankcache.h"

#define CHECK_ROWS_MAX 8

/* Bank statistics of one shared-memory instruction (by pc). */
typedef struct bank_stat {
  uint64_t requests, wavefronts, ideal; /* summed over executions */
  bank_cache cache;                     /* patterns affine by halves seen (below), next to the
                                           sums a repeat adds to */
  uint32_t worst_degree;                /* largest wavefronts - ideal of one execution, +1 */
  uint32_t worst_waves;                 /* wavefronts of that execution */
  uint32_t worst_lanes;                 /* lanes on its most loaded bank */
  int32_t worst_bank;                   /* that bank */
  uint32_t bank_degree;                 /* distinct words that bank served in it */
  uint32_t worst_addr[32];              /* shared addresses of the lanes of that execution */
  uint32_t worst_active;                /* active lanes of that execution */
  uint32_t worst_size;                  /* bytes per lane of that execution (merged width) */
  /* Patterns seen and their figures (model/bankcache.h): lanes affine by
   * half-warps in `cache`; any other pattern, the last one: the lanes, the
   * size, the addresses relative to the first lane's and that address
   * modulo BANK_CACHE_PERIOD (moving every lane by a multiple of it keeps
   * every bank, word and segment). A repeat costs a comparison instead of
   * the model. pat_mask 0: none yet. */
  uint32_t pat_mask, pat_size, pat_base, pat_rel[32];
  uint32_t pat_req, pat_waves, pat_ideal;
  uint64_t ld_requests, ld_wavefronts, ld_ideal; /* an atomic's LDS (a CAS loop's,
                                                    model/atomcost.h): load family */
  uint64_t dsh_requests, dsh_sectors;            /* accesses to other blocks' shared memory
                                                    (dshared: request, 32-byte sectors) */
} bank_stat;

/* The shared accesses of one warp at one pc of a re-unrolled loop body
 * (program.h, unroll_sect), kept until the block ends and then counted
 * again in the order the SASS's sections run them. */
typedef struct urec {
  uint32_t cnt[32];           /* executions per lane */
  uint32_t *addr[32];         /* the lane's shared address at each execution */
  uint32_t cap[32];           /* entries allocated in addr[l] */
  uint32_t size;              /* bytes per lane (the merged width) */
  int bad;                    /* too many executions, or out of memory: no recount */
  uint32_t last_mask;         /* lanes of the last execution (a new loop instance
                                 brings back lanes that had left) */
  uint64_t req, waves, ideal; /* what counting in PTX order gave */
} urec;

#define UREC_PCS 16
typedef struct usect_state {
  uint32_t pcs[UREC_PCS]; /* the pcs recorded (group leaders of re-unrolled bodies) */
  int npcs;
  uint32_t nwarps; /* warps per block */
  urec *rec;       /* [warp * UREC_PCS + slot] */
} usect_state;

/* Per-worker analysis state; merged into the launch's at the end. */
typedef struct analysis {
  bank_stat *banks; /* one per pc, or NULL when banks are off */
  usect_state *us;  /* re-unrolled loop bodies being recorded, or NULL */
  uint32_t ncode;
  int has_race;      /* race / sync / init checks on: `race` is live */
  uint32_t shape_lo; /* the race or init check takes whole-warp shapes
                        (check_mem_shape) at shared offsets from this one
                        on (past the reserved area it leaves out), or
                        UINT32_MAX: it takes none (off, or the cluster
                        check needs the lanes) */
  race_state race;
  struct ginit_an *gin;    /* uninitialised global reads, or NULL (check/ginit.h) */
  struct pipe_stats *pipe; /* async pipeline statistics, or NULL (check/pipe.h) */
  struct cl_race *crace;   /* races between the blocks of a cluster, or NULL (check/crace.c) */
  uint32_t on;             /* the checks enabled (CHECK_* bits of check/checks.h) */
  /* the enabled checks that take memory accesses and events, in table order */
  const struct check_row *mem[CHECK_ROWS_MAX], *ev[CHECK_ROWS_MAX];
  const struct check_row *mem_sh[CHECK_ROWS_MAX]; /* those of mem that see .shared instructions */
  uint32_t nmem, nev, nmem_sh;
  uint32_t evmask;                 /* the event kinds (1 << HEV_*) some enabled check takes */
  const struct check_row *ev1[32]; /* per kind: the one enabled check taking it, NULL: none or several */
} analysis;

#endif
