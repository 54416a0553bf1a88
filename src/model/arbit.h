/* arbit.h: the arbitration estimate: shared-memory wavefronts Nsight
 * Compute counts on a busy SM beyond those the addresses give (each one
 * also counted as a bank conflict), as a range fitted to recordings of an
 * H200 (tests/hw/arbitration). smemu's own counts stay those of the
 * addresses; this is a separate, labelled figure. */
#ifndef SMEMU_MODEL_ARBIT_H
#define SMEMU_MODEL_ARBIT_H
#include <stdint.h>

#include "model/arch.h"

/* What the estimate looks at: the launch's shape and the kernel's code. */
typedef struct arbit_in {
  uint64_t grid_blocks;   /* blocks in the grid */
  uint32_t block_threads; /* threads per block */
  uint32_t smem_bytes;    /* shared bytes per block, static and dynamic */
  uint64_t requests[3];   /* shared requests from addresses: ld, st, atom */
  uint64_t wavefronts[3]; /* shared wavefronts from addresses */
  int cached_loads;       /* the kernel reads global memory through L1
                             (ld.global, .ca, .nc, ldu; not .cg or .cv) */
  int interleaved;        /* such a load and a shared store sit in one loop */
} arbit_in;

/* Which recorded case the launch falls in. */
typedef enum arbit_case {
  ARBIT_ALONE,      /* under 2 resident warps per SM: no other traffic */
  ARBIT_QUIET,      /* no L1-cached global loads: loads only, at > 32 warps */
  ARBIT_CACHED,     /* L1-cached global loads elsewhere in the kernel */
  ARBIT_INTERLEAVED /* L1-cached global loads in a loop with shared stores */
} arbit_case;

typedef struct arbit_est {
  arbit_case why;
  uint32_t warps_per_sm; /* resident warps per SM the shape allows (registers not counted) */
  uint64_t lo[3], hi[3]; /* extra wavefronts per ld, st, atom (as many extra conflicts) */
} arbit_est;

/* Resident warps per SM of a launch: the blocks one SM holds (threads,
 * blocks, shared memory with its reserved part) or the grid's share of the
 * SMs, whichever is fewer, times the block's warps. */
uint32_t arbit_warps_per_sm(const arch_profile *a, const arbit_in *in);
/* The estimate of *in on profile a (fitted to sm_90; other 7.x-9.x
 * profiles use the same figures, earlier ones get none). */
void arbit_estimate(const arch_profile *a, const arbit_in *in, arbit_est *out);
/* A short label of the case ("L1-cached global loads in a loop with
 * shared stores"). */
const char *arbit_case_text(arbit_case c);

#endif
