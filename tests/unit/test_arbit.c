/* test_arbit.c: the arbitration estimate (model/arbit.h) against the H200
 * recording of tests/hw/arbitration (recorded/ncu_*.csv, 5 launches per
 * configuration): for configurations whose executed code is what the
 * features say (the probe's traffic kind, whether its loads share the loop
 * with its stores), the GPU's extra wavefronts, min..max over the launches,
 * lie inside the estimate; and the resident warps per SM follow the sm_90
 * limits (2048 threads, 32 blocks, 228 KB of shared memory with 1 KB
 * reserved per block, 132 SMs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/arbit.h"

/* One recorded configuration: shape, counts the addresses give, features,
 * and the GPU's extra wavefronts of loads and of stores (min, max). */
typedef struct rec_case {
  const char *name;
  uint64_t grid;
  uint32_t block, smem;
  uint64_t ld_wf, st_req;
  int cached, interleaved;
  uint64_t ld_min, ld_max, st_min, st_max;
} rec_case;

static const rec_case cases[] = {
    /* ld.global.ca in the loop with the STS, 64 warps per SM */
    {"trf_sm8_w8_ca_hit", 1056, 256, 8192, 1081344, 1148928, 1, 1, 71, 94, 364148, 365625},
    {"trf_sm8_w8_ca_miss", 1056, 256, 8192, 1081344, 1148928, 1, 1, 72, 107, 234718, 235944},
    {"trf_sm8_w8_ca_hit_gk4", 1056, 256, 8192, 1081344, 1148928, 1, 1, 76, 133, 155767, 157059},
    {"mix_st_s1_ca_hit", 1056, 256, 8192, 0, 1148928, 1, 1, 0, 0, 369084, 370807},
    /* 8 warps per SM, one block of 8 warps */
    {"trf_sm1_w8_ca_hit", 132, 256, 8192, 135168, 143616, 1, 1, 0, 0, 10099, 10637},
    {"trf_b1_w8_ca_hit", 1, 256, 8192, 1024, 1088, 1, 1, 0, 0, 42, 94},
    {"mix_b1_st_s2_ca_hit", 1, 256, 8192, 0, 1088, 1, 1, 0, 0, 61, 100},
    /* loads in the loop, stores only before it (8 per warp) */
    {"mix_ld_s1_ca_miss", 1056, 256, 8192, 1081344, 67584, 1, 0, 68, 109, 7629, 7921},
    {"mix_ld128_s2_ca_miss", 1056, 256, 8192, 8650752, 67584, 1, 0, 776, 1017, 7005, 7102},
    /* no global loads through L1 */
    {"trf_sm8_w8_cg_miss", 1056, 256, 8192, 1081344, 1148928, 0, 0, 73, 94, 0, 0},
    {"trf_sm8_w8_st_s2", 1056, 256, 8192, 2162688, 1148928, 0, 0, 367, 438, 0, 0},
    {"res_sm32_w8_s2", 4224, 256, 8192, 8650752, 4595712, 0, 0, 11133, 11997, 0, 0},
    {"res_sm1_w32_s1", 132, 1024, 32768, 540672, 574464, 0, 0, 0, 0, 0, 0},
    /* one warp per SM */
    {"trf_sm1_w1_ca_hit", 132, 32, 1024, 16896, 17952, 1, 1, 0, 0, 0, 0},
};

static void estimate_holds_the_recording(void **state) {
  (void)state;
  const arch_profile *a = arch_find("sm_90");
  assert_non_null(a);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const rec_case *c = &cases[i];
    arbit_in in = {.grid_blocks = c->grid, .block_threads = c->block, .smem_bytes = c->smem};
    in.wavefronts[0] = c->ld_wf;
    in.requests[1] = c->st_req;
    in.cached_loads = c->cached;
    in.interleaved = c->interleaved;
    arbit_est e;
    arbit_estimate(a, &in, &e);
    if (c->ld_min < e.lo[0] || c->ld_max > e.hi[0] || c->st_min < e.lo[1] || c->st_max > e.hi[1])
      fail_msg("%s: GPU extra ld %llu..%llu st %llu..%llu, estimate ld %llu..%llu st %llu..%llu", c->name,
               (unsigned long long)c->ld_min, (unsigned long long)c->ld_max, (unsigned long long)c->st_min,
               (unsigned long long)c->st_max, (unsigned long long)e.lo[0], (unsigned long long)e.hi[0],
               (unsigned long long)e.lo[1], (unsigned long long)e.hi[1]);
    assert_int_equal(e.hi[2], 0);
  }
}

/* Without L1-cached loads the stores get nothing; one warp per SM gets
 * nothing at all: the recordings' zeros are the estimate's. */
static void zeros_where_the_gpu_had_none(void **state) {
  (void)state;
  const arch_profile *a = arch_find("sm_90");
  arbit_in in = {.grid_blocks = 1056, .block_threads = 256, .smem_bytes = 8192};
  in.requests[1] = 1148928;
  in.wavefronts[0] = 1081344;
  arbit_est e;
  arbit_estimate(a, &in, &e);
  assert_int_equal(e.why, ARBIT_QUIET);
  assert_int_equal(e.hi[1], 0);
  in.grid_blocks = 132;
  in.block_threads = 32;
  in.cached_loads = in.interleaved = 1;
  arbit_estimate(a, &in, &e);
  assert_int_equal(e.why, ARBIT_ALONE);
  assert_int_equal(e.hi[0] + e.hi[1] + e.hi[2], 0);
  /* 32 warps per SM: the loads' range is still empty (res_sm1_w32, res_sm4_w8: 0) */
  in.grid_blocks = 528;
  in.block_threads = 256;
  in.cached_loads = in.interleaved = 0;
  arbit_estimate(a, &in, &e);
  assert_int_equal(e.warps_per_sm, 32);
  assert_int_equal(e.hi[0], 0);
}

static void resident_warps(void **state) {
  (void)state;
  const arch_profile *a = arch_find("sm_90");
  arbit_in in = {.grid_blocks = 1056, .block_threads = 256, .smem_bytes = 8192};
  assert_int_equal(arbit_warps_per_sm(a, &in), 64); /* 8 blocks: 2048 threads */
  in.grid_blocks = 4224;
  assert_int_equal(arbit_warps_per_sm(a, &in), 64);
  in.grid_blocks = 1;
  assert_int_equal(arbit_warps_per_sm(a, &in), 8);
  in.grid_blocks = 2048;
  in.smem_bytes = 48 * 1024; /* 228 KB / 49 KB: 4 blocks */
  assert_int_equal(arbit_warps_per_sm(a, &in), 32);
  in.block_threads = 32;
  in.smem_bytes = 0; /* 32 blocks of one warp at most */
  in.grid_blocks = 100000;
  assert_int_equal(arbit_warps_per_sm(a, &in), 32);
  in.block_threads = 33; /* a partial warp is a warp */
  in.grid_blocks = 132;
  assert_int_equal(arbit_warps_per_sm(a, &in), 2);
  in.grid_blocks = 0;
  assert_int_equal(arbit_warps_per_sm(a, &in), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(estimate_holds_the_recording),
      cmocka_unit_test(zeros_where_the_gpu_had_none),
      cmocka_unit_test(resident_warps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
