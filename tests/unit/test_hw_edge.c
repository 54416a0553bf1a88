/* test_hw_edge.c: the PTX cases whose results the ISA leaves undefined or
 * that are easy to get wrong (division by zero, NaN to integer, NaN bit
 * patterns, over-wide shifts), run on smemu and compared bit for bit with
 * the results an H200 gave (tests/hw/edge/edge.bin, made by record.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "smemu.h"
#include "../hw/edge/edge_inputs.h"

static void test_edge_matches_gpu(void **state) {
  (void)state;
  unsigned long long want[64], *out, *in;
  FILE *f = fopen("tests/hw/edge/edge.bin", "rb");
  assert_non_null(f);
  assert_int_equal(fread(want, sizeof want, 1, f), 1);
  fclose(f);
  smemu_options o = {0};
  o.threads = 1;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_file(c, "tests/hw/edge/edge.ptx", &m) != SMEMU_OK) fail_msg("%s", smemu_errmsg(c));
  assert_int_equal(smemu_module_get_kernel(m, "edge", &k), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&out, 64 * 8), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&in, sizeof edge_inputs), SMEMU_OK);
  for (int i = 0; i < 64; i++) out[i] = 0x5555555555555555ull;
  for (int i = 0; i < 16; i++) in[i] = edge_inputs[i];
  void *args[] = {&out, &in};
  uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
  if (smemu_launch(c, k, g, b, 0, args) != SMEMU_OK) fail_msg("%s", smemu_errmsg(c));
  int bad = 0;
  for (int i = 0; i < 64; i++)
    if (out[i] != want[i]) {
      print_error("case %d: smemu %016llx, H200 %016llx\n", i, out[i], want[i]);
      bad++;
    }
  smemu_destroy(c);
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_edge_matches_gpu)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
