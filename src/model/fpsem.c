/* fpsem.c: PTX floating-point and conversion semantics (see fpsem.h).
 * Conversions round through one integer routine (fmt_round), so every mode,
 * subnormal and overflow case takes the same path; f32/f64 arithmetic runs
 * on the host FPU under fesetround. Built with -frounding-math. */
#include "model/fpsem.h"

#include <fenv.h>
#include <math.h>

/* ---- binary formats ---------------------------------------------------- */

typedef struct fmt {
  int mbits; /* stored fraction bits */
  int ebits; /* exponent bits */
} fmt;

static const fmt F16 = {10, 5};
static const fmt BF16 = {7, 8};
static const fmt F32 = {23, 8};
static const fmt F64 = {52, 11};

#define BIAS(f) ((1 << ((f)->ebits - 1)) - 1)
#define EMAX(f) ((1 << (f)->ebits) - 1) /* all-ones exponent field */

static uint64_t canon_nan(const fmt *f) { return ((uint64_t)EMAX(f) << f->mbits) | ((1ull << f->mbits) - 1); }

static float canon32(float x) { return isnan(x) ? fp_from_bits32(FP_CANON_NAN32) : x; }
static double canon64(double x) { return isnan(x) ? fp_from_bits64(FP_CANON_NAN64) : x; }

/* Round the exact value (-1)^neg * mant * 2^exp (mant != 0) to format f in
 * mode rm and return its bit pattern, with subnormal results and overflow
 * (inf, or the largest finite value in the modes that round toward zero). */
static uint64_t fmt_round(int neg, uint64_t mant, int exp, const fmt *f, int rm) {
  const int mb = f->mbits, bias = BIAS(f), emax = EMAX(f), emin = 1 - bias;
  const uint64_t sign = (uint64_t)neg << (f->ebits + mb);
  const int top = 63 - __builtin_clzll(mant);
  const int E = top + exp;            /* value in [2^E, 2^(E+1)) */
  const int Eq = E < emin ? emin : E; /* exponent of the result grid */

  if (E + bias < emax) {               /* else: overflow already */
    const int shift = (Eq - mb) - exp; /* drop this many low bits */
    uint64_t sig, half = 0, rest = 0;
    if (shift <= 0) {
      sig = mant << -shift;
    } else if (shift < 64) {
      sig = mant >> shift;
      half = (mant >> (shift - 1)) & 1;
      rest = mant & ((1ull << (shift - 1)) - 1);
    } else {
      sig = 0;
      half = shift == 64 ? mant >> 63 : 0;
      rest = shift == 64 ? mant & ~(1ull << 63) : mant;
    }
    int inc;
    switch (rm) {
    case FP_RZ:
      inc = 0;
      break;
    case FP_RM:
      inc = neg && (half || rest);
      break;
    case FP_RP:
      inc = !neg && (half || rest);
      break;
    default:
      inc = half && (rest || (sig & 1));
      break;
    }
    sig += inc;
    /* The exponent field is put in one below its value so that sig's
     * implicit bit carries it into place (subnormals: field 0, no implicit
     * bit); a carry out of the rounding moves up one binade the same way. */
    uint64_t bits = ((uint64_t)(Eq + bias - 1) << mb) + sig;
    if ((bits >> mb) < (uint64_t)emax) return sign | bits;
  }
  int to_inf = rm == FP_RN || (rm == FP_RP && !neg) || (rm == FP_RM && neg);
  uint64_t mag = to_inf ? (uint64_t)emax << mb : ((uint64_t)emax << mb) - 1;
  return sign | mag;
}

/* Round a double (exact value) to format f. */
static uint64_t round_double(double x, const fmt *f, int rm) {
  uint64_t u = fp_bits64(x);
  int neg = (int)(u >> 63);
  uint64_t sign = (uint64_t)neg << (f->ebits + f->mbits);
  int e = (int)((u >> 52) & 0x7ff);
  uint64_t frac = u & ((1ull << 52) - 1);
  if (e == 0x7ff) return frac ? canon_nan(f) : sign | ((uint64_t)EMAX(f) << f->mbits);
  if (e == 0 && frac == 0) return sign;
  if (e == 0) return fmt_round(neg, frac, -1074, f, rm);
  return fmt_round(neg, frac | (1ull << 52), e - 1075, f, rm);
}

/* Exact value of a pattern of format f (f16, bf16 or f32) as a double;
 * NaN patterns give the canonical f64 NaN. */
static double decode(uint64_t bits, const fmt *f) {
  const int mb = f->mbits, bias = BIAS(f), emax = EMAX(f);
  uint64_t frac = bits & ((1ull << mb) - 1);
  int e = (int)((bits >> mb) & (uint64_t)emax);
  uint64_t sign = ((bits >> (mb + f->ebits)) & 1) << 63;
  if (e == emax && frac) return fp_from_bits64(FP_CANON_NAN64);
  if (e == emax) return fp_from_bits64(sign | 0x7ff0000000000000ull);
  if (e == 0) {
    /* frac * 2^(1-bias-mb): an exact product by a power of two */
    double scale = fp_from_bits64((uint64_t)(1023 + 1 - bias - mb) << 52);
    return fp_from_bits64(fp_bits64((double)frac * scale) | sign);
  }
  return fp_from_bits64(sign | ((uint64_t)(e - bias + 1023) << 52) | (frac << (52 - mb)));
}

/* The host (fenv) rounding mode for rm. */
static int host_mode(int rm) {
  switch (rm) {
  case FP_RZ:
    return FE_TOWARDZERO;
  case FP_RM:
    return FE_DOWNWARD;
  case FP_RP:
    return FE_UPWARD;
  default:
    return FE_TONEAREST;
  }
}

/* ---- float <-> float ---------------------------------------------------- */

uint16_t fp_f32_to_f16(float x, int rm) { return (uint16_t)round_double(x, &F16, rm); }
uint16_t fp_f64_to_f16(double x, int rm) { return (uint16_t)round_double(x, &F16, rm); }
uint16_t fp_f32_to_bf16(float x, int rm) { return (uint16_t)round_double(x, &BF16, rm); }
uint16_t fp_f64_to_bf16(double x, int rm) { return (uint16_t)round_double(x, &BF16, rm); }
float fp_f64_to_f32(double x, int rm) { return fp_from_bits32((uint32_t)round_double(x, &F32, rm)); }
uint16_t fp_f16_to_bf16(uint16_t h, int rm) { return (uint16_t)round_double(decode(h, &F16), &BF16, rm); }
uint16_t fp_bf16_to_f16(uint16_t b, int rm) { return (uint16_t)round_double(decode(b, &BF16), &F16, rm); }

float fp_f16_to_f32(uint16_t h) { return (float)decode(h, &F16); }
double fp_f16_to_f64(uint16_t h) { return decode(h, &F16); }
float fp_bf16_to_f32(uint16_t b) { return fp_from_bits32((uint32_t)b << 16); }
double fp_bf16_to_f64(uint16_t b) { return decode(b, &BF16); }

/* ---- rounding to integral ------------------------------------------------ */

/* floor/ceil/trunc/roundeven do not depend on the host rounding mode. */
static double rint_mode(double x, int rm) {
  switch (rm) {
  case FP_RZ:
    return trunc(x);
  case FP_RM:
    return floor(x);
  case FP_RP:
    return ceil(x);
  default:
    return roundeven(x);
  }
}

float fp_f32_rint(float x, int rm) {
  switch (rm) {
  case FP_RZ:
    return canon32(truncf(x));
  case FP_RM:
    return canon32(floorf(x));
  case FP_RP:
    return canon32(ceilf(x));
  default:
    return canon32(roundevenf(x));
  }
}
double fp_f64_rint(double x, int rm) { return canon64(rint_mode(x, rm)); }
/* An integral value of a format is representable in it: rounding is exact. */
uint16_t fp_f16_rint(uint16_t h, int rm) {
  return (uint16_t)round_double(rint_mode(decode(h, &F16), rm), &F16, FP_RN);
}
uint16_t fp_bf16_rint(uint16_t b, int rm) {
  return (uint16_t)round_double(rint_mode(decode(b, &BF16), rm), &BF16, FP_RN);
}

/* ---- float -> integer --------------------------------------------------- */

static int64_t to_s(double x, int rm, int bits, int nan_is_zero) {
  const int64_t lo = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  const int64_t hi = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
  if (isnan(x)) return nan_is_zero ? 0 : lo;
  double r = rint_mode(x, rm);
  double lim = ldexp(1.0, bits - 1); /* 2^(bits-1), exact */
  if (r >= lim) return hi;
  if (r < -lim) return lo;
  return (int64_t)r; /* r integral and in range */
}

static uint64_t to_u(double x, int rm, int bits, int nan_is_zero) {
  const uint64_t hi = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  if (isnan(x)) return nan_is_zero ? 0 : (uint64_t)1 << (bits - 1);
  double r = rint_mode(x, rm);
  if (r < 0) return 0; /* -0.0 falls through to 0 */
  if (r >= ldexp(1.0, bits)) return hi;
  return (uint64_t)r;
}

int64_t fp_f64_to_s(double x, int rm, int bits) { return to_s(x, rm, bits, 0); }
uint64_t fp_f64_to_u(double x, int rm, int bits) { return to_u(x, rm, bits, 0); }
int64_t fp_f32_to_s(float x, int rm, int bits) { return to_s(x, rm, bits, bits < 64); }
uint64_t fp_f32_to_u(float x, int rm, int bits) { return to_u(x, rm, bits, bits < 64); }

/* ---- integer -> float --------------------------------------------------- */

static uint64_t int_round(int neg, uint64_t mag, const fmt *f, int rm) {
  return mag ? fmt_round(neg, mag, 0, f, rm) : 0;
}
static uint64_t s_mag(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

float fp_s64_to_f32(int64_t v, int rm) {
  return fp_from_bits32((uint32_t)int_round(v < 0, s_mag(v), &F32, rm));
}
float fp_u64_to_f32(uint64_t v, int rm) { return fp_from_bits32((uint32_t)int_round(0, v, &F32, rm)); }
double fp_s64_to_f64(int64_t v, int rm) { return fp_from_bits64(int_round(v < 0, s_mag(v), &F64, rm)); }
double fp_u64_to_f64(uint64_t v, int rm) { return fp_from_bits64(int_round(0, v, &F64, rm)); }
uint16_t fp_s64_to_f16(int64_t v, int rm) { return (uint16_t)int_round(v < 0, s_mag(v), &F16, rm); }
uint16_t fp_u64_to_f16(uint64_t v, int rm) { return (uint16_t)int_round(0, v, &F16, rm); }
uint16_t fp_s64_to_bf16(int64_t v, int rm) { return (uint16_t)int_round(v < 0, s_mag(v), &BF16, rm); }
uint16_t fp_u64_to_bf16(uint64_t v, int rm) { return (uint16_t)int_round(0, v, &BF16, rm); }

/* ---- modifiers ---------------------------------------------------------- */

float fp_ftz32(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }
uint16_t fp_ftz16(uint16_t h) { return (h & 0x7C00) == 0 ? (uint16_t)(h & 0x8000) : h; }
float fp_sat32(float x) {
  if (isnan(x) || x <= 0.0f) return 0.0f;
  return x > 1.0f ? 1.0f : x;
}
double fp_sat64(double x) {
  if (isnan(x) || x <= 0.0) return 0.0;
  return x > 1.0 ? 1.0 : x;
}
uint16_t fp_sat16(uint16_t h) {
  if ((h & 0x7FFF) > 0x7C00 || (h & 0x8000)) return 0; /* NaN or <= -0 */
  return h > 0x3C00 ? 0x3C00 : h;
}
uint16_t fp_relu16(uint16_t h) {
  if ((h & 0x7FFF) > 0x7C00) return FP_CANON_NAN16;
  return (h & 0x8000) ? 0 : h;
}
uint16_t fp_relubf16(uint16_t b) {
  if ((b & 0x7FFF) > 0x7F80) return FP_CANON_NAN16;
  return (b & 0x8000) ? 0 : b;
}

/* ---- f32 / f64 arithmetic ------------------------------------------------
 * The operands are read from volatiles after fesetround and the result
 * stored to a volatile before the mode is restored, so the operation cannot
 * move across the mode switch. */
#define HOST_OP(T, canon, rm, expr)                                                                          \
  do {                                                                                                       \
    volatile T r_;                                                                                           \
    if ((rm) == FP_RN) {                                                                                     \
      r_ = (expr);                                                                                           \
      return canon(r_);                                                                                      \
    }                                                                                                        \
    fesetround(host_mode(rm));                                                                               \
    r_ = (expr);                                                                                             \
    fesetround(FE_TONEAREST);                                                                                \
    return canon(r_);                                                                                        \
  } while (0)

/* fp_NAME32 and fp_NAME64 of a binary operator op: fp_add, fp_sub, fp_mul,
 * fp_div. */
#define HOST_BIN(name, op)                                                                                   \
  float fp_##name##32(float a, float b, int rm) {                                                            \
    volatile float x = a, y = b;                                                                             \
    HOST_OP(float, canon32, rm, x op y);                                                                     \
  }                                                                                                          \
  double fp_##name##64(double a, double b, int rm) {                                                         \
    volatile double x = a, y = b;                                                                            \
    HOST_OP(double, canon64, rm, x op y);                                                                    \
  }
/* fp_NAME32 and fp_NAME64 of one operand x: fp_sqrt, fp_rcp. */
#define HOST_UN(name, expr32, expr64)                                                                        \
  float fp_##name##32(float a, int rm) {                                                                     \
    volatile float x = a;                                                                                    \
    HOST_OP(float, canon32, rm, expr32);                                                                     \
  }                                                                                                          \
  double fp_##name##64(double a, int rm) {                                                                   \
    volatile double x = a;                                                                                   \
    HOST_OP(double, canon64, rm, expr64);                                                                    \
  }
HOST_BIN(add, +)
HOST_BIN(sub, -)
HOST_BIN(mul, *)
HOST_BIN(div, /)
HOST_UN(sqrt, sqrtf(x), sqrt(x))
HOST_UN(rcp, 1.0f / x, 1.0 / x)
float fp_fma32(float a, float b, float c, int rm) {
  volatile float x = a, y = b, z = c;
  HOST_OP(float, canon32, rm, fmaf(x, y, z));
}
double fp_fma64(double a, double b, double c, int rm) {
  volatile double x = a, y = b, z = c;
  HOST_OP(double, canon64, rm, fma(x, y, z));
}

/* ---- f16 / bf16 arithmetic ----------------------------------------------
 * Half operands and their products are exact in double (at most 2x11
 * significant bits, exponents far inside double's range). A sum x + y is
 * formed in double rounded to odd: truncate, then set the last bit when
 * inexact. With 53 >= 11 + 2 bits, rounding that to the half format in any
 * mode equals rounding the exact sum once (the round-to-odd property). */
static double sum_to_odd(double x, double y, int rm) {
  double s = x + y; /* host mode is RN */
  if (!isfinite(s)) return s;
  if (s == 0) {
    /* exact zero: -0 if both addends are -0, or for cancellation in RM */
    int nx = signbit(x) != 0, ny = signbit(y) != 0;
    return (nx && ny) || (rm == FP_RM && nx != ny) ? -0.0 : 0.0;
  }
  double bp = s - x; /* TwoSum: s + e == x + y */
  double e = (x - (s - bp)) + (y - bp);
  if (e == 0) return s;
  uint64_t u = fp_bits64(s);
  if ((e < 0) != (s < 0)) u -= 1; /* |x+y| < |s|: step toward 0 */
  return fp_from_bits64(u | 1);
}

static uint16_t half_add(uint16_t a, uint16_t b, const fmt *f, int rm) {
  double x = decode(a, f), y = decode(b, f);
  return (uint16_t)round_double(sum_to_odd(x, y, rm), f, rm);
}
static uint16_t half_mul(uint16_t a, uint16_t b, const fmt *f, int rm) {
  return (uint16_t)round_double(decode(a, f) * decode(b, f), f, rm);
}
static uint16_t half_fma(uint16_t a, uint16_t b, uint16_t c, const fmt *f, int rm) {
  double p = decode(a, f) * decode(b, f); /* exact */
  return (uint16_t)round_double(sum_to_odd(p, decode(c, f), rm), f, rm);
}

uint16_t fp_add16(uint16_t a, uint16_t b, int rm) { return half_add(a, b, &F16, rm); }
uint16_t fp_sub16(uint16_t a, uint16_t b, int rm) { return half_add(a, b ^ 0x8000, &F16, rm); }
uint16_t fp_mul16(uint16_t a, uint16_t b, int rm) { return half_mul(a, b, &F16, rm); }
uint16_t fp_fma16(uint16_t a, uint16_t b, uint16_t c, int rm) { return half_fma(a, b, c, &F16, rm); }
uint16_t fp_addbf16(uint16_t a, uint16_t b, int rm) { return half_add(a, b, &BF16, rm); }
uint16_t fp_subbf16(uint16_t a, uint16_t b, int rm) { return half_add(a, b ^ 0x8000, &BF16, rm); }
uint16_t fp_mulbf16(uint16_t a, uint16_t b, int rm) { return half_mul(a, b, &BF16, rm); }
uint16_t fp_fmabf16(uint16_t a, uint16_t b, uint16_t c, int rm) { return half_fma(a, b, c, &BF16, rm); }
uint16_t fp_neg16(uint16_t a) { return a ^ 0x8000; }
uint16_t fp_abs16(uint16_t a) { return a & 0x7FFF; }
uint16_t fp_negbf16(uint16_t a) { return a ^ 0x8000; }
uint16_t fp_absbf16(uint16_t a) { return a & 0x7FFF; }

/* ---- min / max ------------------------------------------------------------ */

/* 1 if a < b in PTX min/max order (numeric, with -0.0 < +0.0); no NaNs. */
static int lt_signed_zero(double a, double b) {
  if (a == b) return signbit(a) && !signbit(b);
  return a < b;
}

/* Pick for min (want_max = 0) or max: returns 0 for a, 1 for b, 2 for
 * canonical NaN. */
static int pick(double a, double b, int want_max, int nan_mode) {
  int na = isnan(a), nb = isnan(b);
  if (na && nb) return 2;
  if (na || nb) return nan_mode ? 2 : (na ? 1 : 0);
  int b_first = want_max ? lt_signed_zero(a, b) : lt_signed_zero(b, a);
  return b_first ? 1 : 0;
}

static float mm32(float a, float b, int want_max, int nan_mode) {
  int p = pick(a, b, want_max, nan_mode);
  return p == 2 ? fp_from_bits32(FP_CANON_NAN32) : p ? b : a;
}
static double mm64(double a, double b, int want_max) {
  int p = pick(a, b, want_max, 0);
  return p == 2 ? fp_from_bits64(FP_CANON_NAN64) : p ? b : a;
}
static uint16_t mm16(uint16_t a, uint16_t b, const fmt *f, int want_max, int nan_mode) {
  int p = pick(decode(a, f), decode(b, f), want_max, nan_mode);
  return p == 2 ? FP_CANON_NAN16 : p ? b : a;
}

float fp_min32(float a, float b) { return mm32(a, b, 0, 0); }
float fp_max32(float a, float b) { return mm32(a, b, 1, 0); }
float fp_min32_nan(float a, float b) { return mm32(a, b, 0, 1); }
float fp_max32_nan(float a, float b) { return mm32(a, b, 1, 1); }
double fp_min64(double a, double b) { return mm64(a, b, 0); }
double fp_max64(double a, double b) { return mm64(a, b, 1); }
uint16_t fp_min16(uint16_t a, uint16_t b) { return mm16(a, b, &F16, 0, 0); }
uint16_t fp_max16(uint16_t a, uint16_t b) { return mm16(a, b, &F16, 1, 0); }
uint16_t fp_min16_nan(uint16_t a, uint16_t b) { return mm16(a, b, &F16, 0, 1); }
uint16_t fp_max16_nan(uint16_t a, uint16_t b) { return mm16(a, b, &F16, 1, 1); }
uint16_t fp_minbf16(uint16_t a, uint16_t b) { return mm16(a, b, &BF16, 0, 0); }
uint16_t fp_maxbf16(uint16_t a, uint16_t b) { return mm16(a, b, &BF16, 1, 0); }
uint16_t fp_minbf16_nan(uint16_t a, uint16_t b) { return mm16(a, b, &BF16, 0, 1); }
uint16_t fp_maxbf16_nan(uint16_t a, uint16_t b) { return mm16(a, b, &BF16, 1, 1); }

/* ---- .approx functions -------------------------------------------------- */

float fp_sin32(float x) { return canon32((float)sin((double)x)); }
float fp_cos32(float x) { return canon32((float)cos((double)x)); }
float fp_ex2_32(float x) { return canon32((float)exp2((double)x)); }
float fp_lg2_32(float x) {
  if (x == 0.0f) return -INFINITY;        /* both zeros */
  return canon32((float)log2((double)x)); /* x < 0 gives NaN */
}
float fp_rsqrt32(float x) {
  if (x == 0.0f) return copysignf(INFINITY, x);
  return canon32((float)(1.0 / sqrt((double)x)));
}
double fp_rsqrt64(double x) {
  if (x == 0.0) return copysign(INFINITY, x);
  return canon64((double)(1.0L / sqrtl((long double)x)));
}
float fp_rcp_approx32(float x) { return canon32((float)(1.0 / (double)x)); }
float fp_tanh32(float x) { return canon32((float)tanh((double)x)); }
uint16_t fp_ex2_16(uint16_t x) { return (uint16_t)round_double(exp2(decode(x, &F16)), &F16, FP_RN); }
uint16_t fp_tanh16(uint16_t x) { return (uint16_t)round_double(tanh(decode(x, &F16)), &F16, FP_RN); }
uint16_t fp_ex2_bf16(uint16_t x) {
  if ((x & 0x7F80) == 0) x &= 0x8000; /* .ftz on the input */
  uint16_t r = (uint16_t)round_double(exp2(decode(x, &BF16)), &BF16, FP_RN);
  return (r & 0x7F80) == 0 ? 0 : r; /* and on the (positive) result */
}
uint16_t fp_tanhbf16(uint16_t x) { return (uint16_t)round_double(tanh(decode(x, &BF16)), &BF16, FP_RN); }

/* ---- testp, copysign, comparisons ----------------------------------------- */

static int testp(int cls, int what) {
  switch (what) {
  case FP_TP_FINITE:
    return cls != FP_INFINITE && cls != FP_NAN;
  case FP_TP_INFINITE:
    return cls == FP_INFINITE;
  case FP_TP_NUMBER:
    return cls != FP_NAN;
  case FP_TP_NOTANUMBER:
    return cls == FP_NAN;
  case FP_TP_NORMAL:
    return cls == FP_NORMAL || cls == FP_ZERO;
  case FP_TP_SUBNORMAL:
    return cls == FP_SUBNORMAL;
  default:
    return 0;
  }
}
int fp_testp32(float x, int what) { return testp(fpclassify(x), what); }
int fp_testp64(double x, int what) { return testp(fpclassify(x), what); }

float fp_copysign32(float a, float b) {
  return fp_from_bits32((fp_bits32(b) & 0x7FFFFFFFu) | (fp_bits32(a) & 0x80000000u));
}
double fp_copysign64(double a, double b) {
  const uint64_t s = 1ull << 63;
  return fp_from_bits64((fp_bits64(b) & ~s) | (fp_bits64(a) & s));
}

/* Works on doubles: every f16/bf16/f32 value converts exactly. */
static int cmp(double a, double b, int op) {
  int un = isnan(a) || isnan(b);
  switch (op) {
  case FP_EQ:
    return !un && a == b;
  case FP_NE:
    return !un && a != b;
  case FP_LT:
    return !un && a < b;
  case FP_LE:
    return !un && a <= b;
  case FP_GT:
    return !un && a > b;
  case FP_GE:
    return !un && a >= b;
  case FP_EQU:
    return un || a == b;
  case FP_NEU:
    return un || a != b;
  case FP_LTU:
    return un || a < b;
  case FP_LEU:
    return un || a <= b;
  case FP_GTU:
    return un || a > b;
  case FP_GEU:
    return un || a >= b;
  case FP_NUM:
    return !un;
  case FP_NANP:
    return un;
  default:
    return 0;
  }
}
int fp_cmp32(float a, float b, int op) { return cmp(a, b, op); }
int fp_cmp64(double a, double b, int op) { return cmp(a, b, op); }
int fp_cmp16(uint16_t a, uint16_t b, int op) { return cmp(decode(a, &F16), decode(b, &F16), op); }
int fp_cmpbf16(uint16_t a, uint16_t b, int op) { return cmp(decode(a, &BF16), decode(b, &BF16), op); }
