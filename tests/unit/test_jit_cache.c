/* test_jit_cache.c: the compiled tier's disk cache keeps to its size limit
 * (jit/jcache.h). In a fresh directory of files whose sizes and times the
 * test sets, the expected outcome is arithmetic on those sizes:
 *  - under the limit nothing goes; over it the oldest go first until the
 *    rest take at most three quarters of the limit, newest kept;
 *  - a file refreshed (its time set to now, as a cache hit does) outlives
 *    older ones written after it;
 *  - names that are not cache objects, symlinks and directories stay;
 *    temporary files go after an hour, not before;
 *  - SMEMU_JIT_CACHE_MAX parses K/M/G and 0, and rejects junk;
 *  - with the compiled tier built, a kernel's object written by a compile
 *    lands in the directory and a tiny limit trims the rest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jit/jcache.h"

static char dir[256];

static void put(const char *name, size_t size, time_t age) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  for (size_t i = 0; i < size; i++) fputc('x', f);
  fclose(f);
  struct timespec t[2];
  clock_gettime(CLOCK_REALTIME, &t[0]);
  t[0].tv_sec -= age;
  t[1] = t[0];
  assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
}

static int has(const char *name) {
  char p[1024];
  struct stat st;
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return lstat(p, &st) == 0;
}

static char *obj(int i) {
  static char n[8][40];
  char *s = n[i & 7];
  snprintf(s, 40, "%032x.o", (unsigned)i * 0x1111u + 0xabcu);
  return s;
}

static int setup(void **st) {
  (void)st;
  snprintf(dir, sizeof dir, "/tmp/smemu-jcache-XXXXXX");
  assert_non_null(mkdtemp(dir));
  return 0;
}

static int teardown(void **st) {
  (void)st;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd);
}

static void test_lru_order(void **st) {
  (void)st;
  /* six objects of 1000 bytes, ages 60..10 s: 6000 bytes */
  for (int i = 0; i < 6; i++) put(obj(i), 1000, 60 - 10 * i);
  assert_int_equal(jit_cache_trim(dir, 6000), 0); /* at the limit: kept */
  /* limit 5000: over it; keep <= 3750 bytes: the three newest */
  assert_int_equal(jit_cache_trim(dir, 5000), 3);
  for (int i = 0; i < 6; i++) assert_int_equal(has(obj(i)), i >= 3);
  /* limit 0: no limit */
  assert_int_equal(jit_cache_trim(dir, 0), 0);
  assert_true(has(obj(3)) && has(obj(4)) && has(obj(5)));
}

static void test_refresh(void **st) {
  (void)st;
  put(obj(0), 100, 300);
  put(obj(1), 100, 200);
  put(obj(2), 100, 100);
  /* obj 0 used now (a hit refreshes its time) */
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", dir, obj(0));
  assert_int_equal(utimensat(AT_FDCWD, p, NULL, 0), 0);
  /* 300 > 250: keep <= 187: the newest one, obj 0 */
  assert_int_equal(jit_cache_trim(dir, 250), 2);
  assert_true(has(obj(0)));
  assert_false(has(obj(1)));
  assert_false(has(obj(2)));
}

static void test_other_names(void **st) {
  (void)st;
  put("notes.txt", 5000, 9000);
  put("0123456789abcdef0123456789abcdef.obj", 5000, 9000);
  put("0123456789ABCDEF0123456789ABCDEF.o", 5000, 9000);
  put(".tmp-aaaaaa", 10, 7200); /* two hours old: goes */
  put(".tmp-bbbbbb", 10, 60);   /* a minute: a writer may still own it */
  put(obj(1), 100, 50);
  char p[1024], q[1024];
  snprintf(p, sizeof p, "%s/%s", dir, obj(7));
  snprintf(q, sizeof q, "%s/notes.txt", dir);
  assert_int_equal(symlink(q, p), 0); /* a link named as an object */
  snprintf(p, sizeof p, "%s/%s", dir, obj(6));
  assert_int_equal(mkdir(p, 0700), 0);
  /* only obj 1 (100 bytes) counts: over 10, removed; and the old tmp */
  assert_int_equal(jit_cache_trim(dir, 10), 2);
  assert_false(has(obj(1)));
  assert_false(has(".tmp-aaaaaa"));
  assert_true(has(".tmp-bbbbbb"));
  assert_true(has("notes.txt") && has(obj(7)) && has(obj(6)));
  assert_true(has("0123456789abcdef0123456789abcdef.obj") && has("0123456789ABCDEF0123456789ABCDEF.o"));
  assert_int_equal(jit_cache_trim("/nonexistent/smemu-jcache", 10), -1);
}

static void test_limit_env(void **st) {
  (void)st;
  static const struct { const char *v; uint64_t want; } c[] = {
      {"4096", 4096}, {"64K", 65536}, {"3m", 3u << 20}, {"2G", 2ull << 30}, {"0", 0},
      {"", JIT_CACHE_DEFAULT_MAX}, {"12Q", JIT_CACHE_DEFAULT_MAX}, {"big", JIT_CACHE_DEFAULT_MAX},
      {"99999999999999999999G", JIT_CACHE_DEFAULT_MAX},
  };
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    setenv("SMEMU_JIT_CACHE_MAX", c[i].v, 1);
    assert_int_equal(jit_cache_limit(), c[i].want);
  }
  unsetenv("SMEMU_JIT_CACHE_MAX");
  assert_int_equal(jit_cache_limit(), JIT_CACHE_DEFAULT_MAX);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_lru_order, setup, teardown),
      cmocka_unit_test_setup_teardown(test_refresh, setup, teardown),
      cmocka_unit_test_setup_teardown(test_other_names, setup, teardown),
      cmocka_unit_test(test_limit_env),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
