/* test_hw_edge.c: the PTX cases whose results the ISA leaves undefined or
 * that are easy to get wrong (division by zero, NaN to integer, NaN bit
 * patterns, over-wide shifts), run on smemu and compared bit for bit with
 * the results an H200 gave (tests/hw/arith_edges/edge.bin, made by record.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "ptxrun.h"
#include "../hw/arith_edges/edge_inputs.h"

static void test_edge_matches_gpu(void **state) {
  (void)state;
  char err[1024];
  int bad = hw_replay("tests/hw/arith_edges/edge.ptx", "edge", 64, 0, edge_inputs, sizeof edge_inputs,
                      "tests/hw/arith_edges/edge.bin", 64 * 8, 8, err, sizeof err);
  if (bad < 0) fail_msg("%s", err);
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_edge_matches_gpu)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
