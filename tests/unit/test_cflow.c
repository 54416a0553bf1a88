/* test_cflow.c: random per-thread control flow (tests/cflow, made by
 * gen.py: nested if/else, loops with data-dependent trip counts, break,
 * continue, early returns, switch, recursive __noinline__ calls) run on
 * smemu as 2 blocks of 128 threads; every thread's result must equal what
 * the same function computed on the host CPU (cflowK.expected). The lanes
 * of a warp take different paths through it, so this checks divergence and
 * reconvergence against an independent reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "smemu.h"

static void run_one(int k) {
  char path[128];
  unsigned want[256];
  snprintf(path, sizeof path, "tests/cflow/cflow%d.expected", k);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  for (int i = 0; i < 256; i++) assert_int_equal(fscanf(f, "%u", &want[i]), 1);
  fclose(f);
  smemu_options o = {0};
  o.threads = 2;
  o.max_warp_instructions = 100000000;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *kern;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  snprintf(path, sizeof path, "tests/cflow/cflow%d.ptx", k);
  if (smemu_module_load_file(c, path, &m) != SMEMU_OK) fail_msg("%s", smemu_errmsg(c));
  assert_int_equal(smemu_module_get_kernel(m, "cflow", &kern), SMEMU_OK);
  unsigned *in, *out;
  assert_int_equal(smemu_malloc(c, (void **)&in, 1024), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&out, 1024), SMEMU_OK);
  for (unsigned t = 0; t < 256; t++) {
    in[t] = (t * 2654435761u) >> 7;
    out[t] = 0xdeadbeef;
  }
  void *args[] = {&in, &out};
  const uint32_t g[3] = {2, 1, 1}, b[3] = {128, 1, 1};
  if (smemu_launch(c, kern, g, b, 0, args) != SMEMU_OK) fail_msg("cflow%d: %s", k, smemu_errmsg(c));
  int bad = 0;
  for (int t = 0; t < 256; t++)
    if (out[t] != want[t] && bad++ < 4) print_error("cflow%d thread %d: smemu %u, host %u\n", k, t, out[t], want[t]);
  smemu_destroy(c);
  if (bad) fail_msg("cflow%d: %d threads differ", k, bad);
}

#define CASE(k) static void test_cflow##k(void **s) { (void)s; run_one(k); }
CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10) CASE(11)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cflow0), cmocka_unit_test(test_cflow1), cmocka_unit_test(test_cflow2),
      cmocka_unit_test(test_cflow3), cmocka_unit_test(test_cflow4), cmocka_unit_test(test_cflow5),
      cmocka_unit_test(test_cflow6), cmocka_unit_test(test_cflow7), cmocka_unit_test(test_cflow8),
      cmocka_unit_test(test_cflow9), cmocka_unit_test(test_cflow10), cmocka_unit_test(test_cflow11)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
