/* test_fpsem.c: unit tests of src/exec/fpsem (PTX float semantics).
 * Expected values come from hand arithmetic (stated next to each case), from
 * the host FPU / libgcc (_Float16, __float128) run in the same rounding mode,
 * or from brute-force exact references written here, never from fpsem. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "exec/fpsem.h"

/* ---- helpers --------------------------------------------------------------- */

static const int RMS[4] = {FP_RN, FP_RZ, FP_RM, FP_RP};

static int host_rm(int rm) {
  switch (rm) {
  case FP_RZ: return FE_TOWARDZERO;
  case FP_RM: return FE_DOWNWARD;
  case FP_RP: return FE_UPWARD;
  default:    return FE_TONEAREST;
  }
}

static uint16_t hbits(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 hval(uint16_t u) { _Float16 h; memcpy(&h, &u, 2); return h; }
#define B32(x) fp_bits32(x)
#define B64(x) fp_bits64(x)
#define F32(u) fp_from_bits32(u)
#define F64(u) fp_from_bits64(u)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void) {
  uint64_t x = rng_state;
  x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

/* A random float: half the time any bit pattern, half the time a value whose
 * exponent lies in [elo, ehi]. */
static float rnd_f32(int elo, int ehi) {
  uint64_t r = rnd64();
  if (r & 1) return F32((uint32_t)(r >> 32));
  int e = elo + (int)((r >> 8) % (uint64_t)(ehi - elo + 1));
  float m = (float)((r >> 32) & 0xFFFFFF) / 16777216.0f + 1.0f;
  float v = ldexpf(m, e);
  return (r & 2) ? -v : v;
}
static double rnd_f64(int elo, int ehi) {
  uint64_t r = rnd64();
  if (r & 1) return F64(rnd64());
  int e = elo + (int)((r >> 8) % (uint64_t)(ehi - elo + 1));
  double m = (double)(rnd64() >> 11) / 9007199254740992.0 + 1.0;
  double v = ldexp(m, e);
  return (r & 2) ? -v : v;
}

/* ---- references (host / libgcc in the same rounding mode) ----------------- */

static uint16_t ref_f32_to_f16(float x, int rm) {
  volatile float v = x;
  volatile _Float16 h;
  fesetround(host_rm(rm));
  h = (_Float16)v;
  fesetround(FE_TONEAREST);
  return hbits(h);
}
static uint16_t ref_f64_to_f16(double x, int rm) {
  volatile double v = x;
  volatile _Float16 h;
  fesetround(host_rm(rm));
  h = (_Float16)v;
  fesetround(FE_TONEAREST);
  return hbits(h);
}
static uint16_t ref_s64_to_f16(int64_t x, int rm) {
  volatile int64_t v = x;
  volatile _Float16 h;
  fesetround(host_rm(rm));
  h = (_Float16)v;
  fesetround(FE_TONEAREST);
  return hbits(h);
}
static uint16_t ref_u64_to_f16(uint64_t x, int rm) {
  volatile uint64_t v = x;
  volatile _Float16 h;
  fesetround(host_rm(rm));
  h = (_Float16)v;
  fesetround(FE_TONEAREST);
  return hbits(h);
}
static float ref_f64_to_f32(double x, int rm) {
  volatile double v = x;
  volatile float f;
  fesetround(host_rm(rm));
  f = (float)v;
  fesetround(FE_TONEAREST);
  return f;
}
static float ref_s64_to_f32(int64_t x, int rm) {
  volatile int64_t v = x;
  volatile float f;
  fesetround(host_rm(rm));
  f = (float)v;
  fesetround(FE_TONEAREST);
  return f;
}
static float ref_u64_to_f32(uint64_t x, int rm) {
  volatile uint64_t v = x;
  volatile float f;
  fesetround(host_rm(rm));
  f = (float)v;
  fesetround(FE_TONEAREST);
  return f;
}
static double ref_s64_to_f64(int64_t x, int rm) {
  volatile int64_t v = x;
  volatile double f;
  fesetround(host_rm(rm));
  f = (double)v;
  fesetround(FE_TONEAREST);
  return f;
}
static double ref_u64_to_f64(uint64_t x, int rm) {
  volatile uint64_t v = x;
  volatile double f;
  fesetround(host_rm(rm));
  f = (double)v;
  fesetround(FE_TONEAREST);
  return f;
}

/* f32 -> bf16 by bit manipulation: bf16 is the top half of an f32, so the
 * low 16 bits are the discarded part (NaN -> canonical). */
static uint16_t ref_f32_to_bf16(float x, int rm) {
  uint32_t u = B32(x);
  if (isnan(x)) return 0x7FFF;
  uint32_t hi = u >> 16, lo = u & 0xFFFF, neg = u >> 31;
  uint32_t up;
  switch (rm) {
  case FP_RZ: up = 0; break;
  case FP_RP: up = !neg && lo; break;
  case FP_RM: up = neg && lo; break;
  default:    up = lo > 0x8000 || (lo == 0x8000 && (hi & 1)); break;
  }
  return (uint16_t)(hi + up);
}

/* Round-to-odd f64 -> f32: truncate, and set the last bit when inexact. Then
 * a second rounding to a format of <= 22 bits is the correct one. */
static float rto_f64_to_f32(double x) {
  volatile double v = x;
  volatile float f;
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  f = (float)v;
  int inex = fetestexcept(FE_INEXACT) != 0;
  fesetround(FE_TONEAREST);
  return inex ? F32(B32(f) | 1) : f;
}
static uint16_t ref_f64_to_bf16(double x, int rm) {
  if (isnan(x)) return 0x7FFF;
  return ref_f32_to_bf16(rto_f64_to_f32(x), rm);
}
static uint16_t ref_s64_to_bf16(int64_t x, int rm) {
  volatile int64_t v = x;
  volatile float f;
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  f = (float)v;
  int inex = fetestexcept(FE_INEXACT) != 0;
  fesetround(FE_TONEAREST);
  return ref_f32_to_bf16(inex ? F32(B32(f) | 1) : f, rm);
}
static uint16_t ref_u64_to_bf16(uint64_t x, int rm) {
  volatile uint64_t v = x;
  volatile float f;
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  f = (float)v;
  int inex = fetestexcept(FE_INEXACT) != 0;
  fesetround(FE_TONEAREST);
  return ref_f32_to_bf16(inex ? F32(B32(f) | 1) : f, rm);
}

/* f32 arithmetic reference: the exact operation rounded to double, then to
 * float, both in mode rm. Directed roundings compose exactly; for RN, 53 >=
 * 2*24+2 makes the double rounding innocuous for + - * / sqrt. */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT };
static float ref_op32(int op, float a, float b, int rm) {
  volatile double x = a, y = b;
  volatile double d;
  volatile float f;
  fesetround(host_rm(rm));
  switch (op) {
  case OP_ADD: d = x + y; break;
  case OP_SUB: d = x - y; break;
  case OP_MUL: d = x * y; break;
  case OP_DIV: d = x / y; break;
  default:     d = sqrt(x); break;
  }
  f = (float)d;
  fesetround(FE_TONEAREST);
  return f;
}
/* f64 arithmetic reference in __float128 (113 >= 2*53+2). */
static double ref_op64(int op, double a, double b, int rm) {
  volatile __float128 x = a, y = b;
  volatile __float128 q;
  volatile double d;
  fesetround(host_rm(rm));
  switch (op) {
  case OP_ADD: q = x + y; break;
  case OP_SUB: q = x - y; break;
  case OP_MUL: q = x * y; break;
  default:     q = x / y; break;
  }
  d = (double)q;
  fesetround(FE_TONEAREST);
  return d;
}
/* fma references: the product is exact in the wider type; the sum is
 * rounded to odd there (toward zero + sticky last bit), then rounded once
 * more in mode rm. An exact zero sum is recomputed in mode rm for its sign. */
static float ref_fma32(float a, float b, float c, int rm) {
  volatile double p = (double)a * (double)b, z = c;
  volatile double s;
  volatile float f;
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  s = p + z;
  int inex = fetestexcept(FE_INEXACT) != 0;
  fesetround(host_rm(rm));
  if (s == 0) s = p + z;
  double t = inex ? F64(B64(s) | 1) : s;
  f = (float)t;
  fesetround(FE_TONEAREST);
  return f;
}
static double ref_fma64(double a, double b, double c, int rm) {
  volatile __float128 p = (__float128)a * b, z = c;
  volatile __float128 s;
  volatile double d;
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  s = p + z;
  int inex = fetestexcept(FE_INEXACT) != 0;
  fesetround(host_rm(rm));
  if (s == 0) s = p + z;
  __float128 t = s;
  if (inex) {
    uint64_t w[2];
    memcpy(w, &t, 16);
    w[0] |= 1;
    memcpy(&t, w, 16);
  }
  d = (double)t;
  fesetround(FE_TONEAREST);
  return d;
}
/* bf16 fma/add/mul reference: exact product in float, the sum rounded to odd
 * in f32 with fmaf (24 >= 8+2), then the bf16 bit reference. */
static uint16_t ref_fmabf16(uint16_t a, uint16_t b, uint16_t c, int rm) {
  volatile float x = F32((uint32_t)a << 16), y = F32((uint32_t)b << 16),
                 z = F32((uint32_t)c << 16);
  volatile float s;
  if (isnan(x) || isnan(y) || isnan(z)) return 0x7FFF;
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  s = fmaf(x, y, z);
  int inex = fetestexcept(FE_INEXACT) != 0;
  fesetround(host_rm(rm));
  if (s == 0) s = fmaf(x, y, z);
  fesetround(FE_TONEAREST);
  float t = s;
  return ref_f32_to_bf16(inex ? F32(B32(t) | 1) : t, rm);
}

/* Exact f16 reference: a value N * 2^-48 (every f16 sum of products is one)
 * rounded by searching the table of all positive finite f16 values. */
typedef unsigned __int128 u128;
static u128 f16tab[0x7C01];
static void f16tab_init(void) {
  for (int k = 0; k < 0x7C00; k++)
    f16tab[k] = (u128)ldexp((double)hval((uint16_t)k), 48);
  f16tab[0x7C00] = (u128)1 << 64;            /* 65536: where inf "sits" */
}
static uint16_t ref_f16_scaled(int neg, u128 m, int rm) {
  uint16_t s = neg ? 0x8000 : 0;
  int away = (rm == FP_RP && !neg) || (rm == FP_RM && neg);
  if (m >= f16tab[0x7C00])
    return s | ((rm == FP_RN || away) ? 0x7C00 : 0x7BFF);
  int lo = 0, hi = 0x7C00;                   /* f16tab[lo] <= m < f16tab[hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (f16tab[mid] <= m) lo = mid; else hi = mid;
  }
  if (f16tab[lo] == m) return s | (uint16_t)lo;
  int up;
  if (rm == FP_RN) {
    u128 twice = 2 * m, sum = f16tab[lo] + f16tab[lo + 1];
    up = twice > sum || (twice == sum && (lo & 1));
  } else {
    up = away;
  }
  return s | (uint16_t)(lo + up);
}
/* f16 value as an integer multiple of 2^-24 (finite inputs only). */
static int64_t f16_int(uint16_t h) { return (int64_t)ldexp((double)hval(h), 24); }
/* IEEE 754 §6.3: an exact zero sum is -0 when both addends are -0, or when
 * the addends have opposite signs and the mode is RM; otherwise +0. */
static uint16_t ieee_zero_sum(int neg1, int neg2, int rm) {
  return (neg1 && neg2) || (rm == FP_RM && neg1 != neg2) ? 0x8000 : 0;
}

static int f16_finite(uint16_t h) { return (h & 0x7C00) != 0x7C00; }

/* ---- f16 conversions ------------------------------------------------------ */

/* Every f16 pattern: widening is exact (checked against the _Float16 cast),
 * and narrowing it back is exact in every mode. NaN -> canonical NaN. */
static void test_f16_every_pattern(void **st) {
  (void)st;
  for (uint32_t u = 0; u < 0x10000; u++) {
    uint16_t h = (uint16_t)u;
    float f = fp_f16_to_f32(h);
    double d = fp_f16_to_f64(h);
    if ((h & 0x7FFF) > 0x7C00) {
      assert_int_equal(B32(f), FP_CANON_NAN32);
      assert_true(B64(d) == FP_CANON_NAN64);
      for (int i = 0; i < 4; i++) assert_int_equal(fp_f32_to_f16(f, RMS[i]), 0x7FFF);
      continue;
    }
    float want = (float)hval(h);
    assert_int_equal(B32(f), B32(want));
    assert_true(B64(d) == B64((double)want));
    for (int i = 0; i < 4; i++) {
      assert_int_equal(fp_f32_to_f16(f, RMS[i]), h);
      assert_int_equal(fp_f64_to_f16(d, RMS[i]), h);
      /* f16 -> bf16 rounds like the f32 value would */
      assert_int_equal(fp_f16_to_bf16(h, RMS[i]), ref_f32_to_bf16(want, RMS[i]));
    }
  }
}

/* Random f32 and f64 values against libgcc's _Float16 conversion run in the
 * same rounding mode (one correctly rounded conversion). */
static void test_f16_random_vs_float16(void **st) {
  (void)st;
  for (int n = 0; n < 200000; n++) {
    float f = rnd_f32(-27, 17);
    double d = rnd_f64(-27, 17);
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
      uint16_t wf = isnan(f) ? 0x7FFF : ref_f32_to_f16(f, rm);
      uint16_t wd = isnan(d) ? 0x7FFF : ref_f64_to_f16(d, rm);
      assert_int_equal(fp_f32_to_f16(f, rm), wf);
      assert_int_equal(fp_f64_to_f16(d, rm), wd);
    }
  }
  assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_f16_cases(void **st) {
  (void)st;
  /* 65520 = 65504 + 16 is halfway between max finite 65504 (0x7BFF, odd)
   * and 65536 (inf): RN -> inf, RZ -> 65504, RM -> 65504, RP -> inf. */
  assert_int_equal(fp_f32_to_f16(65520.0f, FP_RN), 0x7C00);
  assert_int_equal(fp_f32_to_f16(65520.0f, FP_RZ), 0x7BFF);
  assert_int_equal(fp_f32_to_f16(65520.0f, FP_RM), 0x7BFF);
  assert_int_equal(fp_f32_to_f16(65520.0f, FP_RP), 0x7C00);
  assert_int_equal(fp_f32_to_f16(-65520.0f, FP_RN), 0xFC00);
  assert_int_equal(fp_f32_to_f16(-65520.0f, FP_RZ), 0xFBFF);
  assert_int_equal(fp_f32_to_f16(-65520.0f, FP_RM), 0xFC00);
  assert_int_equal(fp_f32_to_f16(-65520.0f, FP_RP), 0xFBFF);
  assert_int_equal(fp_f32_to_f16(65519.0f, FP_RN), 0x7BFF); /* below the midpoint */
  assert_int_equal(fp_f32_to_f16(1e10f, FP_RZ), 0x7BFF);
  /* subnormals: 2^-24 is the least subnormal 0x0001; 2^-25 is halfway
   * between 0 and it: RN ties to even 0, RP -> 0x0001; -2^-25 RM -> 0x8001 */
  assert_int_equal(fp_f32_to_f16(0x1p-24f, FP_RN), 0x0001);
  assert_int_equal(fp_f32_to_f16(0x1p-25f, FP_RN), 0x0000);
  assert_int_equal(fp_f32_to_f16(0x1p-25f, FP_RZ), 0x0000);
  assert_int_equal(fp_f32_to_f16(0x1p-25f, FP_RM), 0x0000);
  assert_int_equal(fp_f32_to_f16(0x1p-25f, FP_RP), 0x0001);
  assert_int_equal(fp_f32_to_f16(-0x1p-25f, FP_RN), 0x8000);
  assert_int_equal(fp_f32_to_f16(-0x1p-25f, FP_RM), 0x8001);
  assert_int_equal(fp_f32_to_f16(-0x1p-25f, FP_RP), 0x8000);
  /* 3*2^-25 = 1.5 * 2^-24: tie between 0x0001 and 0x0002 -> even 0x0002 */
  assert_int_equal(fp_f32_to_f16(0x3p-25f, FP_RN), 0x0002);
  assert_int_equal(fp_f32_to_f16(0x3p-25f, FP_RZ), 0x0001);
  /* 2^-14 - 2^-25 is halfway between max subnormal 0x03FF and min normal
   * 0x0400: RN -> 0x0400 (even) */
  assert_int_equal(fp_f32_to_f16(0x1p-14f - 0x1p-25f, FP_RN), 0x0400);
  assert_int_equal(fp_f32_to_f16(0x1p-14f - 0x1p-25f, FP_RZ), 0x03FF);
  /* 1 + 2^-11 is halfway between 1 (0x3C00) and 1 + 2^-10 (0x3C01) */
  assert_int_equal(fp_f32_to_f16(1.0f + 0x1p-11f, FP_RN), 0x3C00);
  assert_int_equal(fp_f32_to_f16(1.0f + 0x1p-11f, FP_RP), 0x3C01);
  assert_int_equal(fp_f32_to_f16(1.0f + 0x3p-11f, FP_RN), 0x3C02);
  assert_int_equal(fp_f32_to_f16(-1.0f - 0x1p-11f, FP_RM), 0xBC01);
  assert_int_equal(fp_f32_to_f16(-1.0f - 0x1p-11f, FP_RP), 0xBC00);
  /* f64 -> f16 rounds once: 1 + 2^-11 + 2^-40 is above the midpoint, though
   * rounding it to f32 first would land on the midpoint and go to even. */
  assert_int_equal(fp_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40, FP_RN), 0x3C01);
  /* specials */
  assert_int_equal(fp_f32_to_f16(INFINITY, FP_RZ), 0x7C00);
  assert_int_equal(fp_f32_to_f16(-INFINITY, FP_RN), 0xFC00);
  assert_int_equal(fp_f32_to_f16(-0.0f, FP_RN), 0x8000);
  assert_int_equal(fp_f32_to_f16(F32(0xFFC00001u), FP_RN), 0x7FFF);
  assert_int_equal(fp_f64_to_f16(NAN, FP_RZ), 0x7FFF);
  assert_int_equal(B32(fp_f16_to_f32(0x0001)), B32(0x1p-24f));
  assert_int_equal(B32(fp_f16_to_f32(0x7BFF)), B32(65504.0f));
  assert_int_equal(B32(fp_f16_to_f32(0xFC00)), B32(-INFINITY));
  assert_int_equal(B32(fp_f16_to_f32(0xFE01)), FP_CANON_NAN32);
}

/* ---- bf16 conversions ------------------------------------------------------ */

static void test_bf16_conversions(void **st) {
  (void)st;
  for (int n = 0; n < 200000; n++) {
    float f = rnd_f32(-140, 127);
    double d = rnd_f64(-140, 128);
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
      assert_int_equal(fp_f32_to_bf16(f, rm), ref_f32_to_bf16(f, rm));
      assert_int_equal(fp_f64_to_bf16(d, rm), ref_f64_to_bf16(d, rm));
    }
  }
  /* every bf16 pattern: bf16 -> f32 is the 16-bit shift, -> f64 exact,
   * -> f16 one rounding (checked against _Float16 of the exact f32) */
  for (uint32_t u = 0; u < 0x10000; u++) {
    uint16_t b = (uint16_t)u;
    float f = F32(u << 16);
    assert_int_equal(B32(fp_bf16_to_f32(b)), u << 16);
    if (isnan(f)) {
      assert_true(B64(fp_bf16_to_f64(b)) == FP_CANON_NAN64);
      assert_int_equal(fp_bf16_to_f16(b, FP_RN), 0x7FFF);
      continue;
    }
    assert_true(B64(fp_bf16_to_f64(b)) == B64((double)f));
    for (int i = 0; i < 4; i++)
      assert_int_equal(fp_bf16_to_f16(b, RMS[i]), ref_f32_to_f16(f, RMS[i]));
  }
  /* 1 + 2^-8 is halfway between 1 (0x3F80) and 1 + 2^-7 (0x3F81) */
  assert_int_equal(fp_f32_to_bf16(1.0f + 0x1p-8f, FP_RN), 0x3F80);
  assert_int_equal(fp_f32_to_bf16(1.0f + 0x1p-8f, FP_RP), 0x3F81);
  assert_int_equal(fp_f32_to_bf16(1.0f + 0x3p-8f, FP_RN), 0x3F82);
  assert_int_equal(fp_f32_to_bf16(-1.0f - 0x1p-8f, FP_RM), 0xBF81);
  /* f64 -> bf16 in one rounding: via f32 the 2^-40 would be lost */
  assert_int_equal(fp_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40, FP_RN), 0x3F81);
  /* FLT_MAX is above bf16's max finite (0x7F7F = (2-2^-7)*2^127) and past
   * the RN overflow threshold (2-2^-8)*2^127 */
  assert_int_equal(fp_f32_to_bf16(FLT_MAX, FP_RN), 0x7F80);
  assert_int_equal(fp_f32_to_bf16(FLT_MAX, FP_RZ), 0x7F7F);
  assert_int_equal(fp_f32_to_bf16(-FLT_MAX, FP_RP), 0xFF7F);
  assert_int_equal(fp_f64_to_bf16(1e300, FP_RM), 0x7F7F);
  assert_int_equal(fp_f64_to_bf16(1e-300, FP_RP), 0x0001); /* 2^-133 */
  assert_int_equal(fp_f32_to_bf16(NAN, FP_RN), 0x7FFF);
  /* f16 -> bf16: 65504 = 0x1.ffcp15 needs 10 fraction bits: RN -> 2^16 */
  assert_int_equal(fp_f16_to_bf16(0x7BFF, FP_RN), 0x4780);
  assert_int_equal(fp_f16_to_bf16(0x7BFF, FP_RZ), 0x477F);
}

/* ---- f64 -> f32 --------------------------------------------------------------- */

static void test_f64_to_f32(void **st) {
  (void)st;
  for (int n = 0; n < 300000; n++) {
    double d = rnd_f64(-160, 130);
    for (int i = 0; i < 4; i++) {
      float got = fp_f64_to_f32(d, RMS[i]);
      uint32_t want = isnan(d) ? FP_CANON_NAN32 : B32(ref_f64_to_f32(d, RMS[i]));
      assert_int_equal(B32(got), want);
    }
  }
  /* 1 + 2^-24: halfway between 1 and 1 + 2^-23 (0x3F800001) */
  assert_int_equal(B32(fp_f64_to_f32(1.0 + 0x1p-24, FP_RN)), 0x3F800000);
  assert_int_equal(B32(fp_f64_to_f32(1.0 + 0x1p-24, FP_RP)), 0x3F800001);
  assert_int_equal(B32(fp_f64_to_f32(-1.0 - 0x1p-24, FP_RM)), 0xBF800001);
  assert_int_equal(B32(fp_f64_to_f32(-1.0 - 0x1p-24, FP_RZ)), 0xBF800000);
  assert_int_equal(B32(fp_f64_to_f32(DBL_MAX, FP_RN)), 0x7F800000);
  assert_int_equal(B32(fp_f64_to_f32(DBL_MAX, FP_RZ)), 0x7F7FFFFF);
  assert_int_equal(B32(fp_f64_to_f32(-DBL_MAX, FP_RP)), 0xFF7FFFFF);
  assert_int_equal(B32(fp_f64_to_f32(1e-300, FP_RP)), 0x00000001);
  assert_int_equal(B32(fp_f64_to_f32(1e-300, FP_RN)), 0x00000000);
  assert_int_equal(B32(fp_f64_to_f32(-1e-300, FP_RN)), 0x80000000);
  assert_int_equal(B32(fp_f64_to_f32(-1e-300, FP_RM)), 0x80000001);
  assert_int_equal(B32(fp_f64_to_f32(F64(0xFFF8000000000123ull), FP_RN)), FP_CANON_NAN32);
  assert_int_equal(fegetround(), FE_TONEAREST);
}

/* ---- integer -> float ------------------------------------------------------- */

static void test_int_to_float_cases(void **st) {
  (void)st;
  /* 2^24+1 lies halfway between 2^24 (0x4B800000) and 2^24+2 (0x4B800001):
   * RN -> even 2^24. 2^24+3 lies between 2^24+2 (odd) and 2^24+4 (even). */
  const int64_t p24 = 1 << 24;
  assert_int_equal(B32(fp_s64_to_f32(p24 + 1, FP_RN)), 0x4B800000);
  assert_int_equal(B32(fp_s64_to_f32(p24 + 1, FP_RZ)), 0x4B800000);
  assert_int_equal(B32(fp_s64_to_f32(p24 + 1, FP_RM)), 0x4B800000);
  assert_int_equal(B32(fp_s64_to_f32(p24 + 1, FP_RP)), 0x4B800001);
  assert_int_equal(B32(fp_s64_to_f32(p24 + 3, FP_RN)), 0x4B800002);
  assert_int_equal(B32(fp_s64_to_f32(p24 + 3, FP_RZ)), 0x4B800001);
  assert_int_equal(B32(fp_s64_to_f32(-(p24 + 1), FP_RN)), 0xCB800000);
  assert_int_equal(B32(fp_s64_to_f32(-(p24 + 1), FP_RZ)), 0xCB800000);
  assert_int_equal(B32(fp_s64_to_f32(-(p24 + 1), FP_RM)), 0xCB800001);
  assert_int_equal(B32(fp_s64_to_f32(-(p24 + 1), FP_RP)), 0xCB800000);
  assert_int_equal(B32(fp_u64_to_f32((uint64_t)p24 + 1, FP_RP)), 0x4B800001);
  /* UINT64_MAX = 2^64 - 1: f32 neighbours 2^64 - 2^40 (0x5F7FFFFF) and 2^64
   * (0x5F800000); f64 neighbours 2^64 - 2^11 and 2^64. */
  assert_int_equal(B32(fp_u64_to_f32(UINT64_MAX, FP_RN)), 0x5F800000);
  assert_int_equal(B32(fp_u64_to_f32(UINT64_MAX, FP_RZ)), 0x5F7FFFFF);
  assert_int_equal(B32(fp_u64_to_f32(UINT64_MAX, FP_RM)), 0x5F7FFFFF);
  assert_int_equal(B32(fp_u64_to_f32(UINT64_MAX, FP_RP)), 0x5F800000);
  assert_true(B64(fp_u64_to_f64(UINT64_MAX, FP_RN)) == 0x43F0000000000000ull);
  assert_true(B64(fp_u64_to_f64(UINT64_MAX, FP_RZ)) == 0x43EFFFFFFFFFFFFFull);
  assert_true(B64(fp_u64_to_f64(UINT64_MAX, FP_RM)) == 0x43EFFFFFFFFFFFFFull);
  assert_true(B64(fp_u64_to_f64(UINT64_MAX, FP_RP)) == 0x43F0000000000000ull);
  /* 2^53 + 1 in f64: halfway -> RN 2^53, RP 2^53 + 2 */
  assert_true(fp_s64_to_f64((1ll << 53) + 1, FP_RN) == 0x1p53);
  assert_true(fp_s64_to_f64((1ll << 53) + 1, FP_RP) == 0x1p53 + 2);
  assert_true(fp_s64_to_f64(-(1ll << 53) - 1, FP_RM) == -0x1p53 - 2);
  /* INT64_MIN = -2^63 is exact; INT64_MAX = 2^63 - 1 */
  for (int i = 0; i < 4; i++) {
    assert_int_equal(B32(fp_s64_to_f32(INT64_MIN, RMS[i])), 0xDF000000);
    assert_true(fp_s64_to_f64(INT64_MIN, RMS[i]) == -0x1p63);
    assert_int_equal(B32(fp_s64_to_f32(0, RMS[i])), 0);          /* +0 */
    assert_int_equal(fp_s64_to_f16(0, RMS[i]), 0);
  }
  assert_int_equal(B32(fp_s64_to_f32(INT64_MAX, FP_RN)), 0x5F000000);
  assert_int_equal(B32(fp_s64_to_f32(INT64_MAX, FP_RZ)), 0x5EFFFFFF);
  /* f16: 2049 is halfway between 2048 (0x6800) and 2050 (0x6801) */
  assert_int_equal(fp_s64_to_f16(2049, FP_RN), 0x6800);
  assert_int_equal(fp_s64_to_f16(2049, FP_RP), 0x6801);
  assert_int_equal(fp_s64_to_f16(-2049, FP_RM), 0xE801);
  assert_int_equal(fp_s64_to_f16(65520, FP_RN), 0x7C00);
  assert_int_equal(fp_s64_to_f16(65520, FP_RZ), 0x7BFF);
  assert_int_equal(fp_u64_to_f16(UINT64_MAX, FP_RN), 0x7C00);
  assert_int_equal(fp_u64_to_f16(UINT64_MAX, FP_RZ), 0x7BFF);
  assert_int_equal(fp_s64_to_f16(-1, FP_RN), 0xBC00);
  /* bf16: 257 halfway between 256 (0x4380) and 258 (0x4381) */
  assert_int_equal(fp_s64_to_bf16(257, FP_RN), 0x4380);
  assert_int_equal(fp_s64_to_bf16(257, FP_RP), 0x4381);
  assert_int_equal(fp_u64_to_bf16(UINT64_MAX, FP_RN), 0x5F80);
  assert_int_equal(fp_u64_to_bf16(UINT64_MAX, FP_RZ), 0x5F7F);
}

static void test_int_to_float_random(void **st) {
  (void)st;
  for (int n = 0; n < 200000; n++) {
    uint64_t u = rnd64() >> (rnd64() & 63);
    int64_t s = (int64_t)(rnd64() >> (rnd64() & 63)) * ((n & 1) ? -1 : 1);
    if (n == 0) s = INT64_MIN;
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
      assert_int_equal(B32(fp_s64_to_f32(s, rm)), B32(ref_s64_to_f32(s, rm)));
      assert_int_equal(B32(fp_u64_to_f32(u, rm)), B32(ref_u64_to_f32(u, rm)));
      assert_true(B64(fp_s64_to_f64(s, rm)) == B64(ref_s64_to_f64(s, rm)));
      assert_true(B64(fp_u64_to_f64(u, rm)) == B64(ref_u64_to_f64(u, rm)));
      assert_int_equal(fp_s64_to_f16(s, rm), ref_s64_to_f16(s, rm));
      assert_int_equal(fp_u64_to_f16(u, rm), ref_u64_to_f16(u, rm));
      assert_int_equal(fp_s64_to_bf16(s, rm), ref_s64_to_bf16(s, rm));
      assert_int_equal(fp_u64_to_bf16(u, rm), ref_u64_to_bf16(u, rm));
    }
  }
  assert_int_equal(fegetround(), FE_TONEAREST);
}

/* ---- float -> integer ------------------------------------------------------ */

static void test_float_to_int_cases(void **st) {
  (void)st;
  /* saturation (PTX: float-to-int clamps by default) */
  assert_int_equal(fp_f64_to_s(1e20, FP_RZ, 32), INT32_MAX);
  assert_int_equal(fp_f64_to_s(-1e20, FP_RZ, 32), INT32_MIN);
  assert_int_equal(fp_f32_to_s(1e20f, FP_RN, 32), INT32_MAX);
  assert_int_equal(fp_f32_to_s(-INFINITY, FP_RN, 32), INT32_MIN);
  assert_true(fp_f64_to_u(-1.0, FP_RZ, 32) == 0);
  assert_true(fp_f64_to_u(4294967295.5, FP_RZ, 32) == 4294967295u);
  assert_true(fp_f64_to_u(4294967295.5, FP_RN, 32) == 4294967295u); /* 2^32 clamps */
  assert_true(fp_f64_to_u(4294967296.0, FP_RZ, 32) == 4294967295u);
  /* 64-bit limits: 2^63 is the double nearest INT64_MAX; it clamps. -2^63
   * is exactly INT64_MIN. 2^64 - 2048 is the largest double below 2^64. */
  assert_true(fp_f64_to_s(0x1p63, FP_RZ, 64) == INT64_MAX);
  assert_true(fp_f32_to_s(0x1p63f, FP_RZ, 64) == INT64_MAX);
  assert_true(fp_f64_to_s(-0x1p63, FP_RZ, 64) == INT64_MIN);
  assert_true(fp_f64_to_s(-0x1p63 - 4096, FP_RZ, 64) == INT64_MIN);
  assert_true(fp_f64_to_s(0x1p63 - 1024, FP_RZ, 64) == INT64_MAX - 1023);
  assert_true(fp_f64_to_u(0x1p64, FP_RZ, 64) == UINT64_MAX);
  assert_true(fp_f64_to_u(0x1p64 - 2048, FP_RZ, 64) == 18446744073709549568ull);
  assert_true(fp_f64_to_u(INFINITY, FP_RZ, 64) == UINT64_MAX);
  assert_true(fp_f64_to_u(-INFINITY, FP_RZ, 64) == 0);
  /* narrow widths: 127.5 rni -> 128 -> clamps to 127; -128.5 rni -> -128 */
  assert_int_equal(fp_f64_to_s(127.5, FP_RN, 8), 127);
  assert_int_equal(fp_f64_to_s(-128.5, FP_RN, 8), -128);
  assert_int_equal(fp_f64_to_s(-129.0, FP_RN, 8), -128);
  assert_true(fp_f64_to_u(255.5, FP_RZ, 8) == 255);
  assert_true(fp_f64_to_u(300.0, FP_RZ, 8) == 255);
  assert_int_equal(fp_f64_to_s(40000.0, FP_RZ, 16), 32767);
  assert_true(fp_f64_to_u(70000.0, FP_RZ, 16) == 65535);
  /* rounding modes: ties to even for rni */
  assert_int_equal(fp_f64_to_s(-0.5, FP_RN, 32), 0);
  assert_int_equal(fp_f64_to_s(0.5, FP_RN, 32), 0);
  assert_int_equal(fp_f64_to_s(1.5, FP_RN, 32), 2);
  assert_int_equal(fp_f64_to_s(2.5, FP_RN, 32), 2);
  assert_int_equal(fp_f64_to_s(-1.5, FP_RN, 32), -2);
  assert_int_equal(fp_f64_to_s(2.5, FP_RZ, 32), 2);
  assert_int_equal(fp_f64_to_s(2.5, FP_RM, 32), 2);
  assert_int_equal(fp_f64_to_s(2.5, FP_RP, 32), 3);
  assert_int_equal(fp_f64_to_s(-2.5, FP_RZ, 32), -2);
  assert_int_equal(fp_f64_to_s(-2.5, FP_RM, 32), -3);
  assert_int_equal(fp_f64_to_s(-2.5, FP_RP, 32), -2);
  assert_true(fp_f64_to_u(-0.5, FP_RM, 32) == 0);       /* -1 clamps to 0 */
  assert_true(fp_f64_to_u(-0.5, FP_RP, 32) == 0);       /* -0 */
  assert_true(fp_f64_to_u(0.25, FP_RP, 32) == 1);
  /* .ftz: a subnormal rounds up to 1 under rpi unless flushed first */
  assert_int_equal(fp_f32_to_s(0x1p-149f, FP_RP, 32), 1);
  assert_int_equal(fp_f32_to_s(fp_ftz32(0x1p-149f), FP_RP, 32), 0);
  /* NaN (PTX 9.7.9.21): 0 unless the source is .f64 or the destination is
   * 64-bit; then 1 << (bits-1), i.e. MININT for signed. */
  assert_int_equal(fp_f32_to_s(NAN, FP_RN, 32), 0);
  assert_true(fp_f32_to_u(NAN, FP_RN, 32) == 0);
  assert_int_equal(fp_f32_to_s(NAN, FP_RZ, 8), 0);
  assert_true(fp_f32_to_s(NAN, FP_RN, 64) == INT64_MIN);
  assert_true(fp_f32_to_u(NAN, FP_RN, 64) == 0x8000000000000000ull);
  assert_int_equal(fp_f64_to_s(NAN, FP_RN, 32), INT32_MIN);
  assert_true(fp_f64_to_u(NAN, FP_RN, 32) == 0x80000000u);
  assert_int_equal(fp_f64_to_s(NAN, FP_RN, 8), -128);
  assert_true(fp_f64_to_u(NAN, FP_RN, 16) == 0x8000);
  assert_true(fp_f64_to_s(NAN, FP_RN, 64) == INT64_MIN);
}

/* In-range values against llrint run in the same rounding mode; the s32 and
 * u32 results against that value clamped here. */
static void test_float_to_int_random(void **st) {
  (void)st;
  for (int n = 0; n < 200000; n++) {
    double x = ldexp((double)(int64_t)rnd64(), -(int)(rnd64() % 40) - 23);
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
      volatile double vx = x;
      fesetround(host_rm(rm));
      long long r = llrint(vx);
      fesetround(FE_TONEAREST);
      assert_true(fp_f64_to_s(x, rm, 64) == r);
      long long c32 = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
      assert_true(fp_f64_to_s(x, rm, 32) == c32);
      unsigned long long u32 = r < 0 ? 0 : r > (long long)UINT32_MAX ? UINT32_MAX : (unsigned long long)r;
      assert_true(fp_f64_to_u(x, rm, 32) == u32);
      float f = (float)x;
      volatile float vf = f;
      fesetround(host_rm(rm));
      long long rf = llrintf(vf);
      fesetround(FE_TONEAREST);
      assert_true(fp_f32_to_s(f, rm, 64) == rf);
    }
  }
}

/* ---- rounding to integral (cvt.rni.f32.f32 ...) --------------------------------- */

static void test_rint(void **st) {
  (void)st;
  assert_true(fp_f64_rint(2.5, FP_RN) == 2.0);
  assert_true(fp_f64_rint(3.5, FP_RN) == 4.0);
  assert_true(fp_f64_rint(-2.5, FP_RN) == -2.0);
  assert_true(B64(fp_f64_rint(-0.5, FP_RN)) == B64(-0.0));  /* sign kept */
  assert_true(B64(fp_f64_rint(-0.5, FP_RP)) == B64(-0.0));
  assert_true(B64(fp_f64_rint(-0.5, FP_RZ)) == B64(-0.0));
  assert_true(fp_f64_rint(-0.5, FP_RM) == -1.0);
  assert_true(B64(fp_f64_rint(0.5, FP_RM)) == B64(0.0));
  assert_true(fp_f64_rint(0.5, FP_RP) == 1.0);
  assert_int_equal(B32(fp_f32_rint(2.5f, FP_RN)), B32(2.0f));
  assert_int_equal(B32(fp_f32_rint(-2.5f, FP_RM)), B32(-3.0f));
  assert_int_equal(B32(fp_f32_rint(0x1.fffffep22f, FP_RN)), B32(0x1p23f)); /* 8388607.5 */
  assert_int_equal(B32(fp_f32_rint(INFINITY, FP_RZ)), B32(INFINITY));
  assert_int_equal(B32(fp_f32_rint(F32(0x7FC00001u), FP_RN)), FP_CANON_NAN32);
  /* f16: 2.5 = 0x4100 -> RN 2 (0x4000), RP 3 (0x4200); -0.5 RZ -> -0 */
  assert_int_equal(fp_f16_rint(0x4100, FP_RN), 0x4000);
  assert_int_equal(fp_f16_rint(0x4100, FP_RP), 0x4200);
  assert_int_equal(fp_f16_rint(0xB800, FP_RZ), 0x8000);
  assert_int_equal(fp_bf16_rint(0x4020, FP_RN), 0x4000); /* 2.5 -> 2 */
  for (int n = 0; n < 200000; n++) {
    double d = rnd_f64(-3, 60);
    float f = rnd_f32(-3, 30);
    for (int i = 0; i < 4; i++) {
      volatile double vd = d;
      volatile float vf = f;
      fesetround(host_rm(RMS[i]));
      double wd = nearbyint(vd);
      float wf = nearbyintf(vf);
      fesetround(FE_TONEAREST);
      assert_true(B64(fp_f64_rint(d, RMS[i])) == (isnan(d) ? FP_CANON_NAN64 : B64(wd)));
      assert_int_equal(B32(fp_f32_rint(f, RMS[i])), isnan(f) ? FP_CANON_NAN32 : B32(wf));
    }
  }
  /* every f16 / bf16 pattern against nearbyintf of the exact value */
  for (uint32_t u = 0; u < 0x10000; u++) {
    float fh = (float)hval((uint16_t)u), fb = F32(u << 16);
    for (int i = 0; i < 4; i++) {
      volatile float vh = fh, vb = fb;
      fesetround(host_rm(RMS[i]));
      float wh = nearbyintf(vh), wb = nearbyintf(vb);
      fesetround(FE_TONEAREST);
      assert_int_equal(fp_f16_rint((uint16_t)u, RMS[i]), isnan(fh) ? 0x7FFF : hbits((_Float16)wh));
      assert_int_equal(fp_bf16_rint((uint16_t)u, RMS[i]), isnan(fb) ? 0x7FFF : B32(wb) >> 16);
    }
  }
}

/* ---- f32 / f64 arithmetic -------------------------------------------------- */

static void test_f32_arith_cases(void **st) {
  (void)st;
  /* 1 + 2^-24 is halfway between 1 and 1 + 2^-23 (0x3F800001) */
  assert_int_equal(B32(fp_add32(1.0f, 0x1p-24f, FP_RN)), 0x3F800000);
  assert_int_equal(B32(fp_add32(1.0f, 0x1p-24f, FP_RZ)), 0x3F800000);
  assert_int_equal(B32(fp_add32(1.0f, 0x1p-24f, FP_RM)), 0x3F800000);
  assert_int_equal(B32(fp_add32(1.0f, 0x1p-24f, FP_RP)), 0x3F800001);
  assert_int_equal(B32(fp_add32(-1.0f, -0x1p-24f, FP_RN)), 0xBF800000);
  assert_int_equal(B32(fp_add32(-1.0f, -0x1p-24f, FP_RZ)), 0xBF800000);
  assert_int_equal(B32(fp_add32(-1.0f, -0x1p-24f, FP_RM)), 0xBF800001);
  assert_int_equal(B32(fp_add32(-1.0f, -0x1p-24f, FP_RP)), 0xBF800000);
  /* 1 + 3*2^-25 is above that midpoint */
  assert_int_equal(B32(fp_add32(1.0f, 0x3p-25f, FP_RN)), 0x3F800001);
  assert_int_equal(B32(fp_add32(1.0f, 0x3p-25f, FP_RZ)), 0x3F800000);
  /* 1 - 2^-25: halfway between 1 - 2^-24 (0x3F7FFFFF) and 1 */
  assert_int_equal(B32(fp_sub32(1.0f, 0x1p-25f, FP_RN)), 0x3F800000);
  assert_int_equal(B32(fp_sub32(1.0f, 0x1p-25f, FP_RZ)), 0x3F7FFFFF);
  assert_int_equal(B32(fp_sub32(1.0f, 0x1p-25f, FP_RM)), 0x3F7FFFFF);
  assert_int_equal(B32(fp_sub32(1.0f, 0x1p-25f, FP_RP)), 0x3F800000);
  /* x - x is +0, except -0 in RM (IEEE 754 §6.3) */
  assert_int_equal(B32(fp_sub32(3.0f, 3.0f, FP_RN)), 0x00000000);
  assert_int_equal(B32(fp_sub32(3.0f, 3.0f, FP_RM)), 0x80000000);
  /* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 */
  assert_int_equal(B32(fp_mul32(F32(0x3F800001), F32(0x3F800001), FP_RN)), 0x3F800002);
  assert_int_equal(B32(fp_mul32(F32(0x3F800001), F32(0x3F800001), FP_RZ)), 0x3F800002);
  assert_int_equal(B32(fp_mul32(F32(0x3F800001), F32(0x3F800001), FP_RP)), 0x3F800003);
  /* overflow: inf or max finite per mode */
  assert_int_equal(B32(fp_mul32(FLT_MAX, 2.0f, FP_RN)), 0x7F800000);
  assert_int_equal(B32(fp_mul32(FLT_MAX, 2.0f, FP_RZ)), 0x7F7FFFFF);
  assert_int_equal(B32(fp_mul32(FLT_MAX, 2.0f, FP_RM)), 0x7F7FFFFF);
  assert_int_equal(B32(fp_mul32(FLT_MAX, -2.0f, FP_RM)), 0xFF800000);
  assert_int_equal(B32(fp_mul32(FLT_MAX, -2.0f, FP_RP)), 0xFF7FFFFF);
  /* 1/3 = 1.0101..b * 2^-2; the bits after the 23rd are 1010..: above half */
  assert_int_equal(B32(fp_div32(1.0f, 3.0f, FP_RN)), 0x3EAAAAAB);
  assert_int_equal(B32(fp_div32(1.0f, 3.0f, FP_RZ)), 0x3EAAAAAA);
  assert_int_equal(B32(fp_div32(1.0f, 3.0f, FP_RM)), 0x3EAAAAAA);
  assert_int_equal(B32(fp_div32(1.0f, 3.0f, FP_RP)), 0x3EAAAAAB);
  assert_int_equal(B32(fp_div32(-1.0f, 3.0f, FP_RM)), 0xBEAAAAAB);
  assert_int_equal(B32(fp_rcp32(3.0f, FP_RZ)), 0x3EAAAAAA);
  assert_int_equal(B32(fp_rcp32(-0.0f, FP_RN)), 0xFF800000);
  /* sqrt(2) = 1.41421356237..: 0x3FB504F3 = 1.4142135381.. is below it */
  assert_int_equal(B32(fp_sqrt32(2.0f, FP_RN)), 0x3FB504F3);
  assert_int_equal(B32(fp_sqrt32(2.0f, FP_RZ)), 0x3FB504F3);
  assert_int_equal(B32(fp_sqrt32(2.0f, FP_RP)), 0x3FB504F4);
  /* fma: 1*1 + 2^-30 rounds once; fused (1+2^-12)(1-2^-12) - 1 = -2^-24 */
  assert_int_equal(B32(fp_fma32(1.0f, 1.0f, 0x1p-30f, FP_RN)), 0x3F800000);
  assert_int_equal(B32(fp_fma32(1.0f, 1.0f, 0x1p-30f, FP_RP)), 0x3F800001);
  assert_int_equal(B32(fp_fma32(1.0f, 1.0f, -0x1p-30f, FP_RZ)), 0x3F7FFFFF);
  assert_true(fp_fma32(1.0f + 0x1p-12f, 1.0f - 0x1p-12f, -1.0f, FP_RN) == -0x1p-24f);
  /* NaN results are canonical */
  assert_int_equal(B32(fp_add32(F32(0xFFC00123u), 1.0f, FP_RN)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_add32(INFINITY, -INFINITY, FP_RZ)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_sqrt32(-1.0f, FP_RN)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_div32(0.0f, 0.0f, FP_RP)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_fma32(INFINITY, 0.0f, 1.0f, FP_RN)), FP_CANON_NAN32);
  /* subnormal results are kept (no implicit ftz) */
  assert_int_equal(B32(fp_mul32(0x1p-140f, 0x1p-9f, FP_RN)), 0x00000001);
  assert_int_equal(B32(fp_mul32(0x1p-140f, 0x1p-10f, FP_RP)), 0x00000001);
  assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_f32_arith_random(void **st) {
  (void)st;
  for (int n = 0; n < 200000; n++) {
    float a = rnd_f32(-30, 30), b = rnd_f32(-30, 30), c = rnd_f32(-60, 60);
    if (n & 1) b = rnd_f32(-149, 127);
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
#define CHECK32(got, want)                                                  \
  do {                                                                      \
    float w_ = (want);                                                      \
    assert_int_equal(B32(got), isnan(w_) ? FP_CANON_NAN32 : B32(w_));       \
  } while (0)
      CHECK32(fp_add32(a, b, rm), ref_op32(OP_ADD, a, b, rm));
      CHECK32(fp_sub32(a, b, rm), ref_op32(OP_SUB, a, b, rm));
      CHECK32(fp_mul32(a, b, rm), ref_op32(OP_MUL, a, b, rm));
      CHECK32(fp_div32(a, b, rm), ref_op32(OP_DIV, a, b, rm));
      CHECK32(fp_sqrt32(a, rm), ref_op32(OP_SQRT, a, 0, rm));
      CHECK32(fp_rcp32(b, rm), ref_op32(OP_DIV, 1.0f, b, rm));
      CHECK32(fp_fma32(a, b, c, rm), ref_fma32(a, b, c, rm));
    }
  }
  assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_f64_arith(void **st) {
  (void)st;
  /* 1 + 2^-53: halfway between 1 and 1 + 2^-52 */
  assert_true(B64(fp_add64(1.0, 0x1p-53, FP_RN)) == 0x3FF0000000000000ull);
  assert_true(B64(fp_add64(1.0, 0x1p-53, FP_RP)) == 0x3FF0000000000001ull);
  assert_true(B64(fp_add64(-1.0, -0x1p-53, FP_RM)) == 0xBFF0000000000001ull);
  /* 1/3: the bits after the 52nd are 0101..: below half */
  assert_true(B64(fp_div64(1.0, 3.0, FP_RN)) == 0x3FD5555555555555ull);
  assert_true(B64(fp_div64(1.0, 3.0, FP_RZ)) == 0x3FD5555555555555ull);
  assert_true(B64(fp_div64(1.0, 3.0, FP_RP)) == 0x3FD5555555555556ull);
  assert_true(B64(fp_rcp64(3.0, FP_RP)) == 0x3FD5555555555556ull);
  assert_true(fp_fma64(1.0, 1.0, 0x1p-60, FP_RP) == 1.0 + 0x1p-52);
  assert_true(fp_fma64(1.0, 1.0, 0x1p-60, FP_RN) == 1.0);
  assert_true(B64(fp_sub64(2.0, 2.0, FP_RM)) == B64(-0.0));
  assert_true(B64(fp_mul64(DBL_MAX, 2.0, FP_RZ)) == B64(DBL_MAX));
  assert_true(B64(fp_sqrt64(-2.0, FP_RN)) == FP_CANON_NAN64);
  assert_true(B64(fp_add64(F64(0x7FF0000000000001ull), 0.0, FP_RN)) == FP_CANON_NAN64);
  for (int n = 0; n < 100000; n++) {
    double a = rnd_f64(-60, 60), b = rnd_f64(-60, 60), c = rnd_f64(-120, 120);
    if (n & 1) b = rnd_f64(-1074, 1023);
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
#define CHECK64(got, want)                                                  \
  do {                                                                      \
    double w_ = (want);                                                     \
    assert_true(B64(got) == (isnan(w_) ? FP_CANON_NAN64 : B64(w_)));        \
  } while (0)
      CHECK64(fp_add64(a, b, rm), ref_op64(OP_ADD, a, b, rm));
      CHECK64(fp_sub64(a, b, rm), ref_op64(OP_SUB, a, b, rm));
      CHECK64(fp_mul64(a, b, rm), ref_op64(OP_MUL, a, b, rm));
      CHECK64(fp_div64(a, b, rm), ref_op64(OP_DIV, a, b, rm));
      CHECK64(fp_rcp64(b, rm), ref_op64(OP_DIV, 1.0, b, rm));
      CHECK64(fp_fma64(a, b, c, rm), ref_fma64(a, b, c, rm));
      /* sqrt: r is correct iff the exact squares (in __float128) bracket x */
      double x = fabs(a), r = fp_sqrt64(x, rm);
      if (!isfinite(x) || x == 0) continue;
      __float128 q = x, rr = r, up = nextafter(r, INFINITY), dn = nextafter(r, 0);
      if (rm == FP_RZ || rm == FP_RM) assert_true(rr * rr <= q && q < (__float128)up * up);
      else if (rm == FP_RP) assert_true((__float128)dn * dn < q && q <= rr * rr);
      else {
        __float128 lo = (rr + dn) / 2, hi = (rr + up) / 2;
        assert_true(lo * lo <= q && q <= hi * hi);
      }
    }
  }
  assert_int_equal(fegetround(), FE_TONEAREST);
}
