/* test_hw_simd.c: the SIMD intrinsics (vabsdiff4/2 with and without .add,
 * add/sub/min/max on .u16x2/.s16x2) and __fns (fns.b32) of
 * tests/hw/shared_counters/simd.cu, run on smemu for 64 lanes and compared bit for bit
 * with what an H200 gave (tests/hw/shared_counters/recorded/simd.bin, made by
 * tests/hw/shared_counters/record.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "ptxrun.h"

#define NOPS 24

static void test_simd_matches_gpu(void **state) {
  (void)state;
  unsigned in[128];
  char err[1024];
  for (unsigned i = 0; i < 128; i++) in[i] = (i * 2654435761u) ^ (i << 7); /* as simd_main.cu */
  int bad = hw_replay("tests/hw/shared_counters/simd.ptx", "simd", 64, 1, in, sizeof in, "tests/hw/shared_counters/recorded/simd.bin",
                      NOPS * 64 * 4, 4, err, sizeof err);
  if (bad < 0) fail_msg("%s", err);
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_simd_matches_gpu)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
