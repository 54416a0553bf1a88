/* wgmma.c: the warpgroup-level matrix multiply-accumulate of sm_90a:
 *   wgmma.fence.sync.aligned, wgmma.commit_group.sync.aligned,
 *   wgmma.wait_group.sync.aligned N and
 *   wgmma.mma_async.sync.aligned.m64nNkK.D.A.B d, a, b-desc, scale-d, ...
 * for A/B .f16/.bf16 (K 16, D .f32 or .f16), .tf32 (K 8, D .f32),
 * .e4m3/.e5m2 (K 32, D .f32 or .f16) and .s8/.u8 (K 32, D .s32, optional
 * .satfinite), N 8..256 in steps of 8, A from four registers or from a
 * shared-memory matrix descriptor, B from a descriptor; and
 * wgmma.mma_async.sp (sparse A, twice the K: A holds K/2 packed columns,
 * placed by the metadata operand and sparsity selector that follow B's
 * descriptor, as mma.sp's m16n8 forms place them in each warp's 16 rows;
 * mma_sp_col).
 *
 * A warpgroup is four consecutive warps (warp index / 4). mma_async is a
 * collective of the four: a warp that reaches it waits (blocked, as at a
 * barrier) until the other three reach it, and the last one computes the
 * 64 x N result of all four. Warp j of the warpgroup owns rows 16j..16j+15:
 * its D fragment is mma.sync's m16n8 C fragment once per 8 columns
 * (register i: row g + 8((i/2)%2), column 8(i/4) + 2t + i%2, g = lane/4,
 * t = lane%4; .f16 D packs two columns a register) and its A register
 * fragment is mma.sync's m16n8k16 (.tf32: m16n8k8, 8-bit: m16n8k32) A
 * fragment. The result is written when computed (what the GPU's code
 * sees: ptxas waits before any use of the registers); commit_group and
 * wait_group track each warp's groups, so that the race checks see the
 * shared reads as in flight until that warp's wait (a write to them before
 * it is a hazard), and the sync check reports an access to the registers
 * of an operation not yet waited for (exec/wgmma.h). The collective orders
 * the warpgroup's earlier accesses before its reads, as a barrier of its
 * 128 threads would; fence.proxy.async is not required (the H100 read
 * generic-proxy writes without it: tests/hw/wgmma misuse case 6).
 *
 * Matrix descriptor (64 bits): start address >> 4 in bits 0..13, leading
 * byte offset (LBO) >> 4 in 16..29, stride byte offset (SBO) >> 4 in
 * 32..45, base offset in 49..51, swizzle in 62..63 (0 none, 1 128-byte,
 * 2 64-byte, 3 32-byte). The operand is one of the canonical layouts of the
 * PTX ISA ("Shared Memory Matrix Layout"; CUTLASS's make_gmma_desc), in
 * 16-byte units of T = 16 / element-size elements, for element (i, k) of
 * an MxK A or (n, k) of an NxK B, i the M or N index:
 *   K-major, no swizzle: (i%8)*16 + (i/8)*SBO + (k/T)*LBO
 *   K-major, W-unit rows (W = 2, 4, 8 for 32, 64, 128 bytes):
 *                        (i%8)*16W + (i/8)*SBO + (k/T)*16
 *   MN-major (imm-trans 1, 16-bit types only), no swizzle:
 *                        (i/T)*SBO + (k%8)*16 + (k/8)*LBO
 *   MN-major, W-unit rows: ((i/T)%W)*16 + (i/(TW))*LBO + (k%8)*16W + (k/8)*SBO
 * plus (i%T or k%T)*element-size, from the start address. The swizzle then
 * exchanges 16-byte chunks inside each row of the address itself: address
 * bits [4, 4+b) ^= bits [7, 7+b) minus the base offset, b = 1, 2, 3 for
 * 32, 64, 128 bytes (so a start address inside a swizzle row, as CUTLASS's
 * k-block steps give, reads what the layout stored there; all measured on
 * an H100, tests/hw/wgmma). */
#include "exec/wgmma.h"
#include "exec/exec.h"
#include "exec/hooks.h"
#include "exec/mma.h"
#include "exec/sched.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include "smemu.h"
#include <math.h>
#include <stdlib.h>

/* insn fields of mma_async: type/type2 the E_* of A and B, mode the E_* of
 * D; imm: xslots index of the D registers then (A from registers) the four
 * A registers; a: the A descriptor's slot; b: the B descriptor's; c:
 * scale-d's predicate (IF_NEGC: negated); v[0]: D registers, v[1]: K,
 * v[2]: WF_* flags, v[3]: N. Of wait_group: imm = N. */
enum { WF_AREG = 1, WF_NEGA = 2, WF_NEGB = 4, WF_TRANSA = 8, WF_TRANSB = 16, WF_SAT = 32, WF_SP = 64 };
/* .sp: the sparsity selector in bits 8.. of v[2]; the metadata register's
 * slot follows D's (and A's) in the xslots list */
#define WF_SEL_SHIFT 8
enum { WG_FENCE, WG_COMMIT, WG_WAIT, WG_MMA };

/* f32 accumulation of each input type (fitted to an H100: tests/hw/wgmma,
 * fit_fp8.py): 16-bit and tf32 products keep 25 bits below the largest
 * exponent; fp8 products 13, and the sum 13 below its leading bit (14
 * significant bits) for an f32 D. An f16 D is the aligned sum (without the
 * fp8 normalisation) rounded once to nearest f16. */
static const acc_model acc16 = {25, 0, 0, 0}, acc_tf32 = {25, 0, 0, 0}, acc_fp8 = {FP8_FRAC, FP8_NORM, 0, 0},
                       acc16_h = {25, 0, 1, 0}, acc_fp8_h = {FP8_FRAC, 0, 1, 0};

/* ---- per-block state ---- */

/* A wgmma.mma_async in flight (issued, not yet waited for) of one warp. */
typedef struct wg_pend {
  uint32_t pc;      /* the instruction */
  uint32_t seq;     /* which mma_async of the warp (its `issued` then): the
                       same in the 4 warps of one collective */
  uint32_t group;   /* commit group number (the warp's count of commits when
                       it was committed), ~0u while uncommitted */
  uint16_t *chunks; /* 16-byte chunks of shared memory it reads (while it
                       is computed: the checks keep them, hooks.h) */
  uint32_t nchunks;
} wg_pend;

typedef struct wg_warp {
  uint32_t waiting; /* pc + 1 of the mma_async the warp waits at, else 0 */
  uint32_t commits; /* commit_group executed */
  uint32_t fences;  /* wgmma.fence executed */
  uint32_t issued;  /* mma_async completed */
  wg_pend *pend;    /* in flight, oldest first */
  uint32_t npend, cappend;
} wg_warp;

struct wg_block {
  wg_warp w[32]; /* per warp of the block */
};

static wg_block *wg_get(block *b) {
  if (b->wg) return b->wg;
  wg_block *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  return b->wg = g;
}

void wgmma_block_reset(block *b) {
  wg_block *g = b->wg;
  if (!g) return;
  for (int i = 0; i < 32; i++) {
    wg_warp *x = &g->w[i];
    for (uint32_t j = 0; j < x->npend; j++) free(x->pend[j].chunks);
    free(x->pend);
    memset(x, 0, sizeof *x);
  }
}

void wgmma_block_free(block *b) {
  if (!b->wg) return;
  wgmma_block_reset(b);
  free(b->wg);
  b->wg = NULL;
}

/* ---- descriptors ---- */

typedef struct wg_desc {
  uint64_t raw;
  uint32_t start, lbo, sbo, base, sw; /* bytes; sw: 0 none, else 128/64/32 */
} wg_desc;

static wg_desc desc_of(uint64_t d) {
  static const uint32_t sw[4] = {0, 128, 64, 32};
  wg_desc x = {d,
               (uint32_t)(d & 0x3fff) << 4,
               (uint32_t)(d >> 16 & 0x3fff) << 4,
               (uint32_t)(d >> 32 & 0x3fff) << 4,
               (uint32_t)(d >> 49 & 7),
               sw[d >> 62 & 3]};
  return x;
}

static const char *sw_name(uint32_t sw) {
  return sw == 128  ? "128-byte swizzle"
         : sw == 64 ? "64-byte swizzle"
         : sw == 32 ? "32-byte swizzle"
                    : "no swizzle";
}

/* The shared address of element (i, k) (i: the M or N index). */
static uint32_t desc_addr(const wg_desc *d, int trans, uint32_t esize, uint32_t i, uint32_t k) {
  uint32_t T = 16 / esize, W = d->sw / 16, off;
  if (!trans) {
    off = (k % T) * esize;
    if (!d->sw)
      off += (i % 8) * 16 + (i / 8) * d->sbo + (k / T) * d->lbo;
    else
      off += (i % 8) * 16 * W + (i / 8) * d->sbo + (k / T) * 16;
  } else {
    off = (i % T) * esize;
    if (!d->sw)
      off += (i / T) * d->sbo + (k % 8) * 16 + (k / 8) * d->lbo;
    else
      off += ((i / T) % W) * 16 + (i / (T * W)) * d->lbo + (k % 8) * 16 * W + (k / 8) * d->sbo;
  }
  uint32_t a = d->start + off;
  if (d->sw) {
    uint32_t bits = d->sw == 128 ? 7 : d->sw == 64 ? 3 : 1;
    /* the base offset moves the pattern's row phase back (measured: a tile
     * 384 bytes past a 1024-byte boundary with base offset 3 reads as one
     * on the boundary, tests/hw/wgmma f16_f32_n32_off384_bo3) */
    uint32_t ph = (a >> 7) - d->base;
    a ^= (ph & bits) << 4;
  }
  return a;
}

static uint32_t esize_of(int e) { return e == E_F16 || e == E_BF16 ? 2 : e == E_TF32 ? 4 : 1; }

static const char *type_name(int e) {
  static const char *const n[] = {"f16", "bf16", "tf32", "s8",  "u8",   "s4",
                                  "u4",  "f32",  "s32",  "f64", "e4m3", "e5m2"};
  return n[e];
}

/* Check descriptor d of operand `which` ("A"/"B") of warp w for the shape
 * rows x K: a layout the hardware cannot address as described. The GPU
 * reads such a layout without complaint (tests/hw/wgmma misuse case 10);
 * smemu stops there, since the bytes read are not the matrix laid out. */
static int desc_check(warp *w, const wg_desc *d, const char *which, int trans, uint32_t esize, uint32_t K,
                      uint32_t rows) {
  uint32_t row = K * esize; /* bytes of K a row of a K-major operand spans */
  if (d->sw && !trans && d->start % d->sw + row > d->sw) {
    exec_fault(
        w, -1, SMEMU_ERR_MISALIGNED,
        "wgmma.mma_async: the %s descriptor (0x%016llx) starts at shared address 0x%x, %u bytes into a "
        "%u-byte swizzle row, so the %u bytes of K of each row would cross into the next row: with %s the "
        "start address must be a multiple of %u (plus 0, %u, ... for the k-steps inside a row)",
        which, (unsigned long long)d->raw, d->start, d->start % d->sw, d->sw, row, sw_name(d->sw), d->sw,
        row);
    return 0;
  }
  if (d->sw && trans && d->start % d->sw) {
    exec_fault(
        w, -1, SMEMU_ERR_MISALIGNED,
        "wgmma.mma_async: the %s descriptor (0x%016llx, MN-major, %s) starts at shared address 0x%x, which "
        "is not a multiple of the %u-byte swizzle row",
        which, (unsigned long long)d->raw, sw_name(d->sw), d->start, d->sw);
    return 0;
  }
  if (d->sw && d->sbo < 8 * d->sw && !trans && rows > 8) {
    exec_fault(
        w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
        "wgmma.mma_async: the %s descriptor (0x%016llx, K-major, %s) has a stride byte offset of %u, less "
        "than the %u bytes of one 8-row swizzle atom: consecutive groups of 8 rows overlap (SBO is the "
        "distance between them)",
        which, (unsigned long long)d->raw, sw_name(d->sw), d->sbo, 8 * d->sw);
    return 0;
  }
  return 1;
}

/* Read element (i, k) of an operand through its descriptor into *x; fault
 * (0) outside the block's shared memory. */
static int desc_read(warp *w, const wg_desc *d, const char *which, int trans, uint32_t esize, uint32_t i,
                     uint32_t k, uint64_t *x) {
  block *b = w->blk;
  uint32_t a = desc_addr(d, trans, esize, i, k), lo = w->L->prog->smem_lo;
  if (a < lo || a + esize > b->smem_size) {
    exec_fault(
        w, -1, SMEMU_ERR_ILLEGAL_ADDRESS,
        "wgmma.mma_async: the %s descriptor (0x%016llx: start 0x%x, LBO %u, SBO %u, %s) addresses element "
        "(%s %u, k %u) at shared address 0x%x, outside the block's shared memory (0x%x..0x%x)",
        which, (unsigned long long)d->raw, d->start, d->lbo, d->sbo, sw_name(d->sw),
        which[0] == 'A' ? "row" : "column", i, k, a, lo, b->smem_size);
    return 0;
  }
  uint64_t v = 0;
  memcpy(&v, b->smem + a, esize);
  *x = v;
  return 1;
}

/* ---- the collective ---- */

/* The four warps of w's warpgroup, or 0 after a fault. */
static int members(warp *w, warp *mem[4]) {
  block *b = w->blk;
  uint32_t g = w->index / 4;
  if (4 * g + 3 >= b->nwarps) {
    exec_fault(
        w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
        "wgmma needs whole warpgroups of 4 warps (128 threads), but the block has %u threads: warpgroup %u "
        "has only %u warp(s)",
        b->nthreads, g, b->nwarps - 4 * g);
    return 0;
  }
  for (int j = 0; j < 4; j++) {
    mem[j] = &b->warps[4 * g + (uint32_t)j];
    if (mem[j]->valid != FULL_MASK) {
      exec_fault(
          w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
          "wgmma needs whole warpgroups of 4 warps (128 threads), but warp %u of the block has only %d "
          "thread(s)",
          mem[j]->index, __builtin_popcount(mem[j]->valid));
      return 0;
    }
  }
  return 1;
}

/* .sync.aligned: every thread of the warp executes it together. */
static int aligned(warp *w, uint32_t m, const char *what) {
  uint32_t live = w->valid & ~w->exited;
  if (m != FULL_MASK || live != FULL_MASK) {
    exec_fault(
        w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
        "%s is .sync.aligned: all 32 threads of the warp must execute it together, but lanes 0x%08x do "
        "(0x%08x have not exited)",
        what, m, live);
    return 0;
  }
  return 1;
}

/* Per-lane D fragment position of element i (32-bit elements). */
static inline void d_pos(int l, int i, int *r, int *c) {
  int g = l >> 2, t = l & 3;
  *r = g + 8 * ((i >> 1) & 1);
  *c = 8 * (i >> 2) + 2 * t + (i & 1);
}

/* A register-fragment element position: element i (of 8 16-bit, 4 tf32,
 * or 16 8-bit elements) of lane l: row, k. */
static inline void a_pos(int ta, int l, int i, int *r, int *c) {
  int g = l >> 2, t = l & 3;
  if (ta == E_TF32) {
    *r = g + 8 * (i & 1);
    *c = t + 4 * (i >> 1);
  } else if (esize_of(ta) == 2) {
    *r = g + 8 * ((i >> 1) & 1);
    *c = 2 * t + (i & 1) + 8 * (i >> 2);
  } else {
    *r = g + 8 * ((i >> 2) & 1);
    *c = 4 * t + (i & 3) + 16 * (i >> 3);
  }
}

static double val(int e, uint64_t x, int neg) {
  double v = mma_to_double(e, x);
  return neg ? -v : v;
}

/* Add chunk c (a 16-byte unit of shared memory) to p's list. */
static void chunk_add(wg_pend *p, uint32_t c, uint32_t *cap) {
  for (uint32_t j = p->nchunks; j-- > 0 && j + 8 >= p->nchunks;)
    if (p->chunks[j] == c) return; /* recent duplicate */
  if (p->nchunks == *cap) {
    uint32_t n = *cap ? 2 * *cap : 256;
    uint16_t *q = realloc(p->chunks, n * sizeof *q);
    if (!q) return;
    p->chunks = q;
    *cap = n;
  }
  p->chunks[p->nchunks++] = (uint16_t)c;
}

/* Compute warp x's rows of the warpgroup's mma_async (in = its instruction)
 * and write its D registers; the shared chunks it reads go to p. Returns 0
 * after a fault (reported on warp `rep`). */
static int compute(warp *x, warp *rep, const insn *in, wg_pend *p, const wg_desc *db) {
  const uint32_t *sd = x->L->prog->xslots + in->imm;
  int ta = in->type, tb = in->type2, td = in->mode;
  uint32_t nd = in->v[0], K = in->v[1], fl = in->v[2], N = in->v[3];
  uint32_t ea = esize_of(ta), eb = esize_of(tb), j = x->index % 4, cap = 0;
  int integer = td == E_S32, sp = !!(fl & WF_SP);
  uint32_t KA = sp ? K / 2 : K; /* .sp: A holds half of K, packed */
  static _Thread_local double A[16][64], B[256][64];
  static _Thread_local int64_t IA[16][64], IB[256][64];
  static _Thread_local int kc[16][64];
  /* A: 16 rows x KA */
  if (fl & WF_AREG) {
    const uint32_t *sa = sd + nd;
    int per = (int)(4 / ea);
    for (int l = 0; l < 32; l++)
      for (int i = 0; i < 4 * per; i++) {
        int r, c;
        a_pos(ta, l, i, &r, &c);
        uint64_t v = (x->r[sa[i / per]][l] >> (8 * ea * (uint32_t)(i % per))) & ((1ull << (8 * ea)) - 1);
        if (ea == 4) v = x->r[sa[i]][l] & 0xffffffffu;
        if (integer)
          IA[r][c] = ta == E_S8 ? (int8_t)v : (int64_t)(uint8_t)v;
        else
          A[r][c] = val(ta, v, fl & WF_NEGA);
      }
  } else {
    wg_desc da = desc_of(x->r[in->a][0]);
    if (!desc_check(rep, &da, "A", !!(fl & WF_TRANSA), ea, KA, 64)) return 0;
    for (uint32_t r = 0; r < 16; r++)
      for (uint32_t k = 0; k < KA; k++) {
        uint64_t v;
        if (!desc_read(rep, &da, "A", !!(fl & WF_TRANSA), ea, 16 * j + r, k, &v)) return 0;
        chunk_add(p, desc_addr(&da, !!(fl & WF_TRANSA), ea, 16 * j + r, k) / 16, &cap);
        if (integer)
          IA[r][k] = ta == E_S8 ? (int8_t)v : (int64_t)(uint8_t)v;
        else
          A[r][k] = val(ta, v, fl & WF_NEGA);
      }
  }
  /* B: N x K */
  for (uint32_t n = 0; n < N; n++)
    for (uint32_t k = 0; k < K; k++) {
      uint64_t v;
      if (!desc_read(rep, db, "B", !!(fl & WF_TRANSB), eb, n, k, &v)) return 0;
      chunk_add(p, desc_addr(db, !!(fl & WF_TRANSB), eb, n, k) / 16, &cap);
      if (integer)
        IB[n][k] = tb == E_S8 ? (int8_t)v : (int64_t)(uint8_t)v;
      else
        B[n][k] = val(tb, v, fl & WF_NEGB);
    }
  /* A's column k of row r multiplies B's column kc[r][k] */
  uint32_t meta = sd[nd + (fl & WF_AREG ? 4 : 0)];
  for (int r = 0; r < 16; r++)
    for (uint32_t k = 0; k < KA; k++)
      kc[r][k] = sp ? mma_sp_col(x, meta, 8 * (int)ea, (int)K, (int)(fl >> WF_SEL_SHIFT), r, (int)k) : (int)k;
  int fp8 = ta == E_E4M3 || ta == E_E5M2;
  const acc_model *am = ta == E_TF32  ? &acc_tf32
                        : fp8         ? (td == E_F16 ? &acc_fp8_h : &acc_fp8)
                        : td == E_F16 ? &acc16_h
                                      : &acc16;
  uint32_t scale = x->p[in->c] ^ (in->flags & IF_NEGC ? FULL_MASK : 0);
  static _Thread_local uint64_t out[128][32];
  for (int l = 0; l < 32; l++) {
    int sc = (int)(scale >> l & 1);
    for (uint32_t i = 0; i < nd; i++) out[i][l] = 0;
    uint32_t nel = td == E_F16 ? 2 * nd : nd;
    for (uint32_t i = 0; i < nel; i++) {
      int r, c;
      d_pos(l, (int)i, &r, &c);
      uint32_t reg = td == E_F16 ? i / 2 : i, sh = td == E_F16 ? 16 * (i % 2) : 0;
      uint64_t cur = (x->r[sd[reg]][l] >> sh) & (td == E_F16 ? 0xffff : 0xffffffffu), bits;
      if (integer) {
        int64_t s = sc ? (int32_t)cur : 0;
        for (uint32_t k = 0; k < KA; k++) s += IA[r][k] * IB[c][kc[r][k]];
        if (fl & WF_SAT) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        bits = (uint32_t)s;
      } else {
        double cv = sc ? mma_to_double(td, cur) : 0.0;
        double bk[64];
        for (uint32_t k = 0; k < KA; k++) bk[k] = B[c][kc[r][k]];
        double s = mma_acc_f32(am, cv, A[r], bk, (int)KA);
        bits = mma_from_double(td, s) & (td == E_F16 ? 0xffff : 0xffffffffu);
      }
      out[reg][l] |= bits << sh;
    }
  }
  for (uint32_t i = 0; i < nd; i++)
    if (sd[i] != SLOT_SINK)
      for (int l = 0; l < 32; l++) x->r[sd[i]][l] = out[i][l];
  return 1;
}

/* The checks every wgmma instruction `name` makes first (a whole, aligned
 * warpgroup: its warps in mem) and the block's wgmma state; NULL after a
 * fault. */
static wg_block *wg_enter(warp *w, uint32_t m, const char *name, warp *mem[4]) {
  if (!aligned(w, m, name) || !members(w, mem)) return NULL;
  wg_block *g = wg_get(w->blk);
  if (!g) exec_fault(w, -1, SMEMU_ERR_OUT_OF_MEMORY, "out of host memory for wgmma state");
  return g;
}

static void mma_async(warp *w, const insn *in, uint32_t m) {
  warp *mem[4];
  wg_block *g = wg_enter(w, m, "wgmma.mma_async", mem);
  if (!g) return;
  wg_warp *me = &g->w[w->index];
  uint32_t pc = w->pc;
  me->waiting = pc + 1;
  /* the others: all there (at this instruction), or some still to come */
  for (int j = 0; j < 4; j++) {
    warp *o = mem[j];
    wg_warp *ow = &g->w[o->index];
    if (o == w) continue;
    if (o->state == W_DONE || o->exited == FULL_MASK) {
      exec_fault(
          w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
          "wgmma.mma_async is a collective of the warpgroup's 4 warps, but warp %u of warpgroup %u has "
          "exited: it can never execute it (the GPU does not complete the operation)",
          o->index, w->index / 4);
      return;
    }
    if (ow->waiting && ow->waiting != pc + 1) {
      char here[256], there[256];
      exec_where(w->L->prog, pc, here, sizeof here);
      exec_where(w->L->prog, ow->waiting - 1, there, sizeof there);
      exec_fault(
          w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
          "wgmma.mma_async is .aligned: the warpgroup's 4 warps must execute the same instruction, but warp "
          "%u is at %s while warp %u is at %s",
          w->index, here, o->index, there);
      return;
    }
    if (!ow->waiting) {
      /* wait, blocked as at a barrier, until the last warp arrives */
      simt_entry *t = &w->stack[w->sp - 1]; /* its pc is already past the instruction */
      t->blocked = WG_BLOCKED;
      w->state = W_BAR;
      return;
    }
  }
  /* the last warp: compute for all four */
  wg_desc db = desc_of(w->r[in->b][0]);
  for (int j = 0; j < 4; j++)
    if (mem[j]->r[in->b][0] != db.raw) {
      exec_fault(
          w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
          "wgmma.mma_async: the warps of warpgroup %u give different B descriptors (0x%016llx in warp %u, "
          "0x%016llx in warp %u)",
          w->index / 4, (unsigned long long)db.raw, w->index, (unsigned long long)mem[j]->r[in->b][0],
          mem[j]->index);
      return;
    }
  if (!desc_check(w, &db, "B", !!(in->v[2] & WF_TRANSB), esize_of(in->type2), in->v[1], in->v[3])) return;
  wg_pend *pend[4];
  for (int j = 0; j < 4; j++) {
    wg_warp *x = &g->w[mem[j]->index];
    if (x->npend == x->cappend) {
      uint32_t n = x->cappend ? 2 * x->cappend : 8;
      wg_pend *q = realloc(x->pend, n * sizeof *q);
      if (!q) {
        exec_fault(w, -1, SMEMU_ERR_OUT_OF_MEMORY, "out of host memory for wgmma state");
        return;
      }
      x->pend = q;
      x->cappend = n;
    }
    pend[j] = &x->pend[x->npend];
    *pend[j] = (wg_pend){pc, x->issued, ~0u, NULL, 0};
    if (!compute(mem[j], w, in, pend[j], &db)) {
      free(pend[j]->chunks);
      return;
    }
  }
  /* the checks: the collective orders what the 128 threads did before it,
   * and the reads are in flight until each warp waits for them */
  uint16_t *ck[4];
  uint32_t nck[4];
  for (int j = 0; j < 4; j++) ck[j] = pend[j]->chunks, nck[j] = pend[j]->nchunks;
  hook_wgmma_issue(w, mem, in, ck, nck);
  for (int j = 0; j < 4; j++) {
    warp *o = mem[j];
    wg_warp *x = &g->w[o->index];
    free(pend[j]->chunks);
    pend[j]->chunks = NULL;
    pend[j]->nchunks = 0;
    x->npend++;
    x->issued++;
    x->waiting = 0;
    if (o != w) {
      /* release it past the instruction */
      simt_entry *t = &o->stack[o->sp - 1];
      t->blocked = 0;
      t->pc = pc + 1;
      if (o->state == W_BAR) o->state = W_RUN;
    }
  }
}

/* wgmma.wait_group n by warp w: its operations of groups older than the
 * newest n are complete (for w: another warp's wait orders nothing for w). */
static void retire(wg_block *g, warp *w, uint32_t n) {
  wg_warp *x = &g->w[w->index];
  uint32_t keep = 0;
  for (uint32_t i = 0; i < x->npend; i++) {
    /* an uncommitted operation is waited for by no wait_group: it stays */
    if (!(x->pend[i].group != ~0u && x->pend[i].group + n < x->commits)) x->pend[keep++] = x->pend[i];
  }
  x->npend = keep;
}

static void wg_simple(warp *w, const insn *in, uint32_t m) {
  static const char *const names[] = {"wgmma.fence", "wgmma.commit_group", "wgmma.wait_group"};
  warp *mem[4];
  wg_block *g = wg_enter(w, m, names[in->mode], mem);
  if (!g) return;
  wg_warp *x = &g->w[w->index];
  /* .sync: the warp's lanes meet here, as at __syncwarp */
  hook_warpsync(w, m);
  switch (in->mode) {
  case WG_FENCE:
    x->fences++;
    break;
  case WG_COMMIT:
    for (uint32_t i = 0; i < x->npend; i++)
      if (x->pend[i].group == ~0u) x->pend[i].group = x->commits;
    x->commits++;
    hook_wgmma_commit(w, m);
    break;
  default:
    retire(g, w, (uint32_t)in->imm);
    /* the checks' view: the reads waited for are complete, and what the
     * warpgroup's operations read is ordered before what w does next */
    hook_wgmma_wait(w, m, (uint32_t)in->imm, x->issued != 0);
    break;
  }
}

/* ---- registers in flight ---- */

/* The register slots an instruction of a guarded kind reads or writes
 * (only fields that hold registers for it). */
static int guard_fields(const insn *in, uint32_t out[8]) {
  int n = 0;
  switch (in->op) {
  case OP_LD:
  case OP_ST:
    for (int k = 0; k < in->vec && k < 4; k++) out[n++] = in->v[k];
    break;
  case OP_SETP:
    out[n++] = in->a;
    out[n++] = in->b;
    break;
  case OP_FMA:
  case OP_MAD:
    out[n++] = in->c;
    /* fall through */
  case OP_MOV:
  case OP_CVT:
  case OP_ADD:
  case OP_SUB:
  case OP_MUL:
  case OP_MAX:
  case OP_MIN:
  case OP_ABS:
  case OP_NEG:
  case OP_SELP:
    out[n++] = in->d;
    out[n++] = in->a;
    out[n++] = in->b;
    break;
  default:
    break;
  }
  return n;
}

/* A guarded instruction: is one of its registers a D (or A) register of a
 * wgmma.mma_async this warp has not waited for? Then report it (sync
 * check), and run the instruction: the GPU reads the final value, as
 * ptxas waits before such an access. */
static void acc_guard(warp *w, const insn *in, uint32_t m) {
  const program *P = w->L->prog;
  uint32_t pc = (uint32_t)(in - P->code);
  wg_block *g = w->blk->wg;
  if (g && w->index < 32 && g->w[w->index].npend && w->nframes == 1 && hooks_want_sync(w)) {
    uint32_t f[8];
    int nf = guard_fields(in, f), hit = 0;
    const wg_warp *x = &g->w[w->index];
    for (uint32_t k = 0; k < x->npend && !hit; k++) {
      const insn *q = &P->code[x->pend[k].pc];
      const uint32_t *sl = P->xslots + q->imm;
      uint32_t ns = q->v[0] + (q->v[2] & WF_AREG ? 4 : 0);
      for (uint32_t i = 0; i < ns && !hit; i++)
        for (int j = 0; j < nf; j++) hit |= sl[i] == f[j] && f[j] >= SLOT_FIRST;
    }
    if (hit) hook_wgmma_early(w, m);
  }
  P->wg_orig[pc](w, in, m);
}

int wgmma_guard_pass(program *P) {
  const func_info *k = &P->funcs[0];
  uint32_t nregs = k->nregs, any = 0;
  uint8_t *acc = NULL;
  for (uint32_t pc = k->entry; pc < k->end; pc++) {
    const insn *q = &P->code[pc];
    if (q->op != OP_WGMMA || q->fn != mma_async) continue;
    if (!acc && !(acc = calloc(nregs ? nregs : 1, 1))) return -1;
    const uint32_t *sl = P->xslots + q->imm;
    uint32_t ns = q->v[0] + (q->v[2] & WF_AREG ? 4 : 0);
    for (uint32_t i = 0; i < ns; i++)
      if (sl[i] < nregs) acc[sl[i]] = 1;
    any = 1;
  }
  if (!any) return 0;
  if (!(P->wg_orig = calloc(P->ncode, sizeof *P->wg_orig))) {
    free(acc);
    return -1;
  }
  for (uint32_t pc = k->entry; pc < k->end; pc++) {
    insn *in = &P->code[pc];
    uint32_t f[8];
    int nf = guard_fields(in, f), hit = 0;
    for (int j = 0; j < nf; j++) hit |= f[j] >= SLOT_FIRST && f[j] < nregs && acc[f[j]];
    if (!hit || !in->fn) continue;
    P->wg_orig[pc] = in->fn;
    in->fn = acc_guard;
  }
  free(acc);
  return 0;
}

/* What warp w (blocked with WG_BLOCKED) waits for, for deadlock reports. */
static int wgmma_blocked_text(const block *b, const warp *w, char *buf, size_t n) {
  const wg_block *g = b->wg;
  if (!g) return snprintf(buf, n, "a wgmma.mma_async");
  uint32_t grp = w->index / 4, k = 0;
  char miss[64] = "";
  for (uint32_t j = 0; j < 4 && 4 * grp + j < b->nwarps; j++)
    if (!g->w[4 * grp + j].waiting)
      k += (uint32_t)snprintf(miss + k, sizeof miss - k, "%s%u", k ? ", " : "", 4 * grp + j);
  return snprintf(buf, n, "wgmma.mma_async of warpgroup %u (waiting for warp(s) %s)", grp, miss);
}

int dec_wgmma(dctx *D, dstmt *S, insn *in) {
  int kind = dec_take(S, "fence")          ? WG_FENCE
             : dec_take(S, "commit_group") ? WG_COMMIT
             : dec_take(S, "wait_group")   ? WG_WAIT
             : dec_take(S, "mma_async")    ? WG_MMA
                                           : -1;
  if (kind < 0)
    return dec_error(D, S, -1, "wgmma: expected .fence, .commit_group, .wait_group or .mma_async");
  if (!dec_take(S, "sync") || !dec_take(S, "aligned"))
    return dec_error(D, S, -1, "wgmma must be .sync.aligned");
  if (kind != WG_MMA) {
    in->mode = (uint8_t)kind;
    in->fn = wg_simple;
    if (kind != WG_WAIT) return dec_nops(D, S, 0) < 0 ? -1 : 0;
    if (dec_nops(D, S, 1) < 0) return -1;
    const ptx_operand *o = &S->st->ops[0];
    if (o->kind != PTX_OPD_INT || o->ival < 0 || o->ival > 7)
      return dec_error(D, S, 0, "wgmma.wait_group takes an integer constant 0..7");
    in->imm = o->ival;
    return 0;
  }
  int sp = dec_take(S, "sp");
  /* the shape, then D, A, B types in order (.satfinite before them) */
  unsigned n = 0, k = 0;
  int shape = -1, types[3], nt = 0, sat = 0;
  for (int i = 0; i < S->st->nmods; i++) {
    const char *md = S->st->mods[i];
    char tail;
    if (sscanf(md, "m64n%uk%u%c", &n, &k, &tail) == 2) {
      shape = i;
      continue;
    }
    if (!strcmp(md, "satfinite")) {
      sat = 1;
      continue;
    }
    if (!strcmp(md, "mma_async") || !strcmp(md, "sync") || !strcmp(md, "aligned") || !strcmp(md, "sp"))
      continue;
    static const char *const tn[] = {"f16", "bf16", "tf32", "s8",  "u8",   "s4",
                                     "u4",  "f32",  "s32",  "f64", "e4m3", "e5m2"};
    int e = -1;
    for (int t = 0; t < 12; t++)
      if (!strcmp(md, tn[t])) e = t;
    if (e < 0 || nt == 3) return dec_error(D, S, -1, "wgmma.mma_async: unexpected modifier .%s", md);
    types[nt++] = e;
  }
  S->used = (S->st->nmods >= 64) ? ~0ull : (1ull << S->st->nmods) - 1;
  if (shape < 0 || nt != 3)
    return dec_error(D, S, -1, "wgmma.mma_async needs a shape .m64nNkK and the types of D, A and B");
  int td = types[0], ta = types[1], tb = types[2];
  int f16ab = (ta == E_F16 && tb == E_F16) || (ta == E_BF16 && tb == E_BF16);
  int fp8 = (ta == E_E4M3 || ta == E_E5M2) && (tb == E_E4M3 || tb == E_E5M2);
  int i8 = (ta == E_S8 || ta == E_U8) && (tb == E_S8 || tb == E_U8);
  int tf = ta == E_TF32 && tb == E_TF32;
  unsigned kk = (f16ab ? 16 : tf ? 8 : 32) * (sp ? 2 : 1);
  if (!(f16ab || fp8 || i8 || tf))
    return dec_error(D, S, -1,
                     "wgmma.mma_async: A .%s with B .%s is not a form (f16, bf16, tf32, e4m3/e5m2, s8/u8)",
                     type_name(ta), type_name(tb));
  if (i8 ? td != E_S32 : !(td == E_F32 || (td == E_F16 && (ta == E_F16 || fp8))))
    return dec_error(D, S, -1, "wgmma.mma_async: D .%s is not allowed with A/B .%s", type_name(td),
                     type_name(ta));
  if (sat && !i8) return dec_error(D, S, -1, "wgmma.mma_async: .satfinite applies to the integer forms");
  if (k != kk)
    return dec_error(D, S, -1, "wgmma.mma_async: .%s inputs take K = %u (.m64n%uk%u)", type_name(ta), kk, n,
                     kk);
  if (n < 8 || n > 256 || n % 8 || (i8 && n > 32 && n % 16))
    return dec_error(D, S, -1, "wgmma.mma_async: N = %u is not a shape (8..256 in steps of 8%s)", n,
                     i8 ? "; above 32, of 16 for the integer forms" : "");
  uint32_t nd = td == E_F16 ? n / 4 : n / 2;
  int nimm = i8 ? 0 : tf || fp8 ? 2 : 4;
  int areg = S->st->nops > 1 && S->st->ops[1].kind == PTX_OPD_VEC;
  if (areg && f16ab) nimm = 3;
  int o0 = sp ? 2 : 0; /* .sp: metadata and selector before scale-d */
  if (dec_nops(D, S, 4 + o0 + nimm) < 0) return -1;
  const ptx_operand *dv = &S->st->ops[0];
  if (dv->kind != PTX_OPD_VEC || (uint32_t)dv->nelems != nd)
    return dec_error(D, S, 0, "wgmma.mma_async.m64n%uk%u.%s: D is a vector of %u registers", n, k,
                     type_name(td), nd);
  uint32_t slots[133];
  for (uint32_t i = 0; i < nd; i++) {
    int r = dec_src_opd(D, &dv->elems[i], td == E_F32 ? PTX_T_F32 : PTX_T_B32, &slots[i]);
    if (r) return r < 0 ? -1 : dec_error(D, S, 0, "bad register in the D vector");
    if (dv->elems[i].kind != PTX_OPD_REG) return dec_error(D, S, 0, "D must be registers");
  }
  uint32_t ns = nd, fl = 0;
  if (areg) {
    const ptx_operand *av = &S->st->ops[1];
    if (av->nelems != 4)
      return dec_error(D, S, 1, "wgmma.mma_async: A from registers is a vector of 4 registers");
    for (int i = 0; i < 4; i++) {
      int r = dec_src_opd(D, &av->elems[i], PTX_T_B32, &slots[ns++]);
      if (r) return r < 0 ? -1 : dec_error(D, S, 1, "bad register in the A vector");
    }
    fl |= WF_AREG;
  } else if (dec_src(D, S, 1, PTX_T_B64, &in->a) < 0) {
    return -1;
  }
  if (dec_src(D, S, 2, PTX_T_B64, &in->b) < 0) return -1;
  if (sp) {
    if (dec_src(D, S, 3, PTX_T_B32, &slots[ns++]) < 0) return -1;
    const ptx_operand *o = &S->st->ops[4];
    int nsel = mma_sp_nsel(8 * (int)esize_of(ta), (int)kk);
    if (o->kind != PTX_OPD_INT || o->ival < 0 || o->ival >= nsel)
      return dec_error(D, S, 4,
                       "the sparsity selector of wgmma.mma_async.sp with .%s is an integer constant 0..%d",
                       type_name(ta), nsel - 1);
    fl |= WF_SP | (uint32_t)o->ival << WF_SEL_SHIFT;
  }
  int neg;
  if (dec_psrc(D, S, 3 + o0, &in->c, &neg) < 0) return -1;
  if (neg) in->flags |= IF_NEGC;
  for (int i = 0; i < nimm; i++) {
    const ptx_operand *o = &S->st->ops[4 + o0 + i];
    if (o->kind != PTX_OPD_INT)
      return dec_error(D, S, 4 + o0 + i, "wgmma.mma_async: expected an integer constant");
    int is_scale = i < 2;
    if (is_scale ? (o->ival != 1 && o->ival != -1) : (o->ival != 0 && o->ival != 1))
      return dec_error(D, S, 4 + o0 + i, is_scale ? "imm-scale is 1 or -1" : "imm-trans is 0 or 1");
    if (i == 0 && o->ival < 0) fl |= WF_NEGA;
    if (i == 1 && o->ival < 0) fl |= WF_NEGB;
    if (i == 2 && o->ival) fl |= areg ? WF_TRANSB : WF_TRANSA;
    if (i == 3 && o->ival) fl |= WF_TRANSB;
  }
  if (sat) fl |= WF_SAT;
  if (dec_xslots(D, slots, ns, &in->imm) < 0) return -1;
  in->type = (uint8_t)ta;
  in->type2 = (uint8_t)tb;
  in->mode = (uint8_t)td;
  in->space = PTX_SPACE_SHARED;
  in->v[0] = nd;
  in->v[1] = kk;
  in->v[2] = fl;
  in->v[3] = n;
  in->fn = mma_async;
  return 0;
}

/* Warps at wgmma.mma_async waiting for the rest of their warpgroup, when
 * only such warps wait: the rest of their warpgroups has exited or passed
 * it (the GPU: an illegal instruction, synccheck's "Warpgroup MMA sequence
 * error", tests/hw/wgmma misuse case 2). */
static void wgmma_alone(warp *w0, const char *lines) {
  exec_fault(
      w0, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
      "warpgroup MMA sequence error: wgmma.mma_async executed by an incomplete warpgroup (its other warps "
      "exited or went past it):%s",
      lines);
}

static const sched_waits wgmma_waits = {
    .blocked = WG_BLOCKED, .blocked_text = wgmma_blocked_text, .blocked_alone = wgmma_alone};
SCHED_REGISTER(wgmma_waits)
