/* wmma.c: the warp-wide matrix fragments of the C++ nvcuda::wmma API:
 *   wmma.load.{a,b,c}.sync.aligned.layout.shape{.space}.type r, [p]{, stride}
 *   wmma.store.d.sync.aligned.layout.shape{.space}.type [p], r{, stride}
 *   wmma.mma{.xor.popc,.and.popc}.sync.aligned.alayout.blayout.shape{.rnd}.types d, a, b, c
 * for every shape and type of sm_90: f16 (f16 or f32 C/D) and bf16
 * m16n16k16/m32n8k16/m8n32k16, tf32 m16n16k8, f64 m8n8k4, s8/u8 on the
 * three 16-deep shapes, s4/u4 m8n8k32 and b1 m8n8k128 (s32 C/D, wrapping
 * or .satfinite), row/col layouts, strides in elements, generic, .global
 * and .shared addresses.
 *
 * Fragments: the PTX ISA leaves the element-to-lane mapping unspecified.
 * The H200 recording (tests/hw/wmma; fit_layout.py prints the table below
 * from it) maps lane l's element j (register j/per, field j%per, per
 * elements a register) to (row, column) = the sum of lane[b] over the set
 * bits b of l plus the sum of slot[b] over the set bits of j, whatever
 * the memory layout; f16 A/B take 8 registers, the upper ones repeating
 * the lower. An mma multiplies the gathered matrices with mma.sync's
 * numerics (exec/mma.h): f32 D in the tensor cores' fixed-point sum (tf32:
 * k 0..3, then k 4..7 onto that), f16
 * D the exact sum rounded once, integers exact, f64 a chain of fused
 * multiply-adds in k order under the instruction's rounding, b1 the
 * population count of A's row xor (and) B's column added to C. */
#include "exec/exec.h"
#include "exec/hooks.h"
#include "exec/mma.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include "smemu.h"
#include <math.h>

enum { SH_M16N16K16, SH_M32N8K16, SH_M8N32K16, SH_M16N16K8, SH_M8N8K4, SH_M8N8K32, SH_M8N8K128, NSH };
static const char *const shape_names[NSH + 1] = {"m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8",
                                                 "m8n8k4",    "m8n8k32",  "m8n8k128", NULL};
static const uint8_t dims[NSH][3] = {{16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8},
                                     {8, 8, 4},    {8, 8, 32},  {8, 8, 128}};

/* fragment classes: the A/B element types (u8, u4 as s8, s4), and C/D */
enum { FC_F16, FC_BF16, FC_TF32, FC_F64, FC_S8, FC_S4, FC_B1, FC_C32, FC_C64 };

typedef struct wmma_map {
  char frag; /* 'a', 'b', 'c' (C and D) */
  int shape, cls;
  int8_t lane[5][2]; /* (row, column) step of each lane bit */
  int nslot;         /* element-index bits */
  int8_t slot[5][2]; /* (row, column) step of each element-index bit */
} wmma_map;

/* Fitted to the H200 recording: tests/hw/wmma/fit_layout.py table (one
 * row a fragment). */
// clang-format off
static const wmma_map maps[] = {
    {'a', SH_M16N16K16, FC_BF16, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 3, {{0, 1}, {8, 0}, {0, 8}}},
    {'a', SH_M16N16K16, FC_F16, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 4, {{0, 1}, {8, 0}, {0, 8}, {0, 0}}},
    {'a', SH_M16N16K16, FC_S8, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, 3, {{0, 1}, {0, 2}, {8, 0}}},
    {'a', SH_M16N16K8, FC_TF32, {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}, 2, {{8, 0}, {0, 4}}},
    {'a', SH_M32N8K16, FC_BF16, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 4, {{0, 1}, {8, 0}, {0, 8}, {16, 0}}},
    {'a', SH_M32N8K16, FC_F16, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 4, {{0, 1}, {8, 0}, {0, 8}, {16, 0}}},
    {'a', SH_M32N8K16, FC_S8, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, 4, {{0, 1}, {0, 2}, {8, 0}, {16, 0}}},
    {'a', SH_M8N32K16, FC_BF16, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 2, {{0, 1}, {0, 8}}},
    {'a', SH_M8N32K16, FC_F16, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 4, {{0, 1}, {0, 8}, {0, 0}, {0, 0}}},
    {'a', SH_M8N32K16, FC_S8, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, 2, {{0, 1}, {0, 2}}},
    {'a', SH_M8N8K128, FC_B1, {{0, 32}, {0, 64}, {1, 0}, {2, 0}, {4, 0}}, 5, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}},
    {'a', SH_M8N8K32, FC_S4, {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}, 3, {{0, 1}, {0, 2}, {0, 4}}},
    {'a', SH_M8N8K4, FC_F64, {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}, 0, {}},
    {'b', SH_M16N16K16, FC_BF16, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, 3, {{1, 0}, {8, 0}, {0, 8}}},
    {'b', SH_M16N16K16, FC_F16, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, 4, {{1, 0}, {8, 0}, {0, 8}, {0, 0}}},
    {'b', SH_M16N16K16, FC_S8, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}, 3, {{1, 0}, {2, 0}, {0, 8}}},
    {'b', SH_M16N16K8, FC_TF32, {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}, 2, {{4, 0}, {0, 8}}},
    {'b', SH_M32N8K16, FC_BF16, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, 2, {{1, 0}, {8, 0}}},
    {'b', SH_M32N8K16, FC_F16, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, 4, {{1, 0}, {8, 0}, {0, 0}, {0, 0}}},
    {'b', SH_M32N8K16, FC_S8, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}, 2, {{1, 0}, {2, 0}}},
    {'b', SH_M8N32K16, FC_BF16, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, 4, {{1, 0}, {0, 8}, {8, 0}, {0, 16}}},
    {'b', SH_M8N32K16, FC_F16, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, 4, {{1, 0}, {0, 8}, {8, 0}, {0, 16}}},
    {'b', SH_M8N32K16, FC_S8, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}, 4, {{1, 0}, {2, 0}, {0, 8}, {0, 16}}},
    {'b', SH_M8N8K128, FC_B1, {{32, 0}, {64, 0}, {0, 1}, {0, 2}, {0, 4}}, 5, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}},
    {'b', SH_M8N8K32, FC_S4, {{8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}}, 3, {{1, 0}, {2, 0}, {4, 0}}},
    {'b', SH_M8N8K4, FC_F64, {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}, 0, {}},
    {'c', SH_M16N16K16, FC_C32, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 3, {{0, 1}, {8, 0}, {0, 8}}},
    {'c', SH_M16N16K8, FC_C32, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 3, {{0, 1}, {8, 0}, {0, 8}}},
    {'c', SH_M32N8K16, FC_C32, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 3, {{0, 1}, {8, 0}, {16, 0}}},
    {'c', SH_M8N32K16, FC_C32, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}, 3, {{1, 0}, {0, 8}, {0, 16}}},
    {'c', SH_M8N8K128, FC_C32, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 1, {{0, 1}}},
    {'c', SH_M8N8K32, FC_C32, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 1, {{0, 1}}},
    {'c', SH_M8N8K4, FC_C64, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, 1, {{0, 1}}},
};
// clang-format on
#define NMAPS ((int)(sizeof maps / sizeof maps[0]))

static int ebits_of(int e) { return e == E_B1 ? 1 : mma_ebits(e); }

static int class_of(char frag, int e) {
  if (frag == 'c') return e == E_F64 ? FC_C64 : FC_C32;
  switch (e) {
  case E_F16:
    return FC_F16;
  case E_BF16:
    return FC_BF16;
  case E_TF32:
    return FC_TF32;
  case E_F64:
    return FC_F64;
  case E_S8:
  case E_U8:
    return FC_S8;
  case E_S4:
  case E_U4:
    return FC_S4;
  default:
    return FC_B1;
  }
}

static const wmma_map *map_of(char frag, int shape, int e) {
  int cls = class_of(frag, e);
  for (int i = 0; i < NMAPS; i++)
    if (maps[i].frag == frag && maps[i].shape == shape && maps[i].cls == cls) return &maps[i];
  return NULL;
}

/* Rows and columns of a fragment's matrix. */
static void frag_dims(char frag, int shape, int *rows, int *cols) {
  const uint8_t *d = dims[shape];
  *rows = frag == 'b' ? d[2] : d[0];
  *cols = frag == 'a' ? d[2] : d[1];
}

/* Registers of a fragment (f16 A/B: 8, the upper four repeating). */
static int frag_regs(char frag, int shape, int e) {
  int r, c;
  frag_dims(frag, shape, &r, &c);
  if (e == E_F16 && frag != 'c') return 8;
  if (e == E_F64) return r * c / 32;
  return r * c * ebits_of(e) / 1024;
}

/* Row and column of lane l's element j. */
static void pos(const wmma_map *mp, int l, int j, int *r, int *c) {
  *r = *c = 0;
  for (int b = 0; b < 5; b++)
    if (l >> b & 1) *r += mp->lane[b][0], *c += mp->lane[b][1];
  for (int b = 0; b < mp->nslot; b++)
    if (j >> b & 1) *r += mp->slot[b][0], *c += mp->slot[b][1];
}

/* insn fields: mode the shape; type the element E_*; type2 'a', 'b', 'c'
 * (load) or 'd' (store); vec 1: column-major (load/store), of mma bit 0
 * A, bit 1 B column-major; v[0] the registers' xslots index; v[1] the
 * stride register or ~0u (the default stride); a + imm the address. Of
 * mma: type the A/B E_*; imm: D E_* in bits 0..7, C E_* in 8..15, in
 * 16..17 1 .satfinite, 2 .xor.popc, 3 .and.popc, in 24..25 the f64
 * rounding (FP_*). */

static int whole(warp *w, uint32_t m, const char *what) {
  uint32_t live = w->valid & ~w->exited;
  if (m != FULL_MASK || live != FULL_MASK) {
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "%s needs all 32 lanes of the warp together, but lanes 0x%08x execute it", what, m);
    return 0;
  }
  return 1;
}

/* The host address of element (r, c) of lane l's matrix (its bit offset in
 * that byte in *bit, the device address in *addr); NULL after a fault. */
static uint8_t *elem_at(warp *w, const insn *in, int l, int r, int c, int bits, int write, uint64_t *addr,
                        int *bit) {
  int rows, cols;
  frag_dims((char)(in->type2 == 'd' ? 'c' : in->type2), in->mode, &rows, &cols);
  uint64_t ld = in->v[1] != ~0u ? (uint32_t)w->r[in->v[1]][l] : in->vec ? (uint64_t)rows : (uint64_t)cols;
  uint64_t idx = in->vec ? (uint64_t)c * ld + (uint64_t)r : (uint64_t)r * ld + (uint64_t)c;
  uint64_t boff = idx * (uint64_t)bits;
  *addr = w->r[in->a][l] + (uint64_t)in->imm + boff / 8;
  *bit = (int)(boff % 8);
  return exec_addr(w, l, in->space, *addr, bits >= 8 ? (uint32_t)bits / 8 : 1, write);
}

static void load_store(warp *w, const insn *in, uint32_t m) {
  int store = in->type2 == 'd';
  if (!whole(w, m, store ? "wmma.store" : "wmma.load")) return;
  char frag = store ? 'c' : (char)in->type2;
  const wmma_map *mp = map_of(frag, in->mode, in->type);
  int bits = ebits_of(in->type), nreg = frag_regs(frag, in->mode, in->type);
  int per = bits >= 32 ? 1 : 32 / bits, rows, cols;
  frag_dims(frag, in->mode, &rows, &cols);
  int uniq = rows * cols / 32; /* elements a lane holds (the rest repeat) */
  const uint32_t *sl = w->L->prog->xslots + in->v[0];
  static _Thread_local uint8_t *ptr[32][32];
  static _Thread_local uint8_t sh[32][32];
  static _Thread_local uint64_t addr[32][32];
  hook_warpsync(w, m);
  for (int j = 0; j < uniq; j++) {
    for (int l = 0; l < 32; l++) {
      int r, c, bit;
      pos(mp, l, j, &r, &c);
      if (!(ptr[j][l] = elem_at(w, in, l, r, c, bits, store, &addr[j][l], &bit))) return;
      sh[j][l] = (uint8_t)bit;
    }
    if (w->L->hooks) hook_mem(w, in, FULL_MASK, addr[j], bits >= 8 ? (uint32_t)bits / 8 : 1);
  }
  uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  if (store) {
    for (int l = 0; l < 32; l++)
      for (int j = 0; j < uniq; j++) {
        uint64_t v = mma_frag_elem(w, sl, l, j, bits);
        if (bits >= 8)
          memcpy(ptr[j][l], &v, (size_t)bits / 8);
        else
          *ptr[j][l] = (uint8_t)((*ptr[j][l] & ~(mask << sh[j][l])) | v << sh[j][l]);
      }
    return;
  }
  static _Thread_local uint64_t out[8][32];
  for (int l = 0; l < 32; l++) {
    for (int i = 0; i < nreg; i++) out[i][l] = 0;
    for (int j = 0; j < nreg * per; j++) {
      int u = j % uniq; /* the repeated registers hold the same elements */
      uint64_t v = 0;
      if (bits >= 8)
        memcpy(&v, ptr[u][l], (size_t)bits / 8);
      else
        v = (uint64_t)(*ptr[u][l] >> sh[u][l]) & mask;
      out[j / per][l] |= bits >= 64 ? v : v << (bits * (j % per));
    }
  }
  /* written after every read: a destination may be the address register */
  for (int i = 0; i < nreg; i++)
    if (sl[i] != SLOT_SINK)
      for (int l = 0; l < 32; l++) w->r[sl[i]][l] = out[i][l];
}

/* Gathers fragment `frag` (registers s, type e) into the matrix X (ints in
 * I when integer), `ld` elements a row. */
static void gather(warp *w, const uint32_t *s, char frag, int shape, int e, int integer, int ld, double *X,
                   int64_t *I) {
  const wmma_map *mp = map_of(frag, shape, e);
  int rows, cols, bits = ebits_of(e);
  frag_dims(frag, shape, &rows, &cols);
  for (int l = 0; l < 32; l++)
    for (int j = 0; j < rows * cols / 32; j++) {
      int r, c;
      pos(mp, l, j, &r, &c);
      uint64_t x = mma_frag_elem(w, s, l, j, bits);
      if (integer)
        I[r * ld + c] = mma_int_val(e, x);
      else
        X[r * ld + c] = mma_to_double(e, x);
    }
}

static void wmma_mma(warp *w, const insn *in, uint32_t m) {
  if (!whole(w, m, "wmma.mma")) return;
  int sh = in->mode, M = dims[sh][0], N = dims[sh][1], K = dims[sh][2];
  int ta = in->type, tc = (int)(in->imm >> 8 & 255), td = (int)(in->imm & 255), op = (int)(in->imm >> 16 & 3);
  int integer = td == E_S32;
  const uint32_t *sd = w->L->prog->xslots + in->v[0];
  int nd = frag_regs('c', sh, td), na = frag_regs('a', sh, ta), nb = frag_regs('b', sh, ta);
  const uint32_t *sa = sd + nd, *sb = sa + na, *sc = sb + nb;
  /* A: M x K rows of 128, B: K x N and C: M x N rows of 32 (M, N <= 32, K <= 128) */
  static _Thread_local double A[32 * 128], B[128 * 32], C[32 * 32];
  static _Thread_local int64_t IA[32 * 128], IB[128 * 32], IC[32 * 32];
  gather(w, sa, 'a', sh, ta, integer, 128, A, IA);
  gather(w, sb, 'b', sh, ta, integer, 32, B, IB);
  gather(w, sc, 'c', sh, tc, integer, 32, C, IC);
  /* f16 and bf16: mma.sync's f32 model; f16 D: the exact sum, rounded once */
  static const acc_model acc32 = {25, 0, 0, 0}, acc_exact = {0, 0, 0, 0};
  const wmma_map *mp = map_of('c', sh, td);
  int bd = ebits_of(td), per = bd >= 32 ? 1 : 32 / bd;
  uint64_t out[8][32];
  for (int l = 0; l < 32; l++) {
    for (int i = 0; i < nd; i++) out[i][l] = 0;
    for (int j = 0; j < M * N / 32; j++) {
      int r, c;
      pos(mp, l, j, &r, &c);
      uint64_t bits;
      if (integer) {
        int64_t s = IC[r * 32 + c];
        for (int k = 0; k < K; k++) {
          int64_t a = IA[r * 128 + k], b = IB[k * 32 + c];
          s += op >= 2 ? (op == 2 ? a ^ b : a & b) : a * b;
        }
        if (op == 1) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        bits = (uint32_t)s;
      } else if (td == E_F64) {
        double s = C[r * 32 + c];
        for (int k = 0; k < K; k++) s = fp_fma64(A[r * 128 + k], B[k * 32 + c], s, (int)(in->imm >> 24 & 3));
        bits = mma_from_double(E_F64, s);
      } else {
        double bcol[32];
        for (int k = 0; k < K; k++) bcol[k] = B[k * 32 + c];
        /* tf32 accumulates in two k4 steps, each truncated to f32 (the
         * H200's results; one k8 sum differed by up to 64 ulps) */
        int step = ta == E_TF32 ? 4 : K;
        double s = C[r * 32 + c];
        for (int k0 = 0; k0 < K; k0 += step)
          s = mma_acc_f32(td == E_F16 ? &acc_exact : &acc32, s, &A[r * 128 + k0], bcol + k0, step);
        bits = mma_from_double(td, s);
      }
      out[j / per][l] |= bits << (bd * (j % per));
    }
  }
  for (int i = 0; i < nd; i++)
    if (sd[i] != SLOT_SINK)
      for (int l = 0; l < 32; l++) w->r[sd[i]][l] = out[i][l];
}

/* ---- decode ---- */

static int type_of(const char *s) {
  static const char *const names[] = {"f16", "bf16", "tf32", "s8",  "u8", "s4",
                                      "u4",  "f32",  "s32",  "f64", "b1", NULL};
  static const int es[] = {E_F16, E_BF16, E_TF32, E_S8, E_U8, E_S4, E_U4, E_F32, E_S32, E_F64, E_B1};
  for (int i = 0; names[i]; i++)
    if (!strcmp(s, names[i])) return es[i];
  return -1;
}

/* Reads the register vector of operand o (n registers, type e) into slots. */
static int vec_opd(dctx *D, dstmt *S, int o, int n, int e, int dst, uint32_t *slots) {
  const ptx_operand *v = &S->st->ops[o];
  if (v->kind != PTX_OPD_VEC || v->nelems != n)
    return dec_error(D, S, o, "this wmma operand is a vector of %d registers", n);
  int pt = e == E_F64 ? PTX_T_F64 : e == E_F32 ? PTX_T_F32 : PTX_T_B32;
  for (int k = 0; k < n; k++) {
    int r = dst ? dec_dst_opd(D, &v->elems[k], &slots[k]) : dec_src_opd(D, &v->elems[k], pt, &slots[k]);
    if (r) return r < 0 ? -1 : dec_error(D, S, o, "bad register in the vector");
  }
  return 0;
}

/* The modifiers of a wmma statement, in order. */
typedef struct wmods {
  int kind;     /* 0 load, 1 store, 2 mma */
  char frag;    /* load/store */
  int lay[2];   /* -1 none, 0 row, 1 col */
  int shape;    /* -1 none */
  int types[4]; /* in order */
  int ntypes;
  int space;     /* PTX_SPACE_* or -1 (generic) */
  int sat, popc; /* popc: 0, 2 xor, 3 and */
  int rnd;       /* FP_* or -1 */
} wmods;

static int read_mods(dctx *D, dstmt *S, wmods *q) {
  memset(q, 0, sizeof *q);
  q->kind = q->shape = q->space = q->rnd = -1;
  q->lay[0] = q->lay[1] = -1;
  int nlay = 0, sync = 0, aligned = 0, op = 0;
  for (int i = 0; i < S->st->nmods; i++) {
    const char *s = S->st->mods[i];
    int t = type_of(s);
    if (t >= 0) {
      if (q->ntypes == 4) return dec_error(D, S, -1, "wmma: too many types");
      q->types[q->ntypes++] = t;
    } else if (i == 0 && (!strcmp(s, "load") || !strcmp(s, "store") || !strcmp(s, "mma"))) {
      q->kind = s[0] == 'l' ? 0 : s[0] == 's' ? 1 : 2;
    } else if (i == 1 && q->kind < 2 && strlen(s) == 1 && strchr("abcd", s[0])) {
      q->frag = s[0];
    } else if (!strcmp(s, "sync")) {
      sync = 1;
    } else if (!strcmp(s, "aligned")) {
      aligned = 1;
    } else if ((!strcmp(s, "row") || !strcmp(s, "col")) && nlay < 2) {
      q->lay[nlay++] = s[0] == 'c';
    } else if (!strcmp(s, "satfinite")) {
      q->sat = 1;
    } else if (q->kind == 2 && (!strcmp(s, "xor") || !strcmp(s, "and")) && !op) {
      op = s[0] == 'x' ? 2 : 3;
    } else if (!strcmp(s, "popc") && op) {
      q->popc = op;
    } else if (!strcmp(s, "global")) {
      q->space = PTX_SPACE_GLOBAL;
    } else if (!strcmp(s, "shared") || !strcmp(s, "shared::cta")) {
      q->space = PTX_SPACE_SHARED;
    } else if (q->kind == 2 &&
               (!strcmp(s, "rn") || !strcmp(s, "rz") || !strcmp(s, "rm") || !strcmp(s, "rp"))) {
      q->rnd = s[1] == 'n' ? FP_RN : s[1] == 'z' ? FP_RZ : s[1] == 'm' ? FP_RM : FP_RP;
    } else {
      int k = -1;
      for (int j = 0; shape_names[j]; j++)
        if (!strcmp(s, shape_names[j])) k = j;
      if (k < 0 || q->shape >= 0) return dec_error(D, S, -1, "wmma: unexpected modifier .%s", s);
      q->shape = k;
    }
  }
  if (q->kind < 0) return dec_error(D, S, -1, "wmma: expected .load, .store or .mma");
  if (!sync || !aligned) return dec_error(D, S, -1, "wmma must be .sync.aligned");
  if (op && !q->popc) return dec_error(D, S, -1, "wmma.mma.%s needs .popc", op == 2 ? "xor" : "and");
  if (q->kind < 2 && (q->kind ? q->frag != 'd' : !q->frag || q->frag == 'd'))
    return dec_error(D, S, -1, q->kind ? "wmma.store takes .d" : "wmma.load takes .a, .b or .c");
  if (q->shape < 0) return dec_error(D, S, -1, "wmma needs a shape (.m16n16k16 and the others)");
  if (nlay != (q->kind == 2 ? 2 : 1))
    return dec_error(D, S, -1,
                     q->kind == 2 ? "wmma.mma needs two layouts (.row/.col for A, B)"
                                  : "wmma.load/store needs a layout (.row or .col)");
  S->used = S->st->nmods >= 64 ? ~0ull : (1ull << S->st->nmods) - 1;
  return 0;
}

/* Is element type e an A/B type of shape sh (a load/mma form exists)? */
static int ab_ok(int sh, int e) {
  switch (e) {
  case E_F16:
  case E_BF16:
  case E_S8:
  case E_U8:
    return sh <= SH_M8N32K16;
  case E_TF32:
    return sh == SH_M16N16K8;
  case E_F64:
    return sh == SH_M8N8K4;
  case E_S4:
  case E_U4:
    return sh == SH_M8N8K32;
  case E_B1:
    return sh == SH_M8N8K128;
  default:
    return 0;
  }
}

/* The C/D types of A/B type e. */
static int cd_ok(int ab, int e) {
  if (ab == E_F16) return e == E_F16 || e == E_F32;
  if (ab == E_BF16 || ab == E_TF32) return e == E_F32;
  if (ab == E_F64) return e == E_F64;
  return e == E_S32;
}

/* The A/B type a C/D type of shape sh goes with (for a load/store). */
static int c_ok(int sh, int e) {
  for (int ab = E_F16; ab <= E_F64; ab++)
    if (ab_ok(sh, ab) && cd_ok(ab, e)) return 1;
  return ab_ok(sh, E_B1) && e == E_S32;
}

static int dec_load_store(dctx *D, dstmt *S, insn *in, const wmods *q) {
  int st = q->kind == 1;
  char frag = st ? 'c' : q->frag;
  if (q->ntypes != 1) return dec_error(D, S, -1, "wmma.%s takes one element type", st ? "store" : "load");
  int e = q->types[0];
  if (frag == 'c' ? !c_ok(q->shape, e) : !ab_ok(q->shape, e))
    return dec_error(D, S, -1, "wmma.%s.%c: this type does not go with .%s", st ? "store" : "load", q->frag,
                     shape_names[q->shape]);
  if (q->sat || q->popc || q->rnd >= 0)
    return dec_error(D, S, -1, "wmma.%s: unexpected modifier", st ? "store" : "load");
  if ((e == E_S4 || e == E_U4 || e == E_B1) && q->lay[0] != (frag == 'b'))
    return dec_error(D, S, -1, "wmma.load.%c of sub-byte types is .%s only", frag,
                     frag == 'b' ? "col" : "row");
  int n = S->st->nops;
  if (n != 2 && n != 3) return dec_error(D, S, -1, "wmma.%s takes 2 or 3 operands", st ? "store" : "load");
  int space = q->space >= 0 ? q->space : PTX_SPACE_GENERIC;
  if (dec_addr(D, S, st ? 0 : 1, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  if (in->flags & IF_FRAME) return dec_error(D, S, st ? 0 : 1, "wmma takes a global or shared address");
  in->space = (uint8_t)space;
  in->v[1] = ~0u;
  if (n == 3 && dec_src(D, S, 2, PTX_T_U32, &in->v[1]) < 0) return -1;
  uint32_t slots[8];
  int nr = frag_regs(frag, q->shape, e);
  if (vec_opd(D, S, st ? 1 : 0, nr, e, !st, slots) < 0) return -1;
  int64_t xi;
  if (dec_xslots(D, slots, (uint32_t)nr, &xi) < 0) return -1;
  in->v[0] = (uint32_t)xi;
  in->mode = (uint8_t)q->shape;
  in->type = (uint8_t)e;
  in->type2 = (uint8_t)(st ? 'd' : q->frag);
  in->vec = (uint8_t)q->lay[0];
  in->fn = load_store;
  return 0;
}

static int dec_wmma_mma(dctx *D, dstmt *S, insn *in, const wmods *q) {
  int ta, tc, td, sh = q->shape;
  const int *t = q->types;
  if (q->ntypes == 2 && t[0] != E_S32) { /* f16: .dtype.ctype */
    ta = E_F16, td = t[0], tc = t[1];
  } else if (q->ntypes == 4 && t[1] == t[2]) {
    ta = t[1], td = t[0], tc = t[3];
  } else if (q->ntypes == 4 && (t[1] == E_S8 || t[1] == E_U8) && (t[2] == E_S8 || t[2] == E_U8)) {
    return dec_error(D, S, -1, "wmma.mma: A and B must have one type");
  } else {
    return dec_error(D, S, -1, "wmma.mma needs the types .dtype.ctype (f16) or .dtype.atype.btype.ctype");
  }
  if (!ab_ok(sh, ta) || !cd_ok(ta, td) || !cd_ok(ta, tc))
    return dec_error(D, S, -1, "wmma.mma.%s: these types do not go with this shape", shape_names[sh]);
  if (q->sat && td != E_S32) return dec_error(D, S, -1, "wmma.mma: .satfinite applies to the integer forms");
  if (q->sat && ta == E_B1) return dec_error(D, S, -1, "wmma.mma: b1 has no .satfinite");
  if ((ta == E_B1) != (q->popc != 0)) return dec_error(D, S, -1, "wmma.mma: .xor.popc/.and.popc go with b1");
  if (q->rnd >= 0 && ta != E_F64) return dec_error(D, S, -1, "wmma.mma: a rounding modifier goes with f64");
  if ((ta == E_S4 || ta == E_U4 || ta == E_B1) && (q->lay[0] != 0 || q->lay[1] != 1))
    return dec_error(D, S, -1, "wmma.mma of sub-byte types is .row.col only");
  if (dec_nops(D, S, 4) < 0) return -1;
  int counts[4] = {frag_regs('c', sh, td), frag_regs('a', sh, ta), frag_regs('b', sh, ta),
                   frag_regs('c', sh, tc)};
  int types[4] = {td, ta, ta, tc};
  uint32_t slots[32];
  int ns = 0;
  for (int o = 0; o < 4; o++) {
    if (vec_opd(D, S, o, counts[o], types[o], o == 0, slots + ns) < 0) return -1;
    ns += counts[o];
  }
  int64_t xi;
  if (dec_xslots(D, slots, (uint32_t)ns, &xi) < 0) return -1;
  in->v[0] = (uint32_t)xi;
  in->mode = (uint8_t)sh;
  in->type = (uint8_t)ta;
  in->imm = tc << 8 | td | (q->popc ? q->popc : q->sat) << 16 | (q->rnd >= 0 ? q->rnd : FP_RN) << 24;
  in->vec = (uint8_t)(q->lay[0] | q->lay[1] << 1);
  in->fn = wmma_mma;
  return 0;
}

int dec_wmma(dctx *D, dstmt *S, insn *in) {
  wmods q;
  if (read_mods(D, S, &q) < 0) return -1;
  return q.kind == 2 ? dec_wmma_mma(D, S, in, &q) : dec_load_store(D, S, in, &q);
}
