/* test_exec_rules.c: rules of the warp scheduler and control flow
 * (src/exec/ctrl.c, sched.c) that `make mutants` found untested, each on a
 * kernel whose answer follows from the rule:
 *  - bar.sync with a thread count that is not a multiple of 32 stops the
 *    kernel (PTX requires a multiple; an H200 reports an illegal
 *    instruction: tests/hw/races, sync_bar_count with 48);
 *  - one barrier used with two thread counts at once is an error;
 *  - the halves of a diverged warp may wait at two bar.sync of the same
 *    barrier (sm_70+): the barrier completes and the writes before it are
 *    seen after it;
 *  - lanes of one warp that reach bar.arrive separately all count as
 *    producers: the consumer's reads after bar.sync race with none;
 *  - a call whose frame does not fit in the thread's local memory faults,
 *    one that fits exactly does not; so does recursion deeper than
 *    MAX_CALL_DEPTH (256) frames;
 *  - kernel parameters are read-only: st.param to one faults;
 *  - thread instructions count the lanes that run an instruction, also
 *    those whose guard is false;
 *  - the random warp order switches warps within a run (the fixed order
 *    runs a warp until it waits or ends);
 *  - a fault in a 3-D block names the thread by its x, y and z. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ptxrun.h"

/* Launches kernel k of ptx on 1 block of `block` threads; returns its status
 * and the context (kept in *out for inspection, else destroyed). */
static int launch(const char *ptx, uint32_t block, uint32_t analyses, uint32_t stack, void **args, smemu_ctx **out,
                  char *msg, size_t msgsz) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.analyses = analyses;
  o.stack_bytes = stack;
  o.max_warp_instructions = 1000000;
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *k;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  if (smemu_module_load_data(c, ptx, strlen(ptx), "rules.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, "k", &k) != SMEMU_OK)
    fail_msg("%s", smemu_errmsg(c));
  void *buf = NULL;
  void *dflt[] = {&buf};
  if (!args) {
    assert_int_equal(smemu_malloc(c, &buf, 4096), SMEMU_OK);
    memset(buf, 0, 4096);
    args = dflt;
  }
  const uint32_t g[3] = {1, 1, 1}, b[3] = {block, 1, 1};
  int st = smemu_launch(c, k, g, b, 0, args);
  snprintf(msg, msgsz, "%s", smemu_errmsg(c));
  if (out) *out = c;
  else smemu_destroy(c);
  return st;
}

#define K(regs, body) PTX_HEAD ".shared .align 4 .b32 sh[128];\n.visible .entry k(.param .u64 out)\n{\n" regs body "}\n"
#define REGS "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<4>;\n"

static void test_bar_count_multiple_of_32(void **state) {
  (void)state;
  char msg[1024];
  const char *ptx = K(REGS, "  mov.u32 %r1, 48;\n  bar.sync 1, %r1;\n  ret;\n");
  assert_int_equal(launch(ptx, 64, 0, 0, NULL, NULL, msg, sizeof msg), SMEMU_ERR_ILLEGAL_INSTRUCTION);
  assert_non_null(strstr(msg, "not a multiple of 32"));
  const char *ok = K(REGS, "  mov.u32 %r1, 64;\n  bar.sync 1, %r1;\n  ret;\n");
  assert_int_equal(launch(ok, 64, 0, 0, NULL, NULL, msg, sizeof msg), SMEMU_OK);
}

static void test_bar_two_counts(void **state) {
  (void)state;
  char msg[1024];
  /* warp 0: bar.sync 1, 64 (waits for warp 1); warp 1: bar.sync 1, 96 */
  const char *ptx = K(REGS, "  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 32;\n  selp.u32 %r2, 64, 96, %p1;\n"
                            "  bar.sync 1, %r2;\n  ret;\n");
  assert_int_equal(launch(ptx, 96, 0, 0, NULL, NULL, msg, sizeof msg), SMEMU_ERR_ILLEGAL_INSTRUCTION);
  assert_non_null(strstr(msg, "thread counts 64 and 96"));
}

/* One warp: lanes 0-15 write sh[lane] and wait at one bar.sync 0, lanes
 * 16-31 wait at another and then read sh[lane - 16] into out. */
static void test_divergent_halves_at_one_barrier(void **state) {
  (void)state;
  char msg[1024];
  const char *ptx = K(REGS, "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sh;\n  ld.param.u64 %rd1, [out];\n"
                            "  setp.ge.u32 %p1, %r1, 16;\n  @%p1 bra HI;\n"
                            "  shl.b32 %r3, %r1, 2;\n  add.u32 %r4, %r2, %r3;\n  add.u32 %r5, %r1, 100;\n"
                            "  st.shared.u32 [%r4], %r5;\n  bar.sync 0;\n  bra.uni DONE;\n"
                            "HI:\n  bar.sync 0;\n  sub.u32 %r6, %r1, 16;\n  shl.b32 %r3, %r6, 2;\n  add.u32 %r4, %r2, %r3;\n"
                            "  ld.shared.u32 %r5, [%r4];\n  mul.wide.u32 %rd2, %r6, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
                            "  st.global.u32 [%rd3], %r5;\nDONE:\n  ret;\n");
  smemu_ctx *c;
  assert_int_equal(launch(ptx, 32, SMEMU_ANALYZE_RACES, 0, NULL, &c, msg, sizeof msg), SMEMU_OK);
  assert_int_equal(smemu_hazard_count(c), 0);
  smemu_destroy(c);
}

/* The values: the same kernel, reading back through a buffer of its own
 * context. */
static void test_divergent_halves_values(void **state) {
  (void)state;
  const char *ptx = K(REGS, "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sh;\n  ld.param.u64 %rd1, [out];\n"
                            "  setp.ge.u32 %p1, %r1, 16;\n  @%p1 bra HI;\n"
                            "  shl.b32 %r3, %r1, 2;\n  add.u32 %r4, %r2, %r3;\n  add.u32 %r5, %r1, 100;\n"
                            "  st.shared.u32 [%r4], %r5;\n  bar.sync 0;\n  bra.uni DONE;\n"
                            "HI:\n  bar.sync 0;\n  sub.u32 %r6, %r1, 16;\n  shl.b32 %r3, %r6, 2;\n  add.u32 %r4, %r2, %r3;\n"
                            "  ld.shared.u32 %r5, [%r4];\n  mul.wide.u32 %rd2, %r6, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
                            "  st.global.u32 [%rd3], %r5;\nDONE:\n  ret;\n");
  uint32_t *out = dev_alloc(16 * 4, 0);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 32, 0, args, err, sizeof err), err);
  for (uint32_t i = 0; i < 16; i++) assert_int_equal(out[i], 100 + i);
  dev_free(out);
}

/* Warp 0 (producer): lanes 0-15 write sh[lane] and bar.arrive 1, 64 in
 * one branch, lanes 16-31 the same in the other; warp 1 (consumer):
 * bar.sync 1, 64, then every lane reads sh[lane - 32]. No hazard. */
static void test_divergent_arrive(void **state) {
  (void)state;
  char msg[1024];
  const char *ptx = K(REGS, "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sh;\n  and.b32 %r7, %r1, 31;\n"
                            "  shl.b32 %r3, %r7, 2;\n  add.u32 %r4, %r2, %r3;\n"
                            "  setp.ge.u32 %p1, %r1, 32;\n  @%p1 bra CONSUMER;\n"
                            "  setp.ge.u32 %p2, %r1, 16;\n  @%p2 bra UPPER;\n"
                            "  st.shared.u32 [%r4], %r1;\n  bar.arrive 1, 64;\n  bra.uni DONE;\n"
                            "UPPER:\n  st.shared.u32 [%r4], %r1;\n  bar.arrive 1, 64;\n  bra.uni DONE;\n"
                            "CONSUMER:\n  bar.sync 1, 64;\n  ld.shared.u32 %r5, [%r4];\nDONE:\n  ret;\n");
  smemu_ctx *c;
  assert_int_equal(launch(ptx, 64, SMEMU_ANALYZE_RACES, 0, NULL, &c, msg, sizeof msg), SMEMU_OK);
  assert_int_equal(smemu_hazard_count(c), 0);
  smemu_destroy(c);
}

/* A device function with a local array of `frame` bytes, called from the
 * kernel, with `stack` bytes of local memory per thread. */
static int call_frame(uint32_t frame, uint32_t stack, char *msg, size_t msgsz) {
  char ptx[2048];
  snprintf(ptx, sizeof ptx,
           PTX_HEAD ".func f()\n{\n  .local .align 4 .b8 arr[%u];\n  .reg .b32 %%r<4>;\n  mov.u32 %%r1, 1;\n"
                    "  st.local.u32 [arr], %%r1;\n  ret;\n}\n"
                    ".visible .entry k(.param .u64 out)\n{\n  call f, ();\n  ret;\n}\n",
           frame);
  return launch(ptx, 32, 0, stack, NULL, NULL, msg, msgsz);
}

static void test_call_frame_limit(void **state) {
  (void)state;
  char msg[1024];
  /* a kernel that calls has max(its frame, stack) + stack bytes of local
   * memory per thread: 64 + 64 = 128 for f's frame */
  assert_int_equal(call_frame(128, 64, msg, sizeof msg), SMEMU_OK);
  assert_int_equal(call_frame(136, 64, msg, sizeof msg), SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_non_null(strstr(msg, "stack overflow calling f"));
}

/* f(n) calls f(n - 1) until n is 0: n + 1 frames below the kernel's. */
static int recurse(uint32_t n, char *msg, size_t msgsz) {
  char ptx[2048];
  snprintf(ptx, sizeof ptx,
           PTX_HEAD ".func f(.param .b32 n)\n{\n  .reg .b32 %%r<4>;\n  .reg .pred %%p<2>;\n  ld.param.u32 %%r1, [n];\n"
                    "  setp.eq.u32 %%p1, %%r1, 0;\n  @%%p1 bra DONE;\n  sub.u32 %%r2, %%r1, 1;\n"
                    "  {\n  .param .b32 a;\n  st.param.b32 [a], %%r2;\n  call f, (a);\n  }\nDONE:\n  ret;\n}\n"
                    ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %%r<2>;\n  mov.u32 %%r1, %u;\n"
                    "  {\n  .param .b32 a;\n  st.param.b32 [a], %%r1;\n  call f, (a);\n  }\n  ret;\n}\n",
           n);
  return launch(ptx, 32, 0, 65536, NULL, NULL, msg, msgsz);
}

static void test_call_depth(void **state) {
  (void)state;
  char msg[1024];
  assert_int_equal(recurse(254, msg, sizeof msg), SMEMU_OK); /* 1 + 255 frames */
  assert_int_equal(recurse(255, msg, sizeof msg), SMEMU_ERR_ILLEGAL_INSTRUCTION);
  assert_non_null(strstr(msg, "call depth exceeds 256"));
}

static void test_param_read_only(void **state) {
  (void)state;
  char msg[1024];
  const char *ptx = K(REGS, "  mov.u64 %rd1, 5;\n  st.param.u64 [out], %rd1;\n  ret;\n");
  assert_int_equal(launch(ptx, 32, 0, 0, NULL, NULL, msg, sizeof msg), SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_non_null(strstr(msg, "param"));
}

/* 32 lanes run 4 instructions (mov, setp, the guarded add, ret): 128
 * thread instructions, the guard false in half the lanes or not. */
static void test_thread_instructions(void **state) {
  (void)state;
  char msg[1024];
  smemu_ctx *c;
  const char *ptx = K(REGS, "  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 16;\n  @%p1 add.u32 %r2, %r1, 1;\n  ret;\n");
  assert_int_equal(launch(ptx, 32, 0, 0, NULL, &c, msg, sizeof msg), SMEMU_OK);
  assert_int_equal(smemu_last_stats(c)->warp_instructions, 4);
  assert_int_equal(smemu_last_stats(c)->thread_instructions, 128);
  smemu_destroy(c);
}

/* Two warps take 64 tickets each from one counter (atom.add). In the fixed
 * order warp 0 runs until it ends, so it takes tickets 0-63; in the random
 * order (switch points every 1-64 instructions) the warps interleave. */
static int tickets_interleaved(int schedule, uint64_t seed) {
  const char *ptx = PTX_HEAD ".shared .align 4 .b32 ctr;\n"
      ".visible .entry k(.param .u64 out)\n{\n" REGS
      "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [out];\n  mov.u32 %r2, ctr;\n  mov.u32 %r3, 0;\n"
      "  setp.ne.u32 %p1, %r1, 0;\n  setp.ne.u32 %p2, %r1, 32;\n  and.pred %p3, %p1, %p2;\n  @%p3 bra DONE;\n"
      "  shr.u32 %r6, %r1, 5;\n  mul.wide.u32 %rd2, %r6, 256;\n  add.u64 %rd3, %rd1, %rd2;\n"
      "LOOP:\n  atom.shared.add.u32 %r4, [%r2], 1;\n  st.global.u32 [%rd3], %r4;\n  add.u64 %rd3, %rd3, 4;\n"
      "  add.u32 %r3, %r3, 1;\n  setp.lt.u32 %p1, %r3, 64;\n  @%p1 bra LOOP;\nDONE:\n  ret;\n}\n";
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.schedule = schedule;
  o.seed = seed;
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *k;
  uint32_t *out;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  assert_int_equal(smemu_malloc(c, (void **)&out, 128 * 4), SMEMU_OK);
  void *args[] = {&out};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
  if (smemu_module_load_data(c, ptx, strlen(ptx), "rules.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, "k", &k) != SMEMU_OK || smemu_launch(c, k, g, b, 0, args) != SMEMU_OK)
    fail_msg("%s", smemu_errmsg(c));
  int mixed = 0;
  for (int i = 0; i < 64; i++) mixed |= out[i] >= 64; /* warp 0 got a ticket after one of warp 1's */
  smemu_destroy(c);
  return mixed;
}

static void test_random_order_interleaves(void **state) {
  (void)state;
  assert_false(tickets_interleaved(SMEMU_SCHEDULE_FIXED, 0));
  assert_true(tickets_interleaved(SMEMU_SCHEDULE_RANDOM, 1));
}

/* A fault in a 3-D block of 4 x 2 x 4 threads names the thread by
 * (x, y, z): thread (1, 1, 2) (linear 21) reads address 0. */
static void test_fault_thread_2d(void **state) {
  (void)state;
  const char *ptx = K(REGS, "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %tid.y;\n  mov.u32 %r4, %tid.z;\n  add.u32 %r1, %r1, %r2;\n"
                            "  shl.b32 %r4, %r4, 2;\n  add.u32 %r1, %r1, %r4;\n  setp.eq.u32 %p1, %r1, 10;\n"
                            "  setp.eq.u32 %p2, %r2, 1;\n  and.pred %p3, %p1, %p2;\n  @!%p3 bra DONE;\n"
                            "  mov.u64 %rd1, 0;\n  ld.global.u32 %r3, [%rd1];\nDONE:\n  ret;\n");
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  smemu_ctx *c = NULL;
  smemu_module *m;
  smemu_kernel *k;
  assert_int_equal(smemu_create(&o, &c), SMEMU_OK);
  void *buf = NULL;
  void *args[] = {&buf};
  const uint32_t g[3] = {1, 1, 1}, b[3] = {4, 2, 4};
  if (smemu_module_load_data(c, ptx, strlen(ptx), "rules.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, "k", &k) != SMEMU_OK)
    fail_msg("%s", smemu_errmsg(c));
  assert_int_equal(smemu_launch(c, k, g, b, 0, args), SMEMU_ERR_ILLEGAL_ADDRESS);
  if (!strstr(smemu_errmsg(c), "thread (1,1,2)")) fail_msg("%s", smemu_errmsg(c));
  smemu_destroy(c);
}

/* One warp in three groups (lanes 0-9, 10-19, 20-31), each at its own
 * bar.sync 0: the barrier completes once all three have arrived. */
static void test_three_paths_at_one_barrier(void **state) {
  (void)state;
  char msg[1024];
  const char *ptx = K(REGS, "  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 10;\n  @%p1 bra A;\n"
                            "  setp.lt.u32 %p2, %r1, 20;\n  @%p2 bra B;\n  bar.sync 0;\n  bra.uni DONE;\n"
                            "A:\n  bar.sync 0;\n  bra.uni DONE;\nB:\n  bar.sync 0;\nDONE:\n  ret;\n");
  assert_int_equal(launch(ptx, 32, 0, 0, NULL, NULL, msg, sizeof msg), SMEMU_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bar_count_multiple_of_32), cmocka_unit_test(test_bar_two_counts),
      cmocka_unit_test(test_divergent_halves_at_one_barrier), cmocka_unit_test(test_divergent_halves_values),
      cmocka_unit_test(test_divergent_arrive),         cmocka_unit_test(test_call_frame_limit),
      cmocka_unit_test(test_call_depth),               cmocka_unit_test(test_param_read_only),
      cmocka_unit_test(test_thread_instructions),      cmocka_unit_test(test_random_order_interleaves),
      cmocka_unit_test(test_fault_thread_2d),          cmocka_unit_test(test_three_paths_at_one_barrier),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
