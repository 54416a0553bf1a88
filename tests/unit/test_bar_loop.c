/* test_bar_loop.c: loops of block barriers, the scheduler's hottest path
 * (a barrier every few instructions, as NVIDIA's scan sample has): a
 * 32-warp block exchanging values through shared memory between two
 * bar.sync per iteration, a block whose upper half exited with bar.red in
 * the loop, and named barriers with bar.arrive producers. Each runs on the
 * interpreter and on the compiled tier (where a region ends with the
 * barrier or the loop's branch), in the fixed order and in seeded random
 * orders; the results are checked against the same recurrences computed
 * here, and the two tiers' instruction counts against each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smemu.h"

#include "tiers.h"

#define ITERS 20

/* The kernels' common parts: the head (%rd1 = out, %r1 = %tid.x), the
 * start of the exchange (s[t] = 3t + 1, %r6 = &s[t], %r4 = s, %r10 = 0),
 * one exchange step from label L (%r14 = s[t] + s[(t + 1 + it) % %r2]),
 * the loop's end (%r10 < ITERS) and %rd3 = &out[global thread]. */
#define HEAD(SHARED)                             \
  ".version 8.0\n.target sm_90\n.address_size 64\n" \
  ".visible .entry k(.param .u64 po)\n"          \
  "{\n"                                          \
  "  .reg .pred %p<4>;\n"                        \
  "  .reg .b32 %r<32>;\n"                        \
  "  .reg .b64 %rd<8>;\n"                        \
  "  .shared .align 4 .b8 " SHARED "[4096];\n"   \
  "  ld.param.u64 %rd1, [po];\n"                 \
  "  cvta.to.global.u64 %rd1, %rd1;\n"           \
  "  mov.u32 %r1, %tid.x;\n"
#define EXCHANGE_START               \
  "  mov.u32 %r4, s;\n"              \
  "  shl.b32 %r5, %r1, 2;\n"         \
  "  add.s32 %r6, %r4, %r5;\n"       \
  "  mad.lo.s32 %r7, %r1, 3, 1;\n"   \
  "  st.shared.u32 [%r6], %r7;\n"    \
  "  mov.u32 %r10, 0;\n"
#define EXCHANGE_STEP                  \
  "L:\n"                               \
  "  bar.sync 0;\n"                    \
  "  add.s32 %r11, %r1, %r10;\n"       \
  "  add.s32 %r11, %r11, 1;\n"         \
  "  rem.u32 %r11, %r11, %r2;\n"       \
  "  shl.b32 %r11, %r11, 2;\n"         \
  "  add.s32 %r11, %r4, %r11;\n"       \
  "  ld.shared.u32 %r12, [%r6];\n"     \
  "  ld.shared.u32 %r13, [%r11];\n"    \
  "  add.s32 %r14, %r12, %r13;\n"
#define LOOP_END(LABEL, COUNTER)             \
  "  add.s32 " COUNTER ", " COUNTER ", 1;\n" \
  "  setp.lt.u32 %p1, " COUNTER ", 20;\n"    \
  "  @%p1 bra " LABEL ";\n"
#define OUT_ADDR                        \
  "  mov.u32 %r21, %ctaid.x;\n"         \
  "  mov.u32 %r22, %ntid.x;\n"          \
  "  mad.lo.s32 %r23, %r21, %r22, %r1;\n" \
  "  mul.wide.u32 %rd2, %r23, 4;\n"     \
  "  add.s64 %rd3, %rd1, %rd2;\n"

/* s[t] = 3t + 1; ITERS times: bar.sync; v = s[t] + s[(t + 1 + it) % n];
 * bar.sync; s[t] = v. out[block * n + t] = s[t]. */
static const char exchange_ptx[] = HEAD("s")
    "  mov.u32 %r2, %ntid.x;\n"
    EXCHANGE_START
    EXCHANGE_STEP
    "  bar.sync 0;\n"
    "  st.shared.u32 [%r6], %r14;\n"
    LOOP_END("L", "%r10")
    OUT_ADDR
    "  st.global.u32 [%rd3], %r14;\n"
    "  ret;\n"
    "}\n";

/* Threads from n/2 on write 0xdead0000 + t and exit; the others run
 * s[t] = 3t + 1; ITERS times: bar.sync 0; v = s[t] + s[(t + 1 + it) % h];
 * c = bar.red.popc 1 of (v & 1) (it waits for the live threads alone:
 * those that exited count as arrived); acc += c; s[t] = v. Then
 * out = s[t] + 7 * acc. */
static const char exited_ptx[] = HEAD("s")
    "  mov.u32 %r2, %ntid.x;\n"
    "  shr.u32 %r2, %r2, 1;\n"
    OUT_ADDR
    "  setp.lt.u32 %p3, %r1, %r2;\n"
    "  @%p3 bra LIVE;\n"
    "  add.s32 %r20, %r1, -559087616;\n"
    "  st.global.u32 [%rd3], %r20;\n"
    "  ret;\n"
    "LIVE:\n"
    EXCHANGE_START
    "  mov.u32 %r16, 0;\n"
    EXCHANGE_STEP
    "  and.b32 %r15, %r14, 1;\n"
    "  setp.ne.u32 %p2, %r15, 0;\n"
    "  bar.red.popc.u32 %r17, 1, %p2;\n"
    "  add.s32 %r16, %r16, %r17;\n"
    "  st.shared.u32 [%r6], %r14;\n"
    LOOP_END("L", "%r10")
    "  mad.lo.s32 %r18, %r16, 7, %r14;\n"
    "  st.global.u32 [%rd3], %r18;\n"
    "  ret;\n"
    "}\n";

/* The first half of the warps produce, the second consume, ITERS rounds:
 * a producer writes slot[t] = 1000 r + t, bar.arrive 1, n; bar.sync 2, n;
 * a consumer bar.sync 1, n; acc += slot[t - n/2]; bar.arrive 2, n.
 * Producers write ITERS, consumers acc. */
static const char named_ptx[] = HEAD("slot")
    "  mov.u32 %r2, %ntid.x;\n"
    "  shr.u32 %r9, %r2, 1;\n"
    OUT_ADDR
    "  mov.u32 %r4, slot;\n"
    "  mov.u32 %r3, 0;\n"
    "  mov.u32 %r16, 0;\n"
    "  setp.lt.u32 %p3, %r1, %r9;\n"
    "  @!%p3 bra CONS;\n"
    "  shl.b32 %r5, %r1, 2;\n"
    "  add.s32 %r6, %r4, %r5;\n"
    "PROD:\n"
    "  mad.lo.s32 %r7, %r3, 1000, %r1;\n"
    "  st.shared.u32 [%r6], %r7;\n"
    "  bar.arrive 1, %r2;\n"
    "  bar.sync 2, %r2;\n"
    LOOP_END("PROD", "%r3")
    "  st.global.u32 [%rd3], %r3;\n"
    "  ret;\n"
    "CONS:\n"
    "  sub.s32 %r5, %r1, %r9;\n"
    "  shl.b32 %r5, %r5, 2;\n"
    "  add.s32 %r6, %r4, %r5;\n"
    "CLOOP:\n"
    "  bar.sync 1, %r2;\n"
    "  ld.shared.u32 %r8, [%r6];\n"
    "  add.s32 %r16, %r16, %r8;\n"
    "  bar.arrive 2, %r2;\n"
    LOOP_END("CLOOP", "%r3")
    "  st.global.u32 [%rd3], %r16;\n"
    "  ret;\n"
    "}\n";

/* The recurrences, here. */
static void want_exchange(uint32_t n, uint32_t *out) {
  uint32_t *s = malloc(n * 4), *v = malloc(n * 4);
  assert_non_null(s);
  assert_non_null(v);
  for (uint32_t t = 0; t < n; t++) s[t] = 3 * t + 1;
  for (uint32_t it = 0; it < ITERS; it++) {
    for (uint32_t t = 0; t < n; t++) v[t] = s[t] + s[(t + 1 + it) % n];
    memcpy(s, v, n * 4);
  }
  memcpy(out, s, n * 4);
  free(s);
  free(v);
}

static void want_exited(uint32_t n, uint32_t *out) {
  uint32_t h = n / 2, acc = 0;
  uint32_t *s = malloc(h * 4), *v = malloc(h * 4);
  assert_non_null(s);
  assert_non_null(v);
  for (uint32_t t = 0; t < h; t++) s[t] = 3 * t + 1;
  for (uint32_t it = 0; it < ITERS; it++) {
    uint32_t c = 0;
    for (uint32_t t = 0; t < h; t++) {
      v[t] = s[t] + s[(t + 1 + it) % h];
      c += v[t] & 1;
    }
    acc += c;
    memcpy(s, v, h * 4);
  }
  for (uint32_t t = 0; t < n; t++) out[t] = t < h ? s[t] + 7 * acc : 0xdead0000u + t;
  free(s);
  free(v);
}

static void want_named(uint32_t n, uint32_t *out) {
  for (uint32_t t = 0; t < n; t++)
    out[t] = t < n / 2 ? ITERS : 1000u * ITERS * (ITERS - 1) / 2 + ITERS * (t - n / 2);
}

/* 1 when this build has the compiled tier (mk/jit.mk defines
 * SMEMU_HAVE_JIT where LLVM was found). */
static int jit_built(void) {
#ifdef SMEMU_HAVE_JIT
  return 1;
#else
  return 0;
#endif
}

/* Runs ptx on grid x block threads on both tiers, in the fixed order and
 * in two random orders, and checks out (block by block) against want. */
static void check(const char *ptx, uint32_t grid, uint32_t block, void (*want)(uint32_t, uint32_t *)) {
  uint32_t *w = malloc(block * 4);
  assert_non_null(w);
  want(block, w);
  static const struct {
    int schedule;
    uint64_t seed;
  } orders[] = {{SMEMU_SCHEDULE_FIXED, 0}, {SMEMU_SCHEDULE_RANDOM, 1}, {SMEMU_SCHEDULE_RANDOM, 77}};
  for (size_t k = 0; k < sizeof orders / sizeof *orders; k++) {
    tiers_outcome o[2];
    static const int tiers[2] = {SMEMU_TIER_INTERP, SMEMU_TIER_JIT};
    for (int ti = 0; ti < 2; ti++) {
      tiers_launch L;
      memset(&L, 0, sizeof L);
      L.grid[0] = grid, L.grid[1] = L.grid[2] = 1;
      L.block[0] = block, L.block[1] = L.block[2] = 1;
      L.bytes = (size_t)grid * block * 4;
      L.seed = 5;
      L.schedule = orders[k].schedule;
      L.sched_seed = orders[k].seed;
      L.max_warp_insns = 100000000;
      memset(&o[ti], 0, sizeof o[ti]);
      assert_int_equal(tiers_run(ptx, NULL, 0, tiers[ti], &L, &o[ti]), 0);
      if (o[ti].status != SMEMU_OK) fprintf(stderr, "%s: %s\n", o[ti].tier, o[ti].msg);
      assert_int_equal(o[ti].status, SMEMU_OK);
      assert_int_equal(o[ti].nbufs, 1);
      const uint32_t *out = (const uint32_t *)o[ti].buf[0];
      for (uint32_t b = 0; b < grid; b++)
        for (uint32_t t = 0; t < block; t++) {
          if (out[b * block + t] != w[t])
            fprintf(stderr, "%s order %zu: block %u thread %u: %u, want %u\n", o[ti].tier, k, b, t,
                    out[b * block + t], w[t]);
          assert_int_equal(out[b * block + t], w[t]);
        }
    }
    /* (a build without LLVM interprets both) */
    if (jit_built()) assert_string_equal(o[1].tier, "jit");
    /* the same instructions ran on both tiers */
    assert_int_equal(o[0].winsn, o[1].winsn);
    assert_int_equal(o[0].tinsn, o[1].tinsn);
    tiers_free(&o[0]);
    tiers_free(&o[1]);
  }
  free(w);
}

static void test_exchange_32_warps(void **state) {
  (void)state;
  check(exchange_ptx, 2, 1024, want_exchange);
}

static void test_exchange_partial_warp(void **state) {
  (void)state;
  /* 7 warps, the last of 16 threads */
  check(exchange_ptx, 3, 208, want_exchange);
}

static void test_exited_half_bar_red(void **state) {
  (void)state;
  check(exited_ptx, 2, 512, want_exited);
}

static void test_named_producers(void **state) {
  (void)state;
  check(named_ptx, 2, 256, want_named);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exchange_32_warps),
      cmocka_unit_test(test_exchange_partial_warp),
      cmocka_unit_test(test_exited_half_bar_red),
      cmocka_unit_test(test_named_producers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
