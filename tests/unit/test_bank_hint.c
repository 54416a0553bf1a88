/* test_bank_hint.c: the bank report's advice (src/report/bank_hint.c) on
 * patterns whose conflicts follow from arithmetic, in the geometries the
 * profiles have (32 banks of 4 bytes; 16 banks and half-warp requests on
 * 1.x; Kepler's 8-byte banks). tests/bank_hints.sh checks the same advice
 * through whole reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "report/bank_hint.h"

/* Lanes of `active` at base + lane * stride bytes, `size` bytes each. */
static bank_pattern strided(uint32_t active, uint32_t stride, uint32_t size, int banks, int bank_bytes, int lanes) {
  bank_pattern p;
  memset(&p, 0, sizeof p);
  p.active = active;
  p.size = size;
  p.banks = banks;
  p.bank_bytes = bank_bytes;
  p.request_lanes = lanes;
  for (uint32_t l = 0; l < 32; l++) p.addr[l] = l * stride;
  return p;
}

static void expect(const bank_pattern *p, uint32_t degree, const char *has, const char *hasnt) {
  char buf[2048];
  assert_int_equal(bank_hint_degree(p), degree);
  int n = bank_hint(p, buf, sizeof buf);
  if (!has) {
    if (n || buf[0]) fail_msg("advice where none fits: %s", buf);
    return;
  }
  if (!n || !strstr(buf, has)) fail_msg("no '%s' in: %s", has, buf);
  if (hasnt && strstr(buf, hasnt)) fail_msg("'%s' in: %s", hasnt, buf);
}

static void test_geometries(void **state) {
  (void)state;
  /* char tile[32][32] read by column: bytes 32l, words 8l, banks 0, 8, 16,
   * 24 with 8 words each: 8-way; a one-word pad (4 chars) makes the word
   * stride 9 (odd): none */
  bank_pattern p = strided(~0u, 32, 1, 32, 4, 32);
  expect(&p, 8, "[..][36] instead of [..][32]", "float");
  /* short s[2l]: 4-byte stride, one word per lane: no conflict, no advice */
  p = strided(~0u, 4, 2, 32, 4, 32);
  expect(&p, 1, NULL, NULL);
  /* 1.x: 16 banks, half-warp requests; stride 16 words: the 16 lanes of a
   * half-warp on bank 0: 16-way; stride 17: none */
  p = strided(~0u, 64, 4, 16, 4, 16);
  expect(&p, 16, "[..][17] instead of [..][16]", NULL);
  /* Kepler 8-byte banks: 32-bit words 2l are 8 bytes apart, bank l: no
   * conflict, no advice (in 4-byte banks it is 2-way) */
  p = strided(~0u, 8, 4, 32, 8, 32);
  expect(&p, 1, NULL, NULL);
  p = strided(~0u, 8, 4, 32, 4, 32);
  expect(&p, 2, "one 8-byte access (float2, int2)", NULL);
  /* half a warp active, stride 32 words: 16-way, padding fixes it */
  p = strided(0x0000ffffu, 128, 4, 32, 4, 32);
  expect(&p, 16, "[..][33] instead of [..][32]", NULL);
  /* lanes in reverse order (stride -32 words, a column read bottom-up):
   * 32-way, and padding fixes it as for the downward read */
  for (uint32_t l = 0; l < 32; l++) p.addr[l] = (31 - l) * 128;
  p.active = ~0u;
  expect(&p, 32, "[..][33] instead of [..][32]", NULL);
  /* no constant stride: lane l at word 32l + (l*l % 7), bank l*l % 7,
   * residue 1 for l = 1, 6, 8, 13, 15, 20, 22, 27, 29: 9-way, no advice */
  for (uint32_t l = 0; l < 32; l++) p.addr[l] = 4 * (32 * l + l * l % 7);
  expect(&p, 9, NULL, NULL);
  /* misaligned 4-byte accesses: no element structure, no advice */
  p = strided(~0u, 130, 4, 32, 4, 32);
  p.addr[0] = 2;
  assert_int_equal(bank_hint(&p, (char[64]){0}, 64), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_geometries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
