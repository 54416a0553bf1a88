/* test_bank_cache.c: the bank model's pattern cache (model/bankcache.h)
 * gives exactly the uncached model's figures. The expected values are
 * bank_model's own, called without the cache on the same lanes:
 *  - random affine-by-halves patterns (strides, gaps, bases, masks, sizes,
 *    loads and stores) on every architecture profile and both Kepler bank
 *    modes, each fed again at translated bases so that the cache answers;
 *  - cases where a narrower key would be wrong: on 3.x in 4-byte mode lanes
 *    128 bytes apart pair up inside a 256-byte segment, so a warp at stride
 *    128 takes 16 passes from base 0 and 17 from base 136 (both 0 modulo 8,
 *    the key of the one-entry cache before); the mask, the size, the gap
 *    and the stride each change the figures of otherwise equal keys; on
 *    1.x a move by 48 bytes changes the passes (3, then 2);
 *  - bank_affine recognises exactly the affine lanes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/arch.h"
#include "model/bankcache.h"
#include "model/banks.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 16);
}

static void fill(uint32_t addr[32], uint32_t mask, uint32_t base, uint32_t stride, uint32_t gap) {
  for (int l = 0; l < 32; l++)
    addr[l] = (mask >> l & 1) ? base + (uint32_t)(l & 15) * stride + (uint32_t)(l >> 4) * gap : 0;
}

/* cached and uncached agree; returns whether the cache answered */
static int check_one(bank_cache *c, const arch_profile *a, int mode, int op, uint32_t mask, const uint32_t addr[32],
                     int bytes) {
  bank_result want, got;
  int hit = -1;
  bank_model(a, mode, op, mask, addr, bytes, &want);
  bank_model_cached(c, a, mode, op, mask, addr, bytes, &got, &hit);
  if (got.requests != want.requests || got.wavefronts != want.wavefronts || got.ideal != want.ideal)
    fail_msg("%s mode %d op %d mask %08x bytes %d lane0 %u lane1 %u lane16 %u: cached %u/%u/%u, model %u/%u/%u",
             a->name, mode, op, mask, bytes, addr[0], addr[1], addr[16], got.requests, got.wavefronts, got.ideal,
             want.requests, want.wavefronts, want.ideal);
  assert_true(hit == 0 || hit == 1);
  return hit;
}

static const uint32_t MASKS[] = {0xffffffffu, 0x0000ffffu, 0xffff0000u, 0x000000ffu, 0x0000000fu,
                                 0x00000003u, 0x00ff00ffu, 0x80000000u, 0x00010001u, 0x7fffffffu};
static const int SIZES[] = {1, 2, 4, 8, 16};

static void test_random_affine(void **state) {
  (void)state;
  int hits = 0, total = 0;
  for (int ai = 0; ai < arch_count(); ai++) {
    const arch_profile *a = arch_at(ai);
    for (int mode = 4; mode <= 8; mode += 4)
      for (int op = BANK_LD; op <= BANK_ST; op++) {
        bank_cache c;
        memset(&c, 0, sizeof c);
        for (int t = 0; t < 120; t++) {
          int bytes = SIZES[rnd() % 5];
          uint32_t mask = MASKS[rnd() % 10];
          /* strides and gaps in units of the size, some of them odd
           * multiples of 128 and 256 bytes, some negative */
          static const int32_t ST[] = {0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, -1, -4, 128 / 4, 256 / 4};
          uint32_t stride = (uint32_t)(ST[rnd() % 15] * bytes);
          uint32_t gap = rnd() % 3 == 0 ? 16 * stride : (uint32_t)bytes * (rnd() % 96);
          uint32_t base = 0x10000u + (uint32_t)bytes * (rnd() % 512);
          uint32_t addr[32];
          fill(addr, mask, base, stride, gap);
          hits += check_one(&c, a, mode, op, mask, addr, bytes);
          /* the same lanes moved by multiples of 256 bytes (cache hits), and
           * by other multiples of the size (new keys) */
          for (int k = 1; k <= 3; k++) {
            fill(addr, mask, base + 256u * (uint32_t)k * (1 + rnd() % 40), stride, gap);
            hits += check_one(&c, a, mode, op, mask, addr, bytes);
            fill(addr, mask, base + (uint32_t)bytes * (1 + rnd() % 63), stride, gap);
            hits += check_one(&c, a, mode, op, mask, addr, bytes);
          }
          total += 7;
        }
      }
  }
  /* the cache answered the translated repeats (not only misses) */
  assert_true(hits > total / 4);
}

/* 3.x, 4-byte mode: a warp at stride 128 bytes (every lane in bank 0);
 * words i and i + 32 of a 256-byte segment are one unit. From base 0 the 32
 * lanes fill 16 segments (16 passes); from base 136 lane 0 is alone in its
 * segment and so is lane 31: 17. */
static void test_kepler_segments(void **state) {
  (void)state;
  const arch_profile *a = arch_find("sm_35");
  assert_non_null(a);
  uint32_t x[32], y[32];
  fill(x, 0xffffffffu, 0, 128, 16 * 128);
  fill(y, 0xffffffffu, 136, 128, 16 * 128);
  bank_result rx, ry;
  bank_model(a, 4, BANK_LD, 0xffffffffu, x, 4, &rx);
  bank_model(a, 4, BANK_LD, 0xffffffffu, y, 4, &ry);
  assert_int_equal(rx.wavefronts, 16);
  assert_int_equal(ry.wavefronts, 17);
  bank_cache c;
  memset(&c, 0, sizeof c);
  assert_int_equal(check_one(&c, a, 4, BANK_LD, 0xffffffffu, x, 4), 0);
  assert_int_equal(check_one(&c, a, 4, BANK_LD, 0xffffffffu, y, 4), 0); /* not a hit: 136 % 256 */
  fill(y, 0xffffffffu, 136 + 256 * 7, 128, 16 * 128);
  assert_int_equal(check_one(&c, a, 4, BANK_LD, 0xffffffffu, y, 4), 1);
  fill(x, 0xffffffffu, 512, 128, 16 * 128);
  assert_int_equal(check_one(&c, a, 4, BANK_LD, 0xffffffffu, x, 4), 1);
}

/* 5.x+: moving the lanes by a multiple of 4 bytes rotates the banks, so a
 * padded tile's rows (33 words: bases 132 * row) all share one entry; on
 * 1.x and 3.x in 4-byte mode only moves by 256 bytes do. */
static void test_periods(void **state) {
  (void)state;
  const arch_profile *h = arch_find("sm_90"), *k = arch_find("sm_35"), *t = arch_find("sm_13");
  assert_int_equal(bank_cache_period(h, 4, 4), 4);
  assert_int_equal(bank_cache_period(h, 4, 8), 8);
  assert_int_equal(bank_cache_period(h, 4, 16), 16);
  assert_int_equal(bank_cache_period(h, 4, 64), 16);
  assert_int_equal(bank_cache_period(k, 4, 4), 256);
  assert_int_equal(bank_cache_period(k, 8, 4), 8);
  assert_int_equal(bank_cache_period(t, 4, 4), 256);
  bank_cache c;
  memset(&c, 0, sizeof c);
  uint32_t addr[32];
  int hits = 0;
  for (uint32_t row = 0; row < 32; row++) {
    fill(addr, 0xffffffffu, 132 * row, 132, 16 * 132); /* a column of the tile */
    hits += check_one(&c, h, 4, BANK_LD, 0xffffffffu, addr, 4);
  }
  assert_int_equal(hits, 31);
}

/* 1.x: the same half-warp moved by 48 bytes (0 modulo 8, so the key of
 * the one-entry cache before) takes 3 passes, then 2: the broadcast word
 * is chosen by bank number, so rotating the banks changes the greedy
 * choice. The period on 1.x is therefore 256, not a bank width. */
static void test_tesla_rotation(void **state) {
  (void)state;
  const arch_profile *t = arch_find("sm_13");
  static const uint32_t x16[16] = {32, 0, 8, 44, 68, 64, 24, 84, 24, 76, 64, 68, 92, 40, 84, 20};
  uint32_t x[32] = {0}, y[32] = {0};
  for (int l = 0; l < 16; l++) {
    x[l] = x16[l];
    y[l] = x16[l] + 48;
  }
  bank_result rx, ry;
  bank_model(t, 4, BANK_LD, 0xffffu, x, 4, &rx);
  bank_model(t, 4, BANK_LD, 0xffffu, y, 4, &ry);
  assert_int_equal(rx.wavefronts, 3);
  assert_int_equal(ry.wavefronts, 2);
  assert_int_equal(bank_cache_period(t, 4, 4), 256);
}

/* Keys that differ in one part only, each with other figures on sm_90. */
static void test_key_parts(void **state) {
  (void)state;
  const arch_profile *a = arch_find("sm_90");
  bank_cache c;
  memset(&c, 0, sizeof c);
  uint32_t addr[32];
  bank_result r;
  int hit;
  /* stride 8 bytes, 4-byte lanes: 2-way; the same addresses with 8-byte
   * lanes: half-warps of 128 bytes, 1 pass each */
  fill(addr, 0xffffffffu, 0, 8, 128);
  bank_model_cached(&c, a, 4, BANK_LD, 0xffffffffu, addr, 4, &r, &hit);
  assert_int_equal(r.wavefronts, 2);
  bank_model_cached(&c, a, 4, BANK_LD, 0xffffffffu, addr, 8, &r, &hit);
  assert_int_equal(hit, 0);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(r.ideal, 2);
  /* the lower half only: 1 wavefront */
  bank_model_cached(&c, a, 4, BANK_LD, 0x0000ffffu, addr, 4, &r, &hit);
  assert_int_equal(hit, 0);
  assert_int_equal(r.wavefronts, 1);
  /* stride 4 with the upper half on the lower's words (gap 0): broadcast
   * pairs, 1; gap 4 bytes: lanes 15 and 16 ... the upper half one word on:
   * still 1; gap 128: words 32 apart, 2 */
  fill(addr, 0xffffffffu, 0, 4, 0);
  bank_model_cached(&c, a, 4, BANK_LD, 0xffffffffu, addr, 4, &r, &hit);
  assert_int_equal(r.wavefronts, 1);
  fill(addr, 0xffffffffu, 0, 4, 128);
  bank_model_cached(&c, a, 4, BANK_LD, 0xffffffffu, addr, 4, &r, &hit);
  assert_int_equal(hit, 0);
  assert_int_equal(r.wavefronts, 2);
  /* stores of the broadcast: one write per word on 5.x+ (R1): 1 */
  fill(addr, 0xffffffffu, 64, 0, 0);
  bank_model_cached(&c, a, 4, BANK_LD, 0xffffffffu, addr, 4, &r, &hit);
  assert_int_equal(r.wavefronts, 1);
  /* an entry is replaced after BANK_CACHE_WAYS others: still exact */
  for (uint32_t s = 1; s <= 2 * BANK_CACHE_WAYS; s++) {
    fill(addr, 0xffffffffu, 0, 4 * s, 64 * s);
    check_one(&c, a, 4, BANK_ST, 0xffffffffu, addr, 4);
  }
}

/* bank_affine: the lanes it accepts are at base + (l%16)*stride +
 * (l/16)*gap, and one lane off refuses. */
static void test_affine_recognition(void **state) {
  (void)state;
  uint32_t addr[32], b, s, g;
  for (int i = 0; i < 10; i++) {
    uint32_t mask = MASKS[i];
    fill(addr, mask, 4096, 12, 1000);
    assert_true(bank_affine(mask, addr, &b, &s, &g));
    int f = __builtin_ctz(mask);
    if (f < 31 && (mask >> (f + 1) & 1)) assert_int_equal(s, 12);
    for (int l = 0; l < 32; l++)
      if (mask >> l & 1) {
        uint32_t save = addr[l];
        addr[l] += 4;
        /* one or two active lanes (adjacent, or one per half) are affine
         * wherever they are */
        if (__builtin_popcount(mask) > 2) assert_false(bank_affine(mask, addr, &b, &s, &g));
        addr[l] = save;
      }
  }
  assert_false(bank_affine(0, addr, &b, &s, &g));
  /* the two lanes of 0x00010001 are always affine (gap = their distance) */
  fill(addr, 0x00010001u, 0, 0, 0);
  addr[16] = 999;
  assert_true(bank_affine(0x00010001u, addr, &b, &s, &g));
  assert_int_equal(g, 999);
  /* lanes 0 and 2 (not adjacent): stride 0, so they must share an address */
  fill(addr, 0x5u, 40, 0, 0);
  assert_true(bank_affine(0x5u, addr, &b, &s, &g));
  addr[2] = 44;
  assert_false(bank_affine(0x5u, addr, &b, &s, &g));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_affine),
      cmocka_unit_test(test_kepler_segments),
      cmocka_unit_test(test_periods),
      cmocka_unit_test(test_tesla_rotation),
      cmocka_unit_test(test_key_parts),
      cmocka_unit_test(test_affine_recognition),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
