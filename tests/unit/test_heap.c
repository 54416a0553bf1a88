/* test_heap.c: the device heap behind device-side malloc/free
 * (src/exec/heap.c): 16-byte aligned blocks inside the region, NULL when
 * nothing fits, freed space reused (first fit), double and foreign frees
 * refused, held frees reusable only after heap_flush, and concurrent
 * allocation from several threads never hands out overlapping blocks. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/heap.h"

static void test_basics(void **state) {
  (void)state;
  dev_heap *h = heap_create(1000); /* rounded up to 1008 */
  assert_non_null(h);
  uintptr_t b = heap_base(h);
  assert_int_equal(heap_size(h), 1008);
  assert_int_equal(heap_alloc(h, 0), 0);
  uint64_t a = heap_alloc(h, 1), c = heap_alloc(h, 100), d = heap_alloc(h, 16);
  assert_int_equal(a, b);
  assert_int_equal(c, b + 16);
  assert_int_equal(d, b + 16 + 112);
  assert_int_equal(heap_alloc(h, 2000), 0);          /* larger than the heap */
  assert_int_equal(heap_alloc(h, 1008 - 144 + 16), 0); /* larger than what is left */
  assert_int_equal(heap_free(h, c, 0), 0);
  assert_int_equal(heap_free(h, c, 0), -1);          /* double free */
  assert_int_equal(heap_free(h, c + 16, 0), -1);     /* not a block's start */
  assert_int_equal(heap_free(h, 12345, 0), -1);      /* not in the heap */
  assert_int_equal(heap_free(h, 0, 0), 0);           /* free(NULL) */
  assert_int_equal(heap_alloc(h, 112), c);           /* first fit reuses the gap */
  /* held: taken until the flush */
  assert_int_equal(heap_free(h, a, 1), 0);
  assert_int_equal(heap_free(h, a, 1), -1);
  assert_int_not_equal(heap_alloc(h, 16), a);
  heap_flush(h);
  assert_int_equal(heap_alloc(h, 16), a);
  heap_destroy(h);
}

#define PER 200
static void *grab(void *arg) {
  dev_heap *h = arg;
  uint64_t *got = calloc(PER, sizeof *got);
  for (int i = 0; i < PER; i++) {
    got[i] = heap_alloc(h, 48);
    if (i % 3 == 2) { heap_free(h, got[i - 1], 0); got[i - 1] = 0; }
  }
  return got;
}

static int cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static void test_threads(void **state) {
  (void)state;
  dev_heap *h = heap_create(1 << 20);
  pthread_t th[4];
  uint64_t *res[4], all[4 * PER];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, grab, h);
  for (int i = 0; i < 4; i++) pthread_join(th[i], (void **)&res[i]);
  size_t n = 0;
  for (int i = 0; i < 4; i++) {
    for (int k = 0; k < PER; k++) if (res[i][k]) all[n++] = res[i][k];
    free(res[i]);
  }
  assert_int_equal(n, 4 * (PER - PER / 3));
  qsort(all, n, sizeof *all, cmp);
  for (size_t k = 1; k < n; k++) assert_true(all[k] >= all[k - 1] + 48); /* no overlap */
  heap_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_basics), cmocka_unit_test(test_threads)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
