/* test_pool.c: where smemu_malloc places allocations (src/api/pool.c), as
 * cudaMalloc did on an H100 (tests/hw/sanitizer/recorded: 1000 then 3
 * bytes at +0 and +0x400; three of 128 at +0, +0x200, +0x400): 512-byte
 * units, first fit, freed ranges used again, no overlap, large ones apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smemu.h"

static smemu_ctx *ctx(void) {
  smemu_options o = {0};
  smemu_ctx *c = NULL;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  return c;
}

static uintptr_t get(smemu_ctx *c, size_t n) {
  void *p = NULL;
  assert_int_equal(smemu_malloc(c, &p, n), SMEMU_OK);
  assert_int_equal((uintptr_t)p % 512, 0);
  return (uintptr_t)p;
}

static void test_neighbours(void **state) {
  (void)state;
  smemu_ctx *c = ctx();
  uintptr_t a = get(c, 1000), b = get(c, 3);
  assert_int_equal(b - a, 0x400);
  uintptr_t x = get(c, 128), y = get(c, 128), z = get(c, 128);
  assert_int_equal(x - b, 0x200);
  assert_int_equal(y - x, 0x200);
  assert_int_equal(z - y, 0x200);
  /* a freed range is used again, first fit */
  assert_int_equal(smemu_free(c, (void *)y), SMEMU_OK);
  assert_int_equal(get(c, 512), y);
  assert_int_equal(smemu_free(c, (void *)a), SMEMU_OK);
  assert_int_equal(get(c, 600), a); /* 1024 bytes free at a: 600 (1024) fits */
  assert_int_equal(get(c, 0), z + 0x200); /* no gap left below z */
  assert_int_equal(smemu_free(c, (void *)x), SMEMU_OK);
  assert_int_equal(get(c, 100), x);
  smemu_destroy(c);
}

static void test_many_and_large(void **state) {
  (void)state;
  smemu_ctx *c = ctx();
  enum { N = 9000 };
  static uintptr_t p[N];
  static size_t sz[N];
  for (int i = 0; i < N; i++) {
    sz[i] = 1 + (size_t)(i * 7919 % 3000);
    p[i] = get(c, sz[i]);
    memset((void *)p[i], i & 0xff, sz[i]);
  }
  /* every byte still holds its owner's value: nothing overlaps */
  for (int i = 0; i < N; i++)
    for (size_t k = 0; k < sz[i]; k += 97) assert_int_equal(((uint8_t *)p[i])[k], i & 0xff);
  for (int i = 0; i < N; i += 2) assert_int_equal(smemu_free(c, (void *)p[i]), SMEMU_OK);
  for (int i = 0; i < N; i += 2) {
    p[i] = get(c, sz[i]);
    memset((void *)p[i], i & 0xff, sz[i]);
  }
  for (int i = 0; i < N; i++)
    for (size_t k = 0; k < sz[i]; k += 97) assert_int_equal(((uint8_t *)p[i])[k], i & 0xff);
  uintptr_t big = get(c, 5u << 20);
  assert_int_equal(big % (2u << 20), 0);
  memset((void *)big, 1, 5u << 20);
  for (int i = 0; i < N; i++) assert_int_equal(smemu_free(c, (void *)p[i]), SMEMU_OK);
  assert_int_equal(smemu_free(c, (void *)big), SMEMU_OK);
  assert_int_not_equal(smemu_free(c, (void *)big), SMEMU_OK);
  smemu_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_neighbours), cmocka_unit_test(test_many_and_large)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
