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

#include "model/fpsem.h"

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

/* ---- f16 / bf16 arithmetic ------------------------------------------------- */

static void test_f16_arith_cases(void **st) {
  (void)st;
  /* Single rounding in fma. a = 2^-11*(1+2^-10) (0x1001), b = 1-2^-10
   * (0x3BFE), c = 1+2^-10 (0x3C01): a*b = 2^-11 - 2^-31, so a*b+c =
   * 1 + 3*2^-11 - 2^-31, just below the midpoint 1 + 3*2^-11 between
   * 0x3C01 (odd) and 0x3C02 (even): the correct RN result is 0x3C01. An f32
   * intermediate (ulp 2^-23 here) drops the -2^-31 and lands exactly on the
   * midpoint, which then ties to even 0x3C02: double rounding. */
  assert_int_equal(fp_fma16(0x1001, 0x3BFE, 0x3C01, FP_RN), 0x3C01);
  {
    volatile float fa = (float)hval(0x1001), fb = (float)hval(0x3BFE), fc = (float)hval(0x3C01);
    _Float16 naive = (_Float16)fmaf(fa, fb, fc);
    assert_int_equal(hbits(naive), 0x3C02);   /* the trap the case sets */
  }
  assert_int_equal(fp_fma16(0x1001, 0x3BFE, 0x3C01, FP_RZ), 0x3C01);
  assert_int_equal(fp_fma16(0x1001, 0x3BFE, 0x3C01, FP_RP), 0x3C02);
  /* Directed modes need every bit: 2^-24 * 2^-24 + 1024 = 1024 + 2^-48,
   * which even a double sum rounds back to 1024. RP -> 1025 (0x6401). With
   * c = -1024 the exact value is just above -1024: RZ/RP -> -1023.5
   * (0xE3FF, the ulp below 1024 is 0.5), RM/RN -> -1024 (0xE400). */
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0x6400, FP_RN), 0x6400);
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0x6400, FP_RZ), 0x6400);
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0x6400, FP_RM), 0x6400);
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0x6400, FP_RP), 0x6401);
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0xE400, FP_RN), 0xE400);
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0xE400, FP_RZ), 0xE3FF);
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0xE400, FP_RM), 0xE400);
  assert_int_equal(fp_fma16(0x0001, 0x0001, 0xE400, FP_RP), 0xE3FF);
  /* add: 1 + 2^-11 (0x1000) is a tie; 65504 + 16 = 65520 overflows in RN */
  assert_int_equal(fp_add16(0x3C00, 0x1000, FP_RN), 0x3C00);
  assert_int_equal(fp_add16(0x3C00, 0x1000, FP_RP), 0x3C01);
  assert_int_equal(fp_add16(0x7BFF, 0x4C00, FP_RN), 0x7C00);
  assert_int_equal(fp_add16(0x7BFF, 0x4C00, FP_RZ), 0x7BFF);
  assert_int_equal(fp_sub16(0x3C00, 0x3C00, FP_RN), 0x0000);
  assert_int_equal(fp_sub16(0x3C00, 0x3C00, FP_RM), 0x8000);
  assert_int_equal(fp_add16(0x8000, 0x8000, FP_RN), 0x8000);
  assert_int_equal(fp_add16(0x8000, 0x0000, FP_RN), 0x0000);
  assert_int_equal(fp_sub16(0x4200, 0x3C00, FP_RN), 0x4000);   /* 3 - 1 */
  /* mul: 2^-24 * 0.5 is halfway between 0 and 2^-24 */
  assert_int_equal(fp_mul16(0x0001, 0x3800, FP_RN), 0x0000);
  assert_int_equal(fp_mul16(0x0001, 0x3800, FP_RP), 0x0001);
  assert_int_equal(fp_mul16(0x8001, 0x3800, FP_RN), 0x8000);
  assert_int_equal(fp_mul16(0x8001, 0x3800, FP_RM), 0x8001);
  assert_int_equal(fp_mul16(0x0400, 0x3800, FP_RN), 0x0200);   /* 2^-15 */
  /* NaN -> canonical; inf - inf, inf * 0 -> NaN */
  assert_int_equal(fp_add16(0x7C00, 0xFC00, FP_RN), 0x7FFF);
  assert_int_equal(fp_mul16(0x7C00, 0x0000, FP_RN), 0x7FFF);
  assert_int_equal(fp_fma16(0x7E01, 0x3C00, 0x3C00, FP_RN), 0x7FFF);
  assert_int_equal(fp_add16(0x7C00, 0x3C00, FP_RN), 0x7C00);
  assert_int_equal(fp_neg16(0x3C00), 0xBC00);
  assert_int_equal(fp_neg16(0x0000), 0x8000);
  assert_int_equal(fp_abs16(0xFC00), 0x7C00);
  assert_int_equal(fp_negbf16(0x3F80), 0xBF80);
  assert_int_equal(fp_absbf16(0xBF80), 0x3F80);
  /* bf16: 2^-50 (0x2680) squared + 2^100 (0x7180): RP must see the 2^-100 */
  assert_int_equal(fp_fmabf16(0x2680, 0x2680, 0x7180, FP_RN), 0x7180);
  assert_int_equal(fp_fmabf16(0x2680, 0x2680, 0x7180, FP_RZ), 0x7180);
  assert_int_equal(fp_fmabf16(0x2680, 0x2680, 0x7180, FP_RP), 0x7181);
  /* bf16 add: 2^127 + 2^-133 in RP (a sum far wider than a double) */
  assert_int_equal(fp_addbf16(0x7F00, 0x0001, FP_RP), 0x7F01);
  assert_int_equal(fp_addbf16(0x7F00, 0x0001, FP_RN), 0x7F00);
  /* 1 + 2^-8 (0x3B80) ties to even; (1+2^-7)^2 = 1 + 2^-6 + 2^-14 */
  assert_int_equal(fp_addbf16(0x3F80, 0x3B80, FP_RN), 0x3F80);
  assert_int_equal(fp_mulbf16(0x3F81, 0x3F81, FP_RN), 0x3F82);
  assert_int_equal(fp_mulbf16(0x3F81, 0x3F81, FP_RP), 0x3F83);
  assert_int_equal(fp_subbf16(0x3F80, 0x3F80, FP_RM), 0x8000);
  assert_int_equal(fp_mulbf16(0x7F7F, 0x4000, FP_RN), 0x7F80);  /* overflow */
  assert_int_equal(fp_mulbf16(0x7F7F, 0x4000, FP_RZ), 0x7F7F);
  assert_int_equal(fegetround(), FE_TONEAREST);
}

/* Random f16 operands against the exact brute-force reference. */
static void test_f16_arith_random(void **st) {
  (void)st;
  f16tab_init();
  for (int n = 0; n < 150000; n++) {
    uint64_t r = rnd64();
    uint16_t a = (uint16_t)r, b = (uint16_t)(r >> 16), c = (uint16_t)(r >> 32);
    if (n & 1) { /* keep exponents close so sums cancel and round finely */
      a = (a & 0x83FF) | 0x3800; b = (b & 0x83FF) | (uint16_t)((r >> 48) & 0x0C00) | 0x2C00;
      c = (c & 0x87FF) | 0x3800;
    }
    if (!f16_finite(a) || !f16_finite(b) || !f16_finite(c)) continue;
    int na = a >> 15, nb = b >> 15, nc = c >> 15;
    int64_t A = f16_int(a), B = f16_int(b), C = f16_int(c);
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
      /* fma: N = A*B + C*2^24, scaled by 2^48 */
      __int128 N = (__int128)A * B + ((__int128)C * (1 << 24));
      uint16_t want;
      if (N == 0)
        want = (A * B == 0 && C == 0) ? ieee_zero_sum(na ^ nb, nc, rm) : ieee_zero_sum(0, 1, rm);
      else
        want = ref_f16_scaled(N < 0, (u128)(N < 0 ? -N : N), rm);
      assert_int_equal(fp_fma16(a, b, c, rm), want);
      /* add: (A + C) * 2^24 */
      N = ((__int128)A + C) * (1 << 24);
      if (N == 0)
        want = (A == 0 && C == 0) ? ieee_zero_sum(na, nc, rm) : ieee_zero_sum(0, 1, rm);
      else
        want = ref_f16_scaled(N < 0, (u128)(N < 0 ? -N : N), rm);
      assert_int_equal(fp_add16(a, c, rm), want);
      /* sub: a - c = a + (-c) */
      N = ((__int128)A - C) * (1 << 24);
      if (N == 0)
        want = (A == 0 && C == 0) ? ieee_zero_sum(na, !nc, rm) : ieee_zero_sum(0, 1, rm);
      else
        want = ref_f16_scaled(N < 0, (u128)(N < 0 ? -N : N), rm);
      assert_int_equal(fp_sub16(a, c, rm), want);
      /* mul: A*B; a zero product has the xor of the signs */
      N = (__int128)A * B;
      want = N == 0 ? (uint16_t)((na ^ nb) << 15)
                    : ref_f16_scaled(N < 0, (u128)(N < 0 ? -N : N), rm);
      assert_int_equal(fp_mul16(a, b, rm), want);
    }
  }
}

static void test_bf16_arith_random(void **st) {
  (void)st;
  const uint16_t one = 0x3F80;
  for (int n = 0; n < 150000; n++) {
    uint64_t r = rnd64();
    uint16_t a = (uint16_t)r, b = (uint16_t)(r >> 16), c = (uint16_t)(r >> 32);
    if (n & 1) { /* exponents within a narrow window: finer rounding cases */
      a = (a & 0x807F) | 0x3F00; b = (b & 0x80FF) | 0x3A00; c = (c & 0x80FF) | 0x3F00;
    }
    /* keep products inside f32 range for the fmaf reference */
    if (((a >> 7) & 0xFF) + ((b >> 7) & 0xFF) > 127 + 250) continue;
    for (int i = 0; i < 4; i++) {
      int rm = RMS[i];
      assert_int_equal(fp_fmabf16(a, b, c, rm), ref_fmabf16(a, b, c, rm));
      assert_int_equal(fp_addbf16(a, c, rm), ref_fmabf16(a, one, c, rm));
      assert_int_equal(fp_subbf16(a, c, rm), ref_fmabf16(a, one, c ^ 0x8000, rm));
      /* a*b + (-0) keeps the product's zero sign; + (+0) would not */
      uint16_t mz = ref_fmabf16(a, b, 0x8000, rm);
      if ((mz & 0x7FFF) == 0) mz = (uint16_t)((a ^ b) & 0x8000);
      assert_int_equal(fp_mulbf16(a, b, rm), mz);
    }
  }
}

/* ---- min / max ---------------------------------------------------------------- */

static void test_minmax(void **st) {
  (void)st;
  const float qn = F32(0x7FC00001u);
  assert_true(fp_min32(qn, 1.0f) == 1.0f);
  assert_true(fp_min32(1.0f, qn) == 1.0f);
  assert_true(fp_max32(qn, -1.0f) == -1.0f);
  assert_int_equal(B32(fp_min32(qn, qn)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_max32(NAN, -NAN)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_min32(-0.0f, 0.0f)), 0x80000000);
  assert_int_equal(B32(fp_min32(0.0f, -0.0f)), 0x80000000);
  assert_int_equal(B32(fp_max32(-0.0f, 0.0f)), 0x00000000);
  assert_int_equal(B32(fp_max32(0.0f, -0.0f)), 0x00000000);
  assert_true(fp_min32(-INFINITY, 3.0f) == -INFINITY);
  assert_true(fp_max32(2.0f, 3.0f) == 3.0f);
  assert_int_equal(B32(fp_min32_nan(1.0f, qn)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_max32_nan(qn, 1.0f)), FP_CANON_NAN32);
  assert_true(fp_min32_nan(1.0f, 2.0f) == 1.0f);
  assert_int_equal(B32(fp_max32_nan(-0.0f, 0.0f)), 0x00000000);
  assert_true(fp_min64(NAN, 5.0) == 5.0);
  assert_true(B64(fp_min64(NAN, NAN)) == FP_CANON_NAN64);
  assert_true(B64(fp_min64(0.0, -0.0)) == B64(-0.0));
  assert_true(B64(fp_max64(-0.0, 0.0)) == B64(0.0));
  assert_true(fp_max64(-1.0, -2.0) == -1.0);
  /* f16: NaN 0x7E00, 1.0 0x3C00, -2.0 0xC000 */
  assert_int_equal(fp_min16(0x7E00, 0x3C00), 0x3C00);
  assert_int_equal(fp_max16(0x3C00, 0x7E00), 0x3C00);
  assert_int_equal(fp_min16(0x7E00, 0xFE00), 0x7FFF);
  assert_int_equal(fp_min16(0x8000, 0x0000), 0x8000);
  assert_int_equal(fp_max16(0x8000, 0x0000), 0x0000);
  assert_int_equal(fp_min16(0xC000, 0x3C00), 0xC000);
  assert_int_equal(fp_max16(0xC000, 0x3C00), 0x3C00);
  assert_int_equal(fp_min16_nan(0x3C00, 0x7E00), 0x7FFF);
  assert_int_equal(fp_max16_nan(0x3C00, 0xC000), 0x3C00);
  /* bf16: NaN 0x7FC0, 1.0 0x3F80 */
  assert_int_equal(fp_minbf16(0x7FC0, 0x3F80), 0x3F80);
  assert_int_equal(fp_maxbf16(0x0000, 0x8000), 0x0000);
  assert_int_equal(fp_minbf16(0x0000, 0x8000), 0x8000);
  assert_int_equal(fp_maxbf16_nan(0x7FC0, 0x3F80), 0x7FFF);
  assert_int_equal(fp_minbf16_nan(0xBF80, 0x3F80), 0xBF80);
}

/* ---- testp, copysign, compares -------------------------------------------- */

static void test_testp(void **st) {
  (void)st;
  const int all[6] = {FP_TP_FINITE, FP_TP_INFINITE, FP_TP_NUMBER,
                      FP_TP_NOTANUMBER, FP_TP_NORMAL, FP_TP_SUBNORMAL};
  /* expected flags per class: finite infinite number notanumber normal subn */
  struct { float f; double d; int want[6]; } cases[] = {
    {0.0f, 0.0, {1, 0, 1, 0, 1, 0}},            /* zeros count as normal */
    {-0.0f, -0.0, {1, 0, 1, 0, 1, 0}},
    {1.0f, 1.0, {1, 0, 1, 0, 1, 0}},
    {FLT_MIN, DBL_MIN, {1, 0, 1, 0, 1, 0}},
    {0x1p-149f, 0x1p-1074, {1, 0, 1, 0, 0, 1}},
    {-0x1p-130f, -0x1p-1030, {1, 0, 1, 0, 0, 1}},
    {INFINITY, INFINITY, {0, 1, 1, 0, 0, 0}},
    {-INFINITY, -INFINITY, {0, 1, 1, 0, 0, 0}},
    {NAN, NAN, {0, 0, 0, 1, 0, 0}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int k = 0; k < 6; k++) {
      assert_int_equal(fp_testp32(cases[i].f, all[k]), cases[i].want[k]);
      assert_int_equal(fp_testp64(cases[i].d, all[k]), cases[i].want[k]);
    }
}

static void test_copysign(void **st) {
  (void)st;
  /* copysign.f32 d, a, b: |b| with the sign of a */
  assert_true(fp_copysign32(-1.0f, 2.0f) == -2.0f);
  assert_true(fp_copysign32(1.0f, -3.0f) == 3.0f);
  assert_int_equal(B32(fp_copysign32(-1.0f, F32(0x7FC00001u))), 0xFFC00001u);
  assert_int_equal(B32(fp_copysign32(-0.0f, 0.0f)), 0x80000000u);
  assert_true(fp_copysign64(-5.0, 7.0) == -7.0);
  assert_true(B64(fp_copysign64(1.0, -0.0)) == 0);
}

static void test_compare(void **st) {
  (void)st;
  const float nan = NAN;
  /* PTX ne is ordered: "a != b && !isNaN(a) && !isNaN(b)" */
  assert_int_equal(fp_cmp32(nan, 1.0f, FP_NE), 0);
  assert_int_equal(fp_cmp32(1.0f, nan, FP_NE), 0);
  assert_int_equal(fp_cmp32(nan, nan, FP_NE), 0);
  assert_int_equal(fp_cmp32(nan, 1.0f, FP_NEU), 1);
  assert_int_equal(fp_cmp32(1.0f, 2.0f, FP_NE), 1);
  assert_int_equal(fp_cmp32(1.0f, 1.0f, FP_NE), 0);
  assert_int_equal(fp_cmp32(-0.0f, 0.0f, FP_EQ), 1);
  assert_int_equal(fp_cmp32(-0.0f, 0.0f, FP_LT), 0);
  for (int op = FP_EQ; op <= FP_GE; op++) {
    assert_int_equal(fp_cmp32(nan, 1.0f, op), 0);
    assert_int_equal(fp_cmp64(2.0, NAN, op), 0);
  }
  for (int op = FP_EQU; op <= FP_GEU; op++) {
    assert_int_equal(fp_cmp32(nan, 1.0f, op), 1);
    assert_int_equal(fp_cmp64(2.0, NAN, op), 1);
  }
  /* ordered/unordered agree on numbers: 1 vs 2 */
  const int want12[6] = {0, 1, 1, 1, 0, 0};
  for (int op = 0; op < 6; op++) {
    assert_int_equal(fp_cmp32(1.0f, 2.0f, FP_EQ + op), want12[op]);
    assert_int_equal(fp_cmp32(1.0f, 2.0f, FP_EQU + op), want12[op]);
    assert_int_equal(fp_cmp64(1.0, 2.0, FP_EQ + op), want12[op]);
    assert_int_equal(fp_cmp16(0x3C00, 0x4000, FP_EQ + op), want12[op]);
    assert_int_equal(fp_cmpbf16(0x3F80, 0x4000, FP_EQU + op), want12[op]);
  }
  assert_int_equal(fp_cmp32(1.0f, 2.0f, FP_NUM), 1);
  assert_int_equal(fp_cmp32(1.0f, nan, FP_NUM), 0);
  assert_int_equal(fp_cmp32(1.0f, nan, FP_NANP), 1);
  assert_int_equal(fp_cmp64(1.0, 2.0, FP_NANP), 0);
  assert_int_equal(fp_cmp16(0x8000, 0x0000, FP_EQ), 1);
  assert_int_equal(fp_cmp16(0x7E00, 0x3C00, FP_NE), 0);
  assert_int_equal(fp_cmp16(0x7E00, 0x3C00, FP_NEU), 1);
  assert_int_equal(fp_cmp16(0x0001, 0x0000, FP_GT), 1);     /* subnormal > 0 */
  assert_int_equal(fp_cmp16(0xFC00, 0x7BFF, FP_LT), 1);
  assert_int_equal(fp_cmpbf16(0x7FC0, 0x7FC0, FP_EQ), 0);
  assert_int_equal(fp_cmpbf16(0x7FC0, 0x3F80, FP_NANP), 1);
  assert_int_equal(fp_cmpbf16(0xBF80, 0x3F80, FP_LE), 1);
  /* random f16 pairs against float comparisons of the exact values */
  for (int n = 0; n < 100000; n++) {
    uint16_t a = (uint16_t)rnd64(), b = (n & 1) ? a ^ (uint16_t)(rnd64() & 3) : (uint16_t)rnd64();
    float fa = (float)hval(a), fb = (float)hval(b);
    int un = isnan(fa) || isnan(fb);
    int ord[6] = {fa == fb, fa != fb && !un, fa < fb, fa <= fb, fa > fb, fa >= fb};
    for (int op = 0; op < 6; op++) {
      assert_int_equal(fp_cmp16(a, b, FP_EQ + op), ord[op] && !un);
      assert_int_equal(fp_cmp16(a, b, FP_EQU + op), ord[op] || un);
    }
  }
}

/* ---- .sat .ftz .relu ----------------------------------------------------------- */

static void test_sat_ftz_relu(void **st) {
  (void)st;
  assert_int_equal(B32(fp_sat32(NAN)), 0);
  assert_int_equal(B32(fp_sat32(-0.0f)), 0);
  assert_int_equal(B32(fp_sat32(-5.0f)), 0);
  assert_int_equal(B32(fp_sat32(-INFINITY)), 0);
  assert_true(fp_sat32(0.5f) == 0.5f);
  assert_true(fp_sat32(2.0f) == 1.0f);
  assert_true(fp_sat32(INFINITY) == 1.0f);
  assert_true(fp_sat32(0x1p-149f) == 0x1p-149f);
  assert_true(B64(fp_sat64(NAN)) == 0);
  assert_true(B64(fp_sat64(-0.0)) == 0);
  assert_true(fp_sat64(1.5) == 1.0);
  assert_true(fp_sat64(0.25) == 0.25);
  assert_int_equal(fp_sat16(0x7E00), 0x0000);
  assert_int_equal(fp_sat16(0xBC00), 0x0000);
  assert_int_equal(fp_sat16(0x8000), 0x0000);
  assert_int_equal(fp_sat16(0x4000), 0x3C00);
  assert_int_equal(fp_sat16(0x3800), 0x3800);
  assert_int_equal(fp_sat16(0x7C00), 0x3C00);
  assert_int_equal(fp_sat16(0x3C00), 0x3C00);
  assert_int_equal(B32(fp_ftz32(0x1p-149f)), 0);
  assert_int_equal(B32(fp_ftz32(-0x1p-127f)), 0x80000000u);
  assert_true(fp_ftz32(FLT_MIN) == FLT_MIN);
  assert_true(isnan(fp_ftz32(NAN)));
  assert_int_equal(fp_ftz16(0x0001), 0x0000);
  assert_int_equal(fp_ftz16(0x83FF), 0x8000);
  assert_int_equal(fp_ftz16(0x0400), 0x0400);
  assert_int_equal(fp_relu16(0xBC00), 0x0000);
  assert_int_equal(fp_relu16(0x3C00), 0x3C00);
  assert_int_equal(fp_relu16(0x7E01), 0x7FFF);
  assert_int_equal(fp_relubf16(0xBF80), 0x0000);
  assert_int_equal(fp_relubf16(0xFFC1), 0x7FFF);
  assert_int_equal(fp_relubf16(0x3F80), 0x3F80);
}

/* ---- .approx functions: ISA error bounds against libm in double ----------- */

static int32_t ulp_dist32(float a, float b) {
  int32_t ia = (int32_t)B32(a), ib = (int32_t)B32(b);
  if (ia < 0) ia = (int32_t)0x80000000 - ia;   /* monotone integer order */
  if (ib < 0) ib = (int32_t)0x80000000 - ib;
  return ia > ib ? ia - ib : ib - ia;
}

static void test_approx_specials(void **st) {
  (void)st;
  /* sin/cos tables */
  assert_true(isnan(fp_sin32(INFINITY)) && isnan(fp_sin32(-INFINITY)));
  assert_int_equal(B32(fp_sin32(INFINITY)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_sin32(-0.0f)), 0x80000000u);
  assert_int_equal(B32(fp_sin32(0.0f)), 0);
  assert_true(fp_cos32(-0.0f) == 1.0f && fp_cos32(0.0f) == 1.0f);
  assert_int_equal(B32(fp_cos32(-INFINITY)), FP_CANON_NAN32);
  /* lg2 */
  assert_true(fp_lg2_32(0.0f) == -INFINITY && fp_lg2_32(-0.0f) == -INFINITY);
  assert_int_equal(B32(fp_lg2_32(-1.0f)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_lg2_32(-INFINITY)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_lg2_32(-0x1p-149f)), FP_CANON_NAN32);
  assert_true(fp_lg2_32(INFINITY) == INFINITY);
  assert_true(fp_lg2_32(8.0f) == 3.0f);
  /* ex2 */
  assert_int_equal(B32(fp_ex2_32(-INFINITY)), 0);
  assert_true(fp_ex2_32(-0.0f) == 1.0f && fp_ex2_32(0.0f) == 1.0f);
  assert_true(fp_ex2_32(INFINITY) == INFINITY);
  assert_true(fp_ex2_32(200.0f) == INFINITY);
  assert_true(fp_ex2_32(-149.0f) == 0x1p-149f);
  assert_int_equal(B32(fp_ex2_32(NAN)), FP_CANON_NAN32);
  /* rsqrt */
  assert_true(fp_rsqrt32(0.0f) == INFINITY && fp_rsqrt32(-0.0f) == -INFINITY);
  assert_int_equal(B32(fp_rsqrt32(INFINITY)), 0);
  assert_int_equal(B32(fp_rsqrt32(-1.0f)), FP_CANON_NAN32);
  assert_int_equal(B32(fp_rsqrt32(-INFINITY)), FP_CANON_NAN32);
  assert_true(fp_rsqrt32(4.0f) == 0.5f);
  assert_true(fp_rsqrt64(0.0) == INFINITY && fp_rsqrt64(-0.0) == -INFINITY);
  assert_true(B64(fp_rsqrt64(INFINITY)) == 0);
  assert_true(B64(fp_rsqrt64(-4.0)) == FP_CANON_NAN64);
  assert_true(fp_rsqrt64(0.25) == 2.0);
  /* rcp.approx */
  assert_int_equal(B32(fp_rcp_approx32(-INFINITY)), 0x80000000u);
  assert_true(fp_rcp_approx32(-0.0f) == -INFINITY && fp_rcp_approx32(0.0f) == INFINITY);
  assert_int_equal(B32(fp_rcp_approx32(INFINITY)), 0);
  /* tanh: subnormals pass through */
  assert_true(fp_tanh32(INFINITY) == 1.0f && fp_tanh32(-INFINITY) == -1.0f);
  assert_int_equal(B32(fp_tanh32(-0.0f)), 0x80000000u);
  assert_true(fp_tanh32(0x1p-140f) == 0x1p-140f);
  assert_int_equal(B32(fp_tanh32(NAN)), FP_CANON_NAN32);
  /* f16 / bf16 */
  assert_int_equal(fp_ex2_16(0xFC00), 0x0000);
  assert_int_equal(fp_ex2_16(0x8000), 0x3C00);
  assert_int_equal(fp_ex2_16(0x0000), 0x3C00);
  assert_int_equal(fp_ex2_16(0x7C00), 0x7C00);
  assert_int_equal(fp_ex2_16(0x7E00), 0x7FFF);
  assert_int_equal(fp_ex2_16(0x4A00), 0x6C00);      /* 2^12 = 4096 */
  assert_int_equal(fp_tanh16(0xFC00), 0xBC00);
  assert_int_equal(fp_tanh16(0x7C00), 0x3C00);
  assert_int_equal(fp_tanh16(0x8000), 0x8000);
  assert_int_equal(fp_tanh16(0x0001), 0x0001);
  assert_int_equal(fp_ex2_bf16(0xFF80), 0x0000);
  assert_int_equal(fp_ex2_bf16(0x8001), 0x3F80);    /* -subnormal -> +1 */
  assert_int_equal(fp_ex2_bf16(0x0001), 0x3F80);
  assert_int_equal(fp_ex2_bf16(0x7F80), 0x7F80);
  assert_int_equal(fp_ex2_bf16(0xC302), 0x0000);    /* 2^-130: flushed */
  assert_int_equal(fp_tanhbf16(0xFF80), 0xBF80);
  assert_int_equal(fp_tanhbf16(0x8000), 0x8000);
}

static void test_approx_bounds(void **st) {
  (void)st;
  const double pi = 3.14159265358979323846;
  for (int n = 0; n < 400000; n++) {
    double t = (double)(rnd64() >> 11) / 9007199254740992.0;   /* [0,1) */
    /* sin/cos: abs err 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi] */
    float x = (float)((2 * t - 1) * 2 * pi);
    assert_true(fabs(fp_sin32(x) - sin(x)) <= exp2(-20.5));
    assert_true(fabs(fp_cos32(x) - cos(x)) <= exp2(-20.5));
    x = (float)((2 * t - 1) * 100 * pi);
    assert_true(fabs(fp_sin32(x) - sin(x)) <= exp2(-14.7));
    assert_true(fabs(fp_cos32(x) - cos(x)) <= exp2(-14.7));
    /* ex2: within 2 ulp of the correctly rounded result */
    x = (float)(t * 280 - 152);
    assert_true(ulp_dist32(fp_ex2_32(x), (float)exp2(x)) <= 2);
    /* lg2: abs 2^-22 on (0.5, 2), rel 2^-22 elsewhere */
    float y = F32((uint32_t)(rnd64() >> 33) & 0x7FFFFFFF);
    if (isfinite(y) && y > 0) {
      double ref = log2(y), got = fp_lg2_32(y);
      if (y > 0.5f && y < 2.0f) assert_true(fabs(got - ref) <= exp2(-22));
      else assert_true(fabs(got - ref) <= exp2(-22) * fabs(ref));
      /* rsqrt: rel 2^-22.9 */
      double rs = 1.0 / sqrt((double)y);
      assert_true(fabs(fp_rsqrt32(y) - rs) <= exp2(-22.9) * rs);
      /* rcp.approx: 1 ulp */
      float rc = (float)(1.0 / (double)y);
      assert_true(ulp_dist32(fp_rcp_approx32(y), rc) <= 1);
      assert_true(ulp_dist32(fp_rcp_approx32(-y), -rc) <= 1);
      /* tanh: rel 2^-11 */
      float yy = (n & 1) ? y : -y;
      double th = tanh((double)yy);
      assert_true(fabs(fp_tanh32(yy) - th) <= exp2(-11) * fabs(th));
    }
    /* rsqrt.f64: ours is within 1 ulp (no ISA bound); against long double */
    double z = F64(rnd64() >> 1);
    if (isfinite(z) && z > 0) {
      long double ref = 1.0L / sqrtl((long double)z);
      double got = fp_rsqrt64(z);
      assert_true(fabsl(got - ref) <= ldexpl(fabsl(ref), -52));
    }
  }
  /* every finite f16 / bf16 input */
  for (uint32_t u = 0; u < 0x10000; u++) {
    uint16_t h = (uint16_t)u;
    if (f16_finite(h)) {
      double xv = (double)hval(h), ref = exp2(xv);
      double got = (double)hval(fp_ex2_16(h));
      if (ref >= 0x1p-14 && ref <= 65504.0)            /* normal results */
        assert_true(fabs(got - ref) <= exp2(-9.9) * ref);
      assert_true(fabs((double)hval(fp_tanh16(h)) - tanh(xv)) <= exp2(-10.987));
    }
    if ((h & 0x7F80) != 0x7F80) {
      double xv = (double)F32(u << 16), ref = exp2(xv);
      double got = (double)F32((uint32_t)fp_ex2_bf16(h) << 16);
      if ((h & 0x7F80) && ref >= 0x1p-126 && ref <= 0x1.fep127)
        assert_true(fabs(got - ref) <= exp2(-7) * ref);
      assert_true(fabs((double)F32((uint32_t)fp_tanhbf16(h) << 16) - tanh(xv)) <= exp2(-8));
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_f16_every_pattern),
    cmocka_unit_test(test_f16_random_vs_float16),
    cmocka_unit_test(test_f16_cases),
    cmocka_unit_test(test_bf16_conversions),
    cmocka_unit_test(test_f64_to_f32),
    cmocka_unit_test(test_int_to_float_cases),
    cmocka_unit_test(test_int_to_float_random),
    cmocka_unit_test(test_float_to_int_cases),
    cmocka_unit_test(test_float_to_int_random),
    cmocka_unit_test(test_rint),
    cmocka_unit_test(test_f32_arith_cases),
    cmocka_unit_test(test_f32_arith_random),
    cmocka_unit_test(test_f64_arith),
    cmocka_unit_test(test_f16_arith_cases),
    cmocka_unit_test(test_f16_arith_random),
    cmocka_unit_test(test_bf16_arith_random),
    cmocka_unit_test(test_minmax),
    cmocka_unit_test(test_testp),
    cmocka_unit_test(test_copysign),
    cmocka_unit_test(test_compare),
    cmocka_unit_test(test_sat_ftz_relu),
    cmocka_unit_test(test_approx_specials),
    cmocka_unit_test(test_approx_bounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
