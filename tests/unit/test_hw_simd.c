/* test_hw_simd.c: the SIMD intrinsics (vabsdiff4/2 with and without .add,
 * add/sub/min/max on .u16x2/.s16x2) and __fns (fns.b32) of
 * tests/hw/extra/simd.cu, run on smemu for 64 lanes and compared bit for bit
 * with what an H200 gave (tests/hw/extra/recorded/simd.bin, made by
 * tests/hw/extra/record.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "smemu.h"

#define NOPS 24

static void test_simd_matches_gpu(void **state) {
  (void)state;
  static unsigned want[NOPS * 64];
  FILE *f = fopen("tests/hw/extra/recorded/simd.bin", "rb");
  assert_non_null(f);
  assert_int_equal(fread(want, sizeof want, 1, f), 1);
  fclose(f);
  smemu_options o = {0};
  o.threads = 1;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_file(c, "tests/hw/extra/simd.ptx", &m) != SMEMU_OK) fail_msg("%s", smemu_errmsg(c));
  assert_int_equal(smemu_module_get_kernel(m, "simd", &k), SMEMU_OK);
  unsigned *in, *out;
  assert_int_equal(smemu_malloc(c, (void **)&in, 128 * 4), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&out, sizeof want), SMEMU_OK);
  for (unsigned i = 0; i < 128; i++) in[i] = (i * 2654435761u) ^ (i << 7); /* as simd_main.cu */
  void *args[] = {&in, &out};
  uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
  if (smemu_launch(c, k, g, b, 0, args) != SMEMU_OK) fail_msg("%s", smemu_errmsg(c));
  int bad = 0;
  for (int i = 0; i < NOPS * 64; i++)
    if (out[i] != want[i] && bad++ < 8)
      print_error("op %d lane %d: smemu %08x, H200 %08x\n", i / 64, i % 64, out[i], want[i]);
  smemu_destroy(c);
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_simd_matches_gpu)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
