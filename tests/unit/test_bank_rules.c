/* test_bank_rules.c: rules of the bank model and its report that `make
 * mutants` found untested, each checked on a case whose answer follows
 * from the rule:
 *  - the worst bank of a request is its busiest one, the lowest-numbered
 *    of equally busy banks (so reports do not depend on lane order);
 *  - 1.x reads (Programming Guide 5.0, F.3.3.2): per pass a bank serves
 *    one word; the broadcast word's bank serves no second word in the
 *    same pass;
 *  - the report shows the worst instance of a line with a 2-way conflict,
 *    and of several equally bad instances the first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/arch.h"
#include "model/banks.h"
#include "ptxrun.h"

static bank_result model(const char *arch, uint32_t mask, const uint32_t addr[32], int bytes) {
  const arch_profile *a = arch_find(arch);
  assert_non_null(a);
  bank_result r;
  bank_model(a, 4, BANK_LD, mask, addr, bytes, &r);
  return r;
}

/* Lanes 0, 1 read words 3 and 35 (bank 3), lanes 2, 3 words 5 and 37
 * (bank 5): two banks with 2 words each; the worst is bank 3. In the other
 * order of lanes, still bank 3. */
static void test_worst_bank_ties(void **state) {
  (void)state;
  uint32_t addr[32] = {3 * 4, 35 * 4, 5 * 4, 37 * 4};
  bank_result r = model("sm_90", 0xF, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(r.worst_bank, 3);
  assert_int_equal(r.worst_lanes, 0x3);
  uint32_t swapped[32] = {5 * 4, 37 * 4, 3 * 4, 35 * 4};
  r = model("sm_90", 0xF, swapped, 4);
  assert_int_equal(r.worst_bank, 3);
  assert_int_equal(r.worst_lanes, 0xC);
}

/* 1.x, one half-warp: lanes 1 and 2 read word 0, lane 0 reads word 16
 * (both bank 0), lane 3 reads word 1 (bank 1). Pass 1 broadcasts word 0
 * (2 lanes) and bank 1 serves lane 3; word 16 needs pass 2. */
static void test_cc1_broadcast_bank_serves_one_word(void **state) {
  (void)state;
  uint32_t addr[32] = {16 * 4, 0, 0, 1 * 4};
  bank_result r = model("sm_12", 0xF, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(bank_conflicts(&r), 1);
}

/* The text report of `kernel` of ptx (sm_90, banks on). */
static char *report(const char *ptx, const char *kernel) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = SMEMU_ANALYZE_BANKS;
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *k;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  if (smemu_module_load_data(c, ptx, strlen(ptx), "rules.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, kernel, &k) != SMEMU_OK || smemu_launch(c, k, g, b, 0, NULL) != SMEMU_OK)
    fail_msg("%s: %s", kernel, smemu_errmsg(c));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_non_null(f);
  smemu_write_bank_report(c, f, 10);
  fclose(f);
  smemu_destroy(c);
  return text;
}

static const char *const kernels = PTX_HEAD
    ".shared .align 16 .b8 sh[2048];\n"
    /* lane t reads word 2t: lanes t and t+16 share bank 2t % 32 */
    ".visible .entry two_way()\n{\n  .reg .b32 %r<8>;\n  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 3;\n"
    "  mov.u32 %r3, sh;\n  add.u32 %r4, %r3, %r2;\n  ld.shared.u32 %r5, [%r4];\n  ret;\n}\n"
    /* one ld.shared.u64 run twice: lane t at 16t, then 16t + 8. Each time
     * lanes t and t+8 of a half-warp share two banks: 2-way, first at
     * banks 0-1, then at banks 2-3 */
    ".visible .entry equal_twice()\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 4;\n  mov.u32 %r3, sh;\n  add.u32 %r4, %r3, %r2;\n"
    "  mov.u32 %r6, 0;\nLOOP:\n  ld.shared.u64 %rd1, [%r4];\n  add.u32 %r4, %r4, 8;\n  add.u32 %r6, %r6, 1;\n"
    "  setp.lt.u32 %p1, %r6, 2;\n  @%p1 bra LOOP;\n  ret;\n}\n";

static void test_report_two_way(void **state) {
  (void)state;
  char *t = report(kernels, "two_way");
  if (!strstr(t, "worst: lanes 0, 16 hit bank 0 at words 0, 32 of sh: 2-way")) fail_msg("report:\n%s", t);
  free(t);
}

static void test_report_first_of_equals(void **state) {
  (void)state;
  char *t = report(kernels, "equal_twice");
  if (!strstr(t, "requests 2  wavefronts 8  conflicts 4") || !strstr(t, "worst: lanes 0, 8 hit bank 0 at words 0, 32"))
    fail_msg("report:\n%s", t);
  free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_worst_bank_ties),
      cmocka_unit_test(test_cc1_broadcast_bank_serves_one_word),
      cmocka_unit_test(test_report_two_way),
      cmocka_unit_test(test_report_first_of_equals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
