/* test_jit_bg.c: with SMEMU_JIT_BG=1 the auto tier compiles a hot kernel
 * in the background (jit/bg.c) while its launches go on interpreted. Each case runs
 * examples/reverse.ptx's staticReverse (64 ints reversed through shared
 * memory) with a fresh disk cache and SMEMU_JIT_HOT=1, so that the kernel
 * is hot after its first launch; every launch's output must be the input
 * reversed, whichever tier ran it.
 *  - background: the second launch starts the compile and is interpreted;
 *    a later launch runs compiled and reports the compile's seconds (> 0),
 *    the launches after it report 0;
 *  - destroy_while_compiling: a context destroyed while its kernel compiles
 *    stops the compile (no crash, no leak under valgrind/ASan);
 *  - exit_while_compiling: a process that exits (exit handlers run) while
 *    a kernel compiles, at several points of the compile, exits with
 *    status 0 and leaves no compiling process behind;
 *  - foreground: the default (SMEMU_JIT_BG unset), SMEMU_JIT_BG=0, or no
 *    disk cache (SMEMU_JIT_CACHE=0: the
 *    background compile leaves its code there), compiles in the second
 *    launch itself, which runs compiled;
 *  - initcheck: with initcheck on, auto compiles a hot kernel as with
 *    the other checks (the launch's results and the check's report are
 *    the interpreter's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "smemu.h"

enum { N = 64 };

static char cache[64];

static int setup(void **st) {
  (void)st;
  snprintf(cache, sizeof cache, "/tmp/smemu-jitbg-XXXXXX");
  if (!mkdtemp(cache)) return -1;
  setenv("SMEMU_CACHE", cache, 1);
  setenv("SMEMU_JIT_HOT", "1", 1);
  setenv("SMEMU_JIT_BG", "1", 1); /* opt-in */
  unsetenv("SMEMU_JIT_CACHE");
  return 0;
}

static int teardown(void **st) {
  (void)st;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
  return system(cmd) == 0 ? 0 : -1;
}

typedef struct run {
  smemu_ctx *c;
  smemu_kernel *k;
  int *buf;
} run;

static void start(run *r, uint32_t analyses) {
  smemu_options o = {0};
  o.threads = 1;
  o.tier = SMEMU_TIER_AUTO;
  o.analyses = analyses;
  smemu_module *m;
  assert_int_equal(smemu_create(&o, &r->c), SMEMU_OK);
  assert_int_equal(smemu_module_load_file(r->c, "examples/reverse.ptx", &m), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(m, "_Z13staticReversePii", &r->k), SMEMU_OK);
  void *p;
  assert_int_equal(smemu_malloc(r->c, &p, N * sizeof(int)), SMEMU_OK);
  r->buf = p;
}

/* One launch on 0..N-1 (plus a per-launch offset); checks the reversal and
 * returns the launch's figures. */
static const smemu_launch_stats *once(run *r, int salt) {
  for (int i = 0; i < N; i++) r->buf[i] = i * 7 + salt;
  int n = N;
  void *args[] = {&r->buf, &n};
  uint32_t grid[3] = {1, 1, 1}, block[3] = {N, 1, 1};
  assert_int_equal(smemu_launch(r->c, r->k, grid, block, 0, args), SMEMU_OK);
  for (int i = 0; i < N; i++) assert_int_equal(r->buf[i], (N - 1 - i) * 7 + salt);
  return smemu_last_stats(r->c);
}

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_background(void **st) {
  (void)st;
  if (!smemu_jit_available()) skip();
  run r;
  start(&r, 0);
  /* not hot yet, then hot: the compile starts, this launch interprets */
  assert_string_equal(once(&r, 1)->tier, "interp");
  assert_string_equal(once(&r, 2)->tier, "interp");
  int jit_at = 0;
  double t0 = wall();
  for (int i = 3; !jit_at && wall() - t0 < 60; i++) {
    const smemu_launch_stats *s = once(&r, i);
    if (!strcmp(s->tier, "jit")) {
      jit_at = i;
      assert_true(s->jit_seconds > 0);
    } else {
      assert_true(s->jit_seconds == 0);
      usleep(2000);
    }
  }
  assert_true(jit_at > 0);
  for (int i = 0; i < 3; i++) {
    const smemu_launch_stats *s = once(&r, 100 + i);
    assert_string_equal(s->tier, "jit");
    assert_true(s->jit_seconds == 0);
  }
  smemu_destroy(r.c);
}

static void test_destroy_while_compiling(void **st) {
  (void)st;
  if (!smemu_jit_available()) skip();
  run r;
  start(&r, 0);
  once(&r, 1);
  assert_string_equal(once(&r, 2)->tier, "interp");
  smemu_destroy(r.c);
}

static void test_exit_while_compiling(void **st) {
  (void)st;
  if (!smemu_jit_available()) skip();
  for (int us = 0; us <= 200000; us += 25000) {
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0) {
      close(fd[0]);
      run r;
      start(&r, 0);
      once(&r, 1);
      once(&r, 2);
      usleep((useconds_t)us);
      /* the pipe's write end stays open in a compiling process left behind */
      exit(0);
    }
    close(fd[1]);
    int status;
    assert_int_equal(waitpid(p, &status, 0), p);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    /* end of file at once: no writer left (a process still compiling
     * would hold the write end: EAGAIN) */
    char c;
    assert_int_equal(fcntl(fd[0], F_SETFL, O_NONBLOCK), 0);
    assert_int_equal(read(fd[0], &c, 1), 0);
    close(fd[0]);
  }
}

static void test_foreground(void **st) {
  (void)st;
  if (!smemu_jit_available()) skip();
  /* the default (SMEMU_JIT_BG unset), SMEMU_JIT_BG=0, and no disk cache */
  static const char *const name[3] = {"SMEMU_JIT_BG", "SMEMU_JIT_BG", "SMEMU_JIT_CACHE"};
  for (int e = 0; e < 3; e++) {
    if (e == 0)
      unsetenv(name[e]);
    else
      setenv(name[e], "0", 1);
    run r;
    start(&r, (uint32_t)(e & 1)); /* (alternating variants, compiled afresh) */
    assert_string_equal(once(&r, 1)->tier, "interp");
    const smemu_launch_stats *s = once(&r, 2);
    assert_string_equal(s->tier, "jit");
    assert_true(s->jit_seconds > 0);
    smemu_destroy(r.c);
    unsetenv(name[e]);
  }
  setenv("SMEMU_JIT_BG", "1", 1);
}

static void test_initcheck(void **st) {
  (void)st;
  if (!smemu_jit_available()) skip();
  unsetenv("SMEMU_JIT_BG");
  run r;
  start(&r, SMEMU_ANALYZE_INIT);
  assert_string_equal(once(&r, 1)->tier, "interp");
  const smemu_launch_stats *s = once(&r, 2);
  assert_string_equal(s->tier, "jit");
  assert_true(s->jit_seconds > 0);
  smemu_destroy(r.c);
  setenv("SMEMU_JIT_BG", "1", 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_background, setup, teardown),
      cmocka_unit_test_setup_teardown(test_destroy_while_compiling, setup, teardown),
      cmocka_unit_test_setup_teardown(test_exit_while_compiling, setup, teardown),
      cmocka_unit_test_setup_teardown(test_foreground, setup, teardown),
      cmocka_unit_test_setup_teardown(test_initcheck, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
