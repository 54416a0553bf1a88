/* float.c: floating-point instructions (f32, f64, f16, f16x2, bf16,
 * bf16x2): add/sub/mul/fma/mad/div/abs/neg/min/max, rcp/sqrt/rsqrt,
 * sin/cos/ex2/lg2/tanh, testp, copysign, and setp/set for every type.
 * Round-to-nearest f32/f64 arithmetic without .ftz/.sat runs in straight
 * lane loops; every other form goes through fpsem's scalar functions. */
#include "exec/exec.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include <math.h>

static inline float f32(uint64_t x) { return fp_from_bits32((uint32_t)x); }
static inline double f64(uint64_t x) { return fp_from_bits64(x); }
static inline uint64_t b32(float f) { return f != f ? FP_CANON_NAN32 : fp_bits32(f); }
/* f64 results keep an input's quiet NaN (measured: add.f64 of
 * 0x7ff8000000000000 gives it back); x86's default NaN becomes NVIDIA's. */
static inline uint64_t b64(double f) {
  uint64_t b = fp_bits64(f);
  return b == 0xfff8000000000000ull ? FP_CANON_NAN64 : b;
}

#define REGS3                                                                                                \
  uint64_t *D = w->r[in->d];                                                                                 \
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];                                       \
  (void)B;                                                                                                   \
  (void)C

/* Operation codes of the generic handlers (insn.type2). */
enum {
  F_ADD,
  F_SUB,
  F_MUL,
  F_FMA,
  F_DIV,
  F_ABS,
  F_NEG,
  F_MIN,
  F_MAX,
  F_MIN_NAN,
  F_MAX_NAN,
  F_RCP,
  F_SQRT,
  F_RSQRT,
  F_SIN,
  F_COS,
  F_EX2,
  F_LG2,
  F_TANH,
  F_COPYSIGN,
  F_DIV_APPROX,
  F_RCP_APPROX,
  F_SQRT_APPROX
};

/* ---- fast paths ---- */
/* D[l] = expr for lanes m; a full warp computes into a temporary first, so
 * the loop vectorises even where D is one of the sources (acc = fma(a, b,
 * acc)). */
#define LANES_V(m, ...)                                                                                      \
  do {                                                                                                       \
    if ((m) == FULL_MASK) {                                                                                  \
      uint64_t t_[32];                                                                                       \
      for (int l = 0; l < 32; l++) t_[l] = (__VA_ARGS__);                                                    \
      memcpy(D, t_, sizeof t_);                                                                              \
    } else {                                                                                                 \
      LANES(m, D[l] = (__VA_ARGS__));                                                                        \
    }                                                                                                        \
  } while (0)
#if defined(__AVX2__) && defined(__FMA__)
/* A full warp's f32 arithmetic eight lanes at a time (a build for a host
 * with AVX2 and FMA): the same IEEE operations, each rounded once, and the
 * same canonical NaN as b32. */
#include <immintrin.h>
static inline __m256 v_f32(const uint64_t *A) {
  const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  __m128i lo =
      _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)A), idx));
  __m128i hi =
      _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(A + 4)), idx));
  return _mm256_castsi256_ps(_mm256_set_m128i(hi, lo));
}
static inline void v_b32(uint64_t *D, __m256 r) {
  __m256i bits = _mm256_blendv_epi8(_mm256_castps_si256(r), _mm256_set1_epi32((int)FP_CANON_NAN32),
                                    _mm256_castps_si256(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)));
  _mm256_storeu_si256((__m256i *)D, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(bits)));
  _mm256_storeu_si256((__m256i *)(D + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(bits, 1)));
}
#define V_F32(m, vexpr, sexpr)                                                                               \
  do {                                                                                                       \
    if ((m) == FULL_MASK) {                                                                                  \
      for (int l = 0; l < 32; l += 8) {                                                                      \
        __m256 a_ = v_f32(A + l), b_ = v_f32(B + l), c_ = v_f32(C + l);                                      \
        (void)b_;                                                                                            \
        (void)c_;                                                                                            \
        v_b32(D + l, vexpr);                                                                                 \
      }                                                                                                      \
    } else {                                                                                                 \
      LANES(m, D[l] = (sexpr));                                                                              \
    }                                                                                                        \
  } while (0)
#else
#define V_F32(m, vexpr, sexpr) LANES_V(m, sexpr)
#endif
static void add_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  V_F32(m, _mm256_add_ps(a_, b_), b32(f32(A[l]) + f32(B[l])));
}
static void sub_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  V_F32(m, _mm256_sub_ps(a_, b_), b32(f32(A[l]) - f32(B[l])));
}
static void mul_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  V_F32(m, _mm256_mul_ps(a_, b_), b32(f32(A[l]) * f32(B[l])));
}
static void fma_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  V_F32(m, _mm256_fmadd_ps(a_, b_, c_), b32(fmaf(f32(A[l]), f32(B[l]), f32(C[l]))));
}
static void div_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, b32(f32(A[l]) / f32(B[l])));
}
static void add_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, b64(f64(A[l]) + f64(B[l])));
}
static void sub_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, b64(f64(A[l]) - f64(B[l])));
}
static void mul_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, b64(f64(A[l]) * f64(B[l])));
}
static void fma_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, b64(fma(f64(A[l]), f64(B[l]), f64(C[l]))));
}
static void div_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, b64(f64(A[l]) / f64(B[l])));
}
static void abs_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, (uint32_t)A[l] & 0x7fffffffu);
}
static void neg_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, (uint32_t)A[l] ^ 0x80000000u);
}
static void abs_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, A[l] & 0x7fffffffffffffffull);
}
static void neg_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES_V(m, A[l] ^ 0x8000000000000000ull);
}

/* ---- generic scalar forms ---- */
static float op32(int op, float a, float b, float c, int rm) {
  switch (op) {
  case F_ADD:
    return fp_add32(a, b, rm);
  case F_SUB:
    return fp_sub32(a, b, rm);
  case F_MUL:
    return fp_mul32(a, b, rm);
  case F_FMA:
    return fp_fma32(a, b, c, rm);
  case F_DIV:
    return fp_div32(a, b, rm);
  case F_DIV_APPROX:
    return a / b;
  case F_ABS:
    return fabsf(a);
  case F_NEG:
    return -a;
  case F_MIN:
    return a != a && b != b ? a : fp_min32(a, b);
  case F_MAX:
    return a != a && b != b ? a : fp_max32(a, b);
  case F_MIN_NAN:
    return fp_min32_nan(a, b);
  case F_MAX_NAN:
    return fp_max32_nan(a, b);
  case F_RCP:
    return fp_rcp32(a, rm);
  case F_RCP_APPROX:
    return fp_rcp_approx32(a);
  case F_SQRT:
    return fp_sqrt32(a, rm);
  case F_SQRT_APPROX:
    return sqrtf(a);
  case F_RSQRT:
    return fp_rsqrt32(a);
  case F_SIN:
    return fp_sin32(a);
  case F_COS:
    return fp_cos32(a);
  case F_EX2:
    return fp_ex2_32(a);
  case F_LG2:
    return fp_lg2_32(a);
  case F_TANH:
    return fp_tanh32(a);
  case F_COPYSIGN:
    return fp_copysign32(a, b);
  }
  return a;
}

static double op64(int op, double a, double b, double c, int rm) {
  switch (op) {
  case F_ADD:
    return fp_add64(a, b, rm);
  case F_SUB:
    return fp_sub64(a, b, rm);
  case F_MUL:
    return fp_mul64(a, b, rm);
  case F_FMA:
    return fp_fma64(a, b, c, rm);
  case F_DIV:
  case F_DIV_APPROX:
    return fp_div64(a, b, rm);
  case F_ABS:
    return fabs(a);
  case F_NEG:
    return -a;
  case F_MIN:
  case F_MIN_NAN:
    return fp_min64(a, b);
  case F_MAX:
  case F_MAX_NAN:
    return fp_max64(a, b);
  case F_RCP:
    return fp_rcp64(a, rm);
  case F_RCP_APPROX:
    return 1.0 / a;
  case F_SQRT:
  case F_SQRT_APPROX:
    return fp_sqrt64(a, rm);
  case F_RSQRT:
    return fp_rsqrt64(a);
  case F_SIN:
    return sin(a);
  case F_COS:
    return cos(a);
  case F_EX2:
    return exp2(a);
  case F_LG2:
    return log2(a);
  case F_TANH:
    return tanh(a);
  case F_COPYSIGN:
    return fp_copysign64(a, b);
  }
  return a;
}

/* One half (f16 when bf is 0, bf16 otherwise). */
static uint16_t op16(int op, uint16_t a, uint16_t b, uint16_t c, int rm, int bf) {
  switch (op) {
  case F_ADD:
    return bf ? fp_addbf16(a, b, rm) : fp_add16(a, b, rm);
  case F_SUB:
    return bf ? fp_subbf16(a, b, rm) : fp_sub16(a, b, rm);
  case F_MUL:
    return bf ? fp_mulbf16(a, b, rm) : fp_mul16(a, b, rm);
  case F_FMA:
    return bf ? fp_fmabf16(a, b, c, rm) : fp_fma16(a, b, c, rm);
  case F_ABS:
    return bf ? fp_absbf16(a) : fp_abs16(a);
  case F_NEG:
    return bf ? fp_negbf16(a) : fp_neg16(a);
  case F_MIN:
    return bf ? fp_minbf16(a, b) : fp_min16(a, b);
  case F_MAX:
    return bf ? fp_maxbf16(a, b) : fp_max16(a, b);
  case F_MIN_NAN:
    return bf ? fp_minbf16_nan(a, b) : fp_min16_nan(a, b);
  case F_MAX_NAN:
    return bf ? fp_maxbf16_nan(a, b) : fp_max16_nan(a, b);
  case F_EX2:
    return bf ? fp_ex2_bf16(a) : fp_ex2_16(a);
  case F_TANH:
    return bf ? fp_tanhbf16(a) : fp_tanh16(a);
  default: {
    /* through f32: sqrt, rcp, div and the like */
    float x = bf ? fp_bf16_to_f32(a) : fp_f16_to_f32(a), y = bf ? fp_bf16_to_f32(b) : fp_f16_to_f32(b);
    float r = op32(op, x, y, 0, FP_RN);
    return bf ? fp_f32_to_bf16(r, rm) : fp_f32_to_f16(r, rm);
  }
  }
}

/* insn.imm bits of the float handlers: .relu (fma on halves),
 * min/max .xorsign.abs (the larger/smaller magnitude, its sign the xor of
 * the operands' signs; a NaN result keeps its own) and fma .oob, which
 * computes as fma does: the out-of-bounds NaN it names comes from sparse
 * texture and tensor fetches smemu does not make, and no NaN a program can
 * write (0x7c01, 0x7e00, 0x7fff, 0xfe00, 0xffff, bf16 alike) gives the 0
 * it would: the H200 returned the canonical NaN for all (tests/hw/sparse
 * misc.cu) */
enum { FX_RELU = 1, FX_XORSIGN = 2, FX_OOB = 4 };

static void gen_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int op = in->type2, rm = in->mode, ftz = in->flags & IF_FTZ, sat = in->flags & IF_SAT;
  int xs = (int)(in->imm & FX_XORSIGN);
  LANES(m, {
    float a = f32(A[l]), b = f32(B[l]), c = f32(C[l]);
    if (ftz) {
      a = fp_ftz32(a);
      b = fp_ftz32(b);
      c = fp_ftz32(c);
    }
    uint32_t sx = xs ? (fp_bits32(a) ^ fp_bits32(b)) & 0x80000000u : 0;
    if (xs) {
      a = fabsf(a);
      b = fabsf(b);
    }
    float r = op32(op, a, b, c, rm);
    if (xs && r == r) r = fp_from_bits32((fp_bits32(r) & 0x7fffffffu) | sx);
    if (ftz) r = fp_ftz32(r);
    if (sat) r = fp_sat32(r);
    /* min/max of two NaNs give the first (measured), like abs/neg keep bits */
    D[l] = (op == F_ABS || op == F_NEG || op == F_COPYSIGN || op == F_MIN || op == F_MAX) ? fp_bits32(r)
                                                                                          : b32(r);
  });
}

static void gen_f32_xorsign(warp *w, const insn *in, uint32_t m) { gen_f32(w, in, m); }

static void gen_f64(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int op = in->type2, rm = in->mode, sat = in->flags & IF_SAT;
  LANES(m, {
    double r = op64(op, f64(A[l]), f64(B[l]), f64(C[l]), rm);
    if (sat) r = fp_sat64(r);
    D[l] = (op == F_ABS || op == F_NEG || op == F_COPYSIGN) ? fp_bits64(r) : b64(r);
  });
}

/* f16, bf16 and their x2 forms: `in->vec` halves per register. */
static void gen_f16(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int op = in->type2, rm = in->mode, ftz = in->flags & IF_FTZ, sat = in->flags & IF_SAT;
  int bf = in->type == PTX_T_BF16 || in->type == PTX_T_BF16X2, n = in->vec;
  LANES(m, {
    uint32_t d = 0;
    for (int h = 0; h < n; h++) {
      uint16_t a = (uint16_t)(A[l] >> (16 * h)), b = (uint16_t)(B[l] >> (16 * h)),
               c = (uint16_t)(C[l] >> (16 * h));
      if (ftz && !bf) {
        a = fp_ftz16(a);
        b = fp_ftz16(b);
        c = fp_ftz16(c);
      }
      uint16_t sx = 0;
      if (in->imm & FX_XORSIGN) {
        sx = (a ^ b) & 0x8000;
        a &= 0x7fff;
        b &= 0x7fff;
      }
      uint16_t r = op16(op, a, b, c, rm, bf);
      if ((in->imm & FX_XORSIGN) && (r & 0x7fff) <= (bf ? 0x7f80 : 0x7c00)) r = (uint16_t)((r & 0x7fff) | sx);
      if (in->imm & FX_RELU) r = bf ? fp_relubf16(r) : fp_relu16(r);
      if (ftz && !bf) r = fp_ftz16(r);
      if (sat) r = bf ? fp_f32_to_bf16(fp_sat32(fp_bf16_to_f32(r)), FP_RN) : fp_sat16(r);
      d |= (uint32_t)r << (16 * h);
    }
    D[l] = d;
  });
}

static void testp_h(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a];
  uint32_t r = 0;
  int what = in->mode;
  if (in->type == PTX_T_F32)
    LANES(m, r |= (uint32_t)fp_testp32(f32(A[l]), what) << l);
  else
    LANES(m, r |= (uint32_t)fp_testp64(f64(A[l]), what) << l);
  w->p[in->d] = (w->p[in->d] & ~m) | (r & m);
}

/* ---- decoding ---- */
static int fsrcs(dctx *D, dstmt *S, insn *in, int n, int t) {
  if (dec_nops(D, S, n + 1) < 0 || dec_dst(D, S, 0, &in->d) < 0) return -1;
  uint32_t *r[] = {&in->a, &in->b, &in->c};
  for (int i = 0; i < n; i++)
    if (dec_src(D, S, i + 1, t, r[i]) < 0) return -1;
  if (n < 2) in->b = in->a;
  if (n < 3) in->c = in->a;
  return 0;
}

static int pick(dctx *D, dstmt *S, insn *in, int fop, int nsrc, int rm, int approx) {
  int t = S->types[0];
  in->type = (uint8_t)t;
  in->type2 = (uint8_t)fop;
  in->mode = (uint8_t)(rm < 0 ? FP_RN : rm);
  if (dec_take(S, "ftz")) in->flags |= IF_FTZ;
  if (dec_take(S, "sat")) in->flags |= IF_SAT;
  if (approx) in->flags |= IF_APPROX;
  if (fsrcs(D, S, in, nsrc, t) < 0) return -1;
  int plain = rm <= FP_RN && !(in->flags & (IF_FTZ | IF_SAT));
  switch (t) {
  case PTX_T_F32: {
    static const exec_fn fast[] = {[F_ADD] = add_f32, [F_SUB] = sub_f32, [F_MUL] = mul_f32, [F_FMA] = fma_f32,
                                   [F_DIV] = div_f32, [F_ABS] = abs_f32, [F_NEG] = neg_f32};
    in->fn = plain && fop <= F_NEG && fast[fop] ? fast[fop] : gen_f32;
    return 0;
  }
  case PTX_T_F64: {
    static const exec_fn fast[] = {[F_ADD] = add_f64, [F_SUB] = sub_f64, [F_MUL] = mul_f64, [F_FMA] = fma_f64,
                                   [F_DIV] = div_f64, [F_ABS] = abs_f64, [F_NEG] = neg_f64};
    in->fn = plain && fop <= F_NEG && fast[fop] ? fast[fop] : gen_f64;
    return 0;
  }
  case PTX_T_F16:
  case PTX_T_BF16:
    in->vec = 1;
    in->fn = gen_f16;
    return 0;
  case PTX_T_F16X2:
  case PTX_T_BF16X2:
    in->vec = 2;
    in->fn = gen_f16;
    return 0;
  default:
    return dec_error(D, S, -1, "'%s' does not take .%s", S->st->opcode, ptx_type_name(t));
  }
}

/* add/sub/mul/mad/div/abs/neg/min/max with a floating-point type. */
int dec_float_arith(dctx *D, dstmt *S, insn *in);
int dec_float_arith(dctx *D, dstmt *S, insn *in) {
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int rm = dec_round(S, 0);
  int t = S->types[0];
  switch (in->op) {
  case OP_ADD:
    return pick(D, S, in, F_ADD, 2, rm, 0);
  case OP_SUB:
    return pick(D, S, in, F_SUB, 2, rm, 0);
  case OP_MUL:
    return pick(D, S, in, F_MUL, 2, rm, 0);
  case OP_MAD:
    /* mad.f32 without rounding is a multiply-add with an intermediate
     * rounding on old targets; with a rounding modifier it is fma */
    if (rm < 0 && t == PTX_T_F32) {
      in->flags |= 0;
    }
    return pick(D, S, in, F_FMA, 3, rm, 0);
  case OP_DIV:
    if (t == PTX_T_F32 && rm < 0) {
      int approx = dec_take(S, "approx");
      if (!approx && !dec_take(S, "full"))
        return dec_error(D, S, -1, "div.f32 needs .approx, .full or a rounding modifier");
      return pick(D, S, in, F_DIV_APPROX, 2, FP_RN, 1);
    }
    return pick(D, S, in, F_DIV, 2, rm, 0);
  case OP_ABS:
    return pick(D, S, in, F_ABS, 1, -1, 0);
  case OP_NEG:
    return pick(D, S, in, F_NEG, 1, -1, 0);
  case OP_MIN:
  case OP_MAX: {
    int nan = dec_take(S, "NaN");
    int xs = dec_take(S, "xorsign"), ab = dec_take(S, "abs");
    if (xs != ab) return dec_error(D, S, -1, "'.xorsign' and '.abs' go together");
    int op = in->op == OP_MIN ? (nan ? F_MIN_NAN : F_MIN) : (nan ? F_MAX_NAN : F_MAX);
    if (pick(D, S, in, op, 2, -1, 0) < 0) return -1;
    if (xs) {
      in->imm |= FX_XORSIGN;
      /* a handler of its own, so the compiled tier's plain f32 min/max does not take it */
      if (in->fn == gen_f32)
        in->fn = gen_f32_xorsign;
      else if (in->fn != gen_f16)
        return dec_error(D, S, -1, "'.xorsign.abs' takes .f32, .f16, .bf16 and their pairs");
    }
    return 0;
  }
  default:
    return dec_error(D, S, -1, "'%s' has no floating-point form", S->st->opcode);
  }
}

int dec_float(dctx *D, dstmt *S, insn *in) {
  if (in->op == OP_TESTP) {
    static const char *const props[] = {"finite", "infinite",  "number", "notanumber",
                                        "normal", "subnormal", NULL};
    int p = dec_take_any(S, props);
    if (p < 0) return dec_error(D, S, -1, "testp needs a property (.finite, .normal, ...)");
    if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 2) < 0 || dec_pdst(D, S, 0, &in->d) < 0 ||
        dec_src(D, S, 1, S->types[0], &in->a) < 0)
      return -1;
    in->type = (uint8_t)S->types[0];
    if (in->type != PTX_T_F32 && in->type != PTX_T_F64)
      return dec_error(D, S, -1, "testp needs .f32 or .f64");
    in->mode = (uint8_t)p;
    in->fn = testp_h;
    return 0;
  }
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int approx = dec_take(S, "approx");
  int rm = dec_round(S, 0);
  dec_take(S, "full");
  switch (in->op) {
  case OP_FMA:
    if (rm < 0 && S->types[0] != PTX_T_F16 && S->types[0] != PTX_T_F16X2 && S->types[0] != PTX_T_BF16 &&
        S->types[0] != PTX_T_BF16X2)
      return dec_error(D, S, -1, "fma needs a rounding modifier (.rn, .rz, .rm, .rp)");
    if (dec_take(S, "oob")) in->imm |= FX_OOB;
    if (dec_take(S, "relu")) in->imm |= FX_RELU;
    if (pick(D, S, in, F_FMA, 3, rm, 0) < 0) return -1;
    if ((in->imm & (FX_RELU | FX_OOB)) && in->fn != gen_f16)
      return dec_error(D, S, -1, "fma.relu and fma.oob take .f16, .bf16 and their pairs");
    return 0;
  case OP_RCP:
    return pick(D, S, in, approx ? F_RCP_APPROX : F_RCP, 1, rm, approx);
  case OP_SQRT:
    return pick(D, S, in, approx ? F_SQRT_APPROX : F_SQRT, 1, rm, approx);
  case OP_RSQRT:
    return pick(D, S, in, F_RSQRT, 1, -1, 1);
  case OP_SIN:
    return pick(D, S, in, F_SIN, 1, -1, 1);
  case OP_COS:
    return pick(D, S, in, F_COS, 1, -1, 1);
  case OP_EX2:
    return pick(D, S, in, F_EX2, 1, -1, 1);
  case OP_LG2:
    return pick(D, S, in, F_LG2, 1, -1, 1);
  case OP_TANH:
    return pick(D, S, in, F_TANH, 1, -1, 1);
  case OP_COPYSIGN:
    return pick(D, S, in, F_COPYSIGN, 2, -1, 0);
  default:
    return dec_error(D, S, -1, "unexpected float instruction");
  }
}

/* ---- setp / set ---- */
enum {
  C_EQ,
  C_NE,
  C_LT,
  C_LE,
  C_GT,
  C_GE,
  C_LO,
  C_LS,
  C_HI,
  C_HS,
  C_EQU,
  C_NEU,
  C_LTU,
  C_LEU,
  C_GTU,
  C_GEU,
  C_NUM,
  C_NAN,
  C_COUNT
};
static const char *const cmp_names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi", "hs",
                                        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan", NULL};

/* Finish setp: combine with the optional predicate c and write d (and d2). */
static inline void setp_finish(warp *w, const insn *in, uint32_t m, uint32_t r) {
  uint32_t *p = w->p, nr = ~r;
  if (in->mode) {
    uint32_t c = p[in->c] ^ ((in->flags & IF_NEGC) ? FULL_MASK : 0);
    switch (in->mode) {
    case 1:
      r &= c;
      nr &= c;
      break;
    case 2:
      r |= c;
      nr |= c;
      break;
    case 3:
      r ^= c;
      nr ^= c;
      break;
    }
  }
  p[in->d] = (p[in->d] & ~m) | (r & m);
  if (in->d2 != ~0u) p[in->d2] = (p[in->d2] & ~m) | (nr & m);
}

#define CMPS(X, T, name)                                                                                     \
  static void name##_eq(warp *w, const insn *in, uint32_t m) { X(T, a == b) }                                \
  static void name##_ne(warp *w, const insn *in, uint32_t m) { X(T, a != b) }                                \
  static void name##_lt(warp *w, const insn *in, uint32_t m) { X(T, a < b) }                                 \
  static void name##_le(warp *w, const insn *in, uint32_t m) { X(T, a <= b) }                                \
  static void name##_gt(warp *w, const insn *in, uint32_t m) { X(T, a > b) }                                 \
  static void name##_ge(warp *w, const insn *in, uint32_t m) { X(T, a >= b) }                                \
  static const exec_fn name##_tab[6] = {name##_eq, name##_ne, name##_lt, name##_le, name##_gt, name##_ge};
#define ICMP(T, cond)                                                                                        \
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];                                                         \
  uint32_t r = 0;                                                                                            \
  LANES(m, {                                                                                                 \
    T a = (T)A[l], b = (T)B[l];                                                                              \
    r |= (uint32_t)(cond) << l;                                                                              \
  });                                                                                                        \
  setp_finish(w, in, m, r);
CMPS(ICMP, uint16_t, cu16)
CMPS(ICMP, uint32_t, cu32)
CMPS(ICMP, uint64_t, cu64)
CMPS(ICMP, int16_t, cs16)
CMPS(ICMP, int32_t, cs32)
CMPS(ICMP, int64_t, cs64)

static void setp_fgen(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  uint32_t r = 0;
  int cmp = in->type2, t = in->type, ftz = in->flags & IF_FTZ;
  LANES(m, {
    int c;
    switch (t) {
    case PTX_T_F32: {
      float a = f32(A[l]), b = f32(B[l]);
      if (ftz) {
        a = fp_ftz32(a);
        b = fp_ftz32(b);
      }
      c = fp_cmp32(a, b, cmp);
      break;
    }
    case PTX_T_F64:
      c = fp_cmp64(f64(A[l]), f64(B[l]), cmp);
      break;
    case PTX_T_F16:
      c = fp_cmp16((uint16_t)A[l], (uint16_t)B[l], cmp);
      break;
    default:
      c = fp_cmpbf16((uint16_t)A[l], (uint16_t)B[l], cmp);
      break;
    }
    r |= (uint32_t)c << l;
  });
  setp_finish(w, in, m, r);
}

/* set: the comparison's result as a value (1.0f / all ones, or 0). */
static void set_h(warp *w, const insn *in, uint32_t m) {
  uint32_t save = w->p[PRED_SCRATCH];
  insn tmp = *in;
  tmp.d = PRED_SCRATCH;
  tmp.d2 = ~0u;
  ((exec_fn)(uintptr_t)in->imm)(w, &tmp, m);
  uint32_t r = w->p[PRED_SCRATCH];
  w->p[PRED_SCRATCH] = save;
  uint64_t *Dst = w->r[in->d];
  uint64_t one = in->v[0] == PTX_T_F32 ? 0x3f800000u : 0xffffffffu;
  LANES(m, Dst[l] = (r >> l & 1) ? one : 0);
}

int dec_setp_half2(dctx *D, dstmt *S, insn *in, int fpcmp, int is_set);

int dec_setp(dctx *D, dstmt *S, insn *in) {
  static const int fmap[C_COUNT] = {FP_EQ, FP_NE,  FP_LT,  FP_LE,  FP_GT,  FP_GE,  -1,     -1,     -1,
                                    -1,    FP_EQU, FP_NEU, FP_LTU, FP_LEU, FP_GTU, FP_GEU, FP_NUM, FP_NANP};
  static const char *const bools[] = {"and", "or", "xor", NULL};
  int cmp = dec_take_any(S, cmp_names);
  if (cmp < 0) return dec_error(D, S, -1, "%s needs a comparison (.eq, .lt, ...)", S->st->opcode);
  int bop = dec_take_any(S, bools);
  int is_set = in->op == OP_SET;
  if (dec_take(S, "ftz")) in->flags |= IF_FTZ;
  if (dec_ntypes(D, S, is_set ? 2 : 1) < 0) return -1;
  int t = S->types[is_set ? 1 : 0];
  int n = S->st->nops;
  if (n != (bop >= 0 ? 4 : 3))
    return dec_error(D, S, -1, "%s takes %d operands", S->st->opcode, bop >= 0 ? 4 : 3);
  if (is_set) {
    if (dec_dst(D, S, 0, &in->d) < 0) return -1;
    in->v[0] = (uint32_t)S->types[0];
  } else if (dec_pdst(D, S, 0, &in->d) < 0 || dec_pair(D, S, 0, &in->d2) < 0) {
    return -1;
  }
  if (dec_src(D, S, 1, t, &in->a) < 0 || dec_src(D, S, 2, t, &in->b) < 0) return -1;
  if (bop >= 0) {
    int neg;
    if (dec_psrc(D, S, 3, &in->c, &neg) < 0) return -1;
    if (neg) in->flags |= IF_NEGC;
    in->mode = (uint8_t)(bop + 1);
  }
  in->type = (uint8_t)t;
  exec_fn fn = NULL;
  int ic = int_class(t);
  if (ic != IT_NONE) {
    int sgn = ic >= IT_S8;
    int k;
    switch (cmp) {
    case C_LO:
      k = C_LT;
      sgn = 0;
      break;
    case C_LS:
      k = C_LE;
      sgn = 0;
      break;
    case C_HI:
      k = C_GT;
      sgn = 0;
      break;
    case C_HS:
      k = C_GE;
      sgn = 0;
      break;
    default:
      k = cmp;
      break;
    }
    if (k > C_GE) return dec_error(D, S, -1, "'.%s' is a floating-point comparison", cmp_names[cmp]);
    int bytes = ptx_type_size(t);
    if (bytes == 1) return dec_error(D, S, -1, "setp does not take 8-bit types");
    const exec_fn *tab = sgn ? (bytes == 2   ? cs16_tab
                                : bytes == 4 ? cs32_tab
                                             : cs64_tab)
                             : (bytes == 2   ? cu16_tab
                                : bytes == 4 ? cu32_tab
                                             : cu64_tab);
    fn = tab[k];
  } else if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
    return dec_setp_half2(D, S, in, fmap[cmp], is_set); /* half2cmp.c */
  } else if (t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_BF16) {
    if (fmap[cmp] < 0) return dec_error(D, S, -1, "'.%s' is an unsigned integer comparison", cmp_names[cmp]);
    in->type2 = (uint8_t)fmap[cmp];
    fn = setp_fgen;
  } else {
    return dec_error(D, S, -1, "%s does not take .%s", S->st->opcode, ptx_type_name(t));
  }
  if (is_set) {
    in->imm = (int64_t)(uintptr_t)fn;
    fn = set_h;
  }
  in->fn = fn;
  return 0;
}
