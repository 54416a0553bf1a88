/* arbit.c: the arbitration estimate (arbit.h). The figures are the ranges
 * an H200 gave for arbit.cu's probe kernel, one factor varied at a time
 * (tests/hw/arbitration/README.md has the table):
 * - alone (1 warp per SM, or one block of 1 warp): no extra wavefronts;
 * - without global loads through L1 (none, ld.global.cg, st.global): shared
 *   stores never, loads 0 up to 32 resident warps per SM and at most 0.14%
 *   of their wavefronts above (57 warps);
 * - with L1-cached global loads (ld.global.ca, hits or misses), shared
 *   stores get extra wavefronts: per STS request 0.027-0.092 with 8 warps
 *   per SM, 0.127-0.323 with 44-61 warps when the loads sit in the stores'
 *   loop, and 0.098-0.117 for stores outside that loop while other warps'
 *   loops run (the probe's 8 initial STS per warp).
 * The code is all the estimate sees (not which loads run, nor when), so it
 * is a range from 0 to the most the recordings gave in the launch's case. */
#include "model/arbit.h"
#include <math.h>

/* Extra STS wavefronts per STS request at most, by case and by resident
 * warps per SM (up to 16, above). The least the recordings gave is 0 in
 * every case: the probe's configurations without traffic run the same
 * code, and held-out kernels with loads and stores in one loop (a cutlass
 * GEMM on one block, CUB's radix histogram) had none, so the low end of
 * every range is 0. */
static const double st_hi[4][2] = {
    [ARBIT_CACHED] = {0.095, 0.12},
    [ARBIT_INTERLEAVED] = {0.095, 0.35},
};
/* Extra LDS wavefronts per LDS wavefront, high, above 32 warps per SM. */
#define LD_FRAC_HI 0.0015

uint32_t arbit_warps_per_sm(const arch_profile *a, const arbit_in *in) {
  if (!in->block_threads || !in->grid_blocks) return 0;
  uint32_t warps = (in->block_threads + 31) / 32;
  uint64_t blocks = (uint64_t)a->max_blocks_per_sm;
  uint64_t by_threads = (uint64_t)a->max_threads_per_sm / (warps * 32);
  if (by_threads < blocks) blocks = by_threads;
  uint64_t per_block = (uint64_t)in->smem_bytes + a->smem_reserved_per_block;
  if (per_block && a->smem_per_sm / per_block < blocks) blocks = a->smem_per_sm / per_block;
  uint64_t sms = a->sm_count > 0 ? (uint64_t)a->sm_count : 1;
  uint64_t share = (in->grid_blocks + sms - 1) / sms;
  if (share < blocks) blocks = share;
  if (!blocks) blocks = 1;
  return (uint32_t)(blocks * warps);
}

void arbit_estimate(const arch_profile *a, const arbit_in *in, arbit_est *out) {
  *out = (arbit_est){0};
  out->warps_per_sm = arbit_warps_per_sm(a, in);
  out->why = !in->cached_loads ? ARBIT_QUIET : in->interleaved ? ARBIT_INTERLEAVED : ARBIT_CACHED;
  if (out->warps_per_sm < 2 || a->major < 7) {
    out->why = ARBIT_ALONE;
    return;
  }
  out->hi[1] = (uint64_t)ceil(st_hi[out->why][out->warps_per_sm > 16] * (double)in->requests[1]);
  if (out->warps_per_sm > 32) out->hi[0] = (uint64_t)ceil(LD_FRAC_HI * (double)in->wavefronts[0]);
}

const char *arbit_case_text(arbit_case c) {
  switch (c) {
  case ARBIT_ALONE:
    return "under 2 resident warps per SM";
  case ARBIT_QUIET:
    return "no global loads through L1";
  case ARBIT_CACHED:
    return "L1-cached global loads";
  case ARBIT_INTERLEAVED:
    return "L1-cached global loads in a loop with shared stores";
  }
  return "?";
}
