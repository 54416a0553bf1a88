/* mma.c: mma.sync, the warp-wide matrix multiply-accumulate D = A*B + C,
 * in every form sm_90a has (the PTX ISA's tables, built in build_forms):
 *   m16n8k8/k16 .f16 (.f16 or .f32 C/D) and .bf16, m16n8k4/k8 .tf32,
 *   m16n8k32 .e4m3/.e5m2 (.f32 or .f16 C/D),
 *   m8n8k16, m16n8k16, m16n8k32 .s8/.u8 and m8n8k32, m16n8k32, m16n8k64
 *   .s4/.u4 in every signedness mix, .s32 C/D wrapping or .satfinite,
 *   m8n8k128, m16n8k128, m16n8k256 .b1 with .xor.popc / .and.popc,
 *   m8n8k4, m16n8k4, m16n8k8, m16n8k16 .f64,
 *   m8n8k4 .f16 (Volta's shape: four 8x8x4 products, one per quad pair,
 *   every .row/.col layout pair),
 * and mma.sp / mma.sp::ordered_metadata (sparse A: each row holds K/2
 * elements, packed; the metadata operand says which columns of the dense
 * K each pair (tf32: each element, 4-bit: each pair of pairs) came from,
 * the sparsity selector which threads of each quad hold it):
 *   m16n8k16/k32 .f16/.bf16, m16n8k8/k16 .tf32, m16n8k32/k64 .s8/.u8,
 *   m16n8k64/k128 .s4/.u4, m16n8k64 .e4m3/.e5m2.
 * Fragment layouts are those of the PTX ISA ("Matrix fragments for mma.*");
 * a packed A has the dense layout of half its K. The warp's fragments are
 * gathered into whole matrices, multiplied, and D is scattered back.
 *
 * Arithmetic: f32 accumulation follows the tensor cores' fixed-point sum
 * (acc_f32, fitted to an H100); f16 accumulation is the exact sum rounded
 * once to nearest (as the H100 gave in every recorded case); tf32 operands
 * use the top 19 bits of each .b32 register (the low 13 are ignored, as on
 * the H100). Integer and single-bit results are exact and f64 is a chain
 * of fused multiply-adds in k order. A sparse product sums the K/2 products
 * of the packed elements with the B rows the metadata selects (the same
 * accumulation; tests/hw/sparse records every form). */
#include "exec/mma.h"
#include "exec/exec.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include "smemu.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct mma_form {
  char mods[64]; /* the modifiers after mma(.sp).sync.aligned but .satfinite, joined */
  int m, n, k;
  int ta, tb, tc, td; /* E_* of A, B, C, D elements */
  int na, nb, nc, nd; /* registers of each fragment */
  acc_model acc;      /* f32 accumulation; {0} for the others */
  int sat;            /* .satfinite: integer sums clamp to the s32 range */
  int sparse;         /* mma.sp: A holds K/2 columns, placed by metadata */
  int bop;            /* b1: 1 .xor.popc, 2 .and.popc */
  int volta;          /* m8n8k4 f16: four quad-pair products; 1 + A row-major + 2 * B row-major */
} mma_form;

static const acc_model acc_f32 = {25, 0, 0, 0}, acc_exact = {0, 0, 0, 0}, acc_fp8 = {27, 0, 0, 1},
                       acc_fp8_f16 = {27, 0, 0, 2};

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
  case E_B1:
    return 1;
  case E_F64:
    return 64;
  default:
    return 32;
  }
}

static const char *ename(int e) {
  static const char *const n[] = {"f16", "bf16", "tf32", "s8",   "u8",   "s4", "u4",
                                  "f32", "s32",  "f64",  "e4m3", "e5m2", "b1"};
  return n[e];
}

/* The forms ptxas accepts for sm_90a (the PTX ISA's mma and mma.sp tables),
 * built once. */
#define MAX_FORMS 192
static mma_form forms[MAX_FORMS];
static int nforms;
static pthread_once_t forms_once = PTHREAD_ONCE_INIT;

/* Registers of a fragment of r x c elements of `bits` bits over `lanes`. */
static int nregs(int r, int c, int bits, int lanes) {
  int per_lane = r * c / lanes;
  return bits >= 32 ? per_lane : per_lane * bits / 32;
}

static void add(int sparse, int m, int k, int ta, int tb, int tc, int td, int sat, int bop, int volta) {
  if (nforms >= MAX_FORMS) return;
  mma_form *f = &forms[nforms++];
  memset(f, 0, sizeof *f);
  const char *lay = !volta       ? "row.col"
                    : volta == 1 ? "col.col"
                    : volta == 2 ? "row.col"
                    : volta == 3 ? "col.row"
                                 : "row.row";
  snprintf(f->mods, sizeof f->mods, "m%dn8k%d.%s.%s.%s.%s.%s%s", m, k, lay, ename(td), ename(ta), ename(tb),
           ename(tc),
           bop == 1   ? ".xor.popc"
           : bop == 2 ? ".and.popc"
                      : "");
  f->m = m, f->n = 8, f->k = k;
  f->ta = ta, f->tb = tb, f->tc = tc, f->td = td;
  f->sat = sat, f->sparse = sparse, f->bop = bop, f->volta = volta;
  int lanes = volta ? 8 : 32;
  f->na = nregs(m, sparse ? k / 2 : k, ebits(ta), lanes);
  f->nb = nregs(k, 8, ebits(tb), lanes);
  f->nc = nregs(m, 8, ebits(tc), lanes);
  f->nd = nregs(m, 8, ebits(td), lanes);
  int fp8 = ta == E_E4M3 || ta == E_E5M2;
  if (td == E_F32 && (ta == E_F16 || ta == E_BF16 || ta == E_TF32))
    f->acc = acc_f32;
  else if (fp8)
    f->acc = td == E_F16 ? acc_fp8_f16 : acc_fp8;
  else
    f->acc = acc_exact;
}

static void build_forms(void) {
  static const int i8[2] = {E_S8, E_U8}, i4[2] = {E_S4, E_U4}, f8[2] = {E_E4M3, E_E5M2};
  for (int sp = 0; sp < 2; sp++) {
    int s = sp ? 2 : 1; /* sparse forms have twice the K */
    for (int kk = 8; kk <= 16; kk *= 2) {
      add(sp, 16, kk * s, E_F16, E_F16, E_F32, E_F32, 0, 0, 0);
      add(sp, 16, kk * s, E_F16, E_F16, E_F16, E_F16, 0, 0, 0);
      add(sp, 16, kk * s, E_BF16, E_BF16, E_F32, E_F32, 0, 0, 0);
      add(sp, 16, kk / 2 * s, E_TF32, E_TF32, E_F32, E_F32, 0, 0, 0);
    }
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        for (int sat = 0; sat < 2; sat++) {
          if (!sp) add(0, 8, 16, i8[a], i8[b], E_S32, E_S32, sat, 0, 0);
          add(sp, 16, 16 * s, i8[a], i8[b], E_S32, E_S32, sat, 0, 0);
          add(sp, 16, 32 * s, i8[a], i8[b], E_S32, E_S32, sat, 0, 0);
          if (!sp) add(0, 8, 32, i4[a], i4[b], E_S32, E_S32, sat, 0, 0);
          add(sp, 16, 32 * s, i4[a], i4[b], E_S32, E_S32, sat, 0, 0);
          add(sp, 16, 64 * s, i4[a], i4[b], E_S32, E_S32, sat, 0, 0);
        }
        add(sp, 16, 32 * s, f8[a], f8[b], E_F32, E_F32, 0, 0, 0);
        if (!sp) add(0, 16, 32, f8[a], f8[b], E_F16, E_F16, 0, 0, 0);
      }
  }
  for (int k = 4; k <= 16; k *= 2) add(0, 16, k, E_F64, E_F64, E_F64, E_F64, 0, 0, 0);
  add(0, 8, 4, E_F64, E_F64, E_F64, E_F64, 0, 0, 0);
  for (int bop = 1; bop <= 2; bop++) {
    add(0, 8, 128, E_B1, E_B1, E_S32, E_S32, 0, bop, 0);
    add(0, 16, 128, E_B1, E_B1, E_S32, E_S32, 0, bop, 0);
    add(0, 16, 256, E_B1, E_B1, E_S32, E_S32, 0, bop, 0);
  }
  for (int v = 1; v <= 4; v++) {
    add(0, 8, 4, E_F16, E_F16, E_F16, E_F16, 0, 0, v);
    add(0, 8, 4, E_F16, E_F16, E_F32, E_F32, 0, 0, v);
    add(0, 8, 4, E_F16, E_F16, E_F16, E_F32, 0, 0, v);
  }
}

/* Lane l's element i of a fragment whose registers hold `per` elements
 * each: position (row, col) of A (M x K), of B (K x N) and of C/D. */
static void a_pos(const mma_form *f, int l, int i, int *r, int *c) {
  int g = l >> 2, t = l & 3, bits = ebits(f->ta), per = bits >= 32 ? 1 : 32 / bits, j = i / per;
  if (f->m == 8) {
    *r = g;
    *c = per * t + i % per;
    return;
  }
  *r = g + 8 * (j & 1);
  *c = per * t + i % per + 4 * per * (j >> 1);
}
static void b_pos(const mma_form *f, int l, int i, int *r, int *c) {
  int g = l >> 2, t = l & 3, bits = ebits(f->tb), per = bits >= 32 ? 1 : 32 / bits, j = i / per;
  *c = g;
  *r = per * t + i % per + 4 * per * j;
}
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

/* m8n8k4 f16: the four products of lanes 4q..4q+3 and 16+4q..16+4q+3;
 * positions within one product (PTX ISA, "Matrix Fragments for
 * mma.m8n8k4 with .f16"). */
static void volta_pos(const mma_form *f, char which, int l, int i, int *r, int *c) {
  int hi = l >= 16, lt = l & 3, arow = (f->volta - 1) & 1, brow = (f->volta - 1) >> 1;
  switch (which) {
  case 'a':
    *r = arow ? lt + 4 * hi : i + 4 * hi;
    *c = arow ? i : lt;
    return;
  case 'b':
    *r = brow ? lt : i;
    *c = brow ? i + 4 * hi : lt + 4 * hi;
    return;
  default:
    if (ebits(which == 'c' ? f->tc : f->td) == 16) {
      *r = lt + 4 * hi;
      *c = i;
    } else {
      *r = (l & 1) + (i & 2) + 4 * hi;
      *c = (i & 4) + (l & 2) + (i & 1);
    }
  }
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
  case E_B1:
    return (int64_t)(x & 1);
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

/* mma.sp: the metadata nibble of row r, chunk j: the threads of each quad
 * hold the metadata of its row pair (r, r + 8); `sel` picks which of them
 * (nchunks / 4 threads each). */
static uint32_t sp_nibble(const warp *w, uint32_t sm, int bits, int nchunks, int sel, int r, int j) {
  int per_quad = nchunks / 4 > 0 ? nchunks / 4 : 1, lane, bit;
  if (bits > 8) {
    /* 16-bit and tf32 A: a thread holds chunks 4q..4q+3 of row r in bits
     * 0..15 and of row r + 8 in 16..31 */
    lane = 4 * (r & 7) + sel * per_quad + j / 4;
    bit = 16 * (r >> 3) + 4 * (j & 3);
  } else {
    /* 8- and 4-bit A (measured, tests/hw/sparse): a thread holds eight
     * chunks of one row, row r and row r + 8 in consecutive threads (the
     * next eight chunks two threads on) */
    lane = 4 * (r & 7) + sel * per_quad + (r >> 3) + 2 * (j / 8);
    bit = 4 * (j & 7);
  }
  return (uint32_t)(w->r[sm][lane & 31] >> bit) & 15;
}

int mma_sp_col(const struct warp *w, uint32_t meta, int bits, int k, int sel, int r, int c) {
  if (bits == 32) return 2 * c + (int)(sp_nibble(w, meta, bits, k / 2, sel, r, c) & 3) / 2;
  if (bits == 4) {
    uint32_t nib = sp_nibble(w, meta, bits, k / 8, sel, r, c / 4);
    int p = (c & 3) >> 1, idx = (int)(p ? nib >> 2 : nib & 3);
    return 8 * (c / 4) + 2 * idx + (c & 1);
  }
  uint32_t nib = sp_nibble(w, meta, bits, k / 4, sel, r, c / 2);
  return 4 * (c / 2) + (int)((c & 1) ? nib >> 2 : nib & 3);
}

/* mma.sp: selectors allowed (0 .. n-1) with A of `bits` bits and K: the
 * threads of a quad over those holding the metadata of a row pair. */
int mma_sp_nsel(int bits, int k) {
  int chunks = bits == 32 ? k / 2 : bits == 4 ? k / 8 : k / 4;
  return chunks >= 16 ? 1 : 16 / chunks;
}

/* One product: D (M x 8) of the gathered A (M x ka; column j of row r
 * multiplies row kc[r][j] of B), B and C, as lane-ordered result bits. */
typedef struct mma_mats {
  double A[16][256], B[256][8], C[16][8];
  int64_t IA[16][256], IB[256][8], IC[16][8];
  int kc[16][256];
} mma_mats;

static uint64_t mma_elem(const mma_form *f, const mma_mats *x, int ka, int r, int c) {
  if (f->td == E_S32) {
    int64_t s = x->IC[r][c];
    for (int j = 0; j < ka; j++) {
      int64_t a = x->IA[r][j], b = x->IB[x->kc[r][j]][c];
      s += f->bop == 1 ? (a ^ b) : f->bop == 2 ? (a & b) : a * b;
    }
    if (f->sat) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    return (uint32_t)s;
  }
  if (f->volta) {
    /* m8n8k4 .f16 on sm_90: no tensor-core form; ptxas emulates it in f32:
     * the products (exact in f32) summed in k order, then C, each addition
     * rounded to nearest f32; the D type rounds the last (fitted to all
     * 4096 results of each layout, tests/hw/sparse) */
    float s = (float)(x->A[r][0] * x->B[x->kc[r][0]][c]);
    for (int j = 1; j < ka; j++) s += (float)(x->A[r][j] * x->B[x->kc[r][j]][c]);
    s += (float)x->C[r][c];
    return mma_from_double(f->td, s);
  }
  if (f->td == E_F64) {
    /* DMMA: a chain of fused multiply-adds in k order; a NaN operand passes
     * through (A's, then B's, then the sum's), an invalid operation gives
     * the negative default NaN (both as the H200 gave: tests/hw/sparse) */
    double s = x->C[r][c];
    uint64_t u;
    memcpy(&u, &s, 8);
    for (int j = 0; j < ka; j++) {
      double a = x->A[r][j], b = x->B[x->kc[r][j]][c];
      if (isnan(a) || isnan(b) || isnan(s)) {
        memcpy(&u, isnan(a) ? &a : isnan(b) ? &b : &s, 8);
        u |= 1ull << 51; /* quiet */
        memcpy(&s, &u, 8);
        continue;
      }
      s = fma(a, b, s);
      if (isnan(s)) s = -NAN;
    }
    memcpy(&u, &s, 8);
    return u;
  }
  double bcol[256];
  for (int j = 0; j < ka; j++) bcol[j] = x->B[x->kc[r][j]][c];
  if (f->sparse && (f->ta == E_E4M3 || f->ta == E_E5M2)) {
    /* sm_90 has no fp8 mma.sp: ptxas converts A and B to f16 and runs two
     * m16n8k32 sparse f16 products (HMMA.SP.16832), each with the f16
     * forms' f32 accumulation. Which packed columns go to which is fitted
     * (each register's low pair first); 82% of the recorded results are
     * bit-identical, the rest 1 ulp apart (tests/hw/sparse
     * known_differences.txt) */
    double a2[2][64], b2[2][64];
    int n2[2] = {0, 0};
    for (int j = 0; j < ka; j++) {
      int set = (j % 4) >= 2;
      a2[set][n2[set]] = x->A[r][j];
      b2[set][n2[set]++] = bcol[j];
    }
    double d = mma_acc_f32(&acc_f32, x->C[r][c], a2[0], b2[0], n2[0]);
    return mma_from_double(f->td, mma_acc_f32(&acc_f32, d, a2[1], b2[1], n2[1]));
  }
  return mma_from_double(f->td, mma_acc_f32(&f->acc, x->C[r][c], x->A[r], bcol, ka));
}

/* Element positions of lane l's fragment `which` ('a', 'b', 'c', 'd'). */
static void pos(const mma_form *f, char which, int l, int i, int *r, int *c) {
  if (f->volta)
    volta_pos(f, which, l, i, r, c);
  else if (which == 'a')
    a_pos(f, l, i, r, c);
  else if (which == 'b')
    b_pos(f, l, i, r, c);
  else
    c_pos(f, l, i, r, c);
}

static void put(const mma_form *f, mma_mats *x, char which, int r, int c, int e, uint64_t bits) {
  int integer = f->td == E_S32;
  double v = integer ? 0 : mma_to_double(e, bits);
  int64_t iv = integer ? int_val(e, bits) : 0;
  if (which == 'a')
    x->A[r][c] = v, x->IA[r][c] = iv;
  else if (which == 'b')
    x->B[r][c] = v, x->IB[r][c] = iv;
  else
    x->C[r][c] = v, x->IC[r][c] = integer ? (int32_t)bits : 0;
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
  static _Thread_local mma_mats x;
  int ka = f->sparse ? f->k / 2 : f->k;
  int bd = ebits(f->td), per_d = bd >= 32 ? 1 : 32 / bd;
  const struct {
    char which;
    const uint32_t *s;
    int n, e;
  } frag[3] = {{'a', sa, f->na, f->ta}, {'b', sb, f->nb, f->tb}, {'c', sc, f->nc, f->tc}};
  uint64_t out[8][32];
  for (int q = 0; q < (f->volta ? 4 : 1); q++) {
    /* lanes of this product: all, or a quad pair */
    int lanes[32], nl = 0;
    for (int l = 0; l < 32; l++)
      if (!f->volta || ((l >> 2) & 3) == q) lanes[nl++] = l;
    for (int li = 0; li < nl; li++)
      for (int fi = 0; fi < 3; fi++) {
        int bits = ebits(frag[fi].e), per = bits >= 32 ? 1 : 32 / bits;
        for (int i = 0; i < frag[fi].n * per; i++) {
          int r, c;
          pos(f, frag[fi].which, lanes[li], i, &r, &c);
          put(f, &x, frag[fi].which, r, c, frag[fi].e, elem(w, frag[fi].s, lanes[li], i, bits));
        }
      }
    for (int r = 0; r < f->m; r++)
      for (int j = 0; j < ka; j++)
        x.kc[r][j] = f->sparse ? mma_sp_col(w, sc[f->nc], ebits(f->ta), f->k, in->type2, r, j) : j;
    for (int li = 0; li < nl; li++) {
      int l = lanes[li];
      for (int j = 0; j < f->nd; j++) out[j][l] = 0;
      for (int i = 0; i < f->nd * per_d; i++) {
        int r, c;
        pos(f, 'd', l, i, &r, &c);
        out[i / per_d][l] |= mma_elem(f, &x, ka, r, c) << (bd * (i % per_d));
      }
    }
  }
  for (int j = 0; j < f->nd; j++)
    if (sd[j] != SLOT_SINK)
      for (int l = 0; l < 32; l++) w->r[sd[j]][l] = out[j][l];
}

int dec_mma(dctx *D, dstmt *S, insn *in) {
  pthread_once(&forms_once, build_forms);
  int sparse = dec_take(S, "sp") || dec_take(S, "sp::ordered_metadata");
  /* .satfinite before the types or (as CUTLASS's sm_80 code writes it) after */
  int sat = dec_take(S, "satfinite");
  if (!dec_take(S, "sync") || !dec_take(S, "aligned"))
    return dec_error(D, S, -1, "mma must be .sync.aligned");
  char text[160] = "";
  size_t len = 0;
  for (int i = 0; i < S->st->nmods; i++) {
    const char *md = S->st->mods[i];
    if (!strcmp(md, "sync") || !strcmp(md, "aligned") || !strncmp(md, "sp", 2) || !strcmp(md, "satfinite"))
      continue;
    int n = snprintf(text + len, sizeof text - len, "%s%s", len ? "." : "", S->st->mods[i]);
    if (n < 0 || (size_t)n >= sizeof text - len) return dec_error(D, S, -1, "mma: too many modifiers");
    len += (size_t)n;
  }
  int fi = -1;
  for (int i = 0; i < nforms; i++)
    if (forms[i].sparse == sparse && forms[i].sat == sat && !strcmp(forms[i].mods, text)) fi = i;
  if (fi < 0)
    return dec_error(D, S, -1, "mma%s.%s%s is not an mma form of sm_90a", sparse ? ".sp" : "", text,
                     sat ? " with .satfinite" : "");
  S->used = (S->st->nmods >= 64) ? ~0ull : (1ull << S->st->nmods) - 1;
  const mma_form *f = &forms[fi];
  if (dec_nops(D, S, sparse ? 6 : 4) < 0) return -1;
  int counts[4] = {f->nd, f->na, f->nb, f->nc};
  int types[4] = {f->td, f->ta, f->tb, f->tc};
  uint32_t slots[40];
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
  if (sparse) {
    /* the metadata register and the sparsity selector: which threads of
     * each quad hold the metadata (one of 4 / K-chunks-per-row) */
    if (dec_src(D, S, 4, PTX_T_B32, &slots[ns]) < 0) return -1;
    ns++;
    const ptx_operand *o = &S->st->ops[5];
    int nsel = mma_sp_nsel(ebits(f->ta), f->k);
    if (o->kind != PTX_OPD_INT || o->ival < 0 || o->ival >= nsel)
      return dec_error(D, S, 5, "the sparsity selector of mma.sp.%s is an integer constant from 0 to %d",
                       text, nsel - 1);
    in->type2 = (uint8_t)o->ival;
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
