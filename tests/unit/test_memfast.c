/* test_memfast.c: the fast paths of ld/st (src/exec/memfast.c) against
 * what the generic handler does: global .v2/.v4 accesses of a full and a
 * partial warp, a destination that is the address register, lanes spread
 * over two allocations, a misaligned and an out-of-bounds vector (the
 * faults the generic handler reports), a sign-extending vector load, and
 * ld.param at one address for all lanes and at two. Expected values are
 * the input bytes as the PTX rules place them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

enum { T = 48 }; /* one full warp and 16 lanes of a second */

static uint64_t rd64(const void *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static const char PRO[] = "  .reg .pred %p<2>;\n"
                          "  .reg .b32 %r<8>;\n"
                          "  .reg .b64 %rd<16>;\n"
                          "  ld.param.u64 %rd1, [pout];\n"
                          "  ld.param.u64 %rd2, [pin];\n"
                          "  cvta.to.global.u64 %rd1, %rd1;\n"
                          "  cvta.to.global.u64 %rd2, %rd2;\n"
                          "  mov.u32 %r1, %tid.x;\n"
                          "  mul.wide.u32 %rd3, %r1, 16;\n"
                          "  add.s64 %rd4, %rd2, %rd3;\n"
                          "  add.s64 %rd6, %rd1, %rd3;\n";

static char *kernel(const char *body) {
  static const char head[] = PTX_HEAD ".visible .entry k(.param .u64 pout, .param .u64 pin)\n{\n";
  size_t n = strlen(head) + strlen(PRO) + strlen(body) + 16;
  char *s = malloc(n);
  assert_non_null(s);
  snprintf(s, n, "%s%s%s  ret;\n}\n", head, PRO, body);
  return s;
}

static int run(const char *body, uint8_t *in, size_t in_bytes, uint8_t *out, size_t out_bytes, char *err,
               size_t n) {
  char *src = kernel(body);
  uint8_t *din = dev_in(in, in_bytes), *dout = dev_alloc(out_bytes, 0xcd);
  void *args[] = {&dout, &din};
  int st = ptxrun(src, "k", 1, T, 0, args, err, n);
  memcpy(out, dout, out_bytes);
  dev_free(din);
  dev_free(dout);
  free(src);
  return st;
}

static void fill(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 29 + 7);
}

/* The destination's first element is the address register: the second
 * element still comes from the address the instruction started with. */
static void test_vector_address_register_overwritten(void **state) {
  (void)state;
  uint8_t in[T * 16], out[T * 16];
  char err[1024];
  fill(in, sizeof in);
  PTX_OK(run("  ld.global.v2.u64 {%rd4, %rd7}, [%rd4];\n"
             "  st.global.v2.u64 [%rd6], {%rd4, %rd7};\n",
             in, sizeof in, out, sizeof out, err, sizeof err),
         err);
  for (int t = 0; t < T; t++) {
    assert_int_equal(rd64(out + 16 * t), rd64(in + 16 * t));
    assert_int_equal(rd64(out + 16 * t + 8), rd64(in + 16 * t + 8));
  }
}

/* v4.u32 in and out, full and partial warp; v2.s32 into 64-bit registers
 * sign-extends */
static void test_vector_forms(void **state) {
  (void)state;
  uint8_t in[T * 16], out[T * 16];
  char err[1024];
  fill(in, sizeof in);
  PTX_OK(run("  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
             "  st.global.v4.u32 [%rd6], {%r5, %r4, %r3, %r2};\n",
             in, sizeof in, out, sizeof out, err, sizeof err),
         err);
  for (int t = 0; t < T; t++)
    for (int e = 0; e < 4; e++) assert_memory_equal(out + 16 * t + 4 * e, in + 16 * t + 4 * (3 - e), 4);
  for (int t = 0; t < T; t++) {
    uint32_t neg = 0x80000000u + (uint32_t)t, pos = (uint32_t)t;
    memcpy(in + 16 * t, &neg, 4);
    memcpy(in + 16 * t + 4, &pos, 4);
  }
  PTX_OK(run("  ld.global.v2.s32 {%rd7, %rd8}, [%rd4];\n"
             "  st.global.v2.u64 [%rd6], {%rd7, %rd8};\n",
             in, sizeof in, out, sizeof out, err, sizeof err),
         err);
  for (int t = 0; t < T; t++) {
    assert_int_equal(rd64(out + 16 * t), 0xffffffff80000000ull + (uint64_t)t);
    assert_int_equal(rd64(out + 16 * t + 8), (uint64_t)t);
  }
}

/* Lanes 0-15 read pin, lanes 16-47 read pout (two allocations in one
 * warp's span): the values are still each lane's own. */
static void test_vector_two_allocations(void **state) {
  (void)state;
  uint8_t in[T * 16], out[T * 16];
  char err[1024];
  fill(in, sizeof in);
  PTX_OK(run("  setp.lt.u32 %p1, %r1, 16;\n"
             "  selp.b64 %rd9, %rd4, %rd6, %p1;\n"
             "  ld.global.v2.u64 {%rd10, %rd11}, [%rd9];\n"
             "  st.global.v2.u64 [%rd6], {%rd11, %rd10};\n",
             in, sizeof in, out, sizeof out, err, sizeof err),
         err);
  for (int t = 0; t < 16; t++) {
    assert_int_equal(rd64(out + 16 * t), rd64(in + 16 * t + 8));
    assert_int_equal(rd64(out + 16 * t + 8), rd64(in + 16 * t));
  }
  for (int t = 16; t < T; t++) assert_int_equal(rd64(out + 16 * t), 0xcdcdcdcdcdcdcdcdull);
}

/* A v4 at 4 bytes past 16-byte alignment faults as misaligned; one lane
 * past the end of the buffer faults as an illegal address, and its warp
 * (the second) stores nothing while the first warp's lanes all store. */
static void test_vector_faults(void **state) {
  (void)state;
  uint8_t in[T * 16], out[T * 16];
  char err[1024];
  fill(in, sizeof in);
  int st = run("  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4+4];\n"
               "  st.global.v4.u32 [%rd6], {%r2, %r3, %r4, %r5};\n",
               in, sizeof in, out, sizeof out, err, sizeof err);
  assert_int_equal(st, SMEMU_ERR_MISALIGNED);
  st = run("  st.global.v4.u32 [%rd6+16], {%r1, %r1, %r1, %r1};\n", in, sizeof in, out, sizeof out, err,
           sizeof err);
  assert_int_equal(st, SMEMU_ERR_ILLEGAL_ADDRESS);
  for (size_t i = 0; i < sizeof out; i++) {
    size_t t = i / 16 - 1; /* the thread that stored at i, if its warp ran */
    uint32_t v;
    memcpy(&v, out + (i & ~(size_t)3), 4);
    if (i >= 16 && t < 32)
      assert_int_equal(v, t);
    else
      assert_int_equal(out[i], 0xcd);
  }
}

/* ld.param through a register: all lanes at one address, then even lanes
 * at pout and odd lanes at pin. */
static void test_param_uniform_and_not(void **state) {
  (void)state;
  uint8_t in[T * 16], out[T * 16];
  char err[1024];
  fill(in, sizeof in);
  PTX_OK(run("  mov.u64 %rd9, pin;\n"
             "  and.b32 %r2, %r1, 1;\n"
             "  mul.wide.u32 %rd10, %r2, 8;\n"
             "  sub.s64 %rd11, %rd9, %rd10;\n"
             "  ld.param.u64 %rd12, [%rd9];\n"
             "  ld.param.u64 %rd13, [%rd11];\n"
             "  st.global.v2.u64 [%rd6], {%rd12, %rd13};\n",
             in, sizeof in, out, sizeof out, err, sizeof err),
         err);
  uint64_t pin = rd64(out), pout = 0;
  for (int t = 0; t < T; t++) {
    assert_int_equal(rd64(out + 16 * t), pin);
    if (t & 1) pout = rd64(out + 16 * t + 8);
  }
  assert_true(pout != pin);
  for (int t = 0; t < T; t++) assert_int_equal(rd64(out + 16 * t + 8), (t & 1) ? pout : pin);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vector_address_register_overwritten),
      cmocka_unit_test(test_vector_forms),
      cmocka_unit_test(test_vector_two_allocations),
      cmocka_unit_test(test_vector_faults),
      cmocka_unit_test(test_param_uniform_and_not),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
