/* test_sched_budget.c: the launch's instruction budget (sched.c), which
 * the workers count in batches: with two workers and a budget far above
 * the batch size (where they add their counts every 64K instructions), an
 * endless loop still stops with SMEMU_ERR_LIMIT just past the budget, and
 * a launch that needs fewer instructions than its budget runs to the end
 * with its exact count. Expected counts by arithmetic: the loop kernel
 * runs 3 instructions before the loop, 3 per iteration and a ret. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

static const char ptx[] = PTX_HEAD ".visible .entry loop(.param .u32 n)\n"
                                   "{\n"
                                   "  .reg .b32 %r<3>;\n  .reg .pred %p;\n"
                                   "  ld.param.u32 %r1, [n];\n"
                                   "  mov.u32 %r0, 0;\n"
                                   "  setp.eq.u32 %p, %r1, 0;\n" /* n = 0: forever */
                                   "LOOP:\n"
                                   "  add.u32 %r0, %r0, 1;\n"
                                   "  setp.ne.u32 %p, %r0, %r1;\n"
                                   "  @%p bra LOOP;\n"
                                   "  ret;\n"
                                   "}\n";

enum { BLOCKS = 64, WARPS = 2 };

static smemu_ctx *ctx_with(uint64_t budget) {
  smemu_options o;
  smemu_ctx *ctx = NULL;
  memset(&o, 0, sizeof o);
  o.threads = 2;
  o.max_warp_instructions = budget;
  assert_int_equal(smemu_create(&o, &ctx), SMEMU_OK);
  return ctx;
}

/* budget 40M (past the 16M within which every round counts): an endless
 * loop on 64 blocks of 2 warps stops within a few rounds of it */
static void test_endless_loop_stops(void **state) {
  (void)state;
  const uint64_t budget = 40000000;
  smemu_ctx *ctx = ctx_with(budget);
  uint32_t n = 0;
  void *args[] = {&n};
  const uint32_t g[3] = {BLOCKS, 1, 1}, b[3] = {32 * WARPS, 1, 1};
  char err[2048] = "";
  assert_int_equal(ptxrun_in(ctx, ptx, "loop", g, b, 0, args, err, sizeof err), SMEMU_ERR_LIMIT);
  const char *p = strstr(err, "the launch ran ");
  assert_non_null(p);
  uint64_t ran = strtoull(p + strlen("the launch ran "), NULL, 10);
  /* past the budget, by less than a round of each worker (a warp's quantum
   * is 64K instructions) */
  if (ran <= budget || ran > budget + 4 * 65536) fail_msg("stopped after %" PRIu64 " warp instructions", ran);
  smemu_destroy(ctx);
}

/* the same budget and a loop of 100000 iterations: 64 * 2 warps run
 * 3 + 3 * 100000 + 1 instructions each, 38.4M in all, under the budget */
static void test_finite_loop_counts(void **state) {
  (void)state;
  smemu_ctx *ctx = ctx_with(40000000);
  uint32_t n = 100000;
  void *args[] = {&n};
  const uint32_t g[3] = {BLOCKS, 1, 1}, b[3] = {32 * WARPS, 1, 1};
  char err[2048] = "";
  int rc = ptxrun_in(ctx, ptx, "loop", g, b, 0, args, err, sizeof err);
  if (rc) fail_msg("%s", err);
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  assert_non_null(st);
  assert_true(st->warp_instructions == (uint64_t)BLOCKS * WARPS * (3 + 3 * 100000 + 1));
  smemu_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_endless_loop_stops),
                                     cmocka_unit_test(test_finite_loop_counts)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
