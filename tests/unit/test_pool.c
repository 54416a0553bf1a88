/* test_pool.c: where smemu_malloc places allocations (src/api/pool.c), as
 * cudaMalloc did on an H100 (tests/hw/sanitizer/recorded: 1000 then 3
 * bytes at +0 and +0x400; three of 128 at +0, +0x200, +0x400): 512-byte
 * units, first fit, freed ranges used again, no overlap, large ones apart;
 * with red zones (smemu_set_padding), as compute-sanitizer --padding N
 * placed them on an H200 (recorded/mem_redzone.memcheck_padN*). */
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
  assert_int_equal(smemu_set_padding(c, 0), SMEMU_OK); /* cudaMalloc's own layout */
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
  assert_int_equal(get(c, 600), a);       /* 1024 bytes free at a: 600 (1024) fits */
  assert_int_equal(get(c, 0), z + 0x200); /* no gap left below z */
  assert_int_equal(smemu_free(c, (void *)x), SMEMU_OK);
  assert_int_equal(get(c, 100), x);
  smemu_destroy(c);
}

/* Allocations of 1, 256, 512, 513, 1000, 1024, 4096 and 65536 bytes, then
 * one more: their offsets from the first under compute-sanitizer
 * --padding 1, 32 and 512 (mem_redzone's "addr s..." lines, then "a"). */
static void test_padding_layout(void **state) {
  (void)state;
  static const size_t sizes[9] = {1, 256, 512, 513, 1000, 1024, 4096, 65536, 512};
  static const struct {
    size_t pad;
    uintptr_t off[9];
  } rec[3] = {
      {1, {0, 0x200, 0x400, 0x800, 0xc00, 0x1000, 0x1600, 0x2800, 0x12a00}},
      {32, {0, 0x200, 0x400, 0x800, 0xc00, 0x1200, 0x1800, 0x2a00, 0x12c00}},
      {512, {0, 0x400, 0x800, 0xc00, 0x1200, 0x1800, 0x1e00, 0x3000, 0x13200}},
  };
  for (int k = 0; k < 3; k++) {
    smemu_ctx *c = ctx();
    if (rec[k].pad != SMEMU_DEFAULT_PADDING) assert_int_equal(smemu_set_padding(c, rec[k].pad), SMEMU_OK);
    uintptr_t p[9];
    for (int i = 0; i < 9; i++) {
      p[i] = get(c, sizes[i]);
      assert_int_equal(p[i] - p[0], rec[k].off[i]);
    }
    /* the red zone: the bytes just past each allocation belong to none */
    void *base;
    size_t size;
    for (int i = 0; i < 9; i++) {
      assert_int_equal(smemu_mem_lookup(c, (void *)(p[i] + sizes[i] - 1), &base, &size, NULL), SMEMU_OK);
      for (size_t j = 0; j < rec[k].pad; j++)
        assert_int_not_equal(smemu_mem_lookup(c, (void *)(p[i] + sizes[i] + j), &base, &size, NULL),
                             SMEMU_OK);
    }
    /* the padding changes only while nothing is allocated */
    assert_int_not_equal(smemu_set_padding(c, rec[k].pad + 1), SMEMU_OK);
    for (int i = 0; i < 9; i++) assert_int_equal(smemu_free(c, (void *)p[i]), SMEMU_OK);
    smemu_destroy(c);
  }
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
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_neighbours), cmocka_unit_test(test_padding_layout),
                                     cmocka_unit_test(test_many_and_large)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
