/* test_cvt.c: unit tests of smemu's conversions: cvt between all integer
 * widths (with and without .sat), float<->int with every rounding mode,
 * f32/f64/f16/bf16 conversions, cvta between state spaces and mov packing. */
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

typedef struct cv {
  uint64_t a, b, c;
  uint64_t w[4]; /* expected %d %e %f %g */
} cv;

enum { EXACT = 0, F32N = 1, F64N = 2, F16N = 3, BF16N = 4 }; /* NaN acceptance */

static uint64_t maskb(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int isnan_k(int kind, uint64_t x) {
  switch (kind) {
  case F32N: return (x & 0x7fffffffu) > 0x7f800000u;
  case F64N: return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  case F16N: return (x & 0x7fffu) > 0x7c00u;
  case BF16N: return (x & 0x7fffu) > 0x7f80u;
  default: return 0;
  }
}

/* Runs insn on one lane per vector; compares the first nout results (an
 * expected NaN of format `nan` accepts any NaN); returns the number of wrong
 * results after printing the first ones. */
static int ccount(const char *insn, int bits, int nan, int nout, const cv *v, int n) {
  uint64_t *in = calloc((size_t)n * 3, 8), *out = calloc((size_t)n * 4, 8);
  char err[1024];
  int bad = 0;
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
      int ok = isnan_k(nan, want) ? isnan_k(nan, got) : got == want;
      if (!ok) {
        if (bad < 16)
          print_error("  %s\n    lane %d result %d: a=%#llx b=%#llx -> got %#llx, want %#llx\n",
                      insn, i, k, (unsigned long long)v[i].a, (unsigned long long)v[i].b,
                      (unsigned long long)got, (unsigned long long)want);
        bad++;
      }
    }
  free(in);
  free(out);
  return bad;
}

static void ccheck(const char *insn, int bits, int nan, int nout, const cv *v, int n) {
  int bad = ccount(insn, bits, nan, nout, v, n);
  if (bad) fail_msg("%d wrong results", bad);
}

/* ---- integer <-> integer -------------------------------------------------- */

typedef struct ity {
  const char *name;
  int bits, sgn;
} ity;

static const ity ITY[] = {{"u8", 8, 0},  {"u16", 16, 0}, {"u32", 32, 0}, {"u64", 64, 0},
                          {"s8", 8, 1},  {"s16", 16, 1}, {"s32", 32, 1}, {"s64", 64, 1}};

/* 8-bit values live in .b16 registers. */
static int regw(int bits) { return bits < 16 ? 16 : bits; }

static int64_t sextw(int bits, uint64_t x) {
  if (bits >= 64) return (int64_t)x;
  x &= maskb(bits);
  return (x >> (bits - 1)) ? (int64_t)(x | ~maskb(bits)) : (int64_t)x;
}

/* The value of the source operand, clamped when sat, truncated to the
 * destination width, then sign/zero-extended to the destination register. */
static uint64_t cvt_ii(const ity *d, const ity *a, int sat, uint64_t x) {
  __int128 v = a->sgn ? (__int128)sextw(a->bits, x) : (__int128)(x & maskb(a->bits));
  uint64_t r;
  if (sat) {
    __int128 lo = d->sgn ? -((__int128)1 << (d->bits - 1)) : 0;
    __int128 hi = d->sgn ? ((__int128)1 << (d->bits - 1)) - 1 : ((__int128)1 << d->bits) - 1;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
  }
  r = (uint64_t)v & maskb(d->bits);
  if (d->sgn) r = (uint64_t)sextw(d->bits, r);
  return r & maskb(regw(d->bits));
}

static const uint64_t IVALS[] = {0,
                                 1,
                                 0x7f,
                                 0x80,
                                 0xff,
                                 0x100,
                                 0x7fff,
                                 0x8000,
                                 0xffff,
                                 0x10000,
                                 0x7fffffff,
                                 0x80000000,
                                 0xffffffff,
                                 0x100000000ull,
                                 0x7fffffffffffffffull,
                                 0x8000000000000000ull,
                                 0xffffffffffffffffull,
                                 0xfffffffffffffffeull /* -2 */,
                                 0xffffffffffffff7full /* -129 */,
                                 0xffffffffffff7fffull /* -32769 */,
                                 0x123456789abcdef0ull};

static void check_int_pairs(int sat) {
  int bad = 0;
  for (int i = 0; i < N(ITY); i++)
    for (int j = 0; j < N(ITY); j++) {
      const ity *d = &ITY[i], *a = &ITY[j];
      char insn[96];
      cv v[N(IVALS)];
      /* Source registers hold the source value in their low bits: a 64-bit
       * input slot read through %a16/%a32/%a64. */
      snprintf(insn, sizeof insn, "cvt%s.%s.%s %%d%d, %%a%d;", sat ? ".sat" : "", d->name,
               a->name, regw(d->bits), regw(a->bits));
      for (int k = 0; k < N(IVALS); k++) {
        /* What the register holds: the low regw(a) bits of the slot. */
        uint64_t x = IVALS[k];
        v[k] = (cv){x, 0, 0, {cvt_ii(d, a, sat, x & maskb(regw(a->bits)))}};
      }
      bad += ccount(insn, regw(d->bits), EXACT, 1, v, N(v));
    }
  if (bad) fail_msg("%d wrong results", bad);
}

static void test_cvt_int_int(void **state) {
  (void)state;
  /* Without .sat: truncation (wrap); e.g. cvt.u8.s32 of 0x1ff is 0xff and
   * cvt.s8.s32 of 0x80 is -128, sign-extended in its .b16 register. */
  static const cv v[] = {{0x1ff, 0, 0, {0x00ff, 0xffff}}, {0x80, 0, 0, {0x0080, 0xff80}},
                         {0xfffffffe, 0, 0, {0x00fe, 0xfffe}}};
  ccheck("cvt.u8.s32 %d16, %a32;\n  cvt.s8.s32 %e16, %a32;", 16, EXACT, 2, v, N(v));
  check_int_pairs(0);
}

static void test_cvt_int_int_sat(void **state) {
  (void)state;
  /* .sat clamps to the destination range: cvt.sat.u8.s32(-5) = 0,
   * cvt.sat.u8.s32(300) = 255, cvt.sat.s8.s32(300) = 127, (-300) = -128. */
  static const cv v[] = {{0xfffffffb, 0, 0, {0, 0xfffb}},
                         {300, 0, 0, {0xff, 0x007f}},
                         {0xfffffed4, 0, 0, {0, 0xff80}}};
  ccheck("cvt.sat.u8.s32 %d16, %a32;\n  cvt.sat.s8.s32 %e16, %a32;", 16, EXACT, 2, v, N(v));
  check_int_pairs(1);
}

static void test_cvt_subword_into_wide_register(void **state) {
  (void)state;
  /* A destination register wider than the type: signed types sign-extend,
   * unsigned types zero-extend. */
  static const cv v[] = {{0x180, 0, 0, {0xffffff80, 0x00000080, 0x00000180, 0}},
                         {0x8001, 0, 0, {0x00000001, 0x00000001, 0xffff8001, 0}},
                         {0x7f, 0, 0, {0x7f, 0x7f, 0x7f, 0}}};
  ccheck("cvt.s8.s32 %d32, %a32;\n  cvt.u8.s32 %e32, %a32;\n  cvt.s16.s32 %f32, %a32;", 32,
         EXACT, 3, v, N(v));
}

/* ---- float -> integer ---------------------------------------------------- */

enum { RNI, RZI, RMI, RPI };
static const char *const IRND[] = {"rni", "rzi", "rmi", "rpi"};

static double iround(int mode, double x) {
  switch (mode) {
  case RNI: return nearbyint(x); /* default rounding mode: to nearest even */
  case RZI: return trunc(x);
  case RMI: return floor(x);
  default: return ceil(x);
  }
}

/* Float-to-integer conversions saturate; NaN converts to 0. */
/* NaN: 0 when the source is narrower than f64 and the destination narrower
 * than 64 bits, else 1 << (bits - 1) (PTX ISA, cvt; measured on an H200 in
 * tests/hw/arith_edges: cases 20-30). */
static uint64_t cvt_fi(int mode, const ity *d, double x, int f64src) {
  uint64_t r;
  double t;
  if (isnan(x)) {
    if (!f64src && d->bits < 64) return 0;
    r = (uint64_t)1 << (d->bits - 1);
    if (d->sgn) r = (uint64_t)sextw(d->bits, r);
    return r & maskb(regw(d->bits));
  }
  t = iround(mode, x);
  if (d->sgn) {
    double lim = ldexp(1.0, d->bits - 1);
    int64_t v = t >= lim ? (int64_t)(((uint64_t)1 << (d->bits - 1)) - 1)
                : t < -lim ? -(int64_t)(((uint64_t)1 << (d->bits - 1)) - 1) - 1
                           : (int64_t)t;
    r = (uint64_t)v;
  } else {
    double lim = ldexp(1.0, d->bits);
    r = t >= lim ? maskb(d->bits) : t <= 0 ? 0 : (uint64_t)t;
  }
  r &= maskb(d->bits);
  if (d->sgn) r = (uint64_t)sextw(d->bits, r);
  return r & maskb(regw(d->bits));
}

static const double FVALS[] = {0.0,
                               -0.0,
                               0.5,
                               -0.5,
                               1.5,
                               2.5,
                               -2.5,
                               3.5,
                               -1.5,
                               0.49999997,
                               2.7,
                               -2.7,
                               127.5,
                               128.0,
                               -128.5,
                               -129.0,
                               255.5,
                               256.0,
                               32767.5,
                               -32768.5,
                               65535.5,
                               65536.0,
                               2147483520.0,
                               2147483648.0,
                               -2147483648.0,
                               -2147483904.0,
                               4294967040.0,
                               4294967296.0,
                               1e10,
                               -1e10,
                               9223371487098961920.0,
                               9223372036854775808.0,
                               -9223372036854775808.0,
                               18446742974197923840.0,
                               18446744073709551616.0,
                               1e30,
                               -1e30,
                               INFINITY,
                               -INFINITY,
                               NAN};

static void check_f2i(int f64) {
  int bad = 0;
  for (int m = 0; m < 4; m++)
    for (int i = 0; i < N(ITY); i++) {
      const ity *d = &ITY[i];
      char insn[96];
      cv v[N(FVALS) + 4];
      int n = 0;
      snprintf(insn, sizeof insn, "cvt.%s.%s.%s %%d%d, %%a%d;", IRND[m], d->name,
               f64 ? "f64" : "f32", regw(d->bits), f64 ? 64 : 32);
      for (int k = 0; k < N(FVALS); k++) {
        double x = f64 ? FVALS[k] : (double)(float)FVALS[k];
        v[n++] = (cv){f64 ? d2u(x) : f2u((float)x), 0, 0, {cvt_fi(m, d, x, f64)}};
      }
      if (f64) {
        /* Values that only f64 holds exactly. */
        static const double more[] = {2147483647.5, -2147483648.5, 4294967295.5, 0.5000000001};
        for (int k = 0; k < N(more); k++)
          v[n++] = (cv){d2u(more[k]), 0, 0, {cvt_fi(m, d, more[k], 1)}};
      }
      bad += ccount(insn, regw(d->bits), EXACT, 1, v, n);
    }
  if (bad) fail_msg("%d wrong results", bad);
}

static void test_cvt_f32_to_int(void **state) {
  (void)state;
  /* Hand-computed: rni(2.5) = 2, rni(3.5) = 4, rni(-2.5) = -2, rzi(-2.7) = -2,
   * rmi(-2.7) = -3, rpi(2.1) = 3; NaN -> 0; 1e10 saturates to INT_MAX. */
  static const cv v[] = {
      {0x40200000 /* 2.5 */, 0, 0, {2, 2, 2, 3}},
      {0x40600000 /* 3.5 */, 0, 0, {4, 3, 3, 4}},
      {0xc0200000 /* -2.5 */, 0, 0, {0xfffffffe, 0xfffffffe, 0xfffffffd, 0xfffffffe}},
      {0xc02ccccd /* -2.7 */, 0, 0, {0xfffffffd, 0xfffffffe, 0xfffffffd, 0xfffffffe}},
      {0x40066666 /* 2.1 */, 0, 0, {2, 2, 2, 3}},
      {0x7fffffff /* NaN */, 0, 0, {0, 0, 0, 0}},
      {0x501502f9 /* 1e10 */, 0, 0, {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}},
      {0xff800000 /* -inf */, 0, 0, {0x80000000, 0x80000000, 0x80000000, 0x80000000}},
  };
  ccheck("cvt.rni.s32.f32 %d32, %a32;\n  cvt.rzi.s32.f32 %e32, %a32;\n"
         "  cvt.rmi.s32.f32 %f32, %a32;\n  cvt.rpi.s32.f32 %g32, %a32;",
         32, EXACT, 4, v, N(v));
  check_f2i(0);
}

static void test_cvt_f64_to_int(void **state) {
  (void)state;
  check_f2i(1);
}

static void test_cvt_f32_to_int_ftz(void **state) {
  (void)state;
  /* .ftz: a subnormal input is 0 (rpi of +2^-149 would otherwise be 1). */
  static const cv v[] = {{0x00000001, 0, 0, {1, 0}}, {0x80000001, 0, 0, {0, 0}}};
  ccheck("cvt.rpi.s32.f32 %d32, %a32;\n  cvt.rpi.ftz.s32.f32 %e32, %a32;", 32, EXACT, 2, v, N(v));
}

/* ---- integer -> float ---------------------------------------------------- */

static void test_cvt_int_to_f32(void **state) {
  (void)state;
  /* Results for .rn .rz .rm .rp. */
  static const cv u32[] = {
      {16777217, 0, 0, {0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001}}, /* 2^24+1: tie */
      {16777219, 0, 0, {0x4b800002, 0x4b800001, 0x4b800001, 0x4b800002}}, /* 2^24+3: tie up */
      {0xffffffff, 0, 0, {0x4f800000, 0x4f7fffff, 0x4f7fffff, 0x4f800000}},
      {0, 0, 0, {0, 0, 0, 0}},
      {1, 0, 0, {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000}},
  };
  ccheck("cvt.rn.f32.u32 %d32, %a32;\n  cvt.rz.f32.u32 %e32, %a32;\n"
         "  cvt.rm.f32.u32 %f32, %a32;\n  cvt.rp.f32.u32 %g32, %a32;",
         32, EXACT, 4, u32, N(u32));
  static const cv s32[] = {
      {(uint32_t)-16777217, 0, 0, {0xcb800000, 0xcb800000, 0xcb800001, 0xcb800000}},
      {0x80000000, 0, 0, {0xcf000000, 0xcf000000, 0xcf000000, 0xcf000000}},
      {0x7fffffff, 0, 0, {0x4f000000, 0x4effffff, 0x4effffff, 0x4f000000}},
      {0xffffffff, 0, 0, {0xbf800000, 0xbf800000, 0xbf800000, 0xbf800000}},
  };
  ccheck("cvt.rn.f32.s32 %d32, %a32;\n  cvt.rz.f32.s32 %e32, %a32;\n"
         "  cvt.rm.f32.s32 %f32, %a32;\n  cvt.rp.f32.s32 %g32, %a32;",
         32, EXACT, 4, s32, N(s32));
  static const cv u64[] = {
      {0xffffffffffffffffull, 0, 0, {0x5f800000, 0x5f7fffff, 0x5f7fffff, 0x5f800000}},
      {0x8000000000000000ull, 0, 0, {0x5f000000, 0x5f000000, 0x5f000000, 0x5f000000}},
      {16777217, 0, 0, {0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001}},
  };
  ccheck("cvt.rn.f32.u64 %d32, %a64;\n  cvt.rz.f32.u64 %e32, %a64;\n"
         "  cvt.rm.f32.u64 %f32, %a64;\n  cvt.rp.f32.u64 %g32, %a64;",
         32, EXACT, 4, u64, N(u64));
  static const cv s64[] = {
      {0x8000000000000000ull, 0, 0, {0xdf000000, 0xdf000000, 0xdf000000, 0xdf000000}},
      {0xffffffffffffffffull, 0, 0, {0xbf800000, 0xbf800000, 0xbf800000, 0xbf800000}},
      {0x7fffffffffffffffull, 0, 0, {0x5f000000, 0x5effffff, 0x5effffff, 0x5f000000}},
  };
  ccheck("cvt.rn.f32.s64 %d32, %a64;\n  cvt.rz.f32.s64 %e32, %a64;\n"
         "  cvt.rm.f32.s64 %f32, %a64;\n  cvt.rp.f32.s64 %g32, %a64;",
         32, EXACT, 4, s64, N(s64));
  /* 8- and 16-bit sources from .b16 registers: only the type's bits count. */
  static const cv sub[] = {
      {0xff80, 0, 0, {0xc3000000 /* s8 -128 */, 0x43000000 /* u8 128 */, 0xc3000000 /* s16 -128 */,
                      0x477f8000 /* u16 65408 */}},
      {0x01ff, 0, 0, {0xbf800000 /* s8 -1 */, 0x437f0000 /* u8 255 */, 0x43ff8000, 0x43ff8000}},
  };
  ccheck("cvt.rn.f32.s8 %d32, %a16;\n  cvt.rn.f32.u8 %e32, %a16;\n"
         "  cvt.rn.f32.s16 %f32, %a16;\n  cvt.rn.f32.u16 %g32, %a16;",
         32, EXACT, 4, sub, N(sub));
}

static void test_cvt_int_to_f32_rn_sweep(void **state) {
  (void)state;
  /* Round-to-nearest against the host's correctly rounded conversions. */
  cv v[N(IVALS)];
  for (int k = 0; k < N(IVALS); k++) {
    uint64_t x = IVALS[k];
    v[k] = (cv){x, 0, 0,
                {f2u((float)(uint32_t)x), f2u((float)(int32_t)(uint32_t)x), f2u((float)x),
                 f2u((float)(int64_t)x)}};
  }
  ccheck("cvt.rn.f32.u32 %d32, %a32;\n  cvt.rn.f32.s32 %e32, %a32;\n"
         "  cvt.rn.f32.u64 %f32, %a64;\n  cvt.rn.f32.s64 %g32, %a64;",
         32, EXACT, 4, v, N(v));
  for (int k = 0; k < N(IVALS); k++) {
    uint64_t x = IVALS[k];
    v[k] = (cv){x, 0, 0,
                {d2u((double)(uint32_t)x), d2u((double)(int32_t)(uint32_t)x), d2u((double)x),
                 d2u((double)(int64_t)x)}};
  }
  ccheck("cvt.rn.f64.u32 %d64, %a32;\n  cvt.rn.f64.s32 %e64, %a32;\n"
         "  cvt.rn.f64.u64 %f64, %a64;\n  cvt.rn.f64.s64 %g64, %a64;",
         64, EXACT, 4, v, N(v));
}

static void test_cvt_int_to_f64(void **state) {
  (void)state;
  static const cv u64[] = {
      {0xffffffffffffffffull, 0, 0,
       {0x43f0000000000000ull, 0x43efffffffffffffull, 0x43efffffffffffffull, 0x43f0000000000000ull}},
      {9007199254740993ull /* 2^53+1 */, 0, 0,
       {0x4340000000000000ull, 0x4340000000000000ull, 0x4340000000000000ull, 0x4340000000000001ull}},
  };
  ccheck("cvt.rn.f64.u64 %d64, %a64;\n  cvt.rz.f64.u64 %e64, %a64;\n"
         "  cvt.rm.f64.u64 %f64, %a64;\n  cvt.rp.f64.u64 %g64, %a64;",
         64, EXACT, 4, u64, N(u64));
  static const cv s64[] = {
      {(uint64_t)-9007199254740993ll, 0, 0,
       {0xc340000000000000ull, 0xc340000000000000ull, 0xc340000000000001ull, 0xc340000000000000ull}},
      {0x8000000000000000ull, 0, 0,
       {0xc3e0000000000000ull, 0xc3e0000000000000ull, 0xc3e0000000000000ull, 0xc3e0000000000000ull}},
  };
  ccheck("cvt.rn.f64.s64 %d64, %a64;\n  cvt.rz.f64.s64 %e64, %a64;\n"
         "  cvt.rm.f64.s64 %f64, %a64;\n  cvt.rp.f64.s64 %g64, %a64;",
         64, EXACT, 4, s64, N(s64));
}

/* ---- float <-> float ----------------------------------------------------- */

static void test_cvt_f32_f64(void **state) {
  (void)state;
  /* f32 -> f64 is exact (no rounding modifier). */
  static const cv up[] = {
      {0x3eaaaaab, 0, 0, {0x3fd5555560000000ull}},
      {0x00000001, 0, 0, {0x36a0000000000000ull}}, /* 2^-149 is normal in f64 */
      {0x80000000, 0, 0, {0x8000000000000000ull}},
      {0xff800000, 0, 0, {0xfff0000000000000ull}},
      {0x7fffffff, 0, 0, {0x7fffffffffffffffull}},
      {0x7f7fffff, 0, 0, {0x47efffffe0000000ull}},
  };
  ccheck("cvt.f64.f32 %d64, %a32;", 64, F64N, 1, up, N(up));
  /* f64 -> f32 with .rn .rz .rm .rp. */
  static const cv down[] = {
      {0x3fd5555555555555ull, 0, 0, {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab}},
      {0x7e37e43c8800759cull /* 1e300 */, 0, 0, {0x7f800000, 0x7f7fffff, 0x7f7fffff, 0x7f800000}},
      {0xfe37e43c8800759cull, 0, 0, {0xff800000, 0xff7fffff, 0xff800000, 0xff7fffff}},
      {0x3690000000000000ull /* 2^-150 */, 0, 0, {0, 0, 0, 1}},
      {0x3ff0000010000000ull /* 1+2^-24 */, 0, 0, {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001}},
      {0x3ff0000030000000ull /* 1+3*2^-24 */, 0, 0, {0x3f800002, 0x3f800001, 0x3f800001, 0x3f800002}},
      {0x8000000000000000ull, 0, 0, {0x80000000, 0x80000000, 0x80000000, 0x80000000}},
      {0x7ff8000000000000ull, 0, 0, {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}},
      {0x0000000000000001ull, 0, 0, {0, 0, 0, 1}}, /* tiny f64 subnormal */
  };
  ccheck("cvt.rn.f32.f64 %d32, %a64;\n  cvt.rz.f32.f64 %e32, %a64;\n"
         "  cvt.rm.f32.f64 %f32, %a64;\n  cvt.rp.f32.f64 %g32, %a64;",
         32, F32N, 4, down, N(down));
  /* .ftz flushes a subnormal f32 result: 2^-130. */
  static const cv ftz[] = {{0x37d0000000000000ull, 0, 0, {0x00080000, 0}}};
  ccheck("cvt.rn.f32.f64 %d32, %a64;\n  cvt.rn.ftz.f32.f64 %e32, %a64;", 32, F32N, 2, ftz, N(ftz));
}

static void test_cvt_round_to_integral(void **state) {
  (void)state;
  /* cvt.rni/rzi/rmi/rpi.f32.f32: round to an integral value, stay float. */
  static const cv v[] = {
      {0x40200000 /* 2.5 */, 0, 0, {0x40000000, 0x40000000, 0x40000000, 0x40400000}},
      {0x40600000 /* 3.5 */, 0, 0, {0x40800000, 0x40400000, 0x40400000, 0x40800000}},
      {0xc0200000 /* -2.5 */, 0, 0, {0xc0000000, 0xc0000000, 0xc0400000, 0xc0000000}},
      {0x3f000000 /* 0.5 */, 0, 0, {0x00000000, 0x00000000, 0x00000000, 0x3f800000}},
      {0xbf000000 /* -0.5 */, 0, 0, {0x80000000, 0x80000000, 0xbf800000, 0x80000000}},
      {0xc02ccccd /* -2.7 */, 0, 0, {0xc0400000, 0xc0000000, 0xc0400000, 0xc0000000}},
      {0x7149f2ca /* 1e30 */, 0, 0, {0x7149f2ca, 0x7149f2ca, 0x7149f2ca, 0x7149f2ca}},
      {0x7f800000, 0, 0, {0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000}},
      {0x7fffffff, 0, 0, {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff}},
      {0x80000000, 0, 0, {0x80000000, 0x80000000, 0x80000000, 0x80000000}},
      {0x00000001, 0, 0, {0, 0, 0, 0x3f800000}},
  };
  ccheck("cvt.rni.f32.f32 %d32, %a32;\n  cvt.rzi.f32.f32 %e32, %a32;\n"
         "  cvt.rmi.f32.f32 %f32, %a32;\n  cvt.rpi.f32.f32 %g32, %a32;",
         32, F32N, 4, v, N(v));
  static const cv d[] = {
      {0x4004000000000000ull /* 2.5 */, 0, 0,
       {0x4000000000000000ull, 0x4000000000000000ull, 0x4000000000000000ull, 0x4008000000000000ull}},
      {0xbfe0000000000000ull /* -0.5 */, 0, 0,
       {0x8000000000000000ull, 0x8000000000000000ull, 0xbff0000000000000ull, 0x8000000000000000ull}},
  };
  ccheck("cvt.rni.f64.f64 %d64, %a64;\n  cvt.rzi.f64.f64 %e64, %a64;\n"
         "  cvt.rmi.f64.f64 %f64, %a64;\n  cvt.rpi.f64.f64 %g64, %a64;",
         64, F64N, 4, d, N(d));
}

static void test_cvt_sat_ftz_f32(void **state) {
  (void)state;
  /* cvt.sat.f32.f32 clamps to [0, 1] (NaN -> 0); cvt.ftz.f32.f32 flushes
   * subnormals to sign-preserving zero. */
  static const cv v[] = {
      {0x3fc00000 /* 1.5 */, 0, 0, {0x3f800000, 0x3fc00000}},
      {0xbf000000 /* -0.5 */, 0, 0, {0, 0xbf000000}},
      {0x3f000000, 0, 0, {0x3f000000, 0x3f000000}},
      {0x7fffffff, 0, 0, {0, 0x7fffffff}},
      {0x7f800000, 0, 0, {0x3f800000, 0x7f800000}},
      {0x00000001, 0, 0, {0x00000001, 0}},
      {0x80000001, 0, 0, {0, 0x80000000}},
  };
  ccheck("cvt.sat.f32.f32 %d32, %a32;\n  cvt.ftz.f32.f32 %e32, %a32;", 32, F32N, 2, v, N(v));
}

static void test_cvt_f16(void **state) {
  (void)state;
  /* f32 -> f16 with .rn .rz .rm .rp. */
  static const cv down[] = {
      {0x3f800000, 0, 0, {0x3c00, 0x3c00, 0x3c00, 0x3c00}},
      {0x3f801000 /* 1+2^-11: tie */, 0, 0, {0x3c00, 0x3c00, 0x3c00, 0x3c01}},
      {0xbf801000, 0, 0, {0xbc00, 0xbc00, 0xbc01, 0xbc00}},
      {0x3eaaaaab /* 1/3 */, 0, 0, {0x3555, 0x3555, 0x3555, 0x3556}},
      {0x477fe000 /* 65504 */, 0, 0, {0x7bff, 0x7bff, 0x7bff, 0x7bff}},
      {0x477fef00 /* 65519 */, 0, 0, {0x7bff, 0x7bff, 0x7bff, 0x7c00}},
      {0x477ff000 /* 65520 */, 0, 0, {0x7c00, 0x7bff, 0x7bff, 0x7c00}},
      {0x33800000 /* 2^-24 */, 0, 0, {0x0001, 0x0001, 0x0001, 0x0001}},
      {0x33000000 /* 2^-25: tie */, 0, 0, {0x0000, 0x0000, 0x0000, 0x0001}},
      {0x80000000, 0, 0, {0x8000, 0x8000, 0x8000, 0x8000}},
      {0x7f800000, 0, 0, {0x7c00, 0x7c00, 0x7c00, 0x7c00}},
      {0x7fffffff, 0, 0, {0x7fff, 0x7fff, 0x7fff, 0x7fff}},
  };
  ccheck("cvt.rn.f16.f32 %d16, %a32;\n  cvt.rz.f16.f32 %e16, %a32;\n"
         "  cvt.rm.f16.f32 %f16, %a32;\n  cvt.rp.f16.f32 %g16, %a32;",
         16, F16N, 4, down, N(down));
  /* f16 -> f32 and f16 -> f64 are exact. */
  static const cv up[] = {
      {0x3c00, 0, 0, {0x3f800000, 0x3ff0000000000000ull}},
      {0x0001, 0, 0, {0x33800000, 0x3e70000000000000ull}},
      {0x7bff, 0, 0, {0x477fe000, 0x40effc0000000000ull}},
      {0xfc00, 0, 0, {0xff800000, 0xfff0000000000000ull}},
      {0x8000, 0, 0, {0x80000000, 0x8000000000000000ull}},
  };
  ccheck("cvt.f32.f16 %d32, %a16;", 32, F32N, 1, up, N(up));
  cv up64[N(up)];
  for (int i = 0; i < N(up); i++) up64[i] = (cv){up[i].a, 0, 0, {up[i].w[1]}};
  ccheck("cvt.f64.f16 %d64, %a16;", 64, F64N, 1, up64, N(up64));
  static const cv nan[] = {{0x7e00, 0, 0, {0x7fffffff}}};
  ccheck("cvt.f32.f16 %d32, %a16;", 32, F32N, 1, nan, 1);
  /* f64 -> f16 and integers <-> f16. 2049 is a tie between 2048 and 2050. */
  static const cv d16[] = {{0x3fd5555555555555ull, 0, 0, {0x3555}}, {0x40f0000000000000ull /* 65536 */, 0, 0, {0x7c00}}};
  ccheck("cvt.rn.f16.f64 %d16, %a64;", 16, F16N, 1, d16, N(d16));
  static const cv i16[] = {{2049, 0, 0, {0x6800, 0x6800}}, {(uint32_t)-3, 0, 0, {0xc200, 0x7c00}},
                           {65520, 0, 0, {0x7c00, 0x7c00}}};
  ccheck("cvt.rn.f16.s32 %d16, %a32;\n  cvt.rn.f16.u32 %e16, %a32;", 16, F16N, 2, i16, N(i16));
  static const cv f2i[] = {{0x4100 /* 2.5 */, 0, 0, {2, 3}}, {0xc100, 0, 0, {0xfffffffe, 0xfffffffe}}};
  ccheck("cvt.rni.s32.f16 %d32, %a16;\n  cvt.rpi.s32.f16 %e32, %a16;", 32, EXACT, 2, f2i, N(f2i));
  /* Two f32 into f16x2: a goes to the upper half, b to the lower half. */
  static const cv x2[] = {{0x3f800000, 0x40000000, 0, {0x3c004000}}};
  ccheck("cvt.rn.f16x2.f32 %d32, %a32, %b32;", 32, EXACT, 1, x2, N(x2));
}

static void test_cvt_bf16(void **state) {
  (void)state;
  /* bf16: the upper 16 bits of an f32, rounded. 0x3f808000 is a tie. */
  static const cv down[] = {
      {0x3f808000, 0, 0, {0x3f80, 0x3f80}},
      {0x3f818000, 0, 0, {0x3f82, 0x3f81}},
      {0x3f808001, 0, 0, {0x3f81, 0x3f80}},
      {0xbf80ffff, 0, 0, {0xbf81, 0xbf80}},
      {0x7f7fffff, 0, 0, {0x7f80, 0x7f7f}},
      {0x7f800000, 0, 0, {0x7f80, 0x7f80}},
      {0x7fffffff, 0, 0, {0x7fff, 0x7fff}},
      {0x00000001, 0, 0, {0x0000, 0x0000}},
  };
  ccheck("cvt.rn.bf16.f32 %d16, %a32;\n  cvt.rz.bf16.f32 %e16, %a32;", 16, BF16N, 2, down,
         N(down));
  static const cv up[] = {{0x3f81, 0, 0, {0x3f810000}}, {0xff80, 0, 0, {0xff800000}},
                          {0x0001, 0, 0, {0x00010000}}};
  ccheck("cvt.f32.bf16 %d32, %a16;", 32, F32N, 1, up, N(up));
  static const cv x2[] = {{0x3f800000, 0xc0000000, 0, {0x3f80c000}}};
  ccheck("cvt.rn.bf16x2.f32 %d32, %a32, %b32;", 32, EXACT, 1, x2, N(x2));
}

static void test_cvt_bf16_f16_f64(void **state) {
  (void)state;
  /* Between the 16-bit formats and from/to f64 (round to nearest even):
   * f16 1+2^-10 is below half a bf16 ulp above 1.0; f16 65504 rounds to
   * bf16 65536; bf16 65536 overflows f16; 1/3 in bf16 rounds up to 0x3eab. */
  static const cv h2b[] = {{0x3c01, 0, 0, {0x3f80}}, {0x7bff, 0, 0, {0x4780}}, {0xbc00, 0, 0, {0xbf80}}};
  ccheck("cvt.rn.bf16.f16 %d16, %a16;", 16, BF16N, 1, h2b, N(h2b));
  static const cv b2h[] = {{0x4780, 0, 0, {0x7c00}}, {0x3f81, 0, 0, {0x3c08}}, {0xbf80, 0, 0, {0xbc00}}};
  ccheck("cvt.rn.f16.bf16 %d16, %a16;", 16, F16N, 1, b2h, N(b2h));
  static const cv d2b[] = {{0x3fd5555555555555ull, 0, 0, {0x3eab}}, {0x3ff0000000000000ull, 0, 0, {0x3f80}}};
  ccheck("cvt.rn.bf16.f64 %d16, %a64;", 16, BF16N, 1, d2b, N(d2b));
  static const cv b2d[] = {{0x3f81, 0, 0, {0x3ff0200000000000ull}}, {0xff80, 0, 0, {0xfff0000000000000ull}}};
  ccheck("cvt.f64.bf16 %d64, %a16;", 64, F64N, 1, b2d, N(b2d));
}

/* ---- mov packing ----------------------------------------------------------- */

static void test_mov_pack_unpack(void **state) {
  (void)state;
  static const cv v[] = {{0x1122334455667788ull, 0xaabbccdd, 0, {0}}};
  cv w[1];
  /* mov.b64 {lo, hi} unpacks (lo = bits 31..0); packing swaps the halves
   * back in a different order to check the element order. */
  w[0] = (cv){v[0].a, v[0].b, 0, {0x5566778811223344ull, 0x55667788, 0x11223344, 0}};
  ccheck("mov.b64 {%r1, %r2}, %a64;\n"
         "  mov.b64 %d64, {%r2, %r1};\n"
         "  cvt.u64.u32 %e64, %r1;\n"
         "  cvt.u64.u32 %f64, %r2;",
         64, EXACT, 3, w, 1);
  /* mov.b32 {h0, h1} and back: h0 = bits 15..0. */
  w[0] = (cv){0, 0xaabbccdd, 0, {0xccddaabb, 0xccdd, 0xaabb, 0}};
  ccheck("mov.b32 {%h1, %h2}, %b32;\n"
         "  mov.b32 %d32, {%h2, %h1};\n"
         "  cvt.u32.u16 %e32, %h1;\n"
         "  cvt.u32.u16 %f32, %h2;",
         32, EXACT, 3, w, 1);
  /* Four .b16 into a .b64. */
  w[0] = (cv){0x1122334455667788ull, 0, 0, {0x7788556633441122ull}};
  ccheck("mov.b64 {%h1, %h2, %h3, %h4}, %a64;\n"
         "  mov.b64 %d64, {%h1, %h2, %h3, %h4};\n"
         "  mov.b64 {%h1, %h2, %h3, %h4}, %d64;\n"
         "  mov.b64 %d64, {%h4, %h3, %h2, %h1};",
         64, EXACT, 1, w, 1);
}

static void test_mov_immediates(void **state) {
  (void)state;
  static const cv v[] = {{0, 0, 0, {0x3f800000, 0xfffffffb, 0xdeadbeef, 7}}};
  ccheck("mov.f32 %d32, 0f3F800000;\n  mov.s32 %e32, -5;\n  mov.b32 %f32, 0xdeadbeef;\n"
         "  mov.u32 %g32, 7;",
         32, EXACT, 4, v, 1);
  static const cv d[] = {{0, 0, 0, {0x3ff8000000000000ull, 0xffffffffffffffffull, 0x8000000000000000ull}}};
  ccheck("mov.f64 %d64, 0d3FF8000000000000;\n  mov.s64 %e64, -1;\n  mov.b64 %f64, 0x8000000000000000;",
         64, EXACT, 3, d, 1);
}

/* ---- cvta / isspacep ------------------------------------------------------- */

static void test_cvta(void **state) {
  (void)state;
  /* Per thread: a value stored through a generic pointer to shared memory
   * is read back with ld.shared; the generic pointer converts back to the
   * same shared address; the same for local memory and for the global
   * pointer parameter; isspacep classifies each generic address. */
  static const char ptx[] = PTX_HEAD
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .shared .align 8 .b8 sbuf[256];\n"
      "  .local .align 8 .b8 lbuf[16];\n"
      "  .reg .b32 %r<16>;\n"
      "  .reg .b64 %rd<16>;\n"
      "  .reg .pred %p<8>;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mul.wide.u32 %rd2, %r1, 4;\n"
      /* shared: generic = cvta.shared(sbuf + 4*tid) */
      "  mov.u64 %rd3, sbuf;\n"
      "  add.s64 %rd4, %rd3, %rd2;\n"
      "  cvta.shared.u64 %rd5, %rd4;\n"
      "  add.u32 %r2, %r1, 1000;\n"
      "  st.u32 [%rd5], %r2;\n"
      "  ld.shared.u32 %r3, [%rd4];\n"           /* r3 = tid + 1000 */
      "  cvta.to.shared.u64 %rd6, %rd5;\n"
      "  setp.eq.u64 %p1, %rd6, %rd4;\n"          /* round trip */
      "  isspacep.shared %p2, %rd5;\n"
      "  isspacep.global %p3, %rd5;\n"
      /* local */
      "  mov.u64 %rd7, lbuf;\n"
      "  cvta.local.u64 %rd8, %rd7;\n"
      "  add.u32 %r4, %r1, 2000;\n"
      "  st.u32 [%rd8+4], %r4;\n"
      "  ld.local.u32 %r5, [lbuf+4];\n"           /* r5 = tid + 2000 */
      "  cvta.to.local.u64 %rd9, %rd8;\n"
      "  setp.eq.u64 %p4, %rd9, %rd7;\n"
      "  isspacep.local %p5, %rd8;\n"
      /* global: the parameter is a generic address of global memory */
      "  cvta.to.global.u64 %rd10, %rd1;\n"
      "  cvta.global.u64 %rd11, %rd10;\n"
      "  setp.eq.u64 %p6, %rd11, %rd1;\n"
      "  isspacep.global %p7, %rd1;\n"
      /* flags: bit0 shared round trip, bit1 isspacep.shared, bit2 !isspacep.global(shared),
       * bit3 local round trip, bit4 isspacep.local, bit5 global round trip,
       * bit6 isspacep.global(param) */
      "  selp.u32 %r6, 1, 0, %p1;\n"
      "  selp.u32 %r7, 2, 0, %p2;\n  or.b32 %r6, %r6, %r7;\n"
      "  selp.u32 %r7, 0, 4, %p3;\n  or.b32 %r6, %r6, %r7;\n"
      "  selp.u32 %r7, 8, 0, %p4;\n  or.b32 %r6, %r6, %r7;\n"
      "  selp.u32 %r7, 16, 0, %p5;\n  or.b32 %r6, %r6, %r7;\n"
      "  selp.u32 %r7, 32, 0, %p6;\n  or.b32 %r6, %r6, %r7;\n"
      "  selp.u32 %r7, 64, 0, %p7;\n  or.b32 %r6, %r6, %r7;\n"
      "  mul.wide.u32 %rd12, %r1, 12;\n"
      "  add.s64 %rd13, %rd10, %rd12;\n"
      "  st.global.u32 [%rd13], %r3;\n"
      "  st.global.u32 [%rd13+4], %r5;\n"
      "  st.global.u32 [%rd13+8], %r6;\n"
      "  ret;\n"
      "}\n";
  enum { T = 64 };
  uint32_t *out = dev_alloc(T * 12, 0xcd);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, T, 0, args, err, sizeof err), err);
  for (int i = 0; i < T; i++) {
    assert_int_equal(out[3 * i], 1000 + i);
    assert_int_equal(out[3 * i + 1], 2000 + i);
    assert_int_equal(out[3 * i + 2], 0x7f);
  }
  dev_free(out);
}

static void test_cvta_dynamic_shared_u32(void **state) {
  (void)state;
  /* cvta with a register source, and a 32-bit shared address widened with
   * cvt.u64.u32: thread i writes i*3 through the generic pointer to
   * dyn[i], thread 0 then sums all slots after a barrier. */
  static const char ptx[] = PTX_HEAD
      ".extern .shared .align 4 .b32 dyn[];\n"
      ".visible .entry k(.param .u64 pout)\n"
      "{\n"
      "  .reg .b32 %r<8>;\n"
      "  .reg .b64 %rd<8>;\n"
      "  .reg .pred %p1;\n"
      "  ld.param.u64 %rd1, [pout];\n"
      "  mov.u32 %r1, %tid.x;\n"
      "  mov.u32 %r2, dyn;\n"
      "  shl.b32 %r3, %r1, 2;\n"
      "  add.u32 %r2, %r2, %r3;\n"
      "  cvt.u64.u32 %rd2, %r2;\n"
      "  cvta.shared.u64 %rd3, %rd2;\n"
      "  mul.lo.u32 %r4, %r1, 3;\n"
      "  st.u32 [%rd3], %r4;\n"
      "  bar.sync 0;\n"
      "  setp.ne.u32 %p1, %r1, 0;\n"
      "  @%p1 bra DONE;\n"
      "  mov.u32 %r5, 0;\n"
      "  mov.u32 %r6, 0;\n"
      "LOOP:\n"
      "  shl.b32 %r3, %r6, 2;\n"
      "  mov.u32 %r2, dyn;\n"
      "  add.u32 %r2, %r2, %r3;\n"
      "  ld.shared.u32 %r7, [%r2];\n"
      "  add.u32 %r5, %r5, %r7;\n"
      "  add.u32 %r6, %r6, 1;\n"
      "  setp.lt.u32 %p1, %r6, 96;\n"
      "  @%p1 bra LOOP;\n"
      "  cvta.to.global.u64 %rd4, %rd1;\n"
      "  st.global.u32 [%rd4], %r5;\n"
      "DONE:\n"
      "  ret;\n"
      "}\n";
  uint32_t *out = dev_alloc(4, 0);
  void *args[] = {&out};
  char err[1024];
  PTX_OK(ptxrun(ptx, "k", 1, 96, 96 * 4, args, err, sizeof err), err);
  assert_int_equal(out[0], 3 * (95 * 96 / 2));
  dev_free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cvt_int_int),
      cmocka_unit_test(test_cvt_int_int_sat),
      cmocka_unit_test(test_cvt_subword_into_wide_register),
      cmocka_unit_test(test_cvt_f32_to_int),
      cmocka_unit_test(test_cvt_f64_to_int),
      cmocka_unit_test(test_cvt_f32_to_int_ftz),
      cmocka_unit_test(test_cvt_int_to_f32),
      cmocka_unit_test(test_cvt_int_to_f32_rn_sweep),
      cmocka_unit_test(test_cvt_int_to_f64),
      cmocka_unit_test(test_cvt_f32_f64),
      cmocka_unit_test(test_cvt_round_to_integral),
      cmocka_unit_test(test_cvt_sat_ftz_f32),
      cmocka_unit_test(test_cvt_f16),
      cmocka_unit_test(test_cvt_bf16),
      cmocka_unit_test(test_cvt_bf16_f16_f64),
      cmocka_unit_test(test_mov_pack_unpack),
      cmocka_unit_test(test_mov_immediates),
      cmocka_unit_test(test_cvta),
      cmocka_unit_test(test_cvta_dynamic_shared_u32),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
