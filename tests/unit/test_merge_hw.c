/* test_merge_hw.c: which shared loads and stores ptxas merges into wider
 * ones (src/ir/merge.c), against what ptxas made of the same PTX: every
 * kernel of tests/hw/merge/merge.ptx is straight-line code run once by
 * one warp, so its shared load and store requests on smemu must equal the
 * LDS* and STS* instructions in its SASS (tests/hw/merge/sass_counts.tsv,
 * made by tests/hw/merge/record.sh with ptxas and cuobjdump of CUDA 13).
 * The kernels cover the alignment rules (shifts, products, mul.wide, mad,
 * masks, offsets), what ends a group (labels, barriers, predicated
 * instructions, a redefined base, volatile), loads beside stores, and
 * 8-byte and f32 accesses. Kernels listed in
 * tests/hw/merge/known_differences.txt (with the reason) are reported, not
 * failed. (tid16_quad sums only two of its four loads: ptxas dropped the
 * others and made one LDS.64, smemu counts one LDS.128: one request both.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "ptxrun.h"

#define DIR "tests/hw/merge/"

/* 1 when kernel is listed in known_differences.txt. */
static int known(const char *kernel) {
  FILE *f = fopen(DIR "known_differences.txt", "r");
  char line[256];
  int hit = 0;
  if (!f) return 0;
  while (!hit && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (line[0] != '#' && !strcmp(line, kernel)) hit = 1;
  }
  fclose(f);
  return hit;
}

static void test_merges_match_ptxas(void **state) {
  (void)state;
  FILE *f = fopen(DIR "sass_counts.tsv", "r");
  if (!f) fail_msg("cannot open %ssass_counts.tsv", DIR);
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = SMEMU_ANALYZE_BANKS;
  smemu_ctx *c = NULL;
  smemu_module *m = NULL;
  void *out = NULL;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_file(c, DIR "merge.ptx", &m) != SMEMU_OK || smemu_malloc(c, &out, 32 * 4) != SMEMU_OK)
    fail_msg("%s", smemu_errmsg(c));
  char line[1024], name[128], ops[800];
  int nl, ns, kernels = 0, bad = 0, known_bad = 0;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "%127s %d %d %799s", name, &nl, &ns, ops) != 4) continue;
    smemu_kernel *k;
    uint32_t n = 1;
    void *args[] = {&out, &n};
    const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    smemu_bank_counts bc;
    if (smemu_module_get_kernel(m, name, &k) != SMEMU_OK || smemu_launch(c, k, g, b, 0, args) != SMEMU_OK ||
        smemu_last_bank_counts(c, &bc) != SMEMU_OK)
      fail_msg("%s: %s", name, smemu_errmsg(c));
    kernels++;
    if (bc.requests[0] != (uint64_t)nl || bc.requests[1] != (uint64_t)ns) {
      if (known(name)) known_bad++;
      else bad++;
      print_error("%s: smemu %llu load and %llu store requests, ptxas made %d and %d (%s)\n", name,
                  (unsigned long long)bc.requests[0], (unsigned long long)bc.requests[1], nl, ns, ops);
    }
  }
  fclose(f);
  smemu_destroy(c);
  print_message("test_merge_hw: %d kernels, %d differ from ptxas, %d more listed as known differences\n", kernels,
                bad, known_bad);
  assert_true(kernels >= 25);
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_merges_match_ptxas)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
