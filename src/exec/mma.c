/* mma.c: mma.sync, the warp-wide matrix multiply-accumulate D = A*B + C,
 * for the shapes and types CUTLASS's sm_80/sm_90 warp-level GEMMs use:
 *   m16n8k16 and m16n8k8 .f16/.bf16 inputs, .f32 or (f16 inputs) .f16 C/D
 *   m16n8k8 .tf32 inputs, .f32 C/D
 *   m16n8k4 and m16n8k8 .tf32 inputs, .f32 C/D
 *   m8n8k16, m16n8k16 and m16n8k32 .s8/.u8 inputs, m8n8k32, m16n8k32 and
 *   m16n8k64 .s4/.u4 inputs (every signedness pair),
 *   .s32 C/D (wrapping, or clamped with .satfinite)
 *   m8n8k4 .f64
 * with the .row.col fragment layouts of the PTX ISA ("Matrix fragments for
 * mma.m16n8k16" and its siblings). The warp's fragments are gathered into
 * whole matrices, multiplied, and D is scattered back.
 *
 * Arithmetic: f32 accumulation follows the tensor cores' fixed-point sum
 * (acc_f32, fitted to an H100); f16 accumulation is the exact sum rounded
 * once to nearest (as the H100 gave in every recorded case); tf32 operands
 * use the top 19 bits of each .b32 register (the low 13 are ignored, as on
 * the H100). Integer results are exact and f64 is a chain of fused
 * multiply-adds in k order (both bit-identical to the H100's). */
#include "exec/mma.h"
#include "exec/exec.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include "smemu.h"
#include <math.h>

typedef struct mma_form {
  const char *mods; /* the modifiers after mma.sync.aligned, joined */
  int m, n, k;
  int ta, tb, tc, td; /* E_* of A, B, C, D elements */
  int na, nb, nc, nd; /* registers of each fragment */
  acc_model acc;      /* f32 accumulation; {0} for the others */
  int sat;            /* .satfinite: integer sums clamp to the s32 range */
} mma_form;

/* A row: the modifiers, M and K (N is 8), the A and B element types, the
 * C/D type, the registers of A, B and C/D, the accumulation, .satfinite. */
#define FORM(mods, m, k, ta, tb, tcd, na, nb, ncd, acc, sat)                                                 \
  { mods, m, 8, k, ta, tb, tcd, tcd, na, nb, ncd, ncd, acc, sat }
#define ACC_NONE                                                                                             \
  { 0, 0, 0, 0 }
#define ACC_F32                                                                                              \
  { 25, 0, 0, 0 }
#define ACC_FP8                                                                                              \
  { 27, 0, 0, 1 }
#define ACC_FP8_F16                                                                                          \
  { 27, 0, 0, 2 }

/* An integer shape's rows: SHAPE with A and B of BITS-bit elements (8:
 * s8/u8, 4: s4/u4), NA and NB registers of A and B, four of C/D (two for
 * M = 8). */
#define INT_SIGNS(shape, m, k, a, b, ea, eb, na, nb)                                                         \
  FORM(shape ".row.col.s32." a "." b ".s32", m, k, ea, eb, E_S32, na, nb, m / 4, ACC_NONE, 0),               \
      FORM(shape ".row.col.satfinite.s32." a "." b ".s32", m, k, ea, eb, E_S32, na, nb, m / 4, ACC_NONE, 1)
#define INT_FORMS(shape, m, k, bits, na, nb)                                                                 \
  INT_SIGNS(shape, m, k, "s" #bits, "s" #bits, E_S##bits, E_S##bits, na, nb),                                \
      INT_SIGNS(shape, m, k, "u" #bits, "u" #bits, E_U##bits, E_U##bits, na, nb),                            \
      INT_SIGNS(shape, m, k, "s" #bits, "u" #bits, E_S##bits, E_U##bits, na, nb),                            \
      INT_SIGNS(shape, m, k, "u" #bits, "s" #bits, E_U##bits, E_S##bits, na, nb)

static const mma_form forms[] = {
    FORM("m16n8k16.row.col.f32.f16.f16.f32", 16, 16, E_F16, E_F16, E_F32, 4, 2, 4, ACC_F32, 0),
    FORM("m16n8k16.row.col.f32.bf16.bf16.f32", 16, 16, E_BF16, E_BF16, E_F32, 4, 2, 4, ACC_F32, 0),
    FORM("m16n8k16.row.col.f16.f16.f16.f16", 16, 16, E_F16, E_F16, E_F16, 4, 2, 2, ACC_NONE, 0),
    FORM("m16n8k8.row.col.f32.f16.f16.f32", 16, 8, E_F16, E_F16, E_F32, 2, 1, 4, ACC_F32, 0),
    FORM("m16n8k8.row.col.f32.bf16.bf16.f32", 16, 8, E_BF16, E_BF16, E_F32, 2, 1, 4, ACC_F32, 0),
    FORM("m16n8k8.row.col.f16.f16.f16.f16", 16, 8, E_F16, E_F16, E_F16, 2, 1, 2, ACC_NONE, 0),
    FORM("m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, E_TF32, E_TF32, E_F32, 4, 2, 4, ACC_F32, 0),
    /* the integer shapes, each with every signedness pair, with and
       without .satfinite */
    INT_FORMS("m16n8k32", 16, 32, 8, 4, 2),
    INT_FORMS("m16n8k16", 16, 16, 8, 2, 1),
    INT_FORMS("m8n8k16", 8, 16, 8, 1, 1),
    INT_FORMS("m16n8k64", 16, 64, 4, 4, 2),
    INT_FORMS("m16n8k32", 16, 32, 4, 2, 1),
    INT_FORMS("m8n8k32", 8, 32, 4, 1, 1),
    FORM("m16n8k4.row.col.f32.tf32.tf32.f32", 16, 4, E_TF32, E_TF32, E_F32, 2, 1, 4, ACC_F32, 0),
    FORM("m8n8k4.row.col.f64.f64.f64.f64", 8, 4, E_F64, E_F64, E_F64, 1, 1, 2, ACC_NONE, 0),
    /* fp8 (sm_89+): the fragments of the 8-bit integer m16n8k32 form */
    FORM("m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 32, E_E4M3, E_E4M3, E_F32, 4, 2, 4, ACC_FP8, 0),
    FORM("m16n8k32.row.col.f32.e5m2.e5m2.f32", 16, 32, E_E5M2, E_E5M2, E_F32, 4, 2, 4, ACC_FP8, 0),
    FORM("m16n8k32.row.col.f32.e4m3.e5m2.f32", 16, 32, E_E4M3, E_E5M2, E_F32, 4, 2, 4, ACC_FP8, 0),
    FORM("m16n8k32.row.col.f32.e5m2.e4m3.f32", 16, 32, E_E5M2, E_E4M3, E_F32, 4, 2, 4, ACC_FP8, 0),
    FORM("m16n8k32.row.col.f16.e4m3.e4m3.f16", 16, 32, E_E4M3, E_E4M3, E_F16, 4, 2, 2, ACC_FP8_F16, 0),
    FORM("m16n8k32.row.col.f16.e5m2.e5m2.f16", 16, 32, E_E5M2, E_E5M2, E_F16, 4, 2, 2, ACC_FP8_F16, 0),
    FORM("m16n8k32.row.col.f16.e4m3.e5m2.f16", 16, 32, E_E4M3, E_E5M2, E_F16, 4, 2, 2, ACC_FP8_F16, 0),
    FORM("m16n8k32.row.col.f16.e5m2.e4m3.f16", 16, 32, E_E5M2, E_E4M3, E_F16, 4, 2, 2, ACC_FP8_F16, 0),
};
#define NFORMS ((int)(sizeof forms / sizeof forms[0]))

/* Bits of one element. */
static int ebits(int e) {
  switch (e) {
  case E_F16:
  case E_BF16:
    return 16;
  case E_S8:
  case E_U8:
  case E_E4M3:
  case E_E5M2:
    return 8;
  case E_S4:
  case E_U4:
    return 4;
  case E_F64:
    return 64;
  default:
    return 32;
  }
}

/* Position (row, col) of element i of lane l's A fragment (M x K). */
static void a_pos(const mma_form *f, int l, int i, int *r, int *c) {
  int g = l >> 2, t = l & 3;
  if (f->m == 8) { /* one register per lane: 32 bits of row g */
    *r = g;
    *c = f->ta == E_F64 ? t : 32 / ebits(f->ta) * t + i;
    return;
  }
  switch (f->ta) {
  case E_TF32:
    if (f->k == 4) {
      *r = g + 8 * i;
      *c = t;
    } else {
      *r = g + 8 * (i & 1);
      *c = t + 4 * (i >> 1);
    }
    return;
  case E_S8:
  case E_U8:
  case E_E4M3:
  case E_E5M2:
    if (f->k == 16) {
      *r = g + 8 * (i >> 2);
      *c = 4 * t + (i & 3);
    } else {
      *r = g + 8 * ((i >> 2) & 1);
      *c = 4 * t + (i & 3) + 16 * (i >> 3);
    }
    return;
  case E_S4:
  case E_U4: /* eight elements a register; k = 32 has two registers */
    *r = g + 8 * ((i >> 3) & 1);
    *c = 8 * t + (i & 7) + 32 * (i >> 4);
    return;
  default: /* f16 / bf16 */
    if (f->k == 8) {
      *r = g + 8 * (i >> 1);
      *c = 2 * t + (i & 1);
    } else {
      *r = g + 8 * ((i >> 1) & 1);
      *c = 2 * t + (i & 1) + 8 * (i >> 2);
    }
  }
}
/* Position (k, n) of element i of lane l's B fragment (K x N). */
static void b_pos(const mma_form *f, int l, int i, int *r, int *c) {
  int g = l >> 2, t = l & 3;
  *c = g;
  if (f->m == 8) {
    *r = f->tb == E_F64 ? t : 32 / ebits(f->tb) * t + i;
    return;
  }
  switch (f->tb) {
  case E_TF32:
    *r = t + 4 * i;
    return;
  case E_S8:
  case E_U8:
  case E_E4M3:
  case E_E5M2:
    *r = f->k == 16 ? 4 * t + i : 4 * t + (i & 3) + 16 * (i >> 2);
    return;
  case E_S4:
  case E_U4:
    *r = 8 * t + (i & 7) + 32 * (i >> 3);
    return;
  default:
    *r = 2 * t + (i & 1) + 8 * (i >> 1);
  }
}
/* Position of element i of lane l's C or D fragment (M x N). */
static void c_pos(const mma_form *f, int l, int i, int *r, int *c) {
  int g = l >> 2, t = l & 3;
  if (f->m == 8) {
    *r = g;
    *c = 2 * t + i;
    return;
  }
  *r = g + 8 * (i >> 1);
  *c = 2 * t + (i & 1);
}

/* An integer element's value. */
static int64_t int_val(int e, uint64_t x) {
  switch (e) {
  case E_S8:
    return (int8_t)x;
  case E_U8:
    return (uint8_t)x;
  case E_S4:
    return (int64_t)((x & 15) ^ 8) - 8;
  case E_U4:
    return (int64_t)(x & 15);
  default:
    return (int32_t)x;
  }
}

/* Element i (of width w bits) of a fragment whose register slots are s. */
static uint64_t elem(warp *w, const uint32_t *s, int l, int i, int bits) {
  int per = bits >= 32 ? 1 : 32 / bits;
  uint64_t v = w->r[s[i / per]][l];
  if (bits >= 64) return v;
  return (v >> (bits * (i % per))) & ((1ull << bits) - 1);
}

double fp8_to_double(int e, uint32_t x) {
  int s = x >> 7 & 1, ex, m;
  double v;
  if (e == E_E4M3) {
    ex = x >> 3 & 15;
    m = x & 7;
    if (ex == 15 && m == 7) return NAN; /* e4m3 has no infinities */
    v = ex ? ldexp(8 + m, ex - 10) : ldexp(m, -9);
  } else {
    ex = x >> 2 & 31;
    m = x & 3;
    if (ex == 31) return m ? NAN : s ? -INFINITY : INFINITY;
    v = ex ? ldexp(4 + m, ex - 17) : ldexp(m, -16);
  }
  return s ? -v : v;
}

double mma_to_double(int e, uint64_t x) {
  switch (e) {
  case E_E4M3:
  case E_E5M2:
    return fp8_to_double(e, (uint32_t)x & 0xff);
  case E_F16:
    return fp_f16_to_f64((uint16_t)x);
  case E_BF16:
    return fp_bf16_to_f64((uint16_t)x);
  case E_TF32: {
    uint32_t u = (uint32_t)x & 0xffffe000u;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  case E_F32: {
    uint32_t u = (uint32_t)x;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  case E_F64: {
    double d;
    memcpy(&d, &x, 8);
    return d;
  }
  case E_S8:
    return (int8_t)x;
  case E_U8:
    return (uint8_t)x;
  default:
    return (int32_t)x;
  }
}

/* The result bits of value v in type e (NaN: the canonical NaN). */
uint64_t mma_from_double(int e, double v) {
  switch (e) {
  case E_F16:
    return isnan(v) ? 0x7fff : fp_f64_to_f16(v, FP_RN);
  case E_F32: {
    if (isnan(v)) return 0x7fffffffu;
    return fp_bits32(fp_f64_to_f32(v, FP_RN));
  }
  default: {
    uint64_t u;
    memcpy(&u, &v, 8);
    return isnan(v) ? 0xfff8000000000000ull : u;
  }
  }
}

/* The tensor cores' f32 accumulation, fitted to an H100's results
 * (tests/hw/modern: tests/hw/modern/mma_fit.py reproduces all 15360
 * non-special results of the five f32-accumulating forms bit for bit):
 * C and the K products are aligned to the largest exponent among them,
 * where a product's exponent is the sum of its factors' exponents (before
 * normalising the product), each is truncated to `frac` bits below that
 * exponent, the terms are added exactly and the sum is truncated (rounded
 * toward zero) to f32, an infinity past its range. frac 0: the exact sum rounded once to nearest. */
double mma_acc_f32(const acc_model *am, double c, const double *a, const double *b, int k) {
  double prod[32], s = c;
  int emax = c != 0 && isfinite(c) ? ilogb(c) : INT32_MIN, special = !isfinite(c);
  for (int j = 0; j < k; j++) {
    prod[j] = a[j] * b[j];
    if (!isfinite(a[j]) || !isfinite(b[j]))
      special = 1;
    else if (a[j] != 0 && b[j] != 0 && ilogb(a[j]) + ilogb(b[j]) > emax)
      emax = ilogb(a[j]) + ilogb(b[j]);
  }
  if (!am->frac || special || emax == INT32_MIN) { /* IEEE rules for infinities and NaN */
    for (int j = 0; j < k; j++) s += prod[j];
    return s;
  }
  if (am->c_after) {
    /* the products alone (aligned to the largest of them), rounded, then C */
    emax = INT32_MIN;
    for (int j = 0; j < k; j++)
      if (a[j] != 0 && b[j] != 0 && ilogb(a[j]) + ilogb(b[j]) > emax) emax = ilogb(a[j]) + ilogb(b[j]);
    double p = 0, qp = emax == INT32_MIN ? 1 : ldexp(1.0, emax - am->frac);
    for (int j = 0; j < k; j++) p += trunc(prod[j] / qp) * qp;
    p = am->c_after == 2 ? fp_f16_to_f64(fp_f64_to_f16(p, FP_RN)) : (double)fp_f64_to_f32(p, FP_RN);
    return c + p;
  }
  double q = ldexp(1.0, emax - am->frac);
  s = trunc(c / q) * q;
  for (int j = 0; j < k; j++) s += trunc(prod[j] / q) * q;
  if (am->norm && s != 0) {
    double qn = ldexp(1.0, ilogb(s) - am->norm);
    s = trunc(s / qn) * qn;
  }
  if (am->raw) return s;
  /* truncated within range, but a sum past the largest exponent is an
   * infinity (not FLT_MAX): what the H100 gave */
  if (fabs(s) >= 0x1p128) return copysign(INFINITY, s);
  return fp_f64_to_f32(s, FP_RZ);
}

static void mma(warp *w, const insn *in, uint32_t m) {
  const mma_form *f = &forms[in->mode];
  uint32_t live = w->valid & ~w->exited;
  if (m != FULL_MASK || live != FULL_MASK) {
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "mma.sync.aligned needs all 32 lanes of the warp together, but lanes 0x%08x execute it", m);
    return;
  }
  const uint32_t *sd = w->L->prog->xslots + in->imm;
  const uint32_t *sa = sd + f->nd, *sb = sa + f->na, *sc = sb + f->nb;
  int ba = ebits(f->ta), bb = ebits(f->tb), bc = ebits(f->tc), bd = ebits(f->td);
  int ea = f->na * (ba >= 32 ? 1 : 32 / ba);
  int eb = f->nb * (bb >= 32 ? 1 : 32 / bb);
  int ec = f->nc * (bc >= 32 ? 1 : 32 / bc);
  static _Thread_local double A[16][64], B[64][8], C[16][8];
  static _Thread_local int64_t IA[16][64], IB[64][8], IC[16][8];
  int integer = f->td == E_S32;
  for (int l = 0; l < 32; l++) {
    int r, c;
    for (int i = 0; i < ea; i++) {
      a_pos(f, l, i, &r, &c);
      uint64_t x = elem(w, sa, l, i, ba);
      if (integer)
        IA[r][c] = int_val(f->ta, x);
      else
        A[r][c] = mma_to_double(f->ta, x);
    }
    for (int i = 0; i < eb; i++) {
      b_pos(f, l, i, &r, &c);
      uint64_t x = elem(w, sb, l, i, bb);
      if (integer)
        IB[r][c] = int_val(f->tb, x);
      else
        B[r][c] = mma_to_double(f->tb, x);
    }
    for (int i = 0; i < ec; i++) {
      c_pos(f, l, i, &r, &c);
      uint64_t x = elem(w, sc, l, i, bc);
      if (integer)
        IC[r][c] = (int32_t)x;
      else
        C[r][c] = mma_to_double(f->tc, x);
    }
  }
  uint64_t out[4][32];
  int per_d = bd >= 32 ? 1 : 32 / bd;
  for (int l = 0; l < 32; l++) {
    for (int j = 0; j < f->nd; j++) out[j][l] = 0;
    for (int i = 0; i < f->nd * per_d; i++) {
      int r, c;
      c_pos(f, l, i, &r, &c);
      uint64_t bits;
      if (integer) {
        int64_t s = IC[r][c];
        for (int k = 0; k < f->k; k++) s += IA[r][k] * IB[k][c];
        if (f->sat) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        bits = (uint32_t)s;
      } else if (f->td == E_F64) {
        /* DMMA: a chain of fused multiply-adds in k order */
        double s = C[r][c];
        for (int k = 0; k < f->k; k++) s = fma(A[r][k], B[k][c], s);
        bits = mma_from_double(E_F64, s);
      } else {
        double bcol[64];
        for (int k = 0; k < f->k; k++) bcol[k] = B[k][c];
        double s = mma_acc_f32(&f->acc, C[r][c], A[r], bcol, f->k);
        bits = mma_from_double(f->td, s);
      }
      out[i / per_d][l] |= bits << (bd * (i % per_d));
    }
  }
  for (int j = 0; j < f->nd; j++)
    if (sd[j] != SLOT_SINK)
      for (int l = 0; l < 32; l++) w->r[sd[j]][l] = out[j][l];
}

int dec_mma(dctx *D, dstmt *S, insn *in) {
  if (!dec_take(S, "sync") || !dec_take(S, "aligned"))
    return dec_error(D, S, -1, "mma must be .sync.aligned");
  char text[160] = "";
  size_t len = 0;
  for (int i = 0; i < S->st->nmods; i++) {
    if (S->used >> i & 1 && strcmp(S->st->mods[i], "f16") && strcmp(S->st->mods[i], "bf16") &&
        strcmp(S->st->mods[i], "f32") && strcmp(S->st->mods[i], "f64") && strcmp(S->st->mods[i], "s8") &&
        strcmp(S->st->mods[i], "u8") && strcmp(S->st->mods[i], "s32"))
      continue; /* sync, aligned */
    int n = snprintf(text + len, sizeof text - len, "%s%s", len ? "." : "", S->st->mods[i]);
    if (n < 0 || (size_t)n >= sizeof text - len) return dec_error(D, S, -1, "mma: too many modifiers");
    len += (size_t)n;
  }
  int fi = -1;
  /* the fp8 types are no PTX types of the parser: their modifiers are unused */
  for (int i = 0; i < NFORMS; i++)
    if (!strcmp(forms[i].mods, text)) fi = i;
  if (fi < 0)
    return dec_error(D, S, -1,
                     "mma.%s is not supported (smemu runs the m16n8k16/m16n8k8 f16 and bf16, m16n8k8/m16n8k4 "
                     "tf32, m16n8k32 fp8, 8-bit and 4-bit integer and m8n8k4 f64 forms)",
                     text);
  S->used = (S->st->nmods >= 64) ? ~0ull : (1ull << S->st->nmods) - 1;
  const mma_form *f = &forms[fi];
  if (dec_nops(D, S, 4) < 0) return -1;
  int counts[4] = {f->nd, f->na, f->nb, f->nc};
  int types[4] = {f->td, f->ta, f->tb, f->tc};
  uint32_t slots[16];
  int ns = 0;
  for (int o = 0; o < 4; o++) {
    const ptx_operand *v = &S->st->ops[o];
    if (v->kind != PTX_OPD_VEC || v->nelems != counts[o])
      return dec_error(D, S, o, "this operand of mma.%s is a vector of %d registers", text, counts[o]);
    for (int k = 0; k < counts[o]; k++) {
      int pt = types[o] == E_F64 ? PTX_T_F64 : types[o] == E_F32 ? PTX_T_F32 : PTX_T_B32;
      int r =
          o == 0 ? dec_dst_opd(D, &v->elems[k], &slots[ns]) : dec_src_opd(D, &v->elems[k], pt, &slots[ns]);
      if (r) return r < 0 ? -1 : dec_error(D, S, o, "bad register in the vector");
      ns++;
    }
  }
  if (dec_xslots(D, slots, (uint32_t)ns, &in->imm) < 0) return -1;
  in->mode = (uint8_t)fi;
  in->fn = mma;
  return 0;
}

/* The element helpers above, for wmma.c (mma.h). */
int mma_ebits(int e) { return ebits(e); }
int64_t mma_int_val(int e, uint64_t x) { return int_val(e, x); }
uint64_t mma_frag_elem(struct warp *w, const uint32_t *s, int l, int i, int bits) {
  return elem(w, s, l, i, bits);
}
