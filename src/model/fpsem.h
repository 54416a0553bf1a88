/* fpsem.h: scalar floating-point and conversion semantics of PTX (cvt, the
 * rounded arithmetic, min/max, .approx functions, testp, setp compares).
 * Pure functions; f16/bf16 values travel as their uint16_t bit patterns.
 *
 * Conventions shared by every function here:
 *  - Rounding modes are FP_RN/FP_RZ/FP_RM/FP_RP; the integer-rounding forms
 *    of cvt (.rni/.rzi/.rmi/.rpi) use the same four values.
 *  - The host rounding mode must be round-to-nearest on entry and is
 *    round-to-nearest again on return.
 *  - Every NaN a function produces (arithmetic, conversion, approx) is the
 *    canonical NaN of its result format: f16/bf16 0x7FFF, f32 0x7FFFFFFF,
 *    f64 0x7FFFFFFFFFFFFFFF (our choice for f64; the ISA names none).
 *    Exceptions, which keep bits: neg/abs/copysign, min/max returning an
 *    input, fp_ftz*, and fp_bf16_to_f32 (a plain 16-bit shift).
 *  - .ftz is not applied implicitly: callers flush inputs and results with
 *    fp_ftz32 / fp_ftz16 where the instruction carries .ftz. */
#ifndef SMEMU_FPSEM_H
#define SMEMU_FPSEM_H

#include <stdint.h>
#include <string.h>

/* Rounding modes (also the cvt integer-rounding modes .rni .rzi .rmi .rpi). */
enum { FP_RN = 0, FP_RZ = 1, FP_RM = 2, FP_RP = 3 };

/* setp comparisons. The plain ones are ordered (false when either input is
 * NaN; FP_NE too, PTX's ne is "a != b && !isNaN(a) && !isNaN(b)"); the *U
 * ones are unordered (true when either input is NaN). FP_NUM: neither is
 * NaN; FP_NANP: either is NaN (PTX "nan"; <math.h> owns the name FP_NAN). */
enum {
  FP_EQ,
  FP_NE,
  FP_LT,
  FP_LE,
  FP_GT,
  FP_GE,
  FP_EQU,
  FP_NEU,
  FP_LTU,
  FP_LEU,
  FP_GTU,
  FP_GEU,
  FP_NUM,
  FP_NANP
};

/* testp properties. Zero counts as normal (PTX: "positive and negative zero
 * are considered normal numbers"). */
enum { FP_TP_FINITE, FP_TP_INFINITE, FP_TP_NUMBER, FP_TP_NOTANUMBER, FP_TP_NORMAL, FP_TP_SUBNORMAL };

#define FP_CANON_NAN16 0x7FFFu
#define FP_CANON_NAN32 0x7FFFFFFFu
#define FP_CANON_NAN64 0x7FFFFFFFFFFFFFFFull

/* Bit-pattern helpers. */
static inline uint32_t fp_bits32(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static inline float fp_from_bits32(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}
static inline uint64_t fp_bits64(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}
static inline double fp_from_bits64(uint64_t u) {
  double x;
  memcpy(&x, &u, 8);
  return x;
}

/* ---- cvt: float <-> float ---------------------------------------------- */
/* Narrowing conversions round once, in mode rm: subnormal results are
 * produced, overflow gives inf (RN; RP for +, RM for -) or the largest
 * finite value (RZ; RM for +, RP for -). NaN -> canonical NaN. */
uint16_t fp_f32_to_f16(float x, int rm);
uint16_t fp_f64_to_f16(double x, int rm);
uint16_t fp_f32_to_bf16(float x, int rm);
uint16_t fp_f64_to_bf16(double x, int rm);
float fp_f64_to_f32(double x, int rm);
uint16_t fp_f16_to_bf16(uint16_t h, int rm); /* cvt.frnd.bf16.f16 */
uint16_t fp_bf16_to_f16(uint16_t b, int rm); /* cvt.frnd.f16.bf16 */
/* Widening conversions are exact. NaN -> canonical NaN, except
 * fp_bf16_to_f32 which shifts the bits (the ISA leaves that NaN
 * unspecified). */
float fp_f16_to_f32(uint16_t h);
double fp_f16_to_f64(uint16_t h);
float fp_bf16_to_f32(uint16_t b);
double fp_bf16_to_f64(uint16_t b);

/* ---- cvt: float -> integer ---------------------------------------------
 * Round in mode rm (.rni/.rzi/.rmi/.rpi), then clamp to the range of a
 * `bits`-wide (8, 16, 32 or 64) signed/unsigned integer; the result comes
 * sign- or zero-extended to 64 bits. NaN follows PTX 9.7.9.21: 0 when the
 * source is not .f64 and the destination is not 64-bit, otherwise
 * 1 << (bits-1) (MININT for signed). Hence two entry points: the f64 ones
 * for .f64 sources, the f32 ones for .f32/.f16/.bf16 sources (widen those
 * to float first; for .ftz apply fp_ftz32 to the input). */
int64_t fp_f64_to_s(double x, int rm, int bits);
uint64_t fp_f64_to_u(double x, int rm, int bits);
int64_t fp_f32_to_s(float x, int rm, int bits);
uint64_t fp_f32_to_u(float x, int rm, int bits);

/* ---- cvt: integer -> float (one rounding in mode rm; 0 -> +0) ---------- */
float fp_s64_to_f32(int64_t v, int rm);
float fp_u64_to_f32(uint64_t v, int rm);
double fp_s64_to_f64(int64_t v, int rm);
double fp_u64_to_f64(uint64_t v, int rm);
uint16_t fp_s64_to_f16(int64_t v, int rm);
uint16_t fp_u64_to_f16(uint64_t v, int rm);
uint16_t fp_s64_to_bf16(int64_t v, int rm);
uint16_t fp_u64_to_bf16(uint64_t v, int rm);

/* ---- cvt.rni/rzi/rmi/rpi to the same float type (sign of zero kept) ---- */
float fp_f32_rint(float x, int rm);
double fp_f64_rint(double x, int rm);
uint16_t fp_f16_rint(uint16_t h, int rm);
uint16_t fp_bf16_rint(uint16_t b, int rm);

/* ---- modifiers ---------------------------------------------------------- */
/* .ftz: subnormal -> zero of the same sign; anything else unchanged. */
float fp_ftz32(float x);
uint16_t fp_ftz16(uint16_t h);
/* .sat: clamp to [+0.0, 1.0]; NaN -> +0.0; -0.0 -> +0.0 (clamping is
 * max(x, +0.0) under PTX's -0.0 < +0.0 order). */
float fp_sat32(float x);
double fp_sat64(double x);
uint16_t fp_sat16(uint16_t h);
/* .relu (f16/bf16): negative (and -0.0) -> +0.0; NaN -> canonical NaN. */
uint16_t fp_relu16(uint16_t h);
uint16_t fp_relubf16(uint16_t b);

/* ---- arithmetic with a rounding mode (IEEE 754 correctly rounded) ------ */
float fp_add32(float a, float b, int rm);
float fp_sub32(float a, float b, int rm);
float fp_mul32(float a, float b, int rm);
float fp_fma32(float a, float b, float c, int rm); /* a*b+c, one rounding */
float fp_div32(float a, float b, int rm);
float fp_sqrt32(float a, int rm);
float fp_rcp32(float a, int rm);
double fp_add64(double a, double b, int rm);
double fp_sub64(double a, double b, int rm);
double fp_mul64(double a, double b, int rm);
double fp_fma64(double a, double b, double c, int rm);
double fp_div64(double a, double b, int rm);
double fp_sqrt64(double a, int rm);
double fp_rcp64(double a, int rm);

/* f16 / bf16: a single rounding of the exact result, in any of the four
 * modes (PTX itself only offers .rn for these). */
uint16_t fp_add16(uint16_t a, uint16_t b, int rm);
uint16_t fp_sub16(uint16_t a, uint16_t b, int rm);
uint16_t fp_mul16(uint16_t a, uint16_t b, int rm);
uint16_t fp_fma16(uint16_t a, uint16_t b, uint16_t c, int rm);
uint16_t fp_addbf16(uint16_t a, uint16_t b, int rm);
uint16_t fp_subbf16(uint16_t a, uint16_t b, int rm);
uint16_t fp_mulbf16(uint16_t a, uint16_t b, int rm);
uint16_t fp_fmabf16(uint16_t a, uint16_t b, uint16_t c, int rm);
/* neg/abs only touch the sign bit. */
uint16_t fp_neg16(uint16_t a);
uint16_t fp_abs16(uint16_t a);
uint16_t fp_negbf16(uint16_t a);
uint16_t fp_absbf16(uint16_t a);

/* ---- min / max (PTX 9.7.3.11-12, 9.7.4.7-8) ----------------------------
 * One NaN input: the other input is returned. Both NaN: canonical NaN.
 * -0.0 < +0.0. The _nan forms (.NaN modifier): any NaN -> canonical NaN. */
float fp_min32(float a, float b);
float fp_max32(float a, float b);
float fp_min32_nan(float a, float b);
float fp_max32_nan(float a, float b);
double fp_min64(double a, double b);
double fp_max64(double a, double b);
uint16_t fp_min16(uint16_t a, uint16_t b);
uint16_t fp_max16(uint16_t a, uint16_t b);
uint16_t fp_min16_nan(uint16_t a, uint16_t b);
uint16_t fp_max16_nan(uint16_t a, uint16_t b);
uint16_t fp_minbf16(uint16_t a, uint16_t b);
uint16_t fp_maxbf16(uint16_t a, uint16_t b);
uint16_t fp_minbf16_nan(uint16_t a, uint16_t b);
uint16_t fp_maxbf16_nan(uint16_t a, uint16_t b);

/* ---- .approx functions -------------------------------------------------
 * Each is evaluated in double with libm and rounded once to the result
 * type, which is well inside the bound the ISA states (quoted per line).
 * Special values follow the ISA tables. */
float fp_sin32(float x);          /* abs err 2^-20.5 on [-2pi,2pi], 2^-14.7 on [-100pi,100pi]; +-inf -> NaN */
float fp_cos32(float x);          /* same bounds; +-0 -> 1, +-inf -> NaN */
float fp_ex2_32(float x);         /* 2 ulp of the correctly rounded result; -inf -> +0 */
float fp_lg2_32(float x);         /* abs err 2^-22 on (0.5,2), else rel 2^-22; +-0 -> -inf, x<0 -> NaN */
float fp_rsqrt32(float x);        /* rel err 2^-22.9; +0 -> +inf, -0 -> -inf, x<0 -> NaN, +inf -> +0 */
double fp_rsqrt64(double x);      /* no bound stated; ours is < 1 ulp; specials as f32 */
float fp_rcp_approx32(float x);   /* 1 ulp (ours: correctly rounded); +-0 -> +-inf, +-inf -> +-0 */
float fp_tanh32(float x);         /* rel err 2^-11; +-inf -> +-1 */
uint16_t fp_ex2_16(uint16_t x);   /* f16: rel err 2^-9.9; -inf -> +0 */
uint16_t fp_tanh16(uint16_t x);   /* f16: abs err 2^-10.987 */
uint16_t fp_ex2_bf16(uint16_t x); /* ex2.approx.ftz.bf16: rel 2^-7; subnormal in/out flushed */
uint16_t fp_tanhbf16(uint16_t x); /* bf16: abs err 2^-8 */

/* ---- testp, copysign, setp --------------------------------------------- */
int fp_testp32(float x, int what); /* what: FP_TP_* */
int fp_testp64(double x, int what);
/* PTX operand order: copysign.type d, a, b gives |b| with the sign of a.
 * The bits of b are kept (no NaN canonicalisation). */
float fp_copysign32(float a, float b);
double fp_copysign64(double a, double b);
int fp_cmp32(float a, float b, int cmp); /* cmp: FP_EQ .. FP_NANP */
int fp_cmp64(double a, double b, int cmp);
int fp_cmp16(uint16_t a, uint16_t b, int cmp);
int fp_cmpbf16(uint16_t a, uint16_t b, int cmp);

#endif
