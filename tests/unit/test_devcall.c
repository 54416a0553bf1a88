/* test_devcall.c: the executor's side of the device runtime
 * (src/exec/devcall.c, smemu_set_devcall): a kernel's call of
 * __cudaCDP2GetParameterBufferV2 reaches the hook once per calling thread,
 * in lane order, with each argument's bytes (the dim3s whole), the calling
 * block and thread, the kernel and the function address that
 * smemu_kernel_at turns back into the child kernel; the hook's value is
 * the call's result; a hook's -1 faults the thread with its message; its
 * access function reads and writes the thread's memory; without a hook
 * the call faults; cudaMalloc/cudaFree from the device take blocks of the
 * device heap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "smemu.h"

static const char ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2(.param .b64 a, .param .align 4 .b8 b[12],"
    " .param .align 4 .b8 c[12], .param .b32 d);\n"
    ".extern .func (.param .b32 r) __cudaCDP2GetDevice(.param .b64 a);\n"
    ".extern .func (.param .b32 r) __cudaCDP2Malloc(.param .b64 a, .param .b64 b);\n"
    ".extern .func (.param .b32 r) __cudaCDP2Free(.param .b64 a);\n"
    ".visible .entry child(.param .u64 a) { ret; }\n"
    ".visible .entry parent(.param .u64 out) {\n"
    "  .local .align 8 .b8 buf[8];\n"
    "  .reg .b64 %rd<12>; .reg .b32 %r<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u64 %rd2, child;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 8;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  { .param .b64 p0; st.param.b64 [p0], %rd2;\n"
    "    .param .align 4 .b8 p1[12]; st.param.b32 [p1], 3; st.param.b32 [p1+4], 1; st.param.b32 [p1+8], 1;\n"
    "    .param .align 4 .b8 p2[12]; st.param.b32 [p2], %r1; st.param.b32 [p2+4], 2; st.param.b32 [p2+8], "
    "1;\n"
    "    .param .b32 p3; st.param.b32 [p3], 64;\n"
    "    .param .b64 r0;\n"
    "    call.uni (r0), __cudaCDP2GetParameterBufferV2, (p0, p1, p2, p3);\n"
    "    ld.param.b64 %rd3, [r0]; }\n"
    "  st.global.u64 [%rd5], %rd3;\n"
    "  mov.u64 %rd6, buf;\n"
    "  cvta.local.u64 %rd6, %rd6;\n"
    "  { .param .b64 p0; st.param.b64 [p0], %rd6; .param .b32 r0;\n"
    "    call.uni (r0), __cudaCDP2GetDevice, (p0); ld.param.b32 %r2, [r0]; }\n"
    "  ld.local.u64 %rd7, [buf];\n"
    "  st.global.u64 [%rd5+32], %rd7;\n"
    "  { .param .b64 p0; st.param.b64 [p0], %rd6; .param .b64 p1; st.param.b64 [p1], 40; .param .b32 r0;\n"
    "    call.uni (r0), __cudaCDP2Malloc, (p0, p1); ld.param.b32 %r3, [r0]; }\n"
    "  ld.local.u64 %rd8, [buf];\n"
    "  st.global.u64 [%rd5+64], %rd8;\n"
    "  { .param .b64 p0; st.param.b64 [p0], %rd8; .param .b32 r0;\n"
    "    call.uni (r0), __cudaCDP2Free, (p0); ld.param.b32 %r4, [r0]; }\n"
    "  add.s32 %r5, %r3, %r4;\n"
    "  cvt.u64.u32 %rd9, %r5;\n"
    "  st.global.u64 [%rd5+96], %rd9;\n"
    "  ret;\n"
    "}\n";

typedef struct seen {
  int calls, bad;
  smemu_kernel *child;
  int fail_thread; /* thread whose call fails, or -1 */
} seen;

static int hook(smemu_devcall *c, uint64_t *ret, void *user) {
  seen *s = user;
  uint32_t t = c->thread[0];
  if (!strcmp(c->fn, "GetDevice")) {
    /* writes through the thread's local address */
    uint64_t v = 0x5000 + t;
    return c->access(c->cookie, *(uint64_t *)c->args[0], &v, 8, 1) < 0 ? -1 : 0;
  }
  /* lane order: thread t is the t-th call */
  if (strcmp(c->name, "__cudaCDP2GetParameterBufferV2") || strcmp(c->fn, "GetParameterBufferV2") ||
      c->nargs != 4 || t != (uint32_t)s->calls)
    s->bad++;
  s->calls++;
  uint64_t fn;
  uint32_t g[3], b[3], shared;
  memcpy(&fn, c->args[0], 8);
  memcpy(g, c->args[1], 12);
  memcpy(b, c->args[2], 12);
  memcpy(&shared, c->args[3], 4);
  if (c->arg_size[1] != 12 || g[0] != 3 || g[1] != 1 || g[2] != 1 || b[0] != t || b[1] != 2 || b[2] != 1 ||
      shared != 64 || c->block_dim[0] != 4 || c->block[0] != 0)
    s->bad++;
  if (smemu_kernel_at(c->kernel, fn) != s->child || strcmp(smemu_kernel_name(c->kernel), "parent")) s->bad++;
  if ((int)t == s->fail_thread) {
    snprintf(c->msg, sizeof c->msg, "refused for the test");
    return -1;
  }
  *ret = 0x1000 + t;
  return 0;
}

/* What a launch of parent (one block of 4 threads) gave. */
typedef struct result {
  seen s;
  uint64_t out[16];
  smemu_status st;
  char msg[1024];
} result;

/* fail_thread: the thread whose call the hook refuses, -1 none, -2: no hook. */
static void run(int fail_thread, result *r) {
  memset(r, 0, sizeof *r);
  r->s.fail_thread = fail_thread;
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  smemu_ctx *ctx = NULL;
  assert_int_equal(smemu_create(&o, &ctx), SMEMU_OK);
  smemu_module *m = NULL;
  assert_int_equal(smemu_module_load_data(ctx, ptx, sizeof ptx - 1, "devcall.ptx", &m), SMEMU_OK);
  smemu_kernel *k = NULL;
  assert_int_equal(smemu_module_get_kernel(m, "parent", &k), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(m, "child", &r->s.child), SMEMU_OK);
  assert_true(smemu_kernel_uses_devrt(k));
  assert_true(smemu_kernel_calls(k, "__cudaCDP2GetParameterBufferV2"));
  assert_false(smemu_kernel_calls(k, "cudaGraphLaunch"));
  assert_false(smemu_kernel_uses_devrt(r->s.child));
  assert_ptr_equal(smemu_kernel_module(k), m);
  if (fail_thread != -2) smemu_set_devcall(ctx, hook, &r->s);
  void *d = NULL;
  assert_int_equal(smemu_malloc(ctx, &d, 16 * 8), SMEMU_OK);
  memset(d, 0, 16 * 8);
  uint32_t grid[3] = {1, 1, 1}, block[3] = {4, 1, 1};
  void *args[] = {&d};
  r->st = smemu_launch(ctx, k, grid, block, 0, args);
  snprintf(r->msg, sizeof r->msg, "%s", smemu_errmsg(ctx));
  memcpy(r->out, d, 16 * 8);
  smemu_destroy(ctx);
}

static void test_calls(void **state) {
  (void)state;
  result r;
  run(-1, &r);
  const uint64_t *out = r.out;
  assert_int_equal(r.st, SMEMU_OK);
  assert_int_equal(r.s.calls, 4);
  assert_int_equal(r.s.bad, 0);
  for (int t = 0; t < 4; t++) {
    assert_int_equal(out[t], 0x1000 + t);     /* the hook's result */
    assert_int_equal(out[4 + t], 0x5000 + t); /* written through access */
    assert_int_not_equal(out[8 + t], 0);      /* a heap block */
    assert_int_equal(out[8 + t] % 16, 0);
    for (int u = 0; u < t; u++) assert_true(out[8 + t] >= out[8 + u] + 40 || out[8 + u] >= out[8 + t] + 40);
    assert_int_equal(out[12 + t], 0); /* cudaMalloc and cudaFree returned cudaSuccess */
  }
}

static void test_refused(void **state) {
  (void)state;
  result r;
  run(2, &r);
  assert_int_not_equal(r.st, SMEMU_OK);
  assert_non_null(strstr(r.msg, "thread (2,0,0)"));
  assert_non_null(strstr(r.msg, "__cudaCDP2GetParameterBufferV2: refused for the test"));
}

static void test_no_hook(void **state) {
  (void)state;
  result r;
  run(-2, &r);
  assert_int_equal(r.st, SMEMU_ERR_UNSUPPORTED);
  assert_non_null(strstr(r.msg, "needs the CUDA runtime"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_calls),
      cmocka_unit_test(test_refused),
      cmocka_unit_test(test_no_hook),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
