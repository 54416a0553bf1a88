/* test_errors.c: unit tests of smemu's error reporting: parse errors with
 * file:line:col, unsupported instructions, memory faults, bad launch
 * configurations, traps, deadlocks and the instruction limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ptxrun.h"

/* A fresh context per test, so a fault cannot leak into the next test. */
static int setup(void **state) {
  smemu_options o;
  smemu_ctx *ctx = NULL;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.max_warp_instructions = 50u * 1000 * 1000;
  if (smemu_create(&o, &ctx) != SMEMU_OK) return -1;
  *state = ctx;
  return 0;
}

static int teardown(void **state) {
  smemu_destroy(*state);
  return 0;
}

static void expect_in(const char *msg, const char *part) {
  if (!strstr(msg, part)) fail_msg("message \"%s\" does not contain \"%s\"", msg, part);
}

/* The 1-based line of the first occurrence of `needle` in text. */
static int line_of(const char *text, const char *needle) {
  const char *p = strstr(text, needle);
  int line = 1;
  assert_non_null(p);
  for (const char *q = text; q < p; q++) line += *q == '\n';
  return line;
}

/* Loads and launches; returns the status and leaves the message in err. */
static int launch(smemu_ctx *ctx, const char *ptx, const char *kernel, const uint32_t grid[3],
                  const uint32_t block[3], uint32_t shared, void **args, char *err, size_t n) {
  return ptxrun_in(ctx, ptx, kernel, grid, block, shared, args, err, n);
}

/* ---- parse errors ----------------------------------------------------------- */

static const char BAD_SYNTAX[] = PTX_HEAD    /* lines 1-3 */
    ".visible .entry k()\n"                   /* 4 */
    "{\n"                                     /* 5 */
    "  .reg .b32 %r<2>;\n"                    /* 6 */
    "  ) mov.u32 %r1, 5;\n"                   /* 7: the ')' at column 3 */
    "  ret;\n"
    "}\n";

static void test_parse_error_position(void **state) {
  smemu_ctx *ctx = *state;
  smemu_module *m = NULL;
  int st = smemu_module_load_data(ctx, BAD_SYNTAX, strlen(BAD_SYNTAX), "bad.ptx", &m);
  assert_int_equal(st, SMEMU_ERR_PARSE);
  assert_null(m);
  expect_in(smemu_errmsg(ctx), "bad.ptx:7:3");
}

static void test_parse_error_in_file(void **state) {
  smemu_ctx *ctx = *state;
  smemu_module *m = NULL;
  char path[] = "/tmp/smemu_test_badXXXXXX", want[64];
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, BAD_SYNTAX, strlen(BAD_SYNTAX)), (ssize_t)strlen(BAD_SYNTAX));
  close(fd);
  int st = smemu_module_load_file(ctx, path, &m);
  unlink(path);
  assert_int_equal(st, SMEMU_ERR_PARSE);
  snprintf(want, sizeof want, "%s:7:3", path);
  expect_in(smemu_errmsg(ctx), want);
  /* A file that does not exist. */
  assert_int_equal(smemu_module_load_file(ctx, "/nonexistent/dir/x.ptx", &m), SMEMU_ERR_IO);
}

static void test_parse_error_unterminated(void **state) {
  /* A missing closing brace and an operand list cut short are parse errors
   * too (the exact position is the parser's choice; the file name is not). */
  static const char a[] = PTX_HEAD ".visible .entry k()\n{\n  ret;\n";
  static const char b[] = PTX_HEAD ".visible .entry k()\n{\n  .reg .b32 %r1;\n  add.u32 %r1, %r1,;\n}\n";
  smemu_ctx *ctx = *state;
  smemu_module *m = NULL;
  assert_int_equal(smemu_module_load_data(ctx, a, strlen(a), "cut.ptx", &m), SMEMU_ERR_PARSE);
  expect_in(smemu_errmsg(ctx), "cut.ptx:");
  assert_int_equal(smemu_module_load_data(ctx, b, strlen(b), "ops.ptx", &m), SMEMU_ERR_PARSE);
  expect_in(smemu_errmsg(ctx), "ops.ptx:7:");
}

static void test_unknown_instruction(void **state) {
  static const char ptx[] = PTX_HEAD
      ".visible .entry k()\n"
      "{\n"
      "  .reg .b32 %r<2>;\n"
      "  mov.u32 %r1, 5;\n"
      "  frobnicate.u32 %r1, %r1;\n" /* line 8 */
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  smemu_module *m = NULL;
  int st = smemu_module_load_data(ctx, ptx, strlen(ptx), "unk.ptx", &m);
  assert_int_equal(st, SMEMU_ERR_UNSUPPORTED);
  expect_in(smemu_errmsg(ctx), "frobnicate");
  expect_in(smemu_errmsg(ctx), "unk.ptx:8:");
}

static void test_kernel_not_found(void **state) {
  static const char ptx[] = PTX_HEAD ".visible .entry k()\n{\n  ret;\n}\n";
  smemu_ctx *ctx = *state;
  smemu_module *m = NULL;
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_module_load_data(ctx, ptx, strlen(ptx), "nf.ptx", &m), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(m, "nosuchkernel", &k), SMEMU_ERR_NOT_FOUND);
  assert_int_equal(smemu_module_kernel_count(m), 1);
  assert_int_equal(smemu_module_get_kernel(m, "k", &k), SMEMU_OK);
  assert_string_equal(smemu_kernel_name(k), "k");
  smemu_module_unload(m);
}

/* ---- memory faults ---------------------------------------------------------- */

static const char OOB_PTX[] = PTX_HEAD
    ".visible .entry oob(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  .reg .pred %p<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  setp.eq.u32 %p1, %r1, 5;\n"
    "  setp.eq.u32 %p2, %r2, 1;\n"
    "  and.pred %p1, %p1, %p2;\n"
    "  selp.u32 %r3, 4096, 0, %p1;\n"    /* thread 5 of block 1 reads far past the end */
    "  add.u32 %r3, %r3, %r1;\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r4, [%rd3];\n"
    "  add.u32 %r4, %r4, 1;\n"
    "  ret;\n"
    "}\n";

static void test_global_out_of_bounds(void **state) {
  smemu_ctx *ctx = *state;
  void *buf = NULL;
  const uint32_t grid[3] = {2, 1, 1}, block[3] = {16, 1, 1};
  char err[2048], want[64];
  smemu_module *m = NULL;
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_malloc(ctx, &buf, 64), SMEMU_OK);
  void *args[] = {&buf};
  assert_int_equal(smemu_module_load_data(ctx, OOB_PTX, strlen(OOB_PTX), "oob.ptx", &m), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(m, "oob", &k), SMEMU_OK);
  int st = smemu_launch(ctx, k, grid, block, 0, args);
  snprintf(err, sizeof err, "%s", smemu_errmsg(ctx));
  assert_int_equal(st, SMEMU_ERR_ILLEGAL_ADDRESS);
  expect_in(err, "oob");
  expect_in(err, "block (1,0,0)");
  expect_in(err, "thread (5,0,0)");
  snprintf(want, sizeof want, "line %d", line_of(OOB_PTX, "ld.global.u32 %r4"));
  expect_in(err, want);
  /* The stats of the failed launch are available (while the module is). */
  const smemu_launch_stats *s = smemu_last_stats(ctx);
  assert_non_null(s);
  assert_string_equal(s->kernel, "oob");
  assert_int_equal(s->grid[0], 2);
  assert_int_equal(s->block[0], 16);
  smemu_module_unload(m);
  smemu_free(ctx, buf);
}

static void test_global_just_past_the_end(void **state) {
  /* Reading the word right after a 64-byte allocation is already illegal. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 p)\n"
      "{\n"
      "  .reg .b32 %r1;\n"
      "  .reg .b64 %rd1;\n"
      "  ld.param.u64 %rd1, [p];\n"
      "  ld.global.u32 %r1, [%rd1+64];\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  void *buf = NULL;
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  char err[2048];
  assert_int_equal(smemu_malloc(ctx, &buf, 64), SMEMU_OK);
  void *args[] = {&buf};
  assert_int_equal(launch(ctx, ptx, "k", grid, block, 0, args, err, sizeof err),
                   SMEMU_ERR_ILLEGAL_ADDRESS);
  /* A freed buffer is not accessible either. */
  smemu_free(ctx, buf);
  assert_int_equal(launch(ctx, ptx, "k", grid, block, 0, args, err, sizeof err),
                   SMEMU_ERR_ILLEGAL_ADDRESS);
}

static void test_shared_out_of_bounds(void **state) {
  static const char ptx[] = PTX_HEAD
      ".visible .entry shoob()\n"
      "{\n"
      "  .shared .align 4 .b32 s[16];\n"
      "  .reg .b32 %r<4>;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u32 %r2, s;\n"
      "  mad.lo.u32 %r2, %r1, 4, %r2;\n"
      "  st.shared.u32 [%r2+262144], %r1;\n" /* far beyond any shared window */
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
  char err[2048], want[64];
  assert_int_equal(launch(ctx, ptx, "shoob", grid, block, 0, NULL, err, sizeof err),
                   SMEMU_ERR_ILLEGAL_ADDRESS);
  expect_in(err, "shoob");
  expect_in(err, "block (0,0,0)");
  snprintf(want, sizeof want, "line %d", line_of(ptx, "st.shared.u32"));
  expect_in(err, want);
}

static void test_misaligned(void **state) {
  static const char ptx[] = PTX_HEAD
      ".visible .entry mis(.param .u64 p)\n"
      "{\n"
      "  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [p];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  ld.global.u32 %r1, [%rd1+2];\n"
      "  ret;\n"
      "}\n"
      ".visible .entry misv(.param .u64 p)\n"
      "{\n"
      "  .shared .align 16 .b8 s[64];\n"
      "  .reg .b32 %r<5>;\n"
      "  ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [s+8];\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  void *buf = NULL;
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  char err[2048], want[64];
  assert_int_equal(smemu_malloc(ctx, &buf, 64), SMEMU_OK);
  void *args[] = {&buf};
  assert_int_equal(launch(ctx, ptx, "mis", grid, block, 0, args, err, sizeof err),
                   SMEMU_ERR_MISALIGNED);
  expect_in(err, "mis");
  snprintf(want, sizeof want, "line %d", line_of(ptx, "ld.global.u32"));
  expect_in(err, want);
  /* A 16-byte vector access at an 8-byte aligned shared address. */
  assert_int_equal(launch(ctx, ptx, "misv", grid, block, 0, args, err, sizeof err),
                   SMEMU_ERR_MISALIGNED);
  smemu_free(ctx, buf);
}

static void test_more_bad_addresses(void **state) {
  /* A misaligned atomic, a null pointer, and a local access far past the
   * thread's local memory (1 MiB beyond a 16-byte array). */
  static const char ptx[] = PTX_HEAD
      ".visible .entry atommis(.param .u64 p)\n"
      "{\n"
      "  .reg .b32 %r1;\n"
      "  .reg .b64 %rd1;\n"
      "  ld.param.u64 %rd1, [p];\n"
      "  atom.global.add.u32 %r1, [%rd1+2], 1;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry nullp()\n"
      "{\n"
      "  .reg .b32 %r1;\n"
      "  .reg .b64 %rd1;\n"
      "  mov.u64 %rd1, 0;\n"
      "  ld.u32 %r1, [%rd1];\n"
      "  ret;\n"
      "}\n"
      ".visible .entry localoob()\n"
      "{\n"
      "  .local .align 4 .b8 lb[16];\n"
      "  .reg .b32 %r1;\n"
      "  .reg .b64 %rd<3>;\n"
      "  mov.u64 %rd1, lb;\n"
      "  add.s64 %rd2, %rd1, 1048576;\n"
      "  st.local.u32 [%rd2], %r1;\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  void *buf = NULL;
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  char err[2048];
  assert_int_equal(smemu_malloc(ctx, &buf, 64), SMEMU_OK);
  void *args[] = {&buf};
  assert_int_equal(launch(ctx, ptx, "atommis", grid, block, 0, args, err, sizeof err),
                   SMEMU_ERR_MISALIGNED);
  assert_int_equal(launch(ctx, ptx, "nullp", grid, block, 0, NULL, err, sizeof err),
                   SMEMU_ERR_ILLEGAL_ADDRESS);
  expect_in(err, "nullp");
  assert_int_equal(launch(ctx, ptx, "localoob", grid, block, 0, NULL, err, sizeof err),
                   SMEMU_ERR_ILLEGAL_ADDRESS);
  smemu_free(ctx, buf);
}

/* ---- launch configuration ----------------------------------------------------- */

static const char EMPTY_PTX[] = PTX_HEAD ".visible .entry k()\n{\n  ret;\n}\n";

static void test_invalid_config(void **state) {
  smemu_ctx *ctx = *state;
  static const uint32_t bad[][6] = {
      {1, 1, 1, 0, 1, 1},     /* empty block */
      {0, 1, 1, 32, 1, 1},    /* empty grid */
      {1, 0, 1, 32, 1, 1},
      {1, 1, 1, 1025, 1, 1},  /* over 1024 threads */
      {1, 1, 1, 32, 32, 2},   /* 2048 threads */
      {1, 1, 1, 1, 1, 65},    /* block z over 64 */
      {1, 65536, 1, 32, 1, 1} /* grid y over 65535 */
  };
  char err[2048];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const uint32_t g[3] = {bad[i][0], bad[i][1], bad[i][2]};
    const uint32_t b[3] = {bad[i][3], bad[i][4], bad[i][5]};
    int st = launch(ctx, EMPTY_PTX, "k", g, b, 0, NULL, err, sizeof err);
    if (st != SMEMU_ERR_INVALID_CONFIG)
      fail_msg("grid (%u,%u,%u) block (%u,%u,%u): %s, want SMEMU_ERR_INVALID_CONFIG", g[0], g[1],
               g[2], b[0], b[1], b[2], smemu_status_name((smemu_status)st));
  }
  /* The limits themselves are fine. */
  const uint32_t g[3] = {1, 1, 1}, b[3] = {1024, 1, 1}, bz[3] = {1, 16, 64};
  assert_int_equal(launch(ctx, EMPTY_PTX, "k", g, b, 0, NULL, err, sizeof err), SMEMU_OK);
  assert_int_equal(launch(ctx, EMPTY_PTX, "k", g, bz, 0, NULL, err, sizeof err), SMEMU_OK);
}

static void test_too_much_shared(void **state) {
  static const char ptx[] = PTX_HEAD
      ".extern .shared .align 4 .b8 dyn[];\n"
      ".visible .entry k()\n"
      "{\n"
      "  .shared .align 4 .b8 big[40960];\n"
      "  .reg .b32 %r1;\n"
      "  mov.u32 %r1, dyn;\n"
      "  mov.u32 %r1, big;\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  char err[2048];
  assert_int_equal(launch(ctx, EMPTY_PTX, "k", g, b, 1u << 20, NULL, err, sizeof err),
                   SMEMU_ERR_OUT_OF_RESOURCES);
  /* Static plus dynamic over the per-block limit of sm_90 (227 KiB). */
  assert_int_equal(launch(ctx, ptx, "k", g, b, 200 * 1024, NULL, err, sizeof err),
                   SMEMU_ERR_OUT_OF_RESOURCES);
  /* A modest amount is fine. */
  assert_int_equal(launch(ctx, ptx, "k", g, b, 4096, NULL, err, sizeof err), SMEMU_OK);
}

/* ---- trap, deadlock, limit -------------------------------------------------------- */

static void test_trap(void **state) {
  static const char ptx[] = PTX_HEAD
      ".visible .entry trapper()\n"
      "{\n"
      "  .reg .b32 %r1;\n"
      "  .reg .pred %p1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  setp.eq.u32 %p1, %r1, 7;\n"
      "  @%p1 trap;\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  char err[2048], want[64];
  assert_int_equal(launch(ctx, ptx, "trapper", g, b, 0, NULL, err, sizeof err), SMEMU_ERR_TRAP);
  expect_in(err, "trapper");
  expect_in(err, "thread (7,0,0)");
  snprintf(want, sizeof want, "line %d", line_of(ptx, "@%p1 trap"));
  expect_in(err, want);
  /* The context stays usable after a fault. */
  assert_int_equal(launch(ctx, EMPTY_PTX, "k", g, b, 0, NULL, err, sizeof err), SMEMU_OK);
}

static void test_deadlock_partial_barrier(void **state) {
  /* 96 threads: warp 0 waits at barrier 1 for 64 threads, warps 1 and 2
   * wait at barrier 2 for 96 threads. Neither can complete. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry dl()\n"
      "{\n"
      "  .reg .b32 %r1;\n"
      "  .reg .pred %p1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  setp.lt.u32 %p1, %r1, 32;\n"
      "  @!%p1 bra OTHERS;\n"
      "  bar.sync 1, 64;\n"
      "  ret;\n"
      "OTHERS:\n"
      "  bar.sync 2, 96;\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  const uint32_t g[3] = {1, 1, 1}, b[3] = {96, 1, 1};
  char err[2048];
  assert_int_equal(launch(ctx, ptx, "dl", g, b, 0, NULL, err, sizeof err), SMEMU_ERR_DEADLOCK);
  expect_in(err, "dl");
}

static void test_deadlock_some_warps_missing(void **state) {
  /* Only warp 0 of a 64-thread block reaches bar.sync 1, 64; warp 1 goes
   * on to barrier 3, which needs 64 threads too and gets only its 32. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry dl2()\n"
      "{\n"
      "  .reg .b32 %r1;\n"
      "  .reg .pred %p1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  setp.ge.u32 %p1, %r1, 32;\n"
      "  @%p1 bra SKIP;\n"
      "  bar.sync 1, 64;\n"
      "SKIP:\n"
      "  bar.sync 3, 64;\n"
      "  ret;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  const uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
  char err[2048];
  assert_int_equal(launch(ctx, ptx, "dl2", g, b, 0, NULL, err, sizeof err), SMEMU_ERR_DEADLOCK);
}

static void test_instruction_limit(void **state) {
  static const char ptx[] = PTX_HEAD
      ".visible .entry spin()\n"
      "{\n"
      "  .reg .b32 %r<2>;\n"
      "  mov.u32 %r1, 0;\n"
      "LOOP:\n"
      "  add.u32 %r1, %r1, 1;\n" /* a changing state: no hang, the budget ends it */
      "  bra LOOP;\n"
      "}\n";
  smemu_ctx *ctx = *state;
  const uint32_t g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
  char err[2048];
  assert_int_equal(launch(ctx, ptx, "spin", g, b, 0, NULL, err, sizeof err), SMEMU_ERR_LIMIT);
}

static void test_bad_arguments(void **state) {
  smemu_ctx *ctx = *state;
  smemu_module *m = NULL;
  void *p = NULL;
  for (int s = 0; s < SMEMU_ERR_COUNT; s++) assert_non_null(smemu_status_name((smemu_status)s));
  assert_string_equal(smemu_status_name(SMEMU_ERR_DEADLOCK), "SMEMU_ERR_DEADLOCK");
  assert_int_equal(smemu_module_load_data(ctx, NULL, 0, "x.ptx", &m), SMEMU_ERR_INVALID_VALUE);
  assert_int_equal(smemu_launch(ctx, NULL, (const uint32_t[3]){1, 1, 1},
                                (const uint32_t[3]){1, 1, 1}, 0, NULL),
                   SMEMU_ERR_INVALID_VALUE);
  assert_int_equal(smemu_malloc(ctx, NULL, 16), SMEMU_ERR_INVALID_VALUE);
  assert_int_equal(smemu_malloc(ctx, &p, 16), SMEMU_OK);
  assert_int_equal(smemu_free(ctx, p), SMEMU_OK);
  assert_int_not_equal(smemu_free(ctx, (char *)p + 1), SMEMU_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_parse_error_position, setup, teardown),
      cmocka_unit_test_setup_teardown(test_parse_error_in_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_parse_error_unterminated, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unknown_instruction, setup, teardown),
      cmocka_unit_test_setup_teardown(test_kernel_not_found, setup, teardown),
      cmocka_unit_test_setup_teardown(test_global_out_of_bounds, setup, teardown),
      cmocka_unit_test_setup_teardown(test_global_just_past_the_end, setup, teardown),
      cmocka_unit_test_setup_teardown(test_shared_out_of_bounds, setup, teardown),
      cmocka_unit_test_setup_teardown(test_misaligned, setup, teardown),
      cmocka_unit_test_setup_teardown(test_more_bad_addresses, setup, teardown),
      cmocka_unit_test_setup_teardown(test_invalid_config, setup, teardown),
      cmocka_unit_test_setup_teardown(test_too_much_shared, setup, teardown),
      cmocka_unit_test_setup_teardown(test_trap, setup, teardown),
      cmocka_unit_test_setup_teardown(test_deadlock_partial_barrier, setup, teardown),
      cmocka_unit_test_setup_teardown(test_deadlock_some_warps_missing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_instruction_limit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
