/* test_tex.c: the texture and surface family (src/exec/tex.c) on objects
 * registered through smemu.h, for what the GPU recording
 * (tests/hw/textures) cannot cover: txq/suq/istypep as the H200 answered
 * them one module each (recorded/queries.out), texel formats checked against stated arithmetic,
 * a handle that names no object (a fault, not a crash), .trap surface
 * accesses outside, and malformed texture instructions (errors with
 * line:col). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

/* A 2D float texture (or surface) of w x h texels over `data`. */
static uint64_t reg2d(float *data, uint32_t w, uint32_t h, int surface, int filter, int norm) {
  smemu_tex_desc d;
  memset(&d, 0, sizeof d);
  d.surface = surface;
  d.dims = 2;
  d.nlevels = 1;
  d.level[0] = (smemu_tex_level){(uint8_t *)data, w, h, 1, w * 4, (size_t)w * h * 4};
  d.nch = 1;
  d.bits = 32;
  d.kind = SMEMU_TEX_FLOAT;
  d.addr[0] = d.addr[1] = d.addr[2] = SMEMU_ADDR_CLAMP;
  d.filter = filter;
  d.norm_coords = norm;
  d.channel_type = 0x20;
  return smemu_tex_register(&d);
}

static const char *kq =
    PTX_HEAD ".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 out)\n{\n"
             "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<4>;\n"
             "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [s];\n  ld.param.u64 %rd3, [out];\n"
             "  txq.width.b32 %r1, [%rd1];\n  txq.height.b32 %r2, [%rd1];\n"
             "  txq.depth.b32 %r3, [%rd1];\n  suq.width.b32 %r4, [%rd2];\n"
             "  suq.height.b32 %r5, [%rd2];\n  suq.depth.b32 %r6, [%rd2];\n"
             "  istypep.texref %p1, %rd1;\n  istypep.surfref %p2, %rd2;\n  istypep.samplerref %p3, %rd1;\n"
             "  selp.u32 %r7, 1, 0, %p1;\n  selp.u32 %r8, 1, 0, %p2;\n  selp.u32 %r9, 1, 0, %p3;\n"
             "  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
             "  st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n  st.global.u32 [%rd3+32], %r9;\n"
             "  ret;\n}\n";

static void test_queries(void **state) {
  (void)state;
  static float img[6 * 5], sim[3 * 2];
  uint64_t t = reg2d(img, 6, 5, 0, 1, 1), s = reg2d(sim, 3, 2, 1, 0, 0);
  assert_true(t && s && t != s);
  uint32_t *out = dev_alloc(64, 0);
  void *args[] = {&t, &s, &out};
  char err[512];
  PTX_OK(ptxrun(kq, "k", 1, 1, 0, args, err, sizeof err), err);
  /* as the H200 answers (tests/hw/textures/recorded/queries.out): the
   * extents in texels, 0 for a dimension the image lacks; istypep is
   * false for every type on object handles */
  uint32_t want[9] = {6, 5, 0, 3, 2, 0, 0, 0, 0};
  for (int i = 0; i < 9; i++) assert_int_equal(out[i], want[i]);
  assert_int_equal(smemu_tex_unregister(t), 0);
  assert_int_equal(smemu_tex_unregister(t), -1);
  /* a forgotten handle: the launch faults with a message, no crash */
  int st = ptxrun(kq, "k", 1, 1, 0, args, err, sizeof err);
  assert_int_equal(st, SMEMU_ERR_ILLEGAL_ADDRESS);
  assert_non_null(strstr(err, "no live texture object"));
  assert_int_equal(smemu_tex_unregister(s), 0);
  dev_free(out);
}

/* 2D point and bilinear samples of a 2 x 2 texture, unnormalized: at a
 * texel centre the texel itself; between four centres each weighs 1/4;
 * at a quarter, w11 = round(64 * 64 / 256) = 16, w10 = w01 = 48, w00 = 144. */
static void test_sample(void **state) {
  (void)state;
  static float img[4] = {0.f, 256.f, 512.f, 1024.f}; /* (0,0) (1,0) (0,1) (1,1) */
  uint64_t t = reg2d(img, 2, 2, 0, 1, 0);
  static const char *ks =
      PTX_HEAD ".visible .entry k(.param .u64 t, .param .u64 in, .param .u64 out)\n{\n"
               "  .reg .b32 %r<4>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<8>;\n"
               "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [in];\n  ld.param.u64 %rd3, [out];\n"
               "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd4, %r1, 8;\n  add.s64 %rd5, %rd2, %rd4;\n"
               "  ld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
               "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
               "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd6, %rd3, %rd4;\n  st.global.f32 [%rd6], %f3;\n"
               "  ret;\n}\n";
  /* (the fifth: x NaN reads column 0, y infinite the clamped last row) */
  float xy[10] = {0.5f, 0.5f, 1.5f, 1.5f, 1.f, 1.f, 0.75f, 0.75f, u2f(0x7fc00000u), u2f(0x7f800000u)};
  float *in = dev_in(xy, sizeof xy), *out = dev_alloc(20, 0);
  void *args[] = {&t, &in, &out};
  char err[512];
  PTX_OK(ptxrun(ks, "k", 1, 5, 0, args, err, sizeof err), err);
  assert_true(out[4] == 512.f);
  assert_true(out[0] == 0.f);
  assert_true(out[1] == 1024.f);
  assert_true(out[2] == (0.f + 256.f + 512.f + 1024.f) / 4);
  assert_true(out[3] == (144 * 0.f + 48 * 256.f + 48 * 512.f + 16 * 1024.f) / 256);
  smemu_tex_unregister(t);
  dev_free(in);
  dev_free(out);
}

/* suld .zero reads 0 outside, .clamp the edge texel, .trap faults. */
static void test_surface_modes(void **state) {
  (void)state;
  static float img[4] = {1.f, 2.f, 3.f, 4.f};
  uint64_t s = reg2d(img, 4, 1, 1, 0, 0);
  char src[1024];
  const char *modes[3] = {"zero", "clamp", "trap"};
  for (int m = 0; m < 3; m++) {
    snprintf(src, sizeof src,
             PTX_HEAD ".visible .entry k(.param .u64 s, .param .u64 out)\n{\n"
                      "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n"
                      "  ld.param.u64 %%rd1, [s];\n  ld.param.u64 %%rd2, [out];\n"
                      "  mov.u32 %%r1, 16;\n  mov.u32 %%r2, 0;\n"
                      "  suld.b.2d.b32.%s {%%r3}, [%%rd1, {%%r1, %%r2}];\n"
                      "  st.global.u32 [%%rd2], %%r3;\n  ret;\n}\n",
             modes[m]);
    uint32_t *out = dev_alloc(4, 0x55);
    void *args[] = {&s, &out};
    char err[512];
    int st = ptxrun(src, "k", 1, 1, 0, args, err, sizeof err);
    if (m < 2) {
      assert_int_equal(st, SMEMU_OK);
      assert_int_equal(out[0], m == 0 ? 0 : f2u(4.f));
    } else {
      assert_int_equal(st, SMEMU_ERR_ILLEGAL_ADDRESS);
      assert_non_null(strstr(err, "outside"));
    }
    dev_free(out);
  }
  smemu_tex_unregister(s);
}

/* sured: 64 threads add their index into element tid % 4 (.b: byte
 * offsets) and take the maximum of 1000 - tid into element tid % 2 of
 * another (.p: element offsets): sums 480 + 16 k, maxima 1000 and 999. */
static void test_sured(void **state) {
  (void)state;
  static uint32_t sum[4], mx[2];
  smemu_tex_desc d;
  memset(&d, 0, sizeof d);
  d.surface = 1, d.dims = 1, d.nlevels = 1, d.nch = 1, d.bits = 32, d.kind = SMEMU_TEX_SIGNED;
  d.level[0] = (smemu_tex_level){(uint8_t *)sum, 4, 1, 1, 16, 16};
  uint64_t s1 = smemu_tex_register(&d);
  d.level[0] = (smemu_tex_level){(uint8_t *)mx, 2, 1, 1, 8, 8};
  uint64_t s2 = smemu_tex_register(&d);
  static const char *k = PTX_HEAD ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n"
                                  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
                                  "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
                                  "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 3;\n  shl.b32 %r3, %r2, 2;\n"
                                  "  sured.b.add.1d.u32.trap [%rd1, {%r3}], %r1;\n"
                                  "  and.b32 %r4, %r1, 1;\n  sub.s32 %r5, 1000, %r1;\n"
                                  "  sured.p.max.1d.s32.trap [%rd2, {%r4}], %r5;\n"
                                  "  ret;\n}\n";
  void *args[] = {&s1, &s2};
  char err[512];
  PTX_OK(ptxrun(k, "k", 1, 64, 0, args, err, sizeof err), err);
  for (int i = 0; i < 4; i++) assert_int_equal(sum[i], 480 + 16 * i);
  assert_int_equal(mx[0], 1000);
  assert_int_equal(mx[1], 999);
  smemu_tex_unregister(s1);
  smemu_tex_unregister(s2);
}

/* Malformed forms are decode errors naming line and column. */
static void test_decode_errors(void **state) {
  (void)state;
  const char *bad[][2] = {
      {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];", "takes 2 coordinate"},
      {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [texA, {%f1, %f2}];", ".texref"},
      {"tex.2d.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];", ".v4"},
      {"suld.b.2d.b32 {%r1}, [%rd1, {%r1, %r1}];", ".trap, .clamp or .zero"},
      {"txq.bogus.b32 %r1, [%rd1];", "unknown txq query"},
      {"txq.channel_order.b32 %r1, [%rd1];", "not supported on sm_90"},
      {"tld4.r.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2, %f3, %f4}];", "not supported"},
      {"sured.b.add.2d.b32.trap [%rd1, {%r1, %r1}], %r2;", "does not take .b32"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char src[1024], err[512];
    snprintf(src, sizeof src,
             PTX_HEAD
             ".visible .entry k()\n{\n  .reg .b32 %%r<4>;\n  .reg .f32 %%f<8>;\n  .reg .b64 %%rd<4>;\n"
             "  %s\n  ret;\n}\n",
             bad[i][0]);
    int st = ptxrun(src, "k", 1, 1, 0, NULL, err, sizeof err);
    assert_int_not_equal(st, SMEMU_OK);
    if (!strstr(err, bad[i][1]) || !strstr(err, "test.ptx:9:")) fail_msg("%s: %s", bad[i][0], err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_queries),       cmocka_unit_test(test_sample),
      cmocka_unit_test(test_surface_modes), cmocka_unit_test(test_sured),
      cmocka_unit_test(test_decode_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
