/* test_mem.c: unit tests of smemu's memory instructions: ld/st in every state
 * space, width and vector form, ordering qualifiers, module variables with
 * initializers, dynamic shared memory layout, and atom/red with many lanes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/bytes.h"
#include "ptxrun.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))


/* ---- ld/st global: widths and extension ------------------------------- */

static void test_ld_st_global_widths(void **state) {
  (void)state;
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
      "{\n"
      "  .reg .b16 %h<4>;\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .b64 %rd<12>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  ld.param.u64 %rd2, [pin];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  cvta.to.global.u64 %rd2, %rd2;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd3, %r1, 8;\n"
      "  add.s64 %rd4, %rd2, %rd3;\n"
      "  mul.wide.u32 %rd5, %r1, 96;\n"
      "  add.s64 %rd6, %rd1, %rd5;\n"
      "  ld.global.u8 %r2, [%rd4];\n    st.global.u32 [%rd6], %r2;\n"
      "  ld.global.s8 %r3, [%rd4];\n    st.global.u32 [%rd6+8], %r3;\n"
      "  ld.global.u16 %r4, [%rd4];\n   st.global.u32 [%rd6+16], %r4;\n"
      "  ld.global.s16 %r5, [%rd4];\n   st.global.u32 [%rd6+24], %r5;\n"
      "  ld.global.u32 %r6, [%rd4];\n   st.global.u32 [%rd6+32], %r6;\n"
      "  ld.global.s32 %rd7, [%rd4];\n  st.global.u64 [%rd6+40], %rd7;\n"
      "  ld.global.u64 %rd8, [%rd4];\n  st.global.u64 [%rd6+48], %rd8;\n"
      "  ld.global.s8 %rd9, [%rd4+1];\n st.global.u64 [%rd6+56], %rd9;\n"
      "  ld.global.b16 %h1, [%rd4+2];\n st.global.b16 [%rd6+64], %h1;\n"
      "  ld.global.u8 %h2, [%rd4+7];\n  st.global.u8 [%rd6+72], %h2;\n"
      "  ld.global.s8 %h3, [%rd4+7];\n  st.global.b16 [%rd6+80], %h3;\n"
      "  ld.global.f32 %r7, [%rd4+4];\n st.global.f32 [%rd6+88], %r7;\n"
      "  ret;\n"
      "}\n";
  enum { T = 64 };
  uint64_t in[T];
  uint8_t *out;
  char err[1024];
  for (int t = 0; t < T; t++)
    in[t] = 0x8877665544332211ull ^ ((uint64_t)t * 0x0f1e2d3c4b5a6978ull) ^ ((uint64_t)(t & 1) << 7);
  uint64_t *din = dev_in(in, sizeof in);
  out = dev_alloc(T * 96, 0xcd);
  void *args[] = {&out, &din};
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (int t = 0; t < T; t++) {
    const uint8_t *o = out + 96 * t;
    uint64_t x = in[t];
    assert_int_equal(rd32(o), (uint32_t)(uint8_t)x);
    assert_int_equal(rd32(o + 8), (uint32_t)(int32_t)(int8_t)(uint8_t)x);
    assert_int_equal(rd32(o + 16), (uint32_t)(uint16_t)x);
    assert_int_equal(rd32(o + 24), (uint32_t)(int32_t)(int16_t)(uint16_t)x);
    assert_int_equal(rd32(o + 32), (uint32_t)x);
    assert_int_equal(rd64(o + 40), (uint64_t)(int64_t)(int32_t)(uint32_t)x);
    assert_int_equal(rd64(o + 48), x);
    assert_int_equal(rd64(o + 56), (uint64_t)(int64_t)(int8_t)(uint8_t)(x >> 8));
    assert_int_equal(rd16(o + 64), (uint16_t)(x >> 16));
    assert_int_equal(o[72], (uint8_t)(x >> 56));
    for (int b = 73; b < 80; b++) assert_int_equal(o[b], 0xcd); /* st.u8 wrote one byte */
    assert_int_equal(rd16(o + 80), (uint16_t)(int16_t)(int8_t)(uint8_t)(x >> 56));
    assert_int_equal(rd32(o + 88), (uint32_t)(x >> 32));
    assert_int_equal(rd32(o + 92), 0xcdcdcdcd);
  }
  dev_free(din);
  dev_free(out);
}

static void test_ld_st_global_vectors(void **state) {
  (void)state;
  /* Per thread 32 input bytes; each vector is stored back with its elements
   * reversed, so element order is checked. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
      "{\n"
      "  .reg .b16 %h<12>;\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .f32 %f<3>;\n"
      "  .reg .b64 %rd<10>;\n"
      "  .reg .f64 %fd<3>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  ld.param.u64 %rd2, [pin];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  cvta.to.global.u64 %rd2, %rd2;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd3, %r1, 32;\n"
      "  add.s64 %rd4, %rd2, %rd3;\n"
      "  mul.wide.u32 %rd5, %r1, 96;\n"
      "  add.s64 %rd6, %rd1, %rd5;\n"
      "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
      "  st.global.v4.u32 [%rd6], {%r5, %r4, %r3, %r2};\n"
      "  ld.global.v2.u64 {%rd7, %rd8}, [%rd4+16];\n"
      "  st.global.v2.u64 [%rd6+16], {%rd8, %rd7};\n"
      "  ld.global.v2.u16 {%h1, %h2}, [%rd4+4];\n"
      "  st.global.v2.u16 [%rd6+32], {%h2, %h1};\n"
      "  ld.global.v4.u16 {%h3, %h4, %h5, %h6}, [%rd4+8];\n"
      "  st.global.v4.u16 [%rd6+40], {%h6, %h5, %h4, %h3};\n"
      "  ld.global.v2.f32 {%f1, %f2}, [%rd4+24];\n"
      "  st.global.v2.f32 [%rd6+48], {%f2, %f1};\n"
      "  ld.global.v4.u8 {%h7, %h8, %h9, %h10}, [%rd4+12];\n"
      "  st.global.v4.u8 [%rd6+56], {%h10, %h9, %h8, %h7};\n"
      "  ld.global.v2.f64 {%fd1, %fd2}, [%rd4+16];\n"
      "  st.global.v2.f64 [%rd6+64], {%fd2, %fd1};\n"
      "  ld.global.v2.s32 {%r6, %r7}, [%rd4];\n"
      "  st.global.v2.s32 [%rd6+80], {%r7, %r6};\n"
      "  ret;\n"
      "}\n";
  enum { T = 32 };
  uint8_t in[T * 32];
  uint8_t *out;
  char err[1024];
  for (int i = 0; i < (int)sizeof in; i++) in[i] = (uint8_t)(i * 37 + 11);
  uint8_t *din = dev_in(in, sizeof in);
  out = dev_alloc(T * 96, 0xcd);
  void *args[] = {&out, &din};
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (int t = 0; t < T; t++) {
    const uint8_t *x = in + 32 * t, *o = out + 96 * t;
    for (int e = 0; e < 4; e++) assert_int_equal(rd32(o + 4 * e), rd32(x + 4 * (3 - e)));
    assert_int_equal(rd64(o + 16), rd64(x + 24));
    assert_int_equal(rd64(o + 24), rd64(x + 16));
    assert_int_equal(rd16(o + 32), rd16(x + 6));
    assert_int_equal(rd16(o + 34), rd16(x + 4));
    for (int e = 0; e < 4; e++) assert_int_equal(rd16(o + 40 + 2 * e), rd16(x + 8 + 2 * (3 - e)));
    assert_int_equal(rd32(o + 48), rd32(x + 28));
    assert_int_equal(rd32(o + 52), rd32(x + 24));
    for (int e = 0; e < 4; e++) assert_int_equal(o[56 + e], x[12 + 3 - e]);
    assert_int_equal(rd32(o + 60), 0xcdcdcdcd);
    assert_int_equal(rd64(o + 64), rd64(x + 24));
    assert_int_equal(rd64(o + 72), rd64(x + 16));
    assert_int_equal(rd32(o + 80), rd32(x + 4));
    assert_int_equal(rd32(o + 84), rd32(x));
  }
  dev_free(din);
  dev_free(out);
}

/* ---- shared and local ---------------------------------------------------- */

static void test_ld_st_shared(void **state) {
  (void)state;
  /* Thread t stores an 8-, 16-, 32-, 64-bit and a v4.u32 value derived from t
   * into its slots of a static shared array; after bar.sync it reads the
   * slots of thread (t+1) % 128 (s8/s16 loads sign-extend). */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .shared .align 16 .b8 sm[4096];\n"
      "  .reg .b16 %h<4>;\n"
      "  .reg .b32 %r<16>;\n"
      "  .reg .b64 %rd<16>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u32 %r2, sm;\n"
      "  mul.lo.u32 %r3, %r1, 0x01030507;\n"  /* value v(t) */
      "  add.u32 %r4, %r2, %r1;\n"
      "  st.shared.u8 [%r4], %r3;\n"
      "  mad.lo.u32 %r4, %r1, 2, %r2;\n"
      "  st.shared.u16 [%r4+256], %r3;\n"
      "  mad.lo.u32 %r4, %r1, 4, %r2;\n"
      "  st.shared.u32 [%r4+512], %r3;\n"
      "  cvt.u64.u32 %rd2, %r3;\n"
      "  shl.b64 %rd3, %rd2, 32;\n"
      "  or.b64 %rd3, %rd3, %rd2;\n"
      "  xor.b64 %rd3, %rd3, 0xff00000000000000;\n"
      "  mad.lo.u32 %r4, %r1, 8, %r2;\n"
      "  st.shared.u64 [%r4+1024], %rd3;\n"
      "  add.u32 %r5, %r3, 1;\n  add.u32 %r6, %r3, 2;\n  add.u32 %r7, %r3, 3;\n"
      "  mad.lo.u32 %r4, %r1, 16, %r2;\n"
      "  st.shared.v4.u32 [%r4+2048], {%r3, %r5, %r6, %r7};\n"
      "  bar.sync 0;\n"
      "  add.u32 %r8, %r1, 1;\n"
      "  and.b32 %r8, %r8, 127;\n"              /* neighbour n */
      "  mul.wide.u32 %rd4, %r1, 48;\n"
      "  add.s64 %rd5, %rd1, %rd4;\n"
      "  add.u32 %r4, %r2, %r8;\n"
      "  ld.shared.s8 %r9, [%r4];\n"
      "  st.global.u32 [%rd5], %r9;\n"
      "  mad.lo.u32 %r4, %r8, 2, %r2;\n"
      "  ld.shared.s16 %r9, [%r4+256];\n"
      "  st.global.u32 [%rd5+4], %r9;\n"
      "  mad.lo.u32 %r4, %r8, 4, %r2;\n"
      "  ld.shared.u32 %r9, [%r4+512];\n"
      "  st.global.u32 [%rd5+8], %r9;\n"
      "  mad.lo.u32 %r4, %r8, 8, %r2;\n"
      "  ld.shared.u64 %rd6, [%r4+1024];\n"
      "  st.global.u64 [%rd5+16], %rd6;\n"
      "  mad.lo.u32 %r4, %r8, 16, %r2;\n"
      "  ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r4+2048];\n"
      "  st.global.v4.u32 [%rd5+32], {%r10, %r11, %r12, %r13};\n"
      "  ld.shared.u8 %h1, [sm+5];\n"           /* direct symbol addressing */
      "  cvt.u32.u16 %r14, %h1;\n"
      "  st.global.u32 [%rd5+12], %r14;\n"
      "  ret;\n"
      "}\n";
  enum { T = 128 };
  uint8_t *out = dev_alloc(T * 48, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (int t = 0; t < T; t++) {
    int n = (t + 1) % T;
    uint32_t v = (uint32_t)n * 0x01030507u;
    uint64_t v64 = ((uint64_t)v << 32 | v) ^ 0xff00000000000000ull;
    const uint8_t *o = out + 48 * t;
    assert_int_equal(rd32(o), (uint32_t)(int32_t)(int8_t)(uint8_t)v);
    assert_int_equal(rd32(o + 4), (uint32_t)(int32_t)(int16_t)(uint16_t)v);
    assert_int_equal(rd32(o + 8), v);
    assert_int_equal(rd32(o + 12), (uint8_t)(5u * 0x01030507u));
    assert_int_equal(rd64(o + 16), v64);
    for (int e = 0; e < 4; e++) assert_int_equal(rd32(o + 32 + 4 * e), v + (uint32_t)e);
  }
  dev_free(out);
}

static void test_ld_st_local(void **state) {
  (void)state;
  /* Each thread fills a private .local array with t + i (register-indexed),
   * meets the others at a barrier, then sums its array; a second, larger
   * local array checks its first and last words; local v2 and s8 forms. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .local .align 8 .b8 lb[64];\n"
      "  .local .align 4 .b8 big[800];\n"
      "  .reg .b32 %r<12>;\n"
      "  .reg .b64 %rd<8>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u64 %rd2, lb;\n"
      "  mov.u32 %r2, 0;\n"
      "FILL:\n"
      "  add.u32 %r3, %r1, %r2;\n"
      "  mul.wide.u32 %rd3, %r2, 4;\n"
      "  add.s64 %rd4, %rd2, %rd3;\n"
      "  st.local.u32 [%rd4], %r3;\n"
      "  add.u32 %r2, %r2, 1;\n"
      "  setp.lt.u32 %p1, %r2, 16;\n"
      "  @%p1 bra FILL;\n"
      "  st.local.u32 [big], %r1;\n"
      "  add.u32 %r9, %r1, 77;\n"
      "  st.local.u32 [big+796], %r9;\n"
      "  bar.sync 0;\n"
      "  mov.u32 %r4, 0;\n"
      "  mov.u32 %r2, 0;\n"
      "SUM:\n"
      "  mul.wide.u32 %rd3, %r2, 4;\n"
      "  add.s64 %rd4, %rd2, %rd3;\n"
      "  ld.local.u32 %r3, [%rd4];\n"
      "  add.u32 %r4, %r4, %r3;\n"
      "  add.u32 %r2, %r2, 1;\n"
      "  setp.lt.u32 %p1, %r2, 16;\n"
      "  @%p1 bra SUM;\n"
      "  ld.local.v2.u32 {%r5, %r6}, [lb+8];\n"  /* t+2, t+3 */
      "  mov.u32 %r7, 0xfe;\n"
      "  st.local.u8 [lb+63], %r7;\n"
      "  ld.local.s8 %r8, [lb+63];\n"            /* -2 */
      "  ld.local.u32 %r10, [big];\n"
      "  ld.local.u32 %r11, [big+796];\n"
      "  mul.wide.u32 %rd5, %r1, 24;\n"
      "  add.s64 %rd6, %rd1, %rd5;\n"
      "  st.global.u32 [%rd6], %r4;\n"
      "  st.global.u32 [%rd6+4], %r8;\n"
      "  st.global.v2.u32 [%rd6+8], {%r5, %r6};\n"
      "  st.global.u32 [%rd6+16], %r10;\n"
      "  st.global.u32 [%rd6+20], %r11;\n"
      "  ret;\n"
      "}\n";
  enum { T = 96 };
  uint32_t *out = dev_alloc(T * 24, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (uint32_t t = 0; t < T; t++) {
    assert_int_equal(out[6 * t], 16 * t + 120);
    assert_int_equal(out[6 * t + 1], 0xfffffffe);
    assert_int_equal(out[6 * t + 2], t + 2);
    assert_int_equal(out[6 * t + 3], t + 3);
    assert_int_equal(out[6 * t + 4], t);
    assert_int_equal(out[6 * t + 5], t + 77);
  }
  dev_free(out);
}

/* ---- param ----------------------------------------------------------------- */

static void test_ld_param_all_types(void **state) {
  (void)state;
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u8 pa, .param .u16 pb, .param .u32 pc, .param .u64 pd,\n"
      "                  .param .f32 pe, .param .f64 pf, .param .s8 pg,\n"
      "                  .param .align 8 .b8 ps[16], .param .u64 pout)\n"
      "{\n"
      "  .reg .b16 %h<4>;\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .f32 %f1;\n"
      "  .reg .b64 %rd<8>;\n"
      "  .reg .f64 %fd1;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  ld.param.u8 %h1, [pa];\n"
      "  ld.param.u16 %h2, [pb];\n"
      "  ld.param.u32 %r1, [pc];\n"
      "  ld.param.u64 %rd2, [pd];\n"
      "  ld.param.f32 %f1, [pe];\n"
      "  ld.param.f64 %fd1, [pf];\n"
      "  ld.param.s8 %r2, [pg];\n"
      "  ld.param.u32 %r3, [ps];\n"
      "  ld.param.v2.u32 {%r4, %r5}, [ps+8];\n"
      "  ld.param.u8 %r6, [ps+1];\n"
      "  st.global.u16 [%rd1], %h1;\n"
      "  st.global.u16 [%rd1+2], %h2;\n"
      "  st.global.u32 [%rd1+4], %r1;\n"
      "  st.global.u64 [%rd1+8], %rd2;\n"
      "  st.global.f32 [%rd1+16], %f1;\n"
      "  st.global.u32 [%rd1+20], %r2;\n"
      "  st.global.f64 [%rd1+24], %fd1;\n"
      "  st.global.u32 [%rd1+32], %r3;\n"
      "  st.global.u32 [%rd1+36], %r4;\n"
      "  st.global.u32 [%rd1+40], %r5;\n"
      "  st.global.u32 [%rd1+44], %r6;\n"
      "  ret;\n"
      "}\n";
  uint8_t a = 0xfe;
  uint16_t b = 0xbeef;
  uint32_t c = 0xdeadbeef;
  uint64_t d = 0x0123456789abcdefull;
  float e = -1.25f;
  double f = 3.5;
  int8_t g = -3;
  uint8_t s[16];
  for (int i = 0; i < 16; i++) s[i] = (uint8_t)(0xa0 + i);
  uint8_t *out = dev_alloc(48, 0xcd);
  void *args[] = {&a, &b, &c, &d, &e, &f, &g, s, &out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 1, 0, args, err, sizeof err), err);
  assert_int_equal(rd16(out), 0xfe);
  assert_int_equal(rd16(out + 2), 0xbeef);
  assert_int_equal(rd32(out + 4), 0xdeadbeef);
  assert_int_equal(rd64(out + 8), 0x0123456789abcdefull);
  assert_int_equal(rd32(out + 16), f2u(-1.25f));
  assert_int_equal(rd32(out + 20), 0xfffffffd);
  assert_int_equal(rd64(out + 24), d2u(3.5));
  assert_int_equal(rd32(out + 32), rd32(s));
  assert_int_equal(rd32(out + 36), rd32(s + 8));
  assert_int_equal(rd32(out + 40), rd32(s + 12));
  assert_int_equal(rd32(out + 44), 0xa1);
  dev_free(out);
}

static void test_param_layout(void **state) {
  (void)state;
  /* The parameter buffer follows each parameter's alignment. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u8 pa, .param .u16 pb, .param .u32 pc, .param .u64 pd,\n"
      "                  .param .f32 pe, .param .f64 pf, .param .s8 pg,\n"
      "                  .param .align 8 .b8 ps[16], .param .u64 pout)\n"
      "{\n"
      "  ret;\n"
      "}\n";
  static const uint32_t off[] = {0, 2, 4, 8, 16, 24, 32, 40, 56};
  static const uint32_t size[] = {1, 2, 4, 8, 4, 8, 1, 16, 8};
  smemu_module *m;
  smemu_kernel *k;
  smemu_ctx *ctx = ptxrun_ctx();
  assert_int_equal(smemu_module_load_data(ctx, ptx, strlen(ptx), "layout.ptx", &m), SMEMU_OK);
  assert_int_equal(smemu_module_get_kernel(m, "k", &k), SMEMU_OK);
  assert_int_equal(smemu_kernel_param_count(k), 9);
  for (int i = 0; i < 9; i++) {
    smemu_param_info pi;
    assert_int_equal(smemu_kernel_param(k, i, &pi), SMEMU_OK);
    assert_int_equal(pi.offset, off[i]);
    assert_int_equal(pi.size, size[i]);
  }
  smemu_module_unload(m);
}

/* ---- module variables: .global and .const with initializers ------------ */

static void test_module_variables(void **state) {
  (void)state;
  static const char ptx[] = PTX_HEAD
      ".const .align 4 .b32 ctab[4] = {1, 2, 3, 0xdeadbeef};\n"
      ".const .align 8 .u64 cval = 0x123456789abcdef0;\n"
      ".global .align 4 .u32 gtab[4] = {10, 20, 30, 40};\n"
      ".global .align 8 .f64 gpi = 0d400921FB54442D18;\n"
      ".global .align 4 .u32 gcount;\n"
      ".global .align 4 .u32 gin;\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<12>;\n"
      "  .reg .b64 %rd<12>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  and.b32 %r2, %r1, 3;\n"
      "  mul.wide.u32 %rd2, %r2, 4;\n"
      "  mov.u64 %rd3, ctab;\n"
      "  add.s64 %rd4, %rd3, %rd2;\n"
      "  ld.const.u32 %r3, [%rd4];\n"           /* ctab[t & 3] */
      "  mov.u64 %rd5, gtab;\n"
      "  add.s64 %rd6, %rd5, %rd2;\n"
      "  ld.global.u32 %r4, [%rd6];\n"          /* gtab[t & 3] */
      "  ld.const.u64 %rd7, [cval];\n"
      "  ld.global.u32 %r5, [gtab+12];\n"
      "  ld.global.u32 %r6, [gin];\n"
      "  atom.global.add.u32 %r7, [gcount], 1;\n"
      "  cvta.global.u64 %rd8, %rd5;\n"
      "  ld.u32 %r8, [%rd8+4];\n"               /* generic access to gtab[1] */
      "  ld.global.b64 %rd9, [gpi];\n"
      "  mul.wide.u32 %rd10, %r1, 40;\n"
      "  add.s64 %rd11, %rd1, %rd10;\n"
      "  st.global.u32 [%rd11], %r3;\n"
      "  st.global.u32 [%rd11+4], %r4;\n"
      "  st.global.u64 [%rd11+8], %rd7;\n"
      "  st.global.u32 [%rd11+16], %r5;\n"
      "  st.global.u32 [%rd11+20], %r6;\n"
      "  st.global.u32 [%rd11+24], %r8;\n"
      "  st.global.u64 [%rd11+32], %rd9;\n"
      "  ret;\n"
      "}\n";
  static const uint32_t ctab[4] = {1, 2, 3, 0xdeadbeef}, gtab[4] = {10, 20, 30, 40};
  enum { T = 40 };
  smemu_ctx *ctx = ptxrun_ctx();
  smemu_module *m;
  smemu_kernel *k;
  void *p;
  size_t sz;
  uint32_t gin = 0x5eed, host[4];
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {T, 1, 1};
  uint8_t *out = dev_alloc(T * 40, 0xcd);
  void *args[] = {&out};
  assert_int_equal(smemu_module_load_data(ctx, ptx, strlen(ptx), "vars.ptx", &m), SMEMU_OK);
  /* The host sees the initializers and can write a variable before launch. */
  assert_int_equal(smemu_module_get_global(m, "gtab", &p, &sz), SMEMU_OK);
  assert_int_equal(sz, 16);
  assert_int_equal(smemu_memcpy(ctx, host, p, 16), SMEMU_OK);
  assert_memory_equal(host, gtab, 16);
  assert_int_equal(smemu_module_get_global(m, "ctab", &p, &sz), SMEMU_OK);
  assert_int_equal(sz, 16);
  assert_int_equal(smemu_memcpy(ctx, host, p, 16), SMEMU_OK);
  assert_memory_equal(host, ctab, 16);
  assert_int_equal(smemu_module_get_global(m, "gcount", &p, &sz), SMEMU_OK);
  assert_int_equal(sz, 4);
  assert_int_equal(smemu_memcpy(ctx, host, p, 4), SMEMU_OK);
  assert_int_equal(host[0], 0); /* no initializer: zero */
  assert_int_equal(smemu_module_get_global(m, "gin", &p, &sz), SMEMU_OK);
  assert_int_equal(smemu_memcpy(ctx, p, &gin, 4), SMEMU_OK);
  assert_int_equal(smemu_module_get_global(m, "nosuch", &p, &sz), SMEMU_ERR_NOT_FOUND);
  assert_int_equal(smemu_module_get_kernel(m, "k", &k), SMEMU_OK);
  if (smemu_launch(ctx, k, grid, block, 0, args) != SMEMU_OK)
    fail_msg("launch: %s", smemu_errmsg(ctx));
  for (int t = 0; t < T; t++) {
    const uint8_t *o = out + 40 * t;
    assert_int_equal(rd32(o), ctab[t & 3]);
    assert_int_equal(rd32(o + 4), gtab[t & 3]);
    assert_int_equal(rd64(o + 8), 0x123456789abcdef0ull);
    assert_int_equal(rd32(o + 16), 40);
    assert_int_equal(rd32(o + 20), 0x5eed);
    assert_int_equal(rd32(o + 24), 20);
    assert_int_equal(rd64(o + 32), 0x400921FB54442D18ull);
  }
  /* The kernel's writes are visible to the host afterwards. */
  assert_int_equal(smemu_module_get_global(m, "gcount", &p, &sz), SMEMU_OK);
  assert_int_equal(smemu_memcpy(ctx, host, p, 4), SMEMU_OK);
  assert_int_equal(host[0], T);
  smemu_module_unload(m);
  dev_free(out);
}

static void test_global_pointer_initializer(void **state) {
  (void)state;
  /* A .global variable initialised with the address of another one. */
  static const char ptx[] = PTX_HEAD
      ".global .align 4 .u32 gtab[4] = {10, 20, 30, 40};\n"
      ".global .align 8 .u64 gptr = generic(gtab);\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r1;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  ld.global.u64 %rd2, [gptr];\n"
      "  ld.u32 %r1, [%rd2+8];\n"
      "  st.u32 [%rd1], %r1;\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = dev_alloc(4, 0);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 1, 0, args, err, sizeof err), err);
  assert_int_equal(out[0], 30);
  dev_free(out);
}

/* ---- dynamic shared memory -------------------------------------------------- */

static void test_dynamic_shared_layout(void **state) {
  (void)state;
  /* Static shared variables (5 bytes, then 2 bytes) come first; the extern
   * array starts at its own 16-byte alignment after them, and writes to it
   * leave the static variables intact. */
  static const char ptx[] = PTX_HEAD
      ".extern .shared .align 16 .b8 dyn[];\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .shared .align 4 .b8 s1[5];\n"
      "  .shared .align 2 .b8 s2[2];\n"
      "  .reg .b16 %h<4>;\n"
      "  .reg .b32 %r<12>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  setp.ne.u32 %p1, %r1, 0;\n"
      "  @%p1 bra W;\n"
      "  mov.u16 %h1, 0xab;\n"
      "  st.shared.u8 [s1], %h1;\n  st.shared.u8 [s1+4], %h1;\n"
      "  st.shared.u8 [s2], %h1;\n  st.shared.u8 [s2+1], %h1;\n"
      "W:\n"
      "  bar.sync 0;\n"
      "  mov.u32 %r2, dyn;\n"
      "  add.u32 %r3, %r2, %r1;\n"
      "  st.shared.u8 [%r3], %r1;\n"              /* dyn[t] = t for t < 64 */
      "  bar.sync 0;\n"
      "  @%p1 bra DONE;\n"
      "  mov.u32 %r4, s1;\n"
      "  mov.u32 %r5, s2;\n"
      "  ld.shared.u8 %r6, [s1];\n"
      "  ld.shared.u8 %r7, [s1+4];\n"
      "  ld.shared.u8 %r8, [s2+1];\n"
      "  ld.shared.u8 %r9, [dyn+63];\n"
      "  st.global.u32 [%rd1], %r2;\n"
      "  st.global.u32 [%rd1+4], %r4;\n"
      "  st.global.u32 [%rd1+8], %r5;\n"
      "  st.global.u32 [%rd1+12], %r6;\n"
      "  st.global.u32 [%rd1+16], %r7;\n"
      "  st.global.u32 [%rd1+20], %r8;\n"
      "  st.global.u32 [%rd1+24], %r9;\n"
      "DONE:\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = dev_alloc(28, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 64, 64, args, err, sizeof err), err);
  uint32_t dyn = out[0], s1 = out[1], s2 = out[2];
  assert_int_equal(dyn % 16, 0);
  assert_int_equal(s1 % 4, 0);
  assert_int_equal(s2 % 2, 0);
  /* no overlap: dyn starts after both static variables */
  assert_true(dyn >= s1 + 5);
  assert_true(dyn >= s2 + 2);
  assert_true(s2 >= s1 + 5 || s1 >= s2 + 2);
  assert_int_equal(out[3], 0xab);
  assert_int_equal(out[4], 0xab);
  assert_int_equal(out[5], 0xab);
  assert_int_equal(out[6], 63);
  dev_free(out);
}

static void test_dynamic_shared_only(void **state) {
  (void)state;
  /* With no static shared variables, an 8-byte aligned extern array of
   * .b64 holds 256 values (2 KiB of dynamic shared memory). */
  static const char ptx[] = PTX_HEAD
      ".extern .shared .align 8 .b64 d64[];\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<6>;\n"
      "  .reg .b64 %rd<6>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u32 %r2, d64;\n"
      "  mad.lo.u32 %r3, %r1, 8, %r2;\n"
      "  cvt.u64.u32 %rd2, %r1;\n"
      "  mul.lo.u64 %rd2, %rd2, 0x100000001;\n"
      "  st.shared.u64 [%r3], %rd2;\n"
      "  bar.sync 0;\n"
      "  xor.b32 %r4, %r1, 255;\n"
      "  mad.lo.u32 %r3, %r4, 8, %r2;\n"
      "  ld.shared.u64 %rd3, [%r3];\n"
      "  mul.wide.u32 %rd4, %r1, 8;\n"
      "  add.s64 %rd5, %rd1, %rd4;\n"
      "  st.global.u64 [%rd5], %rd3;\n"
      "  ret;\n"
      "}\n";
  uint64_t *out = dev_alloc(256 * 8, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 256, 256 * 8, args, err, sizeof err), err);
  for (uint64_t t = 0; t < 256; t++) assert_int_equal(out[t], (t ^ 255) * 0x100000001ull);
  dev_free(out);
}

static void test_module_scope_shared(void **state) {
  (void)state;
  /* A .shared variable declared at module scope is per-CTA like one declared
   * in the kernel: each block sums its own threads' values. */
  static const char ptx[] = PTX_HEAD
      ".shared .align 4 .u32 msum;\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<6>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u32 %r2, %ctaid.x;\n"
      "  setp.eq.u32 %p1, %r1, 0;\n"
      "  mov.u32 %r5, 0;\n"
      "  @%p1 st.shared.u32 [msum], %r5;\n"
      "  bar.sync 0;\n"
      "  mad.lo.u32 %r3, %r2, 1000, %r1;\n"
      "  atom.shared.add.u32 %r4, [msum], %r3;\n"
      "  bar.sync 0;\n"
      "  @!%p1 bra DONE;\n"
      "  ld.shared.u32 %r5, [msum];\n"
      "  mul.wide.u32 %rd2, %r2, 4;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  st.global.u32 [%rd3], %r5;\n"
      "DONE:\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = dev_alloc(4 * 4, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 4, 100, 0, args, err, sizeof err), err);
  for (uint32_t b = 0; b < 4; b++) assert_int_equal(out[b], 100 * 1000 * b + 99 * 100 / 2);
  dev_free(out);
}

/* ---- generic addressing of shared memory ------------------------------- */

static void test_generic_shared_access(void **state) {
  (void)state;
  /* Generic ld/st (no state space) through cvta'd pointers into shared
   * memory, in several widths and a vector form. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .shared .align 16 .b8 sm[2048];\n"
      "  .reg .b16 %h<3>;\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .b64 %rd<10>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u64 %rd2, sm;\n"
      "  cvta.shared.u64 %rd3, %rd2;\n"
      "  mul.wide.u32 %rd4, %r1, 16;\n"
      "  add.s64 %rd5, %rd3, %rd4;\n"             /* generic &sm[16t] */
      "  mul.lo.u32 %r2, %r1, 0x9e3779b9;\n"
      "  add.u32 %r3, %r2, 1;\n"
      "  st.v2.u32 [%rd5], {%r2, %r3};\n"
      "  cvt.u16.u32 %h1, %r1;\n"
      "  st.u16 [%rd5+8], %h1;\n"
      "  st.u8 [%rd5+10], %r1;\n"
      "  bar.sync 0;\n"
      "  xor.b32 %r4, %r1, 1;\n"
      "  mul.wide.u32 %rd6, %r4, 16;\n"
      "  add.s64 %rd7, %rd2, %rd6;\n"             /* shared &sm[16(t^1)] */
      "  ld.shared.v2.u32 {%r5, %r6}, [%rd7];\n"
      "  ld.shared.u16 %h2, [%rd7+8];\n"
      "  cvt.u32.u16 %r7, %h2;\n"
      "  add.s64 %rd8, %rd3, %rd6;\n"
      "  ld.u8 %r4, [%rd8+10];\n"                  /* generic read of the byte */
      "  mul.wide.u32 %rd9, %r1, 16;\n"
      "  add.s64 %rd9, %rd1, %rd9;\n"
      "  st.v4.u32 [%rd9], {%r5, %r6, %r7, %r4};\n" /* generic store to global */
      "  ret;\n"
      "}\n";
  enum { T = 128 };
  uint32_t *out = dev_alloc(T * 16, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (uint32_t t = 0; t < T; t++) {
    uint32_t n = t ^ 1, v = n * 0x9e3779b9u;
    assert_int_equal(out[4 * t], v);
    assert_int_equal(out[4 * t + 1], v + 1);
    assert_int_equal(out[4 * t + 2], n & 0xffff);
    assert_int_equal(out[4 * t + 3], n & 0xff);
  }
  dev_free(out);
}

/* ---- ordering qualifiers and cache operators ----------------------------- */

static void test_ordering_qualifiers(void **state) {
  (void)state;
  /* All these forms move data like plain ld/st. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout, .param .u64 pin)\n"
      "{\n"
      "  .shared .align 4 .b32 sv[64];\n"
      "  .reg .b32 %r<20>;\n"
      "  .reg .b64 %rd<8>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  ld.param.u64 %rd2, [pin];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  cvta.to.global.u64 %rd2, %rd2;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd3, %r1, 4;\n"
      "  add.s64 %rd4, %rd2, %rd3;\n"
      "  mul.wide.u32 %rd5, %r1, 64;\n"
      "  add.s64 %rd6, %rd1, %rd5;\n"
      "  ld.volatile.global.u32 %r2, [%rd4];\n"
      "  ld.relaxed.gpu.global.u32 %r3, [%rd4];\n"
      "  ld.acquire.gpu.global.u32 %r4, [%rd4];\n"
      "  ld.relaxed.sys.global.u32 %r5, [%rd4];\n"
      "  ld.global.nc.u32 %r6, [%rd4];\n"
      "  ld.global.ca.u32 %r7, [%rd4];\n"
      "  ld.global.cg.u32 %r8, [%rd4];\n"
      "  ld.global.cs.u32 %r9, [%rd4];\n"
      "  ld.global.lu.u32 %r10, [%rd4];\n"
      "  ld.global.cv.u32 %r11, [%rd4];\n"
      "  ldu.global.u32 %r12, [%rd4];\n"
      "  mov.u32 %r13, sv;\n"
      "  mad.lo.u32 %r14, %r1, 4, %r13;\n"
      "  st.release.cta.shared.u32 [%r14], %r2;\n"
      "  fence.acq_rel.cta;\n"
      "  membar.cta;\n"
      "  bar.sync 0;\n"
      "  ld.acquire.cta.shared.u32 %r15, [%r14];\n"
      "  ld.volatile.shared.u32 %r16, [%r14];\n"
      "  fence.sc.gpu;\n"
      "  membar.gl;\n"
      "  membar.sys;\n"
      "  st.volatile.global.u32 [%rd6], %r2;\n"
      "  st.relaxed.gpu.global.u32 [%rd6+4], %r3;\n"
      "  st.release.gpu.global.u32 [%rd6+8], %r4;\n"
      "  st.relaxed.sys.global.u32 [%rd6+12], %r5;\n"
      "  st.global.wb.u32 [%rd6+16], %r6;\n"
      "  st.global.cg.u32 [%rd6+20], %r7;\n"
      "  st.global.cs.u32 [%rd6+24], %r8;\n"
      "  st.global.wt.u32 [%rd6+28], %r9;\n"
      "  st.global.u32 [%rd6+32], %r10;\n"
      "  st.global.u32 [%rd6+36], %r11;\n"
      "  st.global.u32 [%rd6+40], %r12;\n"
      "  st.global.u32 [%rd6+44], %r15;\n"
      "  st.global.u32 [%rd6+48], %r16;\n"
      "  st.global.u32 [%rd6+52], %r1;\n"
      "  st.global.u32 [%rd6+56], %r1;\n"
      "  st.global.u32 [%rd6+60], %r1;\n"
      "  ret;\n"
      "}\n";
  enum { T = 64 };
  uint32_t in[T];
  for (int t = 0; t < T; t++) in[t] = 0xc0de0000u + (uint32_t)t * 3;
  uint32_t *din = dev_in(in, sizeof in), *out = dev_alloc(T * 64, 0xcd);
  void *args[] = {&out, &din};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (int t = 0; t < T; t++) {
    for (int j = 0; j < 13; j++) assert_int_equal(out[16 * t + j], in[t]);
    assert_int_equal(out[16 * t + 13], t);
  }
  dev_free(din);
  dev_free(out);
}

static void test_message_passing_between_warps(void **state) {
  (void)state;
  /* Warp 1 spins on a flag that warp 0 sets with st.release after writing
   * the data; the emulator must let warp 0 run while warp 1 spins. A launch
   * limit turns a missing forward-progress guarantee into SMEMU_ERR_LIMIT
   * instead of a hang. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .shared .align 4 .b32 data;\n"
      "  .shared .align 4 .b32 flag;\n"
      "  .reg .b32 %r<6>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  .reg .pred %p<3>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  setp.eq.u32 %p1, %r1, 0;\n"
      "  @!%p1 bra CHECK1;\n"
      "  mov.u32 %r2, 0;\n"
      "  st.shared.u32 [flag], %r2;\n"
      "CHECK1:\n"
      "  bar.sync 0;\n"
      "  setp.eq.u32 %p1, %r1, 0;\n"
      "  @!%p1 bra CONSUMER;\n"
      "  mov.u32 %r2, 4242;\n"
      "  st.shared.u32 [data], %r2;\n"
      "  mov.u32 %r3, 1;\n"
      "  st.release.cta.shared.u32 [flag], %r3;\n"
      "  bra DONE;\n"
      "CONSUMER:\n"
      "  setp.ne.u32 %p2, %r1, 32;\n"
      "  @%p2 bra DONE;\n"
      "SPIN:\n"
      "  ld.acquire.cta.shared.u32 %r4, [flag];\n"
      "  setp.eq.u32 %p2, %r4, 0;\n"
      "  @%p2 bra SPIN;\n"
      "  ld.shared.u32 %r5, [data];\n"
      "  st.global.u32 [%rd1], %r5;\n"
      "DONE:\n"
      "  ret;\n"
      "}\n";
  smemu_options o;
  smemu_ctx *ctx;
  void *out = NULL;
  uint32_t v = 0;
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  char err[1024];
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.max_warp_instructions = 20u * 1000 * 1000;
  assert_int_equal(smemu_create(&o, &ctx), SMEMU_OK);
  assert_int_equal(smemu_malloc(ctx, &out, 4), SMEMU_OK);
  assert_int_equal(smemu_memset(ctx, out, 0, 4), SMEMU_OK);
  void *args[] = {&out};
  int st = ptxrun_in(ctx, ptx, "k", grid, block, 0, args, err, sizeof err);
  if (st != SMEMU_OK) {
    smemu_destroy(ctx);
    fail_msg("launch: %s: %s", smemu_status_name((smemu_status)st), err);
  }
  assert_int_equal(smemu_memcpy(ctx, &v, out, 4), SMEMU_OK);
  assert_int_equal(v, 4242);
  smemu_destroy(ctx);
}

/* ---- atomics ----------------------------------------------------------------- */

enum { SP_GLOBAL, SP_SHARED, SP_GEN_GLOBAL, SP_GEN_SHARED };

/* Kernel template for the atomic tests. Per thread (global id %r1):
 *   %r2 = t, %r3 = t * 2654435761 (u32), %r4 = 7t - 300 (s32),
 *   %rd6 = t (u64), %rd8 = %r3 * 0x100000001 (u64), %f1 = 1.0, %fd1 = 0.5;
 * %rd5 = the address of the 64-byte cell in the chosen space (shared cells
 * are copied in from and back to the global cell by thread 0 around the
 * test, with barriers); %rd4 = &olds[t] (8 bytes per thread). "$SP" in the
 * test text becomes the state space qualifier (".global", ".shared", ""). */
static const char ATOM_HEAD[] = PTX_HEAD
    ".visible .entry k(.param .u64 pout, .param .u64 pcell)\n"
    "{\n"
    "  .shared .align 16 .b64 scell[8];\n"
    "  .reg .b32 %r<16>;\n"
    "  .reg .b64 %rd<16>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .f64 %fd<4>;\n"
    "  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [pout];\n"
    "  ld.param.u64 %rd2, [pcell];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  cvta.to.global.u64 %rd12, %rd2;\n"
    "  mov.u32 %r10, %tid.x;\n"
    "  mov.u32 %r11, %ctaid.x;\n"
    "  mov.u32 %r12, %ntid.x;\n"
    "  mad.lo.u32 %r1, %r11, %r12, %r10;\n"
    "  mov.u32 %r2, %r1;\n"
    "  mul.lo.u32 %r3, %r1, 2654435761;\n"
    "  mul.lo.u32 %r4, %r1, 7;\n"
    "  sub.s32 %r4, %r4, 300;\n"
    "  cvt.u64.u32 %rd6, %r1;\n"
    "  cvt.u64.u32 %rd8, %r3;\n"
    "  mul.lo.u64 %rd8, %rd8, 0x100000001;\n"
    "  mov.f32 %f1, 0f3F800000;\n"
    "  mov.f64 %fd1, 0d3FE0000000000000;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n";
/* ... then a prologue that sets %rd5, the test text, an epilogue, and: */
static const char ATOM_TAIL[] = "\n  ret;\n}\n";

static const char PRO_GLOBAL[] = "  mov.u64 %rd5, %rd12;\n";
static const char PRO_GEN_GLOBAL[] = "  mov.u64 %rd5, %rd2;\n";
static const char PRO_SHARED[] =
    "  setp.eq.u32 %p3, %r10, 0;\n"
    "  @!%p3 bra SKIPIN;\n"
    "  ld.global.v2.u64 {%rd13, %rd14}, [%rd12];\n  st.shared.v2.u64 [scell], {%rd13, %rd14};\n"
    "  ld.global.v2.u64 {%rd13, %rd14}, [%rd12+16];\n  st.shared.v2.u64 [scell+16], {%rd13, %rd14};\n"
    "  ld.global.v2.u64 {%rd13, %rd14}, [%rd12+32];\n  st.shared.v2.u64 [scell+32], {%rd13, %rd14};\n"
    "  ld.global.v2.u64 {%rd13, %rd14}, [%rd12+48];\n  st.shared.v2.u64 [scell+48], {%rd13, %rd14};\n"
    "SKIPIN:\n"
    "  bar.sync 0;\n"
    "  mov.u64 %rd5, scell;\n";
static const char PRO_GEN_SHARED_TAIL[] = "  cvta.shared.u64 %rd5, %rd5;\n";
static const char EPI_SHARED[] =
    "  bar.sync 0;\n"
    "  @!%p3 bra SKIPOUT;\n"
    "  ld.shared.v2.u64 {%rd13, %rd14}, [scell];\n  st.global.v2.u64 [%rd12], {%rd13, %rd14};\n"
    "  ld.shared.v2.u64 {%rd13, %rd14}, [scell+16];\n  st.global.v2.u64 [%rd12+16], {%rd13, %rd14};\n"
    "  ld.shared.v2.u64 {%rd13, %rd14}, [scell+32];\n  st.global.v2.u64 [%rd12+32], {%rd13, %rd14};\n"
    "  ld.shared.v2.u64 {%rd13, %rd14}, [scell+48];\n  st.global.v2.u64 [%rd12+48], {%rd13, %rd14};\n"
    "SKIPOUT:\n";

static char *subst_sp(const char *text, const char *sp) {
  size_t n = strlen(text) + 1, k = strlen(sp);
  char *out = malloc(n + 8 * k), *o = out;
  for (const char *s = text; *s;) {
    if (strncmp(s, "$SP", 3) == 0) {
      memcpy(o, sp, k);
      o += k;
      s += 3;
    } else {
      *o++ = *s++;
    }
  }
  *o = 0;
  return out;
}

/* Runs `insn` on grid x block threads in state space sp with the 64-byte cell
 * initialised from cell (and copied back); olds gets 8 bytes per thread. */
static void run_atom_in(smemu_ctx *ctx, int sp, const char *insn, uint32_t grid, uint32_t block,
                        uint64_t cell[8], uint64_t *olds) {
  static const char *const sps[] = {".global", ".shared", "", ""};
  char *body = subst_sp(insn, sps[sp]), *src;
  const char *pro, *epi;
  size_t n = (size_t)grid * block, len;
  void *dcell = NULL, *dout = NULL;
  const uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  char err[1024];
  int st;
  if (!ctx) ctx = ptxrun_ctx();
  pro = sp == SP_GLOBAL ? PRO_GLOBAL : sp == SP_GEN_GLOBAL ? PRO_GEN_GLOBAL : PRO_SHARED;
  epi = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? EPI_SHARED : "";
  len = sizeof ATOM_HEAD + strlen(pro) + sizeof PRO_GEN_SHARED_TAIL + strlen(body) +
        strlen(epi) + sizeof ATOM_TAIL + 8;
  src = malloc(len);
  assert_non_null(src);
  strcpy(src, ATOM_HEAD);
  strcat(src, pro);
  if (sp == SP_GEN_SHARED) strcat(src, PRO_GEN_SHARED_TAIL);
  strcat(src, "  ");
  strcat(src, body);
  strcat(src, "\n");
  strcat(src, epi);
  strcat(src, ATOM_TAIL);
  assert_int_equal(smemu_malloc(ctx, &dcell, 64), SMEMU_OK);
  assert_int_equal(smemu_malloc(ctx, &dout, n * 8), SMEMU_OK);
  assert_int_equal(smemu_memcpy(ctx, dcell, cell, 64), SMEMU_OK);
  assert_int_equal(smemu_memset(ctx, dout, 0xcd, n * 8), SMEMU_OK);
  void *args[] = {&dout, &dcell};
  st = ptxrun_in(ctx, src, "k", g, b, 0, args, err, sizeof err);
  if (st != SMEMU_OK) fail_msg("%s: %s: %s", insn, smemu_status_name((smemu_status)st), err);
  assert_int_equal(smemu_memcpy(ctx, cell, dcell, 64), SMEMU_OK);
  if (olds) assert_int_equal(smemu_memcpy(ctx, olds, dout, n * 8), SMEMU_OK);
  smemu_free(ctx, dcell);
  smemu_free(ctx, dout);
  free(src);
  free(body);
}

static void run_atom(int sp, const char *insn, uint32_t grid, uint32_t block, uint64_t cell[8],
                     uint64_t *olds) {
  run_atom_in(NULL, sp, insn, grid, block, cell, olds);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The olds (low `bits` bits) sorted must be start, start+step, ... */
static void expect_sequence(uint64_t *olds, size_t n, int bits, uint64_t start, uint64_t step) {
  uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
  for (size_t i = 0; i < n; i++) olds[i] &= m;
  qsort(olds, n, 8, cmp_u64);
  for (size_t i = 0; i < n; i++)
    if (olds[i] != ((start + step * i) & m))
      fail_msg("old value #%zu is %#llx, want %#llx", i, (unsigned long long)olds[i],
               (unsigned long long)((start + step * i) & m));
}

static const int SPACES[] = {SP_GLOBAL, SP_SHARED, SP_GEN_GLOBAL, SP_GEN_SHARED};

static void test_atom_add_int(void **state) {
  (void)state;
  for (int s = 0; s < 4; s++) {
    int sp = SPACES[s];
    uint32_t grid = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? 1 : 4, block = 256;
    size_t n = (size_t)grid * block;
    uint64_t cell[8] = {0}, *olds = malloc(n * 8);
    /* u32: every thread adds 3 to one word: olds are 0, 3, 6, ... */
    cell[0] = 5;
    run_atom(sp, "atom$SP.add.u32 %r5, [%rd5], 3;\n  st.global.u32 [%rd4], %r5;", grid, block,
             cell, olds);
    assert_int_equal((uint32_t)cell[0], 5 + 3 * n);
    assert_int_equal(cell[0] >> 32, 0); /* the neighbouring word is untouched */
    expect_sequence(olds, n, 32, 5, 3);
    /* s32 with negative addends 7t - 300. */
    int64_t sum = 0;
    for (size_t t = 0; t < n; t++) sum += 7 * (int64_t)t - 300;
    cell[0] = cell[1] = 0;
    run_atom(sp, "atom$SP.add.s32 %r5, [%rd5+8], %r4;", grid, block, cell, NULL);
    assert_int_equal((uint32_t)cell[1], (uint32_t)sum);
    /* u64 across the 32-bit boundary: 0x100000001 per thread plus a carry. */
    cell[2] = 0xffffffffull;
    run_atom(sp, "atom$SP.add.u64 %rd7, [%rd5+16], 0x100000001;\n  st.global.u64 [%rd4], %rd7;",
             grid, block, cell, olds);
    assert_int_equal(cell[2], 0xffffffffull + 0x100000001ull * n);
    expect_sequence(olds, n, 64, 0xffffffffull, 0x100000001ull);
    free(olds);
  }
}

static void test_atom_add_float(void **state) {
  (void)state;
  for (int s = 0; s < 4; s++) {
    int sp = SPACES[s];
    uint32_t grid = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? 1 : 2, block = 256;
    size_t n = (size_t)grid * block;
    uint64_t cell[8] = {0}, *olds = malloc(n * 8);
    /* f32: n additions of 1.0 are exact; the olds are 0.0, 1.0, ... */
    run_atom(sp, "atom$SP.add.f32 %f2, [%rd5], %f1;\n  st.global.f32 [%rd4], %f2;", grid, block,
             cell, olds);
    assert_true(u2f((uint32_t)cell[0]) == (float)n);
    for (size_t i = 0; i < n; i++) olds[i] = (uint64_t)u2f((uint32_t)olds[i]);
    expect_sequence(olds, n, 64, 0, 1);
    /* f64: n additions of 0.5. */
    run_atom(sp, "atom$SP.add.f64 %fd2, [%rd5+8], %fd1;\n  st.global.f64 [%rd4], %fd2;", grid,
             block, cell, olds);
    assert_true(u2d(cell[1]) == 0.5 * (double)n);
    for (size_t i = 0; i < n; i++) olds[i] = (uint64_t)(u2d(olds[i]) * 2);
    expect_sequence(olds, n, 64, 0, 1);
    free(olds);
  }
}

static void test_atom_min_max(void **state) {
  (void)state;
  for (int s = 0; s < 4; s++) {
    int sp = SPACES[s];
    uint32_t grid = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? 1 : 3, block = 128;
    size_t n = (size_t)grid * block;
    uint64_t cell[8];
    int32_t smin = INT32_MAX, smax = INT32_MIN;
    uint32_t umin = UINT32_MAX, umax = 0;
    uint64_t umin64 = UINT64_MAX, umax64 = 0;
    int64_t smin64 = INT64_MAX;
    for (size_t t = 0; t < n; t++) {
      int32_t v = (int32_t)(7 * (int64_t)t - 300);
      uint32_t u = (uint32_t)t * 2654435761u;
      uint64_t u64 = (uint64_t)u * 0x100000001ull;
      if (v < smin) smin = v;
      if (v > smax) smax = v;
      if (u < umin) umin = u;
      if (u > umax) umax = u;
      if (u64 < umin64) umin64 = u64;
      if (u64 > umax64) umax64 = u64;
      if ((int64_t)u64 < smin64) smin64 = (int64_t)u64;
    }
    /* Signed and unsigned orders differ: start values that both orders
     * replace (INT_MAX / INT_MIN for signed, UINT_MAX / 0 for unsigned). */
    cell[0] = 0x7fffffff;
    cell[1] = 0x80000000;
    cell[2] = 0xffffffff;
    cell[3] = 0;
    cell[4] = UINT64_MAX;
    cell[5] = 0;
    cell[6] = 0x7fffffffffffffffull;
    cell[7] = 0;
    run_atom(sp,
             "atom$SP.min.s32 %r5, [%rd5], %r4;\n"
             "  atom$SP.max.s32 %r5, [%rd5+8], %r4;\n"
             "  atom$SP.min.u32 %r5, [%rd5+16], %r3;\n"
             "  atom$SP.max.u32 %r5, [%rd5+24], %r3;\n"
             "  atom$SP.min.u64 %rd7, [%rd5+32], %rd8;\n"
             "  atom$SP.max.u64 %rd7, [%rd5+40], %rd8;\n"
             "  atom$SP.min.s64 %rd7, [%rd5+48], %rd8;",
             grid, block, cell, NULL);
    assert_int_equal((uint32_t)cell[0], (uint32_t)smin);
    assert_int_equal((uint32_t)cell[1], (uint32_t)smax);
    assert_int_equal((uint32_t)cell[2], umin);
    assert_int_equal((uint32_t)cell[3], umax);
    assert_int_equal(cell[4], umin64);
    assert_int_equal(cell[5], umax64);
    assert_int_equal(cell[6], (uint64_t)smin64);
  }
}

/* inc/dec as a sequential machine: the multiset of olds and the final value
 * do not depend on the order of the n identical operations. */
static void test_atom_inc_dec(void **state) {
  (void)state;
  for (int s = 0; s < 4; s++) {
    int sp = SPACES[s];
    uint32_t grid = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? 1 : 2, block = 128;
    size_t n = (size_t)grid * block;
    uint64_t cell[8] = {0}, *olds = malloc(n * 8), *want = malloc(n * 8);
    uint32_t x;
    /* inc: new = (old >= 9) ? 0 : old + 1, from 0 */
    run_atom(sp, "atom$SP.inc.u32 %r5, [%rd5], 9;\n  st.global.u32 [%rd4], %r5;", grid, block,
             cell, olds);
    x = 0;
    for (size_t i = 0; i < n; i++) {
      want[i] = x;
      x = x >= 9 ? 0 : x + 1;
    }
    assert_int_equal((uint32_t)cell[0], x);
    for (size_t i = 0; i < n; i++) olds[i] &= 0xffffffff;
    qsort(olds, n, 8, cmp_u64);
    qsort(want, n, 8, cmp_u64);
    assert_memory_equal(olds, want, n * 8);
    /* dec: new = (old == 0 || old > 9) ? 9 : old - 1, from 0 */
    run_atom(sp, "atom$SP.dec.u32 %r5, [%rd5+8], 9;\n  st.global.u32 [%rd4], %r5;", grid, block,
             cell, olds);
    x = 0;
    for (size_t i = 0; i < n; i++) {
      want[i] = x;
      x = (x == 0 || x > 9) ? 9 : x - 1;
    }
    assert_int_equal((uint32_t)cell[1], x);
    for (size_t i = 0; i < n; i++) olds[i] &= 0xffffffff;
    qsort(olds, n, 8, cmp_u64);
    qsort(want, n, 8, cmp_u64);
    assert_memory_equal(olds, want, n * 8);
    /* Starting above the limit: inc wraps to 0 at once, dec resets to the
     * limit. One thread only. */
    cell[2] = 100;
    cell[3] = 100;
    run_atom(sp,
             "setp.eq.u32 %p1, %r1, 0;\n"
             "  @%p1 atom$SP.inc.u32 %r5, [%rd5+16], 9;\n"
             "  @%p1 atom$SP.dec.u32 %r5, [%rd5+24], 9;",
             1, 32, cell, NULL);
    assert_int_equal((uint32_t)cell[2], 0);
    assert_int_equal((uint32_t)cell[3], 9);
    free(olds);
    free(want);
  }
}

static void test_atom_cas_exch(void **state) {
  (void)state;
  for (int s = 0; s < 4; s++) {
    int sp = SPACES[s];
    uint32_t grid = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? 1 : 2, block = 96;
    size_t n = (size_t)grid * block;
    uint64_t cell[8] = {0}, *olds = malloc(n * 8);
    /* A CAS loop increments a counter: lanes of one warp contend, so the
     * loop exits lane by lane. The old value at success is unique. */
    run_atom(sp,
             "CASLOOP:\n"
             "  ld.volatile$SP.u32 %r6, [%rd5];\n"
             "  add.u32 %r7, %r6, 1;\n"
             "  atom$SP.cas.b32 %r8, [%rd5], %r6, %r7;\n"
             "  setp.ne.u32 %p1, %r8, %r6;\n"
             "  @%p1 bra CASLOOP;\n"
             "  st.global.u32 [%rd4], %r6;",
             grid, block, cell, olds);
    assert_int_equal((uint32_t)cell[0], n);
    expect_sequence(olds, n, 32, 0, 1);
    /* exch: every thread swaps in t + 1; the olds and the final value are a
     * permutation of 0..n. */
    cell[1] = 0;
    run_atom(sp,
             "add.u32 %r6, %r1, 1;\n"
             "  atom$SP.exch.b32 %r7, [%rd5+8], %r6;\n"
             "  st.global.u32 [%rd4], %r7;",
             grid, block, cell, olds);
    uint64_t *all = malloc((n + 1) * 8);
    for (size_t i = 0; i < n; i++) all[i] = olds[i] & 0xffffffff;
    all[n] = (uint32_t)cell[1];
    expect_sequence(all, n + 1, 32, 0, 1);
    free(all);
    /* Single-thread cas: a match swaps, a mismatch does not; 64-bit too. */
    cell[2] = 5;
    cell[3] = 0x1111111122222222ull;
    run_atom(sp,
             "setp.eq.u32 %p1, %r1, 0;\n"
             "  @!%p1 bra SKIP;\n"
             "  atom$SP.cas.b32 %r6, [%rd5+16], 5, 7;\n"
             "  atom$SP.cas.b32 %r7, [%rd5+16], 5, 9;\n"
             "  atom$SP.cas.b64 %rd7, [%rd5+24], 0x1111111122222222, 0x3333333344444444;\n"
             "  atom$SP.exch.b64 %rd9, [%rd5+32], 0x5555555566666666;\n"
             "  st.global.u32 [%rd4], %r6;\n"
             "  st.global.u32 [%rd4+4], %r7;\n"
             "  st.global.u64 [%rd4+8], %rd7;\n"
             "  st.global.u64 [%rd4+16], %rd9;\n"
             "SKIP:",
             1, 4, cell, olds);
    assert_int_equal((uint32_t)cell[2], 7);
    assert_int_equal(olds[0], 5ull | 7ull << 32);
    assert_int_equal(cell[3], 0x3333333344444444ull);
    assert_int_equal(olds[1], 0x1111111122222222ull);
    assert_int_equal(cell[4], 0x5555555566666666ull);
    assert_int_equal(olds[2], 0);
    free(olds);
  }
}

static void test_atom_bitwise(void **state) {
  (void)state;
  for (int s = 0; s < 4; s++) {
    int sp = SPACES[s];
    uint32_t grid = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? 1 : 2, block = 128;
    size_t n = (size_t)grid * block;
    uint64_t cell[8] = {0};
    uint32_t x = 0;
    uint64_t x64 = 0;
    for (size_t t = 0; t < n; t++) {
      x ^= (uint32_t)t * 2654435761u;
      x64 ^= (uint64_t)((uint32_t)t * 2654435761u) * 0x100000001ull;
    }
    cell[1] = 0xffffffff;
    cell[4] = ~0ull;
    /* or: bit t%32 -> all ones; and: clear bit t%32 -> 0; xor of all values. */
    run_atom(sp,
             "and.b32 %r6, %r1, 31;\n"
             "  mov.u32 %r7, 1;\n"
             "  shl.b32 %r7, %r7, %r6;\n"
             "  atom$SP.or.b32 %r8, [%rd5], %r7;\n"
             "  not.b32 %r9, %r7;\n"
             "  atom$SP.and.b32 %r8, [%rd5+8], %r9;\n"
             "  atom$SP.xor.b32 %r8, [%rd5+16], %r3;\n"
             "  and.b32 %r6, %r1, 63;\n"
             "  mov.u64 %rd9, 1;\n"
             "  shl.b64 %rd9, %rd9, %r6;\n"
             "  atom$SP.or.b64 %rd10, [%rd5+24], %rd9;\n"
             "  not.b64 %rd9, %rd9;\n"
             "  atom$SP.and.b64 %rd10, [%rd5+32], %rd9;\n"
             "  atom$SP.xor.b64 %rd10, [%rd5+40], %rd8;",
             grid, block, cell, NULL);
    assert_int_equal((uint32_t)cell[0], 0xffffffff);
    assert_int_equal((uint32_t)cell[1], 0);
    assert_int_equal((uint32_t)cell[2], x);
    assert_int_equal(cell[3], n >= 64 ? ~0ull : (1ull << n) - 1);
    assert_int_equal(cell[4], n >= 64 ? 0 : ~((1ull << n) - 1));
    assert_int_equal(cell[5], x64);
  }
}

static void test_red(void **state) {
  (void)state;
  for (int s = 0; s < 4; s++) {
    int sp = SPACES[s];
    uint32_t grid = (sp == SP_SHARED || sp == SP_GEN_SHARED) ? 1 : 4, block = 128;
    size_t n = (size_t)grid * block;
    uint64_t cell[8] = {0};
    int64_t sum = 0;
    int32_t smin = INT32_MAX;
    uint32_t umax = 0, x = 0;
    for (size_t t = 0; t < n; t++) {
      int32_t v = (int32_t)(7 * (int64_t)t - 300);
      uint32_t u = (uint32_t)t * 2654435761u;
      sum += v;
      if (v < smin) smin = v;
      if (u > umax) umax = u;
      x ^= u;
    }
    cell[1] = 0x7fffffff;
    cell[5] = 0xffffffff;
    run_atom(sp,
             "red$SP.add.u32 [%rd5], 2;\n"
             "  red$SP.min.s32 [%rd5+8], %r4;\n"
             "  red$SP.max.u32 [%rd5+16], %r3;\n"
             "  red$SP.add.s32 [%rd5+24], %r4;\n"
             "  red$SP.add.f32 [%rd5+32], %f1;\n"
             "  red$SP.or.b32 [%rd5+36], %r3;\n"
             "  red$SP.and.b32 [%rd5+40], %r3;\n"
             "  red$SP.xor.b32 [%rd5+44], %r3;\n"
             "  red$SP.add.u64 [%rd5+48], %rd6;\n"
             "  red$SP.add.f64 [%rd5+56], %fd1;",
             grid, block, cell, NULL);
    uint32_t orv = 0, andv = 0xffffffff;
    for (size_t t = 0; t < n; t++) {
      orv |= (uint32_t)t * 2654435761u;
      andv &= (uint32_t)t * 2654435761u;
    }
    assert_int_equal((uint32_t)cell[0], 2 * n);
    assert_int_equal((uint32_t)cell[1], (uint32_t)smin);
    assert_int_equal((uint32_t)cell[2], umax);
    assert_int_equal((uint32_t)cell[3], (uint32_t)sum);
    assert_true(u2f((uint32_t)cell[4]) == (float)n);
    assert_int_equal((uint32_t)(cell[4] >> 32), orv);
    assert_int_equal((uint32_t)cell[5], andv);
    assert_int_equal((uint32_t)(cell[5] >> 32), x);
    assert_int_equal(cell[6], (uint64_t)n * (n - 1) / 2);
    assert_true(u2d(cell[7]) == 0.5 * (double)n);
  }
}

static void test_atom_scope_and_order(void **state) {
  (void)state;
  /* Scoped and ordered forms behave like the plain ones. */
  uint64_t cell[8] = {0};
  run_atom(SP_GLOBAL,
           "atom.relaxed.gpu.global.add.u32 %r5, [%rd5], 1;\n"
           "  atom.acq_rel.gpu.global.add.u32 %r5, [%rd5+8], 1;\n"
           "  atom.cta.global.add.u32 %r5, [%rd5+16], 1;\n"
           "  atom.acquire.sys.global.add.u32 %r5, [%rd5+24], 1;\n"
           "  red.release.gpu.global.add.u32 [%rd5+32], 1;\n"
           "  red.relaxed.cta.global.add.u32 [%rd5+40], 1;",
           2, 64, cell, NULL);
  for (int i = 0; i < 6; i++) assert_int_equal(cell[i], 128);
}

static void test_atom_many_workers(void **state) {
  (void)state;
  /* The same counters with 4 worker threads running blocks concurrently. */
  smemu_options o;
  smemu_ctx *ctx;
  uint64_t cell[8] = {0};
  memset(&o, 0, sizeof o);
  o.threads = 4;
  assert_int_equal(smemu_create(&o, &ctx), SMEMU_OK);
  run_atom_in(ctx, SP_GLOBAL,
              "atom.global.add.u32 %r5, [%rd5], 1;\n"
              "  red.global.add.u64 [%rd5+8], %rd6;\n"
              "  atom.global.add.f32 %f2, [%rd5+16], %f1;\n"
              "  atom.global.max.u32 %r5, [%rd5+24], %r1;\n"
              "CAS:\n"
              "  ld.volatile.global.u32 %r6, [%rd5+32];\n"
              "  add.u32 %r7, %r6, 3;\n"
              "  atom.global.cas.b32 %r8, [%rd5+32], %r6, %r7;\n"
              "  setp.ne.u32 %p1, %r8, %r6;\n"
              "  @%p1 bra CAS;",
              64, 128, cell, NULL);
  size_t n = 64 * 128;
  assert_int_equal((uint32_t)cell[0], n);
  assert_int_equal(cell[1], (uint64_t)n * (n - 1) / 2);
  assert_true(u2f((uint32_t)cell[2]) == (float)n);
  assert_int_equal((uint32_t)cell[3], n - 1);
  assert_int_equal((uint32_t)cell[4], 3 * n);
  smemu_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ld_st_global_widths),
      cmocka_unit_test(test_ld_st_global_vectors),
      cmocka_unit_test(test_ld_st_shared),
      cmocka_unit_test(test_ld_st_local),
      cmocka_unit_test(test_ld_param_all_types),
      cmocka_unit_test(test_param_layout),
      cmocka_unit_test(test_module_variables),
      cmocka_unit_test(test_global_pointer_initializer),
      cmocka_unit_test(test_dynamic_shared_layout),
      cmocka_unit_test(test_dynamic_shared_only),
      cmocka_unit_test(test_module_scope_shared),
      cmocka_unit_test(test_generic_shared_access),
      cmocka_unit_test(test_ordering_qualifiers),
      cmocka_unit_test(test_message_passing_between_warps),
      cmocka_unit_test(test_atom_add_int),
      cmocka_unit_test(test_atom_add_float),
      cmocka_unit_test(test_atom_min_max),
      cmocka_unit_test(test_atom_inc_dec),
      cmocka_unit_test(test_atom_cas_exch),
      cmocka_unit_test(test_atom_bitwise),
      cmocka_unit_test(test_red),
      cmocka_unit_test(test_atom_scope_and_order),
      cmocka_unit_test(test_atom_many_workers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
