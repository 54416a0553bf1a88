/* test_jit_parts.c: a kernel compiled in parts on threads (src/jit/
 * code_cache.inc: SMEMU_JIT_THREADS parts of consecutive regions, each
 * its own LLVM module and object, linked together; the disk cache keeps
 * all parts' objects in one file).
 *  - threads: random branchy kernels compiled in 1, 2 and 4 parts agree
 *    with the interpreter bit for bit, checks off and with the bank model
 *    and race checks (a region left out of every part, or a part whose
 *    object is not linked, leaves the launch without code: its tier is
 *    not "jit").
 *  - cache_file: the file a 4-part compile writes holds several objects
 *    (each a size, then the object; the file's last 8 bytes a hash of the
 *    rest); a process compiling with 1 thread runs from it; a file whose
 *    hash is right but whose sizes run past its end is not used (the
 *    kernel compiles again and still agrees). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smemu.h"

#include "tiers.h"

static char *kernel(uint64_t seed) {
  kgen_opts o = {.len = 90, .full = 1, .faults = 0};
  size_t used;
  return kgen_kernel(NULL, 0, seed, &o, &used);
}

static tiers_launch launch_of(uint64_t seed, uint32_t analyses) {
  tiers_launch L = {.grid = {2, 1, 1},
                    .block = {64, 1, 1},
                    .bytes = 2 * 64 * KGEN_IN_BYTES,
                    .seed = seed,
                    .analyses = analyses};
  return L;
}

/* The interpreter's outcome against the compiled tier's with `threads`;
 * the compiled run must have run compiled. */
static void agree(const char *ptx, const tiers_launch *L, const char *threads, const char *what) {
  tiers_outcome a, b;
  setenv("SMEMU_JIT_THREADS", threads, 1);
  assert_int_equal(tiers_run(ptx, NULL, 0, SMEMU_TIER_INTERP, L, &a), 0);
  assert_int_equal(tiers_run(ptx, NULL, 0, SMEMU_TIER_JIT, L, &b), 0);
  assert_int_equal(tiers_compare(&a, &b, what), 0);
  assert_string_equal(b.tier, "jit");
  tiers_free(&a);
  tiers_free(&b);
  unsetenv("SMEMU_JIT_THREADS");
}

/* (without touching the disk cache) */
static int have_jit(void) {
  setenv("SMEMU_JIT_CACHE", "0", 1);
  char *ptx = kernel(1);
  tiers_launch L = launch_of(1, 0);
  tiers_outcome b;
  int r = tiers_run(ptx, NULL, 0, SMEMU_TIER_JIT, &L, &b) == 0 && b.tier && !strcmp(b.tier, "jit");
  tiers_free(&b);
  free(ptx);
  unsetenv("SMEMU_JIT_CACHE");
  return r;
}

static void threads(void **state) {
  (void)state;
  if (!have_jit()) skip();
  setenv("SMEMU_JIT_CACHE", "0", 1);
  static const char *const counts[] = {"1", "2", "4"};
  for (uint64_t seed = 11; seed < 13; seed++) {
    char *ptx = kernel(seed);
    for (int i = 0; i < 3; i++) {
      char what[64];
      tiers_launch L = launch_of(seed, 0);
      snprintf(what, sizeof what, "seed %llu, %s threads", (unsigned long long)seed, counts[i]);
      agree(ptx, &L, counts[i], what);
      L = launch_of(seed, SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES);
      snprintf(what, sizeof what, "seed %llu, %s threads, banks and races", (unsigned long long)seed,
               counts[i]);
      agree(ptx, &L, counts[i], what);
    }
    free(ptx);
  }
  unsetenv("SMEMU_JIT_CACHE");
}

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc((size_t)len);
  assert_non_null(p);
  assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  *n = (size_t)len;
  return p;
}

/* FNV-1a, 64 bits (the cache file's hash) */
static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static void cache_file(void **state) {
  (void)state;
  if (!have_jit()) skip();
  char root[] = "/tmp/smemu-jit-parts-XXXXXX", jdir[600], file[900];
  int made;
  char *saved = tiers_cache_enter(root, jdir, sizeof jdir, &made);
  assert_true(made);
  char *ptx = kernel(21);
  tiers_launch L = launch_of(21, 0);
  agree(ptx, &L, "4", "4 parts, first run");
  assert_int_equal(tiers_cache_files(jdir, file, sizeof file), 1);
  /* the objects: sizes that add up to the file less its hash, two or more */
  size_t n;
  unsigned char *p = slurp(file, &n);
  assert_true(n > 16);
  uint64_t sum, len;
  memcpy(&sum, p + n - 8, 8);
  assert_true(sum == fnv1a(p, n - 8));
  int objects = 0;
  size_t at = 0;
  while (at < n - 8) {
    memcpy(&len, p + at, 8);
    assert_true(len > 0 && len <= n - 8 - at - 8);
    assert_memory_equal(p + at + 8, "\177ELF", 4);
    at += 8 + (size_t)len;
    objects++;
  }
  assert_int_equal(at, n - 8);
  assert_true(objects >= 2);
  /* run from that file with one thread */
  agree(ptx, &L, "1", "from the 4-part file, 1 thread");
  /* the first size past the end, the hash made right: not used */
  len = (uint64_t)n;
  memcpy(p, &len, 8);
  sum = fnv1a(p, n - 8);
  memcpy(p + n - 8, &sum, 8);
  FILE *f = fopen(file, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(p, 1, n, f), n);
  fclose(f);
  agree(ptx, &L, "2", "a file whose sizes run past its end");
  free(p);
  free(ptx);
  assert_int_equal(tiers_cache_leave(root, saved), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads),
      cmocka_unit_test(cache_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
