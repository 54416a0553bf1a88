/* test_float.c: unit tests of smemu's floating-point instructions (f32, f64,
 * f16, f16x2, bf16, bf16x2): rounding modes, .ftz, .sat, special values, the
 * .approx functions within the PTX ISA's stated error bounds, comparisons. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* f32 bit patterns */
#define P0 0x00000000u
#define M0 0x80000000u
#define ONE 0x3f800000u
#define MONE 0xbf800000u
#define TWO 0x40000000u
#define HALF 0x3f000000u
#define PINF 0x7f800000u
#define MINF 0xff800000u
#define QNAN 0x7fffffffu
#define FMAX 0x7f7fffffu
#define FMIN 0x00800000u /* smallest normal */
#define DMIN 0x00000001u /* smallest subnormal */
#define DMAX 0x007fffffu /* largest subnormal */

/* f64 bit patterns */
#define D1 0x3ff0000000000000ull
#define DM1 0xbff0000000000000ull
#define D2 0x4000000000000000ull
#define D3 0x4008000000000000ull
#define DHALF 0x3fe0000000000000ull
#define DINF 0x7ff0000000000000ull
#define DMINF 0xfff0000000000000ull
#define DNAN 0x7fffffffffffffffull
#define DP0 0ull
#define DM0 0x8000000000000000ull

/* f16 / bf16 bit patterns */
#define H1 0x3c00u
#define HM1 0xbc00u
#define H2 0x4000u
#define HINF 0x7c00u
#define HNAN 0x7fffu
#define B1 0x3f80u
#define BNAN 0x7fffu

enum fmt { F32, F64, F16, BF16, F16X2, BF16X2, BITS };

typedef struct fv {
  uint64_t a, b, c;
  uint64_t w[4]; /* expected %d, %e, %f, %g */
} fv;

static int is_nan_fmt(int fmt, uint64_t x) {
  switch (fmt) {
  case F32: return (x & 0x7fffffffu) > 0x7f800000u;
  case F64: return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  case F16: return (x & 0x7fffu) > 0x7c00u;
  case BF16: return (x & 0x7fffu) > 0x7f80u;
  default: return 0;
  }
}

/* Equal bits, except that an expected NaN accepts any NaN of the format. */
static int same(int fmt, uint64_t got, uint64_t want) {
  if (fmt == F16X2 || fmt == BF16X2) {
    int h = fmt == F16X2 ? F16 : BF16;
    return same(h, got & 0xffff, want & 0xffff) && same(h, got >> 16 & 0xffff, want >> 16 & 0xffff);
  }
  if (is_nan_fmt(fmt, want)) return is_nan_fmt(fmt, got);
  return got == want;
}

static int fmt_bits(int fmt) {
  switch (fmt) {
  case F64: return 64;
  case F16: case BF16: return 16;
  default: return 32;
  }
}

static uint64_t maskb(int bits) { return bits == 64 ? ~0ull : (1ull << bits) - 1; }

/* Runs insn on one lane per vector and compares the first nout results. */
static void fcheck(const char *insn, int fmt, int nout, const fv *v, int n) {
  int bits = fmt == BITS ? 32 : fmt_bits(fmt), bad = 0;
  uint64_t *in = calloc((size_t)n * 3, 8), *out = calloc((size_t)n * 4, 8);
  char err[1024];
  assert_true(in && out);
  for (int i = 0; i < n; i++) {
    in[3 * i] = v[i].a;
    in[3 * i + 1] = v[i].b;
    in[3 * i + 2] = v[i].c;
  }
  PTX_OK(ptx_lanes3(insn, bits, (uint32_t)n, in, out, err, sizeof err), err);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < nout; k++) {
      uint64_t got = out[4 * i + k] & maskb(bits), want = v[i].w[k] & maskb(bits);
      if (!same(fmt, got, want)) {
        if (bad < 16)
          print_error("  %s\n    lane %d result %d: a=%#llx b=%#llx c=%#llx -> got %#llx, "
                      "want %#llx\n",
                      insn, i, k, (unsigned long long)v[i].a, (unsigned long long)v[i].b,
                      (unsigned long long)v[i].c, (unsigned long long)got,
                      (unsigned long long)want);
        bad++;
      }
    }
  free(in);
  free(out);
  if (bad) fail_msg("%d wrong results", bad);
}

/* The instruction `op` with each of .rn/.rz/.rm/.rp into %d/%e/%f/%g. */
static void rnd4(char *buf, size_t n, const char *op, const char *mods, const char *ty,
                 const char *srcs) {
  static const char *const r[] = {"rn", "rz", "rm", "rp"};
  static const char dst[] = "defg";
  size_t len = 0;
  int bits = strcmp(ty, "f64") == 0 ? 64 : 32;
  for (int i = 0; i < 4; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s.%s%s.%s %%%c%d, %s;\n  ", op, r[i], mods,
                            ty, dst[i], bits, srcs);
}

/* ---- f32 add / sub / mul / fma with rounding modes -------------------- */

static void test_f32_add_rounding(void **state) {
  (void)state;
  /* Results for .rn .rz .rm .rp. 2^-24 (0x33800000) is half an ulp of 1.0. */
  static const fv v[] = {
      {ONE, 0x33800000, 0, {ONE, ONE, ONE, 0x3f800001}},               /* tie, even down */
      {0x3f800001, 0x33800000, 0, {0x3f800002, 0x3f800001, 0x3f800001, 0x3f800002}}, /* tie, even up */
      {ONE, 0x33800001, 0, {0x3f800001, ONE, ONE, 0x3f800001}},        /* above half */
      {MONE, 0xb3800000, 0, {MONE, MONE, 0xbf800001, MONE}},           /* negative tie */
      {FMAX, FMAX, 0, {PINF, FMAX, FMAX, PINF}},                       /* overflow */
      {0xff7fffff, 0xff7fffff, 0, {MINF, 0xff7fffff, MINF, 0xff7fffff}},
      {ONE, MONE, 0, {P0, P0, M0, P0}},                                /* exact zero: -0 only in .rm */
      {M0, M0, 0, {M0, M0, M0, M0}},
      {P0, M0, 0, {P0, P0, M0, P0}},
      {PINF, MINF, 0, {QNAN, QNAN, QNAN, QNAN}},
      {PINF, ONE, 0, {PINF, PINF, PINF, PINF}},
      {QNAN, ONE, 0, {QNAN, QNAN, QNAN, QNAN}},
      {DMIN, DMIN, 0, {0x00000002, 0x00000002, 0x00000002, 0x00000002}}, /* subnormals kept */
      {DMAX, DMIN, 0, {FMIN, FMIN, FMIN, FMIN}},
  };
  char insn[512];
  rnd4(insn, sizeof insn, "add", "", "f32", "%a32, %b32");
  fcheck(insn, F32, 4, v, N(v));
  /* add.f32 without a rounding modifier rounds to nearest even (%d = .rn). */
  fcheck("add.f32 %d32, %a32, %b32;", F32, 1, v, N(v));
}

static void test_f32_sub_rounding(void **state) {
  (void)state;
  /* 1 - 2^-25 lies halfway between 0x3f7fffff and 1.0; even is 1.0. */
  static const fv v[] = {
      {ONE, 0x33000000, 0, {ONE, 0x3f7fffff, 0x3f7fffff, ONE}},
      {ONE, ONE, 0, {P0, P0, M0, P0}},
      {M0, P0, 0, {M0, M0, M0, M0}},
      {PINF, PINF, 0, {QNAN, QNAN, QNAN, QNAN}},
      {0xff7fffff, FMAX, 0, {MINF, 0xff7fffff, MINF, 0xff7fffff}},
  };
  char insn[512];
  rnd4(insn, sizeof insn, "sub", "", "f32", "%a32, %b32");
  fcheck(insn, F32, 4, v, N(v));
}

static void test_f32_mul_rounding(void **state) {
  (void)state;
  static const fv v[] = {
      /* (1+2^-23)^2 = 1 + 2^-22 + 2^-46 */
      {0x3f800001, 0x3f800001, 0, {0x3f800002, 0x3f800002, 0x3f800002, 0x3f800003}},
      /* (1+2^-23)(1-2^-24) = 1 + 2^-24 - 2^-47: just below half an ulp */
      {0x3f800001, 0x3f7fffff, 0, {ONE, ONE, ONE, 0x3f800001}},
      {FMAX, TWO, 0, {PINF, FMAX, FMAX, PINF}},
      /* 2^-100 * 2^-30 = 2^-130, an exact subnormal */
      {0x0d800000, 0x30800000, 0, {0x00080000, 0x00080000, 0x00080000, 0x00080000}},
      /* 2^-149 * 0.5 = 2^-150: a tie between 0 and the smallest subnormal */
      {DMIN, HALF, 0, {P0, P0, P0, DMIN}},
      {0x80000001, HALF, 0, {M0, M0, 0x80000001, M0}},
      {P0, PINF, 0, {QNAN, QNAN, QNAN, QNAN}},
      {M0, 0x40a00000, 0, {M0, M0, M0, M0}},
      {MINF, MONE, 0, {PINF, PINF, PINF, PINF}},
  };
  char insn[512];
  rnd4(insn, sizeof insn, "mul", "", "f32", "%a32, %b32");
  fcheck(insn, F32, 4, v, N(v));
}

static void test_f32_fma(void **state) {
  (void)state;
  static const fv v[] = {
      /* (1+2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; an unfused mul+add loses 2^-24 */
      {0x3f800800, 0x3f800800, MONE, {0x3a000400, 0x3a000400, 0x3a000400, 0x3a000400}},
      /* (1+2^-23)^2 - 1 = 2^-22 (1 + 2^-24): one rounding of a tie */
      {0x3f800001, 0x3f800001, MONE, {0x34800000, 0x34800000, 0x34800000, 0x34800001}},
      {PINF, P0, ONE, {QNAN, QNAN, QNAN, QNAN}},
      {M0, ONE, P0, {P0, P0, M0, P0}},
      {M0, ONE, M0, {M0, M0, M0, M0}},
      {ONE, ONE, QNAN, {QNAN, QNAN, QNAN, QNAN}},
      {FMAX, TWO, 0xff7fffff, {FMAX, FMAX, FMAX, FMAX}}, /* no intermediate overflow */
  };
  char insn[512];
  rnd4(insn, sizeof insn, "fma", "", "f32", "%a32, %b32, %c32");
  fcheck(insn, F32, 4, v, N(v));
  /* mad with a rounding modifier is the same fused operation. */
  rnd4(insn, sizeof insn, "mad", "", "f32", "%a32, %b32, %c32");
  fcheck(insn, F32, 4, v, N(v));
}

static void test_f32_ftz(void **state) {
  (void)state;
  /* .ftz flushes subnormal inputs and results to sign-preserving zero:
   * %d without .ftz, %e with it. */
  static const fv add[] = {
      {DMIN, P0, 0, {DMIN, P0}},
      {0x80000001, M0, 0, {0x80000001, M0}},
      {DMAX, FMIN, 0, {0x00ffffff, FMIN}},
      {FMIN, 0x80000001, 0, {DMAX, FMIN}}, /* result of the unflushed sum is subnormal */
  };
  fcheck("add.f32 %d32, %a32, %b32;\n  add.ftz.f32 %e32, %a32, %b32;", F32, 2, add, N(add));
  static const fv mul[] = {
      {0x0d800000, 0x30800000, 0, {0x00080000, P0}}, /* 2^-130 */
      {0x8d800000, 0x30800000, 0, {0x80080000, M0}},
      {DMAX, TWO, 0, {0x00fffffe, P0}},             /* subnormal input flushed */
      {FMIN, HALF, 0, {0x00400000, P0}},
  };
  fcheck("mul.f32 %d32, %a32, %b32;\n  mul.ftz.f32 %e32, %a32, %b32;", F32, 2, mul, N(mul));
  static const fv fma[] = {
      {FMIN, HALF, P0, {0x00400000, P0}},
      {DMAX, ONE, FMIN, {0x00ffffff, FMIN}},
  };
  fcheck("fma.rn.f32 %d32, %a32, %b32, %c32;\n  fma.rn.ftz.f32 %e32, %a32, %b32, %c32;", F32, 2,
         fma, N(fma));
}

static void test_f32_sat(void **state) {
  (void)state;
  /* .sat clamps to [0.0, 1.0]; NaN results become +0.0. */
  static const fv v[] = {
      {0x3f400000 /* 0.75 */, HALF, 0, {ONE}},
      {0xbf000000 /* -0.5 */, 0x3e800000 /* 0.25 */, 0, {P0}},
      {0x3e800000, 0x3e800000, 0, {HALF}},
      {QNAN, ONE, 0, {P0}},
      {PINF, ONE, 0, {ONE}},
      {MINF, ONE, 0, {P0}},
      {PINF, MINF, 0, {P0}},
  };
  fcheck("add.sat.f32 %d32, %a32, %b32;", F32, 1, v, N(v));
  static const fv m[] = {
      {PINF, ONE, 0, {ONE}}, {MINF, ONE, 0, {P0}}, {HALF, HALF, 0, {0x3e800000}},
      {QNAN, ONE, 0, {P0}},  {TWO, TWO, 0, {ONE}},
  };
  fcheck("mul.sat.f32 %d32, %a32, %b32;", F32, 1, m, N(m));
  static const fv f[] = {
      {HALF, HALF, 0x3f666666 /* 0.9 */, {ONE}},
      {HALF, HALF, MONE, {P0}},
      {HALF, HALF, 0x3e800000, {HALF}},
  };
  fcheck("fma.rn.sat.f32 %d32, %a32, %b32, %c32;", F32, 1, f, N(f));
  fcheck("sub.sat.f32 %d32, %a32, %b32;", F32, 1,
         (const fv[]){{ONE, MONE, 0, {ONE}}, {MONE, ONE, 0, {P0}}}, 2);
}

static void test_f32_registers_and_literals(void **state) {
  (void)state;
  /* A hand-written kernel with .f32 registers and 0f hex literals:
   * out[tid] = (float)tid * 2.0 + 1.0 - 0.25. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .f32 %f<5>;\n"
      "  .reg .b32 %r<2>;\n"
      "  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  cvta.to.global.u64 %rd1, %rd1;\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  cvt.rn.f32.u32 %f1, %r1;\n"
      "  mul.f32 %f2, %f1, 0f40000000;\n"
      "  add.f32 %f3, %f2, 0f3F800000;\n"
      "  sub.f32 %f4, %f3, 0f3E800000;\n"
      "  mul.wide.u32 %rd2, %r1, 4;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n"
      "  st.global.f32 [%rd3], %f4;\n"
      "  ret;\n"
      "}\n";
  float *out = dev_alloc(64 * 4, 0);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 64, 0, args, err, sizeof err), err);
  for (int i = 0; i < 64; i++) assert_true(out[i] == (float)i * 2.0f + 0.75f);
  dev_free(out);
}

/* ---- f64 ----------------------------------------------------------------- */

static void test_f64_arith(void **state) {
  (void)state;
  char insn[512];
  /* 2^-53 (0x3ca0000000000000) is half an ulp of 1.0. */
  static const fv add[] = {
      {D1, 0x3ca0000000000000ull, 0, {D1, D1, D1, 0x3ff0000000000001ull}},
      {0x3ff0000000000001ull, 0x3ca0000000000000ull, 0,
       {0x3ff0000000000002ull, 0x3ff0000000000001ull, 0x3ff0000000000001ull,
        0x3ff0000000000002ull}},
      {DM1, 0xbca0000000000000ull, 0, {DM1, DM1, 0xbff0000000000001ull, DM1}},
      {D1, DM1, 0, {DP0, DP0, DM0, DP0}},
      {0x7fefffffffffffffull, 0x7fefffffffffffffull, 0,
       {DINF, 0x7fefffffffffffffull, 0x7fefffffffffffffull, DINF}},
      {DINF, DMINF, 0, {DNAN, DNAN, DNAN, DNAN}},
      {1, 1, 0, {2, 2, 2, 2}}, /* subnormals */
  };
  rnd4(insn, sizeof insn, "add", "", "f64", "%a64, %b64");
  fcheck(insn, F64, 4, add, N(add));
  static const fv mul[] = {
      {0x3ff0000000000001ull, 0x3ff0000000000001ull, 0,
       {0x3ff0000000000002ull, 0x3ff0000000000002ull, 0x3ff0000000000002ull,
        0x3ff0000000000003ull}},
      {1, DHALF, 0, {DP0, DP0, DP0, 1}},
      {DP0, DINF, 0, {DNAN, DNAN, DNAN, DNAN}},
      {DM0, D3, 0, {DM0, DM0, DM0, DM0}},
  };
  rnd4(insn, sizeof insn, "mul", "", "f64", "%a64, %b64");
  fcheck(insn, F64, 4, mul, N(mul));
  /* (1+2^-52)^2 - 1 = 2^-51 (1 + 2^-53): a single rounding of a tie. */
  static const fv fma[] = {
      {0x3ff0000000000001ull, 0x3ff0000000000001ull, DM1,
       {0x3cc0000000000000ull, 0x3cc0000000000000ull, 0x3cc0000000000000ull,
        0x3cc0000000000001ull}},
      {DM0, D1, DP0, {DP0, DP0, DM0, DP0}},
  };
  rnd4(insn, sizeof insn, "fma", "", "f64", "%a64, %b64, %c64");
  fcheck(insn, F64, 4, fma, N(fma));
  static const fv sub[] = {
      {D1, D1, 0, {DP0, DP0, DM0, DP0}},
      {D3, D1, 0, {D2, D2, D2, D2}},
  };
  rnd4(insn, sizeof insn, "sub", "", "f64", "%a64, %b64");
  fcheck(insn, F64, 4, sub, N(sub));
}

static void test_f64_div_sqrt_rcp(void **state) {
  (void)state;
  char insn[512];
  /* 1/3 = 0x3fd5555555555555 rounded to nearest, which is below 1/3;
   * 2/3 = 0x3fe5555555555555, also below. */
  static const fv div[] = {
      {D1, D3, 0, {0x3fd5555555555555ull, 0x3fd5555555555555ull, 0x3fd5555555555555ull,
                   0x3fd5555555555556ull}},
      {D2, D3, 0, {0x3fe5555555555555ull, 0x3fe5555555555555ull, 0x3fe5555555555555ull,
                   0x3fe5555555555556ull}},
      {DM1, D3, 0, {0xbfd5555555555555ull, 0xbfd5555555555555ull, 0xbfd5555555555556ull,
                    0xbfd5555555555555ull}},
      {D1, DP0, 0, {DINF, DINF, DINF, DINF}},
      {DM1, DP0, 0, {DMINF, DMINF, DMINF, DMINF}},
      {DP0, DP0, 0, {DNAN, DNAN, DNAN, DNAN}},
      {DINF, DINF, 0, {DNAN, DNAN, DNAN, DNAN}},
  };
  rnd4(insn, sizeof insn, "div", "", "f64", "%a64, %b64");
  fcheck(insn, F64, 4, div, N(div));
  static const fv rcp[] = {
      {D3, 0, 0, {0x3fd5555555555555ull, 0x3fd5555555555555ull, 0x3fd5555555555555ull,
                  0x3fd5555555555556ull}},
      {DP0, 0, 0, {DINF, DINF, DINF, DINF}},
      {DM0, 0, 0, {DMINF, DMINF, DMINF, DMINF}},
      {DMINF, 0, 0, {DM0, DM0, DM0, DM0}},
  };
  rnd4(insn, sizeof insn, "rcp", "", "f64", "%a64");
  fcheck(insn, F64, 4, rcp, N(rcp));
  /* sqrt(2) rounded to nearest is 0x3ff6a09e667f3bcd, which is above sqrt(2). */
  static const fv sq[] = {
      {D2, 0, 0, {0x3ff6a09e667f3bcdull, 0x3ff6a09e667f3bccull, 0x3ff6a09e667f3bccull,
                  0x3ff6a09e667f3bcdull}},
      {0x4010000000000000ull, 0, 0, {D2, D2, D2, D2}},
      {DM0, 0, 0, {DM0, DM0, DM0, DM0}},
      {DM1, 0, 0, {DNAN, DNAN, DNAN, DNAN}},
      {DINF, 0, 0, {DINF, DINF, DINF, DINF}},
  };
  rnd4(insn, sizeof insn, "sqrt", "", "f64", "%a64");
  fcheck(insn, F64, 4, sq, N(sq));
}

static void test_f64_min_max_abs_neg(void **state) {
  (void)state;
  /* min, max, abs(a), neg(a): one NaN operand gives the other operand. */
  static const fv v[] = {
      {D1, D2, 0, {D1, D2, D1, DM1}},
      {DNAN, D2, 0, {D2, D2, DNAN, DNAN}},
      {D2, DNAN, 0, {D2, D2, D2, 0xc000000000000000ull}},
      {DNAN, DNAN, 0, {DNAN, DNAN, DNAN, DNAN}},
      {DM0, DP0, 0, {DM0, DP0, DP0, DP0}},
      {DP0, DM0, 0, {DM0, DP0, DP0, DM0}},
      {DMINF, D1, 0, {DMINF, D1, DINF, DINF}},
      {1, DM0, 0, {DM0, 1, 1, 0x8000000000000001ull}},
  };
  fcheck("min.f64 %d64, %a64, %b64;\n  max.f64 %e64, %a64, %b64;\n"
         "  abs.f64 %f64, %a64;\n  neg.f64 %g64, %a64;",
         F64, 4, v, N(v));
}

/* ---- division, reciprocal, square root (f32) ------------------------- */

static void test_f32_div_rn(void **state) {
  (void)state;
  char insn[512];
  /* 1/3 rounded to nearest is 0x3eaaaaab, above 1/3. */
  static const fv v[] = {
      {ONE, 0x40400000, 0, {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab}},
      {MONE, 0x40400000, 0, {0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa}},
      {ONE, P0, 0, {PINF, PINF, PINF, PINF}},
      {MONE, P0, 0, {MINF, MINF, MINF, MINF}},
      {ONE, M0, 0, {MINF, MINF, MINF, MINF}},
      {P0, P0, 0, {QNAN, QNAN, QNAN, QNAN}},
      {PINF, PINF, 0, {QNAN, QNAN, QNAN, QNAN}},
      {ONE, PINF, 0, {P0, P0, P0, P0}},
      {DMIN, TWO, 0, {P0, P0, P0, DMIN}}, /* 2^-150: tie between 0 and 2^-149 */
      {0x40c00000 /* 6 */, TWO, 0, {0x40400000, 0x40400000, 0x40400000, 0x40400000}},
  };
  rnd4(insn, sizeof insn, "div", "", "f32", "%a32, %b32");
  fcheck(insn, F32, 4, v, N(v));
  static const fv r[] = {
      {0x40400000, 0, 0, {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab}},
      {P0, 0, 0, {PINF, PINF, PINF, PINF}},
      {M0, 0, 0, {MINF, MINF, MINF, MINF}},
      {MINF, 0, 0, {M0, M0, M0, M0}},
      {TWO, 0, 0, {HALF, HALF, HALF, HALF}},
  };
  rnd4(insn, sizeof insn, "rcp", "", "f32", "%a32");
  fcheck(insn, F32, 4, r, N(r));
  /* sqrt(2) to nearest is 0x3fb504f3, below sqrt(2). */
  static const fv s[] = {
      {TWO, 0, 0, {0x3fb504f3, 0x3fb504f3, 0x3fb504f3, 0x3fb504f4}},
      {0x40800000, 0, 0, {TWO, TWO, TWO, TWO}},
      {M0, 0, 0, {M0, M0, M0, M0}},
      {MONE, 0, 0, {QNAN, QNAN, QNAN, QNAN}},
      {PINF, 0, 0, {PINF, PINF, PINF, PINF}},
      {DMIN, 0, 0, {0x1a3504f3, 0x1a3504f3, 0x1a3504f3, 0x1a3504f4}}, /* sqrt(2^-149) */
  };
  rnd4(insn, sizeof insn, "sqrt", "", "f32", "%a32");
  fcheck(insn, F32, 4, s, N(s));
}

/* Position of a float on a line where adjacent floats are 1 apart. */
static int64_t ford(float f) {
  uint32_t u = f2u(f);
  return (u & 0x80000000u) ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
}
static int64_t ulp_dist(float a, float b) {
  int64_t d = ford(a) - ford(b);
  return d < 0 ? -d : d;
}

/* One lane per (a, b); %d = insn(a, b) must be within maxulp of the
 * correctly rounded reference ref[i]. */
static void ulp_check(const char *insn, const float *a, const float *b, const float *ref,
                      int n, int maxulp) {
  uint64_t in[3 * 64] = {0}, out[4 * 64];
  char err[1024];
  int bad = 0;
  assert_true(n <= 64);
  for (int i = 0; i < n; i++) {
    in[3 * i] = f2u(a[i]);
    in[3 * i + 1] = b ? f2u(b[i]) : 0;
  }
  PTX_OK(ptx_lanes3(insn, 32, (uint32_t)n, in, out, err, sizeof err), err);
  for (int i = 0; i < n; i++) {
    float got = u2f((uint32_t)out[4 * i]);
    if (ulp_dist(got, ref[i]) > maxulp) {
      print_error("  %s: a=%a b=%a -> %a (%#x), want %a within %d ulp\n", insn, (double)a[i],
                  b ? (double)b[i] : 0.0, (double)got, f2u(got), (double)ref[i], maxulp);
      bad++;
    }
  }
  if (bad) fail_msg("%d results out of bounds", bad);
}

static void test_f32_div_approx_full(void **state) {
  (void)state;
  float a[16], b[16], ref[16];
  static const float as[] = {1, 10, -7, 3.5f, 1e30f, 1e-30f, 123456.0f, 0.1f};
  static const float bs[] = {3, 7, 11, -0.3f, 1e20f, 3e-20f, 0.001f, 9.5f};
  int n = 0;
  for (int i = 0; i < N(as); i++) {
    a[n] = as[i];
    b[n] = bs[i];
    ref[n] = (float)((double)as[i] / (double)bs[i]);
    n++;
  }
  /* div.approx.f32: at most 2 ulp for |b| in [2^-126, 2^126]; div.full.f32:
   * at most 2 ulp over the full range (PTX ISA). */
  ulp_check("div.approx.f32 %d32, %a32, %b32;", a, b, ref, n, 2);
  ulp_check("div.approx.ftz.f32 %d32, %a32, %b32;", a, b, ref, n, 2);
  ulp_check("div.full.f32 %d32, %a32, %b32;", a, b, ref, n, 2);
  ulp_check("div.full.ftz.f32 %d32, %a32, %b32;", a, b, ref, n, 2);
  /* div.full also for a divisor beyond 2^126: 2^127 / 2^127 = 1. */
  a[0] = 0x1p127f;
  b[0] = 0x1p127f;
  ref[0] = 1.0f;
  a[1] = 0x1.8p127f;
  b[1] = 0x1p127f;
  ref[1] = 1.5f;
  ulp_check("div.full.f32 %d32, %a32, %b32;", a, b, ref, 2, 2);
  /* Division by zero and NaN stay IEEE-like in div.full. */
  static const fv v[] = {
      {ONE, P0, 0, {PINF}}, {MONE, P0, 0, {MINF}}, {P0, P0, 0, {QNAN}}, {QNAN, ONE, 0, {QNAN}},
  };
  fcheck("div.full.f32 %d32, %a32, %b32;", F32, 1, v, N(v));
}

static void test_f32_rcp_sqrt_rsqrt_approx(void **state) {
  (void)state;
  static const float xs[] = {1, 2, 3, 0.1f, 7.5f, 1e10f, 1e-10f, 12345.678f, 0.75f, 1e30f};
  float x[16], ref[16];
  int n = 0;
  for (int i = 0; i < N(xs); i++) {
    x[n] = xs[i];
    ref[n] = (float)(1.0 / (double)xs[i]);
    n++;
  }
  /* rcp.approx.f32: max 1 ulp. */
  ulp_check("rcp.approx.f32 %d32, %a32;", x, NULL, ref, n, 1);
  ulp_check("rcp.approx.ftz.f32 %d32, %a32;", x, NULL, ref, n, 1);
  /* sqrt.approx.f32: relative error 2^-23 (about 1 ulp after rounding, allow 2);
   * rsqrt.approx.f32: relative error 2^-22.9 (allow 2 ulp). */
  for (int i = 0; i < n; i++) ref[i] = (float)sqrt((double)xs[i]);
  ulp_check("sqrt.approx.f32 %d32, %a32;", x, NULL, ref, n, 2);
  ulp_check("sqrt.approx.ftz.f32 %d32, %a32;", x, NULL, ref, n, 2);
  for (int i = 0; i < n; i++) ref[i] = (float)(1.0 / sqrt((double)xs[i]));
  ulp_check("rsqrt.approx.f32 %d32, %a32;", x, NULL, ref, n, 2);
  ulp_check("rsqrt.approx.ftz.f32 %d32, %a32;", x, NULL, ref, n, 2);
  /* Special values: rcp(+-0) = +-inf, rcp(+-inf) = +-0, sqrt(-x) = NaN,
   * rsqrt(+0) = +inf, rsqrt(-0) = -inf, rsqrt(+inf) = +0, rsqrt(-1) = NaN. */
  static const fv sp[] = {
      {P0, 0, 0, {PINF, P0, PINF}}, {M0, 0, 0, {MINF, M0, MINF}},
      {PINF, 0, 0, {P0, PINF, P0}}, {MINF, 0, 0, {M0, QNAN, QNAN}},
      {QNAN, 0, 0, {QNAN, QNAN, QNAN}},
  };
  fcheck("rcp.approx.f32 %d32, %a32;\n  sqrt.approx.f32 %e32, %a32;\n"
         "  rsqrt.approx.f32 %f32, %a32;",
         F32, 3, sp, N(sp));
  static const fv neg[] = {{MONE, 0, 0, {QNAN, QNAN}}, {0xc2c80000 /* -100 */, 0, 0, {QNAN, QNAN}}};
  fcheck("sqrt.approx.f32 %d32, %a32;\n  rsqrt.approx.f32 %e32, %a32;", F32, 2, neg, N(neg));
}

/* ---- transcendental approximations ------------------------------------ */

/* One lane per x; |got - ref(x)| must be <= abs_tol or <= rel_tol * |ref|. */
static void tol_check(const char *insn, const float *x, int n, double (*ref)(double),
                      double abs_tol, double rel_tol) {
  uint64_t in[3 * 64] = {0}, out[4 * 64];
  char err[1024];
  int bad = 0;
  assert_true(n <= 64);
  for (int i = 0; i < n; i++) in[3 * i] = f2u(x[i]);
  PTX_OK(ptx_lanes3(insn, 32, (uint32_t)n, in, out, err, sizeof err), err);
  for (int i = 0; i < n; i++) {
    double got = (double)u2f((uint32_t)out[4 * i]), want = ref((double)x[i]);
    double e = fabs(got - want);
    if (!(e <= abs_tol || e <= rel_tol * fabs(want))) {
      print_error("  %s: x=%a -> %a, want %a (error %g)\n", insn, (double)x[i], got, want, e);
      bad++;
    }
  }
  if (bad) fail_msg("%d results out of bounds", bad);
}

static double d_ex2(double x) { return exp2(x); }
static double d_lg2(double x) { return log2(x); }

static void test_sin_cos_approx(void **state) {
  (void)state;
  static const float x[] = {0.0f, 0.5f, 1.0f, -1.0f, 1.5707964f, 3.1415927f, -3.0f, 2.5f,
                            10.0f, -20.0f, 100.0f, 300.0f, 1e-3f, -0.75f};
  /* PTX ISA: maximum absolute error 2^-20.5 in the range -100*pi..100*pi. */
  tol_check("sin.approx.f32 %d32, %a32;", x, N(x), sin, pow(2, -20.5), 0);
  tol_check("cos.approx.f32 %d32, %a32;", x, N(x), cos, pow(2, -20.5), 0);
  tol_check("sin.approx.ftz.f32 %d32, %a32;", x, N(x), sin, pow(2, -20.5), 0);
  tol_check("cos.approx.ftz.f32 %d32, %a32;", x, N(x), cos, pow(2, -20.5), 0);
  /* sin(+-0) = +-0, cos(0) = 1, sin/cos(+-inf) = NaN. */
  static const fv sp[] = {
      {P0, 0, 0, {P0, ONE}},     {M0, 0, 0, {M0, ONE}},     {PINF, 0, 0, {QNAN, QNAN}},
      {MINF, 0, 0, {QNAN, QNAN}}, {QNAN, 0, 0, {QNAN, QNAN}},
  };
  fcheck("sin.approx.f32 %d32, %a32;\n  cos.approx.f32 %e32, %a32;", F32, 2, sp, N(sp));
}

static void test_ex2_lg2_approx(void **state) {
  (void)state;
  static const float x[] = {0.0f, 1.0f, -1.0f, 0.5f, 10.0f, -10.5f, 3.3f, 100.25f, -100.0f,
                            0.001f, 20.0f, -0.3f};
  /* ex2.approx.f32: relative error about 2 ulp (2^-22). */
  tol_check("ex2.approx.f32 %d32, %a32;", x, N(x), d_ex2, 0, pow(2, -22));
  tol_check("ex2.approx.ftz.f32 %d32, %a32;", x, N(x), d_ex2, 0, pow(2, -22));
  static const float y[] = {1.0f, 2.0f, 8.0f, 10.0f, 0.1f, 0.75f, 1.5f, 1e20f, 3e-20f, 12345.0f,
                            0.999f, 1.001f};
  /* lg2.approx.f32: absolute error 2^-22.6 for the mantissa part; allow 2^-22
   * absolute, or 2^-22 relative for large results. */
  tol_check("lg2.approx.f32 %d32, %a32;", y, N(y), d_lg2, pow(2, -22), pow(2, -22));
  tol_check("lg2.approx.ftz.f32 %d32, %a32;", y, N(y), d_lg2, pow(2, -22), pow(2, -22));
  /* The ISA's special values: ex2(-inf) = +0, ex2(+inf) = +inf,
   * ex2(+-0) = 1; lg2(+-0) = -inf, lg2(+inf) = +inf, lg2(-inf) = NaN. */
  static const fv sp[] = {
      {MINF, 0, 0, {P0, QNAN}}, {PINF, 0, 0, {PINF, PINF}}, {P0, 0, 0, {ONE, MINF}},
      {M0, 0, 0, {ONE, MINF}},  {QNAN, 0, 0, {QNAN, QNAN}},
  };
  fcheck("ex2.approx.f32 %d32, %a32;\n  lg2.approx.f32 %e32, %a32;", F32, 2, sp, N(sp));
  static const fv neg[] = {{MONE, 0, 0, {QNAN}}, {0xc2c80000 /* -100 */, 0, 0, {QNAN}}};
  fcheck("lg2.approx.f32 %d32, %a32;", F32, 1, neg, N(neg));
}

static void test_tanh_approx(void **state) {
  (void)state;
  static const float x[] = {0.1f, -0.1f, 0.5f, 1.0f, -1.0f, 2.0f, 5.0f, -3.0f, 10.0f, 0.001f,
                            20.0f, -0.75f};
  /* PTX ISA: maximum relative error 2^-11 (2^-10.987). */
  tol_check("tanh.approx.f32 %d32, %a32;", x, N(x), tanh, 0, pow(2, -10.987));
  static const fv sp[] = {
      {P0, 0, 0, {P0}}, {M0, 0, 0, {M0}}, {PINF, 0, 0, {ONE}}, {MINF, 0, 0, {MONE}},
      {QNAN, 0, 0, {QNAN}},
  };
  fcheck("tanh.approx.f32 %d32, %a32;", F32, 1, sp, N(sp));
}

/* ---- min / max / abs / neg / copysign / testp -------------------------- */

static void test_f32_min_max(void **state) {
  (void)state;
  /* One NaN operand: the other operand; two NaNs: NaN; -0.0 < +0.0. */
  static const fv v[] = {
      {ONE, TWO, 0, {ONE, TWO}},
      {QNAN, ONE, 0, {ONE, ONE}},
      {ONE, QNAN, 0, {ONE, ONE}},
      {QNAN, QNAN, 0, {QNAN, QNAN}},
      {M0, P0, 0, {M0, P0}},
      {P0, M0, 0, {M0, P0}},
      {MINF, PINF, 0, {MINF, PINF}},
      {MONE, DMIN, 0, {MONE, DMIN}},
      {0x80000001, P0, 0, {0x80000001, P0}},
  };
  fcheck("min.f32 %d32, %a32, %b32;\n  max.f32 %e32, %a32, %b32;", F32, 2, v, N(v));
  /* .ftz: the subnormal -2^-149 becomes -0.0, and -0.0 < +0.0. */
  static const fv f[] = {{0x80000001, P0, 0, {M0, P0}}, {DMIN, M0, 0, {M0, P0}}};
  fcheck("min.ftz.f32 %d32, %a32, %b32;\n  max.ftz.f32 %e32, %a32, %b32;", F32, 2, f, N(f));
  /* .NaN: any NaN operand gives the canonical NaN. */
  static const fv n[] = {
      {QNAN, ONE, 0, {QNAN, QNAN}}, {ONE, QNAN, 0, {QNAN, QNAN}}, {ONE, TWO, 0, {ONE, TWO}},
  };
  fcheck("min.NaN.f32 %d32, %a32, %b32;\n  max.NaN.f32 %e32, %a32, %b32;", F32, 2, n, N(n));
}

static void test_f32_abs_neg(void **state) {
  (void)state;
  static const fv v[] = {
      {ONE, 0, 0, {ONE, MONE}},   {MONE, 0, 0, {ONE, ONE}},   {P0, 0, 0, {P0, M0}},
      {M0, 0, 0, {P0, P0}},       {MINF, 0, 0, {PINF, PINF}}, {DMIN, 0, 0, {DMIN, 0x80000001}},
      {QNAN, 0, 0, {QNAN, QNAN}},
  };
  fcheck("abs.f32 %d32, %a32;\n  neg.f32 %e32, %a32;", F32, 2, v, N(v));
  /* .ftz flushes a subnormal input to sign-preserving zero first. */
  static const fv f[] = {{0x80000001, 0, 0, {P0, P0}}, {DMIN, 0, 0, {P0, M0}}};
  fcheck("abs.ftz.f32 %d32, %a32;\n  neg.ftz.f32 %e32, %a32;", F32, 2, f, N(f));
}

static void test_copysign(void **state) {
  (void)state;
  /* copysign d, a, b: b with the sign of a. */
  static const fv v[] = {
      {MONE, TWO, 0, {0xc0000000}}, {ONE, 0xc0000000, 0, {TWO}}, {P0, MINF, 0, {PINF}},
      {M0, P0, 0, {M0}},           {MONE, DMIN, 0, {0x80000001}},
  };
  fcheck("copysign.f32 %d32, %a32, %b32;", F32, 1, v, N(v));
  static const fv d[] = {{DM1, D2, 0, {0xc000000000000000ull}}, {D1, DMINF, 0, {DINF}}};
  fcheck("copysign.f64 %d64, %a64, %b64;", F64, 1, d, N(d));
}

enum { T_FIN, T_INF, T_NUM, T_NAN, T_NORM, T_SUB };

static void check_testp(const char *ty, int bits, const uint64_t *x, const int *cls, int n) {
  static const char *const ops[] = {"finite", "infinite", "number", "notanumber", "normal",
                                    "subnormal"};
  for (int op = 0; op < 6; op++) {
    char insn[160];
    fv v[16];
    snprintf(insn, sizeof insn, "testp.%s.%s %%p, %%a%d;\n  selp.u32 %%d32, 1, 0, %%p;", ops[op],
             ty, bits);
    for (int i = 0; i < n; i++) {
      int c = cls[i], r; /* c: 0 zero, 1 subnormal, 2 normal, 3 inf, 4 NaN */
      switch (op) {
      case T_FIN: r = c <= 2; break;
      case T_INF: r = c == 3; break;
      case T_NUM: r = c != 4; break;
      case T_NAN: r = c == 4; break;
      case T_NORM: r = c == 0 || c == 2; break; /* zeros count as normal */
      default: r = c == 1; break;
      }
      v[i] = (fv){x[i], 0, 0, {(uint64_t)r}};
    }
    fcheck(insn, BITS, 1, v, n);
  }
}

static void test_testp(void **state) {
  (void)state;
  static const uint64_t x32[] = {P0, M0, DMIN, 0x80000001, DMAX, FMIN, ONE, FMAX, PINF, MINF,
                                 QNAN, 0x7f800001, 0xffc00000};
  static const int c32[] = {0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4};
  check_testp("f32", 32, x32, c32, N(x32));
  static const uint64_t x64[] = {DP0, DM0, 1, 0x000fffffffffffffull, D1, DINF, DMINF, DNAN,
                                 0x7ff0000000000001ull};
  static const int c64[] = {0, 0, 1, 1, 2, 3, 3, 4, 4};
  check_testp("f64", 64, x64, c64, N(x64));
}

/* ---- setp ---------------------------------------------------------------- */

enum { FE_EQ, FE_NE, FE_LT, FE_LE, FE_GT, FE_GE, FE_EQU, FE_NEU, FE_LTU, FE_LEU, FE_GTU,
       FE_GEU, FE_NUM, FE_NAN };
static const char *const FCMP[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                   "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

static int fcmp_ref(int op, double a, double b) {
  int un = isnan(a) || isnan(b);
  switch (op) {
  case FE_EQ: return !un && a == b;
  case FE_NE: return !un && a != b;
  case FE_LT: return !un && a < b;
  case FE_LE: return !un && a <= b;
  case FE_GT: return !un && a > b;
  case FE_GE: return !un && a >= b;
  case FE_EQU: return un || a == b;
  case FE_NEU: return un || a != b;
  case FE_LTU: return un || a < b;
  case FE_LEU: return un || a <= b;
  case FE_GTU: return un || a > b;
  case FE_GEU: return un || a >= b;
  case FE_NUM: return !un;
  default: return un;
  }
}

static void test_setp_f32(void **state) {
  (void)state;
  static const uint32_t x[] = {ONE, MONE, P0, M0, PINF, MINF, QNAN, DMIN};
  for (int op = 0; op < 14; op++) {
    char insn[160];
    fv v[64];
    int n = 0;
    snprintf(insn, sizeof insn,
             "setp.%s.f32 %%p|%%q, %%a32, %%b32;\n"
             "  selp.u32 %%d32, 1, 0, %%p;\n  selp.u32 %%e32, 1, 0, %%q;",
             FCMP[op]);
    for (int i = 0; i < N(x); i++)
      for (int j = 0; j < N(x); j++) {
        int r = fcmp_ref(op, (double)u2f(x[i]), (double)u2f(x[j]));
        v[n++] = (fv){x[i], x[j], 0, {(uint64_t)r, (uint64_t)!r}};
      }
    fcheck(insn, BITS, 2, v, n);
  }
}

static void test_setp_f64_ftz(void **state) {
  (void)state;
  static const uint64_t x[] = {D1, DM1, DP0, DM0, DINF, DNAN, 1};
  for (int op = 0; op < 14; op++) {
    char insn[160];
    fv v[64];
    int n = 0;
    snprintf(insn, sizeof insn, "setp.%s.f64 %%p, %%a64, %%b64;\n  selp.u32 %%d32, 1, 0, %%p;",
             FCMP[op]);
    for (int i = 0; i < N(x); i++)
      for (int j = 0; j < N(x); j++)
        v[n++] = (fv){x[i], x[j], 0, {(uint64_t)fcmp_ref(op, u2d(x[i]), u2d(x[j]))}};
    fcheck(insn, BITS, 1, v, n);
  }
  /* setp.ftz.f32: a subnormal compares equal to zero. */
  /* %d: equal under .ftz; %e: not equal without .ftz. */
  static const fv f[] = {{DMIN, P0, 0, {1, 1}}, {0x80000001, P0, 0, {1, 1}}, {FMIN, P0, 0, {0, 1}}};
  fcheck("setp.eq.ftz.f32 %p, %a32, %b32;\n  selp.u32 %d32, 1, 0, %p;\n"
         "  setp.eq.f32 %q, %a32, %b32;\n  selp.u32 %e32, 0, 1, %q;",
         BITS, 2, f, N(f));
}

static void test_set_f32(void **state) {
  (void)state;
  /* set.gtu.u32.f32 is all ones when true; set.ltu.f32.f32 is 1.0 when true. */
  static const fv v[] = {
      {ONE, TWO, 0, {0, ONE}},
      {TWO, ONE, 0, {0xffffffff, 0}},
      {QNAN, ONE, 0, {0xffffffff, ONE}},
  };
  fcheck("set.gtu.u32.f32 %d32, %a32, %b32;\n  set.ltu.f32.f32 %e32, %a32, %b32;", BITS, 2, v,
         N(v));
}

/* ---- f16 / f16x2 / bf16 / bf16x2 --------------------------------------- */

static void test_f16_arith(void **state) {
  (void)state;
  /* f16: 2^-11 (0x1000) is half an ulp of 1.0. */
  static const fv add[] = {
      {H1, 0x1000, 0, {H1}},        /* tie, even down */
      {0x3c01, 0x1000, 0, {0x3c02}}, /* tie, even up */
      {H1, 0x1001, 0, {0x3c01}},
      {H1, H1, 0, {H2}},
      {0x7bff, 0x7bff, 0, {HINF}},  /* 65504 + 65504 */
      {0x7bff, 0x4c00, 0, {HINF}},  /* 65504 + 16: a tie that rounds to 65536 */
      {0x0001, 0x0001, 0, {0x0002}}, /* subnormals */
      {HINF, 0xfc00, 0, {HNAN}},
      {H1, HM1, 0, {0x0000}},
  };
  fcheck("add.f16 %d16, %a16, %b16;", F16, 1, add, N(add));
  fcheck("add.rn.f16 %d16, %a16, %b16;", F16, 1, add, N(add));
  static const fv sub[] = {{H2, H1, 0, {H1}}, {H1, H2, 0, {HM1}}, {0x0000, 0x0000, 0, {0x0000}}};
  fcheck("sub.f16 %d16, %a16, %b16;", F16, 1, sub, N(sub));
  /* (1+2^-10)^2 = 1 + 2^-9 + 2^-20 -> 0x3c02. */
  static const fv mul[] = {{0x3c01, 0x3c01, 0, {0x3c02}}, {H2, 0xb800, 0, {HM1}},
                           {0x0001, 0x3800, 0, {0x0000}}, {0x7bff, H2, 0, {HINF}}};
  fcheck("mul.f16 %d16, %a16, %b16;", F16, 1, mul, N(mul));
  /* fma: (1+2^-6)^2 - 1 = 2^-5 + 2^-12 = 0x2808 exactly; unfused would be 0x2800. */
  static const fv fma[] = {{0x3c10, 0x3c10, HM1, {0x2808}}, {H2, H2, H1, {0x4500}}};
  fcheck("fma.rn.f16 %d16, %a16, %b16, %c16;", F16, 1, fma, N(fma));
  /* .ftz flushes subnormal f16 values; .sat clamps to [0, 1]. */
  static const fv ftz[] = {{0x0001, 0x0001, 0, {0x0002, 0x0000}}, {H1, H1, 0, {H2, H2}}};
  fcheck("add.f16 %d16, %a16, %b16;\n  add.ftz.f16 %e16, %a16, %b16;", F16, 2, ftz, N(ftz));
  static const fv sat[] = {{H1, H1, 0, {H1}}, {HM1, 0x3800, 0, {0x0000}}, {0x3400, 0x3400, 0, {0x3800}}};
  fcheck("add.sat.f16 %d16, %a16, %b16;", F16, 1, sat, N(sat));
  static const fv neg[] = {{H1, 0, 0, {HM1, H1}}, {HM1, 0, 0, {H1, H1}}, {0x0000, 0, 0, {0x8000, 0}}};
  fcheck("neg.f16 %d16, %a16;\n  abs.f16 %e16, %a16;", F16, 2, neg, N(neg));
  static const fv mm[] = {{H1, H2, 0, {H1, H2}}, {HNAN, H2, 0, {H2, H2}}, {0x8000, 0x0000, 0, {0x8000, 0x0000}}};
  fcheck("min.f16 %d16, %a16, %b16;\n  max.f16 %e16, %a16, %b16;", F16, 2, mm, N(mm));
}

static void test_f16x2_arith(void **state) {
  (void)state;
  /* Packed pairs: {hi, lo}. lo: 1 + 2 = 3, hi: -1 + 0.5 = -0.5. */
  static const fv add[] = {
      {0xbc003c00, 0x38004000, 0, {0xb8004200}},
      {0x3c011000 | 0, 0x10003c00, 0, {0x3c023c00}}, /* hi: 0x3c01 + 2^-11 tie up; lo: 2^-11 + 1 tie down */
      {0x7bff7c00, 0x7bfffc00, 0, {0x7c007fff}},      /* hi overflow; lo inf - inf = NaN */
  };
  fcheck("add.f16x2 %d32, %a32, %b32;", F16X2, 1, add, N(add));
  static const fv mul[] = {{0x3c014000, 0x3c01b800, 0, {0x3c02bc00}}};
  fcheck("mul.f16x2 %d32, %a32, %b32;", F16X2, 1, mul, N(mul));
  static const fv fma[] = {{0x3c104000, 0x3c104000, 0xbc003c00, {0x28084500}}};
  fcheck("fma.rn.f16x2 %d32, %a32, %b32, %c32;", F16X2, 1, fma, N(fma));
  static const fv sub[] = {{0x40003c00, 0x3c004000, 0, {0x3c00bc00}}};
  fcheck("sub.f16x2 %d32, %a32, %b32;", F16X2, 1, sub, N(sub));
}

static void test_bf16_arith(void **state) {
  (void)state;
  /* bf16: 2^-8 (0x3b80) is half an ulp of 1.0 (0x3f80). */
  static const fv add[] = {
      {B1, 0x3b80, 0, {B1}},
      {0x3f81, 0x3b80, 0, {0x3f82}},
      {B1, B1, 0, {0x4000}},
      {0x7f7f, 0x7f7f, 0, {0x7f80}},
      {0x7f80, 0xff80, 0, {BNAN}},
  };
  fcheck("add.bf16 %d16, %a16, %b16;", BF16, 1, add, N(add));
  fcheck("add.rn.bf16 %d16, %a16, %b16;", BF16, 1, add, N(add));
  static const fv mul[] = {{0x4000, 0xbf00, 0, {0xbf80}}, {0x3f81, 0x3f81, 0, {0x3f82}}};
  fcheck("mul.bf16 %d16, %a16, %b16;", BF16, 1, mul, N(mul));
  static const fv sub[] = {{0x4000, B1, 0, {B1}}};
  fcheck("sub.bf16 %d16, %a16, %b16;", BF16, 1, sub, N(sub));
  /* fma: (1+2^-4)^2 - 1 = 2^-3 + 2^-8 = 0x3e04 exactly; unfused gives 0x3e00. */
  static const fv fma[] = {{0x3f88, 0x3f88, 0xbf80, {0x3e04}}};
  fcheck("fma.rn.bf16 %d16, %a16, %b16, %c16;", BF16, 1, fma, N(fma));
  static const fv add2[] = {{0xbf803f80, 0x3f004000, 0, {0xbf004040}}};
  fcheck("add.bf16x2 %d32, %a32, %b32;", BF16X2, 1, add2, N(add2));
  static const fv fma2[] = {{0x3f883f80, 0x3f884000, 0xbf803f80, {0x3e044040}}};
  fcheck("fma.rn.bf16x2 %d32, %a32, %b32, %c32;", BF16X2, 1, fma2, N(fma2));
  static const fv mm[] = {{0x3f80, 0x4000, 0, {0x3f80, 0x4000}}, {BNAN, 0x4000, 0, {0x4000, 0x4000}}};
  fcheck("min.bf16 %d16, %a16, %b16;\n  max.bf16 %e16, %a16, %b16;", BF16, 2, mm, N(mm));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_f32_add_rounding),
      cmocka_unit_test(test_f32_sub_rounding),
      cmocka_unit_test(test_f32_mul_rounding),
      cmocka_unit_test(test_f32_fma),
      cmocka_unit_test(test_f32_ftz),
      cmocka_unit_test(test_f32_sat),
      cmocka_unit_test(test_f32_registers_and_literals),
      cmocka_unit_test(test_f64_arith),
      cmocka_unit_test(test_f64_div_sqrt_rcp),
      cmocka_unit_test(test_f64_min_max_abs_neg),
      cmocka_unit_test(test_f32_div_rn),
      cmocka_unit_test(test_f32_div_approx_full),
      cmocka_unit_test(test_f32_rcp_sqrt_rsqrt_approx),
      cmocka_unit_test(test_sin_cos_approx),
      cmocka_unit_test(test_ex2_lg2_approx),
      cmocka_unit_test(test_tanh_approx),
      cmocka_unit_test(test_f32_min_max),
      cmocka_unit_test(test_f32_abs_neg),
      cmocka_unit_test(test_copysign),
      cmocka_unit_test(test_testp),
      cmocka_unit_test(test_setp_f32),
      cmocka_unit_test(test_setp_f64_ftz),
      cmocka_unit_test(test_set_f32),
      cmocka_unit_test(test_f16_arith),
      cmocka_unit_test(test_f16x2_arith),
      cmocka_unit_test(test_bf16_arith),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
