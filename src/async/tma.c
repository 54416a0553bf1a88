/* tma.c: the Tensor Memory Accelerator instructions of sm_90:
 *   cp.async.bulk.tensor.Nd.shared::cluster.global(.tile|.im2col)
 *       .mbarrier::complete_tx::bytes(.multicast::cluster)
 *       [dst], [tmap, {coords}], [mbar](, {im2col offsets})(, ctaMask)
 *   cp.async.bulk.tensor.Nd.global.shared::cta(.tile|.im2col).bulk_group
 *       [tmap, {coords}], [src]
 *   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP(.tile).bulk_group
 *   cp.async.bulk.prefetch.tensor.Nd.L2.global (no effect here)
 *   tensormap.replace.tile.FIELD.(global|shared::cta).b1024.TYPE
 * on maps in smemu's encoding (tensormap.h). A copy happens when it is
 * issued, as the non-tensor bulk copies do (bulk.c): box elements outside
 * the tensor are filled with zero (or the canonical NaN of a float type
 * with NAN_REQUEST_ZERO_FMA) on loads and skipped on stores; the shared
 * tile is laid out box-row-major and swizzled on the shared address bits
 * (the 16-byte chunk index XOR bits 7.. of the address), and the whole
 * box's bytes complete on the mbarrier. The race checks see a load as the
 * issuing thread's write of the tile, released at its completion, and a
 * store as its read of the tile, which must follow a fence.proxy.async by
 * every thread that wrote those bytes (async_store_check). A load into
 * another block of the cluster, or multicast to the blocks of a ctaMask,
 * writes (and completes on the mbarrier of) each destination block at the
 * same CTA-relative offsets (see bulk.c). */
#include "async/async.h"
#include "async/tensormap.h"
#include "exec/atom.h"
#include "exec/cluster.h"
#include "exec/hooks.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include "smemu.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { TMA_LOAD, TMA_STORE, TMA_REDUCE, TMA_PREFETCH };
/* insn.type2 bits */
enum { TF_IM2COL = 1, TF_MCAST = 2 };
/* reduction operations (insn.vec) */
enum { RED_ADD, RED_MIN, RED_MAX, RED_INC, RED_DEC, RED_AND, RED_OR, RED_XOR };
static const char *const red_names[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", NULL};
/* xslots of a TMA instruction: coordinates, im2col offsets, ctaMask */
enum { XS_COORD = 0, XS_OFF = 5, XS_MASK = 8, XS_N = 9 };

/* The tensor map at generic address a (param window, global or const):
 * 0, or -1 after a fault. */
static int read_map(warp *w, int l, uint64_t a, tmap *t, uint8_t raw[128]) {
  if (a % 64) {
    exec_fault(w, l, SMEMU_ERR_MISALIGNED, "tensor map at 0x%llx: a tensor map must be aligned to 64 bytes",
               (unsigned long long)a);
    return -1;
  }
  for (int k = 0; k < 16; k++) {
    const uint8_t *p = exec_addr(w, l, PTX_SPACE_GENERIC, a + 8 * (uint64_t)k, 8, 0);
    if (!p) return -1;
    memcpy(raw + 8 * k, p, 8);
  }
  if (tmap_decode(raw, t) < 0) {
    exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "the tensor map at 0x%llx was not made by cuTensorMapEncodeTiled/Im2col (or was overwritten)",
               (unsigned long long)a);
    return -1;
  }
  return 0;
}

/* A map generic address into PARAM_WINDOW or a global one. */
static uint64_t map_addr(warp *w, const insn *in, int l) {
  uint64_t a = w->r[in->b][l] + (uint64_t)(int64_t)(int32_t)in->v[1];
  if (in->flags & IF_KPARAM) a += PARAM_WINDOW; /* [param] named directly */
  return a;
}

/* The box walk: for each of the box's elements in shared-memory order,
 * its coordinates (in bounds or not). Tiled maps only. */
typedef struct walk {
  const tmap *t;
  int64_t c[5];     /* start coordinates */
  uint32_t n[5];    /* elements per dimension */
  uint32_t step[5]; /* coordinate step per dimension */
  uint32_t total;   /* elements in the box */
} walk;

static void walk_init(walk *k, const tmap *t, const int64_t *c) {
  k->t = t;
  k->total = 1;
  for (uint32_t i = 0; i < 5; i++) {
    k->c[i] = i < t->rank ? c[i] : 0;
    uint32_t s = (i == 0 && !t->interleave) || i >= t->rank ? 1 : t->estride[i];
    k->step[i] = s;
    k->n[i] = i < t->rank ? (t->box[i] + s - 1) / s : 1;
    k->total *= k->n[i];
  }
}

/* Element e of the box: its global address, or 0 when it is outside the
 * tensor. */
static uint64_t walk_at(const walk *k, uint32_t e) {
  const tmap *t = k->t;
  uint64_t a = t->addr;
  for (uint32_t i = 0; i < t->rank; i++) {
    int64_t x = k->c[i] + (int64_t)(e % k->n[i]) * k->step[i];
    e /= k->n[i];
    /* interleaved maps: dimension 1 is not bounds-checked, its rows go on
     * in memory (measured on an H100: rows past globalDim[1] read the next
     * bytes, a box past globalDim[2] reads zeros) */
    if ((x < 0 || (uint64_t)x >= t->dim[i]) && !(t->interleave && i == 1)) return 0;
    a += (uint64_t)x * t->stride[i];
  }
  return a;
}

/* im2col: element (pixel p, channel ch) of the box, or 0 outside. The
 * pixels walk the bounding box [lower, dim - 1 + upper] of each spatial
 * dimension (W fastest) from the start coordinates, by the element
 * strides, then the next image; the offsets shift the pixel read. */
typedef struct i2c {
  const tmap *t;
  uint64_t *pix; /* per pixel: its base address, or 0 outside */
} i2c;

static int i2c_init(i2c *k, const tmap *t, const int64_t *c, const uint16_t *off) {
  k->t = t;
  k->pix = malloc(sizeof *k->pix * t->ppc);
  if (!k->pix) return -1;
  uint32_t ns = t->rank - 2;
  int64_t sp[3] = {0, 0, 0}, n = c[t->rank - 1];
  for (uint32_t j = 0; j < ns; j++) sp[j] = c[1 + j];
  for (uint32_t p = 0; p < t->ppc; p++) {
    uint64_t a = t->addr;
    int in = n >= 0 && (uint64_t)n < t->dim[t->rank - 1];
    a += (uint64_t)n * t->stride[t->rank - 1];
    for (uint32_t j = 0; j < ns; j++) {
      int64_t x = sp[j] + off[j];
      if (x < 0 || (uint64_t)x >= t->dim[1 + j]) in = 0;
      a += (uint64_t)x * t->stride[1 + j];
    }
    k->pix[p] = in ? a : 0;
    /* the next pixel */
    uint32_t j = 0;
    for (; j < ns; j++) {
      sp[j] += t->estride[1 + j];
      if (sp[j] <= (int64_t)t->dim[1 + j] - 1 + t->upper[j]) break;
      sp[j] = t->lower[j];
    }
    if (j == ns) n += t->estride[t->rank - 1];
  }
  return 0;
}

/* The fill of an element outside the tensor: zero, or with
 * NAN_REQUEST_ZERO_FMA the 16-bit pattern 0x7FF7 repeated, whatever the
 * float type (measured on an H100: f16, bf16 and f32 elements all read
 * f7 7f f7 7f ..., a NaN in each format). */
static void oob_fill(const tmap *t, uint8_t *p, uint32_t es) {
  memset(p, 0, es);
  if (!t->nan_fill || !tmap_is_float(t->dtype)) return;
  for (uint32_t i = 0; i + 1 < es; i += 2) {
    p[i] = 0xf7;
    p[i + 1] = 0x7f;
  }
}

/* Box bytes and their shared layout: element e (row-major in the box) goes
 * to shared address swizzle(base + row * pitch + col * es), where a row is
 * the box's inner dimension and the pitch its bytes, or with a swizzle the
 * swizzle span: a narrower row still takes a whole span (measured on an
 * H100: 16-byte rows under the 128-byte swizzle land 128 bytes apart). The
 * transaction count is the box's bytes without that padding. */
static uint32_t box_bytes(const tmap *t) {
  if (t->im2col) return t->cpp * t->ppc * (uint32_t)t->stride[0];
  walk k;
  int64_t z[5] = {0};
  walk_init(&k, t, z);
  return k.total * (uint32_t)t->stride[0];
}

static uint64_t smem_at(const tmap *t, uint64_t base, uint32_t e, uint32_t row_elems) {
  uint32_t es = (uint32_t)t->stride[0];
  if (t->swizzle < 1 || t->swizzle > 3) return base + (uint64_t)e * es;
  if (t->interleave)
    return tmap_swizzle(t->swizzle, (uint32_t)(base + (uint64_t)e * es)); /* packed (measured) */
  uint64_t off = (uint64_t)(e / row_elems) * (16u << t->swizzle) + (uint64_t)(e % row_elems) * es;
  return tmap_swizzle(t->swizzle, (uint32_t)(base + off));
}
/* The shared bytes the tile covers (with a swizzle's padding). */
static uint32_t smem_span(const tmap *t, uint32_t bytes, uint32_t row_elems) {
  if (t->swizzle < 1 || t->swizzle > 3 || t->interleave) return bytes;
  return bytes / (row_elems * (uint32_t)t->stride[0]) * (16u << t->swizzle);
}

/* Global address of element e of the box (tiled or im2col); 0 outside. */
static uint64_t elem_at(const tmap *t, const walk *k, const i2c *m, int64_t c0, uint32_t e) {
  if (!t->im2col) return walk_at(k, e);
  uint32_t p = e / t->cpp, ch = e % t->cpp;
  int64_t x = c0 + ch;
  if (!m->pix[p] || x < 0 || (uint64_t)x >= t->dim[0]) return 0;
  return m->pix[p] + (uint64_t)x * t->stride[0];
}

/* Apply reduction `op` of data type dt to one element: *g op= s. */
static void reduce_elem(int op, int dt, uint8_t *g, const uint8_t *s) {
  uint32_t es = tmap_esize(dt);
  if (dt == 6 || dt == 9 || dt == 7 || dt == 10 || dt == 11 || dt == 12 || dt == 8) {
    double a, b, r;
    if (es == 2) {
      uint16_t x, y;
      memcpy(&x, g, 2);
      memcpy(&y, s, 2);
      a = dt == 6 ? fp_f16_to_f32(x) : fp_bf16_to_f32(x);
      b = dt == 6 ? fp_f16_to_f32(y) : fp_bf16_to_f32(y);
    } else if (es == 4) {
      float x, y;
      memcpy(&x, g, 4);
      memcpy(&y, s, 4);
      a = x;
      b = y;
    } else {
      memcpy(&a, g, 8);
      memcpy(&b, s, 8);
    }
    /* min/max return the number when one operand is NaN (measured on an
     * H100: min.f16 of a NaN and a number gives the number) */
    r = op == RED_ADD ? a + b : op == RED_MIN ? fmin(a, b) : fmax(a, b);
    if (es == 2) {
      uint16_t h = dt == 6 ? fp_f64_to_f16(op == RED_ADD ? (double)(float)((float)a + (float)b) : r, FP_RN)
                           : fp_f64_to_bf16(op == RED_ADD ? (double)(float)((float)a + (float)b) : r, FP_RN);
      memcpy(g, &h, 2);
    } else if (es == 4) {
      float f = op == RED_ADD ? (float)a + (float)b : (float)r;
      memcpy(g, &f, 4);
    } else {
      memcpy(g, &r, 8);
    }
    return;
  }
  /* integers: signed min/max for s32 and s64 */
  static const int aop[] = {A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR}; /* by RED_* */
  int t = dt == 3 ? PTX_T_S32 : dt == 5 ? PTX_T_S64 : PTX_T_U64;
  uint64_t a = 0, b = 0, r;
  memcpy(&a, g, es);
  memcpy(&b, s, es);
  r = atom_apply(aop[op], t, a, b, 0, (int)es);
  memcpy(g, &r, es);
}

/* Which reductions a data type allows (the PTX ISA's table). */
static int reduce_ok(int op, int dt) {
  switch (dt) {
  case 2:
    return 1; /* u32: all */
  case 3:
  case 4:
    return op != RED_INC && op != RED_DEC; /* s32, u64 */
  case 5:
    return op == RED_MIN || op == RED_MAX; /* s64: add, and, or, xor are illegal instructions on an H100 */
  case 6:
  case 9:
    return op <= RED_MAX; /* f16, bf16: add, min, max */
  case 7:
  case 10:
  case 8:
    return op == RED_ADD; /* f32, f64: add */
  default:
    return 0;
  }
}

static const char *dtype_name(int dt) {
  static const char *const n[] = {"UINT8",        "UINT16",       "UINT32",        "INT32",
                                  "UINT64",       "INT64",        "FLOAT16",       "FLOAT32",
                                  "FLOAT64",      "BFLOAT16",     "FLOAT32_FTZ",   "TFLOAT32",
                                  "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"};
  return dt >= 0 && dt < 16 ? n[dt] : "?";
}

static void h_tma(warp *w, const insn *in, uint32_t m) {
  const uint32_t *xs = w->L->prog->xslots + in->imm;
  int kind = in->mode, rank = in->type;
  LANES(m, {
    tmap t;
    uint8_t raw[128];
    uint64_t ma = map_addr(w, in, l);
    if (read_map(w, l, ma, &t, raw) < 0) return;
    if ((int)t.rank != rank || t.im2col != !!(in->type2 & TF_IM2COL)) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                 "a %dd %s copy with a tensor map of rank %u made by cuTensorMapEncode%s", rank,
                 (in->type2 & TF_IM2COL) ? "im2col" : "tile", t.rank, t.im2col ? "Im2col" : "Tiled");
      return;
    }
    if (t.dtype >= 13) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION, "tensor maps of packed type %s are not supported",
                 dtype_name(t.dtype));
      return;
    }
    if (kind == TMA_PREFETCH) continue;
    int64_t c[5];
    uint16_t off[3];
    for (int i = 0; i < 5; i++) c[i] = i < rank ? (int64_t)(int32_t)w->r[xs[XS_COORD + i]][l] : 0;
    for (int i = 0; i < 3; i++)
      off[i] = (in->type2 & TF_IM2COL) && i < rank - 2 ? (uint16_t)w->r[xs[XS_OFF + i]][l] : 0;
    uint64_t sh = w->r[in->a][l] + (uint64_t)(int64_t)(int32_t)in->v[0];
    uint32_t es = (uint32_t)t.stride[0], bytes = box_bytes(&t);
    uint32_t row = t.im2col ? t.cpp : t.box[0], span = smem_span(&t, bytes, row);
    if (t.interleave == 2 || (t.interleave == 1 && t.swizzle == 3)) {
      /* measured on an H100 (tests/hw/tma): interleave 32B copies land
       * in a layout smemu does not model; interleave 16B with the 128B
       * swizzle never completes its transaction bytes */
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                 "cp.async.bulk.tensor with an interleave %s map%s: not modelled (the H100 %s)",
                 t.interleave == 2 ? "32B" : "16B", t.interleave == 2 ? "" : " and the 128B swizzle",
                 t.interleave == 2 ? "lays the box out differently from the PTX ISA's description"
                                   : "never completes such a copy's transaction bytes");
      return;
    }
    if (kind == TMA_STORE || kind == TMA_REDUCE)
      for (int i = 0; i < rank; i++)
        if (c[i] < 0) {
          /* measured: an H100 raises an illegal instruction for a store box
           * starting before the tensor (a box past its end is clipped);
           * reductions are taken to behave as stores */
          exec_fault(
              w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
              "a tensor store or reduction with coordinate %lld in dimension %d: a store box must not start "
              "before the tensor",
              (long long)c[i], i);
          return;
        }
    if (!t.im2col && !t.interleave && (c[0] * (int64_t)es) % 16) {
      /* measured: an H100 raises an illegal instruction */
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                 "cp.async.bulk.tensor at coordinate %lld of dimension 0: the box must start on a 16-byte "
                 "boundary (%lld elements of %u bytes are not)",
                 (long long)c[0], (long long)c[0], es);
      return;
    }
    if (sh % 128) {
      exec_fault(
          w, l, SMEMU_ERR_MISALIGNED,
          "cp.async.bulk.tensor with shared address 0x%llx: the shared tile must be aligned to 128 bytes",
          (unsigned long long)sh);
      return;
    }
    /* the blocks a load writes: the one its shared::cluster address names
     * (the mbarrier must be in it too), or each block of the multicast
     * mask, at the same CTA-relative offsets; a store reads its own */
    uint64_t doff = sh, moff = 0;
    uint32_t dmask = 1u << w->blk->rank;
    int dspace = PTX_SPACE_SHARED;
    if (kind == TMA_LOAD && !(sh >> 32)) {
      uint64_t mb = w->r[in->c][l] + (uint64_t)(int64_t)(int32_t)in->v[2];
      uint32_t dr = cluster_rank(w, sh, &doff), mr = cluster_rank(w, mb, &moff);
      dspace = PTX_SPACE_SHARED_CLUSTER;
      if (in->type2 & TF_MCAST) {
        dmask = (uint32_t)w->r[xs[XS_MASK]][l] & 0xffff;
        if (!dmask) continue; /* no destination */
      } else if (mb >> 32) {
        moff = mb; /* mbar_complete_tx reports it */
        dmask = 1u << dr;
      } else if (dr != mr) {
        exec_fault(
            w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
            "cp.async.bulk.tensor into block rank %u of the cluster completing on an mbarrier of block rank "
            "%u: the mbarrier must be in the same block as the destination",
            dr, mr);
        return;
      } else if (dr >= MAX_CLUSTER) {
        exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, sh, 16, 1); /* a rank past the cluster */
        return;
      } else {
        dmask = 1u << dr;
      }
    }
    /* the whole tile must lie in each block's shared memory */
    for (uint32_t r = 0; r < 32; r++) {
      if (!(dmask >> r & 1)) continue;
      uint64_t d = dspace == PTX_SPACE_SHARED ? sh : cluster_addr(w, r, doff);
      if (!exec_addr(w, l, dspace, d, 16, kind == TMA_LOAD) ||
          !exec_addr(w, l, dspace, d + ((span - 1) & ~15u), 16, kind == TMA_LOAD))
        return;
    }
    if (kind == TMA_REDUCE && !reduce_ok(in->vec, t.dtype)) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                 "cp.reduce.async.bulk.tensor .%s on a tensor of type %s", red_names[in->vec],
                 dtype_name(t.dtype));
      return;
    }
    for (uint32_t dr = 0; dr < 32; dr++) {
      if (!(dmask >> dr & 1)) continue;
      uint64_t d = dspace == PTX_SPACE_SHARED ? sh : cluster_addr(w, dr, doff);
      walk k;
      i2c im = {0};
      walk_init(&k, &t, c);
      if (t.im2col && i2c_init(&im, &t, c, off) < 0) {
        exec_fault(w, l, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
        return;
      }
      uint32_t nel = bytes / es, bad = 0;
      uint64_t tmp;
      uint8_t *smem = dspace == PTX_SPACE_SHARED ? w->blk->smem : cluster_target(w, d, &tmp)->smem;
      for (uint32_t e = 0; e < nel && !bad; e++) {
        uint64_t g = elem_at(&t, &k, &im, c[0], e), s = smem_at(&t, doff, e, row);
        if (kind == TMA_LOAD) {
          if (!g) {
            oob_fill(&t, smem + s, es);
            continue;
          }
          const uint8_t *gp = exec_addr(w, l, PTX_SPACE_GLOBAL, g, es, 0);
          if (!gp) {
            bad = 1;
            break;
          }
          memcpy(smem + s, gp, es);
        } else if (g) {
          uint8_t *gp = exec_addr(w, l, PTX_SPACE_GLOBAL, g, es, 1);
          if (!gp) {
            bad = 1;
            break;
          }
          if (kind == TMA_STORE)
            memcpy(gp, smem + s, es);
          else
            reduce_elem(in->vec, t.dtype, gp, smem + s);
        }
      }
      free(im.pix);
      if (bad) return;
      int dir = kind == TMA_LOAD ? ASYNC_TO_SHARED : ASYNC_FROM_SHARED;
      hook_async_count(w, bytes, dir,
                       kind == TMA_LOAD    ? PIPE_TENSOR_LOAD
                       : kind == TMA_STORE ? PIPE_TENSOR_STORE
                                           : PIPE_REDUCE);
      if (span == bytes) {
        hook_async_race(w, in, l, d, span, dir);
      } else {
        /* narrow rows under a swizzle: only their 16-byte chunks, where the
         * swizzle puts them, are the copy's (the rest of each span is not
         * touched) */
        uint32_t pitch = 16u << t.swizzle, chunks = row * es / 16;
        for (uint32_t r = 0; r < span / pitch; r++)
          for (uint32_t k2 = 0; k2 < chunks; k2++)
            hook_async_race(w, in, l,
                            d - doff +
                                tmap_swizzle(t.swizzle, (uint32_t)(doff + (uint64_t)r * pitch + 16u * k2)),
                            16, dir);
      }
      if (kind == TMA_LOAD &&
          mbar_complete_tx(w, l, moff >> 32 ? moff : cluster_addr(w, dr, moff), bytes) < 0)
        return;
    }
  });
}

/* Decode the [tmap, {coords}] operand i: map base and offset, the
 * coordinate slots. */
static int dec_map_opd(dctx *D, dstmt *S, int i, insn *in, int rank, uint32_t *xs) {
  const ptx_operand *o = &S->st->ops[i];
  if (o->kind != PTX_OPD_ADDR || o->nelems != 1 || o->elems[0].kind != PTX_OPD_VEC)
    return dec_error(D, S, i, "expected [tensorMap, {coordinates}]");
  const ptx_operand *v = &o->elems[0];
  if (v->nelems != rank)
    return dec_error(D, S, i, "a %dd copy takes %d coordinates, not %d", rank, rank, v->nelems);
  for (int k = 0; k < rank; k++)
    if (dec_src_opd(D, &v->elems[k], PTX_T_S32, &xs[XS_COORD + k]) < 0) return -1;
  /* the map's address: a register, or a kernel parameter named directly */
  ptx_operand a = *o;
  a.nelems = 0;
  a.elems = NULL;
  ptx_stmt st = *S->st;
  ptx_operand ops[1] = {a};
  st.ops = ops;
  st.nops = 1;
  dstmt s2 = *S;
  s2.st = &st;
  int space = PTX_SPACE_PARAM;
  int64_t off;
  uint8_t fl = 0;
  if (dec_addr(D, &s2, 0, &in->b, &off, &space, &fl) < 0) return -1;
  if (fl & IF_KPARAM) {
    in->flags |= IF_KPARAM;
  } else {
    space = PTX_SPACE_GENERIC;
    fl = 0;
    if (dec_addr(D, &s2, 0, &in->b, &off, &space, &fl) < 0) return -1;
    if (fl & IF_FRAME) return dec_error(D, S, i, "a tensor map cannot be in local memory");
  }
  in->v[1] = (uint32_t)(int32_t)off;
  return 0;
}

static int dim_of(dstmt *S) {
  static const char *const dims[] = {"1d", "2d", "3d", "4d", "5d", NULL};
  int d = dec_take_any(S, dims);
  return d < 0 ? -1 : d + 1;
}

/* 1 when .global comes before .shared::*: the destination is global. */
static int global_first(const dstmt *S) {
  for (int i = 0; i < S->st->nmods; i++) {
    if (!strcmp(S->st->mods[i], "global")) return 1;
    if (!strncmp(S->st->mods[i], "shared", 6)) return 0;
  }
  return 0;
}

/* After cp.async.bulk.tensor (and cp.async.bulk.prefetch.tensor, prefetch
 * set; cp.reduce.async.bulk.tensor, reduce set). */
int dec_tma(dctx *D, dstmt *S, insn *in, int prefetch, int reduce) {
  int rank = dim_of(S);
  if (rank < 0) return dec_error(D, S, -1, "cp.async.bulk.tensor needs a dimension (.1d to .5d)");
  uint32_t xs[XS_N];
  for (int i = 0; i < XS_N; i++) xs[i] = SR_ZERO;
  int kind, n = S->st->nops, i = 0;
  uint8_t fl = 0;
  if (prefetch) {
    kind = TMA_PREFETCH;
    dec_take(S, "L2");
    if (!dec_take(S, "global"))
      return dec_error(D, S, -1, "cp.async.bulk.prefetch.tensor prefetches .global");
  } else if (global_first(S) && dec_take(S, "global")) {
    kind = reduce ? TMA_REDUCE : TMA_STORE;
    if (!dec_take(S, "shared::cta")) return dec_error(D, S, -1, "a tensor store copies from .shared::cta");
    if (reduce) {
      int op = dec_take_any(S, red_names);
      if (op < 0)
        return dec_error(
            D, S, -1,
            "cp.reduce.async.bulk.tensor needs an operation (.add .min .max .inc .dec .and .or .xor)");
      in->vec = (uint8_t)op;
    }
    if (!dec_take(S, "bulk_group")) return dec_error(D, S, -1, "a tensor store completes in a .bulk_group");
  } else if (!reduce && (dec_take(S, "shared::cluster") || dec_take(S, "shared::cta"))) {
    kind = TMA_LOAD;
    if (!dec_take(S, "global")) return dec_error(D, S, -1, "a tensor load copies from .global");
    if (!dec_take(S, "mbarrier::complete_tx::bytes"))
      return dec_error(D, S, -1, "a tensor load completes on an mbarrier (.mbarrier::complete_tx::bytes)");
    if (dec_take(S, "multicast::cluster")) in->type2 |= TF_MCAST;
  } else {
    return dec_error(D, S, -1, "unsupported cp.async.bulk.tensor form");
  }
  if (dec_take(S, "im2col"))
    in->type2 |= TF_IM2COL;
  else
    dec_take(S, "tile");
  if ((in->type2 & TF_IM2COL) && rank < 3) return dec_error(D, S, -1, "im2col copies are 3d to 5d");
  if (dec_take(S, "im2col::w") || dec_take(S, "im2col::w::128") || dec_take(S, "tile::gather4"))
    return dec_error(D, S, -1, "this load mode is sm_100's, not supported");
  if (dec_take(S, "cta_group::1") || dec_take(S, "cta_group::2"))
    return dec_error(D, S, -1, ".cta_group is sm_100's, not supported");
  int hint = dec_take(S, "L2::cache_hint");
  in->space = PTX_SPACE_SHARED;
  if (kind == TMA_LOAD) {
    int space = PTX_SPACE_SHARED;
    int64_t off;
    if (n < 3) return dec_error(D, S, -1, "a tensor load takes [dst], [tensorMap, {coordinates}], [mbar]");
    if (dec_addr(D, S, 0, &in->a, &off, &space, &fl) < 0) return -1;
    in->v[0] = (uint32_t)(int32_t)off;
    if (dec_map_opd(D, S, 1, in, rank, xs) < 0) return -1;
    space = PTX_SPACE_SHARED;
    if (dec_addr(D, S, 2, &in->c, &off, &space, &fl) < 0) return -1;
    in->v[2] = (uint32_t)(int32_t)off;
    i = 3;
  } else if (kind == TMA_PREFETCH) {
    if (n < 1) return dec_error(D, S, -1, "a tensor prefetch takes [tensorMap, {coordinates}]");
    if (dec_map_opd(D, S, 0, in, rank, xs) < 0) return -1;
    i = 1;
  } else {
    int space = PTX_SPACE_SHARED;
    int64_t off;
    if (n < 2) return dec_error(D, S, -1, "a tensor store takes [tensorMap, {coordinates}], [src]");
    if (dec_map_opd(D, S, 0, in, rank, xs) < 0) return -1;
    if (dec_addr(D, S, 1, &in->a, &off, &space, &fl) < 0) return -1;
    in->v[0] = (uint32_t)(int32_t)off;
    i = 2;
  }
  if (fl & IF_FRAME) return dec_error(D, S, -1, "cp.async.bulk.tensor does not take local addresses");
  if ((in->type2 & TF_IM2COL) && kind != TMA_STORE && kind != TMA_REDUCE) {
    if (i >= n || S->st->ops[i].kind != PTX_OPD_VEC || S->st->ops[i].nelems != rank - 2)
      return dec_error(D, S, i < n ? i : -1, "a %dd im2col copy takes %d im2col offsets {...}", rank,
                       rank - 2);
    for (int k = 0; k < rank - 2; k++)
      if (dec_src_opd(D, &S->st->ops[i].elems[k], PTX_T_U16, &xs[XS_OFF + k]) < 0) return -1;
    i++;
  }
  if (in->type2 & TF_MCAST) {
    if (dec_src(D, S, i, PTX_T_U16, &xs[XS_MASK]) < 0) return -1;
    i++;
  }
  if (hint) {
    uint32_t pol;
    if (dec_src(D, S, i, PTX_T_U64, &pol) < 0) return -1;
    i++;
  }
  if (i != n) return dec_error(D, S, i < n ? i : -1, "cp.async.bulk.tensor: %d operands, expected %d", n, i);
  in->mode = (uint8_t)kind;
  in->type = (uint8_t)rank;
  if (dec_xslots(D, xs, XS_N, &in->imm) < 0) return dec_error(D, S, -1, "out of memory");
  in->fn = h_tma;
  return 0;
}

/* ---- cp.reduce.async.bulk (non-tensor) ----
 *   .global.shared::cta.bulk_group.OP.TYPE [dst], [src], size
 *   .shared::cluster.shared::cta.mbarrier::complete_tx::bytes.OP.TYPE
 *       [dst], [src], size, [mbar]                                        */
static void h_bulk_reduce(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  int to_shared = in->space == PTX_SPACE_SHARED;
  LANES(m, {
    uint64_t dst = A[l] + (uint64_t)(int64_t)(int32_t)in->v[0];
    uint64_t src = B[l] + (uint64_t)(int64_t)(int32_t)in->v[1];
    uint32_t n = (uint32_t)C[l], es = tmap_esize(in->type2);
    if (n % 16 || dst % 16 || src % 16) {
      exec_fault(w, l, SMEMU_ERR_MISALIGNED,
                 "cp.reduce.async.bulk of %u bytes from 0x%llx to 0x%llx: size and addresses must be "
                 "multiples of 16",
                 n, (unsigned long long)src, (unsigned long long)dst);
      return;
    }
    for (uint32_t o = 0; o < n; o += 16) {
      uint8_t *dp = exec_addr(w, l, to_shared ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL, dst + o, 16, 1);
      if (!dp) return;
      const uint8_t *sp = exec_addr(w, l, PTX_SPACE_SHARED, src + o, 16, 0);
      if (!sp) return;
      for (uint32_t e = 0; e < 16; e += es) reduce_elem(in->vec, in->type2, dp + e, sp + e);
    }
    if (n && !to_shared) hook_async_copy(w, in, l, src, n, ASYNC_FROM_SHARED, PIPE_REDUCE);
    if (n && to_shared) {
      hook_async_copy(w, in, l, dst, n, ASYNC_TO_SHARED, PIPE_REDUCE);
      if (mbar_complete_tx(w, l, w->r[in->d][l] + (uint64_t)in->imm, n) < 0) return;
    }
  });
}

int dec_bulk_reduce(dctx *D, dstmt *S, insn *in) {
  if (!dec_take(S, "async") || !dec_take(S, "bulk"))
    return dec_error(D, S, -1, "expected cp.reduce.async.bulk");
  if (dec_take(S, "tensor")) return dec_tma(D, S, in, 0, 1);
  int to_shared = 0;
  if (dec_take(S, "shared::cluster")) {
    if (!dec_take(S, "shared::cta") || !dec_take(S, "mbarrier::complete_tx::bytes"))
      return dec_error(D, S, -1,
                       "cp.reduce.async.bulk.shared::cluster reduces from .shared::cta on an mbarrier");
    to_shared = 1;
  } else if (!dec_take(S, "global") || !dec_take(S, "shared::cta") || !dec_take(S, "bulk_group")) {
    return dec_error(
        D, S, -1, "cp.reduce.async.bulk reduces .shared::cta into .global (.bulk_group) or .shared::cluster");
  }
  int op = dec_take_any(S, red_names);
  if (op < 0) return dec_error(D, S, -1, "cp.reduce.async.bulk needs an operation");
  dec_take(S, "noftz");
  dec_take(S, "L2::cache_hint");
  if (S->ntypes != 1) return dec_error(D, S, -1, "cp.reduce.async.bulk takes one type");
  /* the type as a tensor-map data type, for reduce_elem */
  int dt;
  switch (S->types[0]) {
  case PTX_T_U32:
  case PTX_T_B32:
    dt = 2;
    break;
  case PTX_T_S32:
    dt = 3;
    break;
  case PTX_T_U64:
  case PTX_T_B64:
    dt = 4;
    break;
  case PTX_T_S64:
    dt = 5;
    break;
  case PTX_T_F16:
    dt = 6;
    break;
  case PTX_T_BF16:
    dt = 9;
    break;
  case PTX_T_F32:
    dt = 7;
    break;
  case PTX_T_F64:
    dt = 8;
    break;
  default:
    return dec_error(D, S, -1, "cp.reduce.async.bulk: unsupported type");
  }
  if (!reduce_ok(op, dt) && !((op == RED_AND || op == RED_OR || op == RED_XOR) && (dt == 2 || dt == 4)))
    return dec_error(D, S, -1, "cp.reduce.async.bulk: .%s is not defined for this type", red_names[op]);
  int n = S->st->nops;
  if (n != (to_shared ? 4 : 3))
    return dec_error(D, S, -1, "cp.reduce.async.bulk takes [dst], [src], size%s",
                     to_shared ? ", [mbar]" : "");
  int space = to_shared ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL;
  int64_t off;
  uint8_t fl = 0;
  if (dec_addr(D, S, 0, &in->a, &off, &space, &fl) < 0) return -1;
  in->v[0] = (uint32_t)(int32_t)off;
  space = PTX_SPACE_SHARED;
  if (dec_addr(D, S, 1, &in->b, &off, &space, &fl) < 0) return -1;
  in->v[1] = (uint32_t)(int32_t)off;
  if (dec_src(D, S, 2, PTX_T_U32, &in->c) < 0) return -1;
  if (to_shared) {
    space = PTX_SPACE_SHARED;
    if (dec_addr(D, S, 3, &in->d, &in->imm, &space, &fl) < 0) return -1;
  }
  if (fl & IF_FRAME) return dec_error(D, S, -1, "cp.reduce.async.bulk does not take local addresses");
  in->space = (uint8_t)(to_shared ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL);
  in->vec = (uint8_t)op;
  in->type2 = (uint8_t)dt;
  in->fn = h_bulk_reduce;
  return 0;
}

/* ---- tensormap.replace.tile.FIELD.SPACE.b1024.TYPE [addr], (ord,) value ---- */
enum {
  TR_ADDR,
  TR_RANK,
  TR_BOX,
  TR_GDIM,
  TR_GSTRIDE,
  TR_ESTRIDE,
  TR_ELEMTYPE,
  TR_INTERLEAVE,
  TR_SWIZZLE,
  TR_FILL
};

static void h_tmap_replace(warp *w, const insn *in, uint32_t m) {
  LANES(m, {
    uint64_t a = w->r[in->a][l] + (uint64_t)in->imm;
    int space = in->space;
    uint8_t raw[128];
    uint8_t *p[16];
    if (a % 64) {
      exec_fault(w, l, SMEMU_ERR_MISALIGNED,
                 "tensormap.replace at 0x%llx: a tensor map must be aligned to 64 bytes",
                 (unsigned long long)a);
      return;
    }
    for (int k = 0; k < 16; k++) {
      if (!(p[k] = exec_addr(w, l, space, a + 8 * (uint64_t)k, 8, 1))) return;
      memcpy(raw + 8 * k, p[k], 8);
    }
    tmap t;
    if (tmap_decode(raw, &t) < 0) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                 "tensormap.replace on 0x%llx, which holds no tensor map made by cuTensorMapEncode*",
                 (unsigned long long)a);
      return;
    }
    uint64_t v = w->r[in->c][l];
    uint32_t ord = in->b != SR_ZERO ? (uint32_t)w->r[in->b][l] : 0;
    if (ord > 4) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION, "tensormap.replace: ordinal %u is over 4", ord);
      return;
    }
    /* global_address (recorded on an H100), global_dim and global_stride
     * as CUTLASS writes them (copy_sm90_desc.hpp: the extent, and the byte
     * stride of dimension ord + 1); the other fields take the value as the
     * encode call would (not recorded) */
    switch (in->mode) {
    case TR_ADDR:
      t.addr = v;
      break;
    case TR_RANK:
      t.rank = (uint32_t)v;
      break;
    case TR_BOX:
      t.box[ord] = (uint32_t)v;
      break;
    case TR_GDIM:
      t.dim[ord] = (uint32_t)v;
      break;
    case TR_GSTRIDE:
      if (ord > 3) ord = 3;
      t.stride[ord + 1] = v;
      break;
    case TR_ESTRIDE:
      t.estride[ord] = (uint32_t)v;
      break;
    case TR_ELEMTYPE:
      t.dtype = (int)v;
      break;
    case TR_INTERLEAVE:
      t.interleave = (int)v;
      break;
    case TR_SWIZZLE:
      t.swizzle = (int)v;
      break;
    case TR_FILL:
      t.nan_fill = (int)v;
      break;
    }
    tmap_encode(&t, raw);
    for (int k = 0; k < 16; k++) memcpy(p[k], raw + 8 * k, 8);
  });
}

int dec_tensormap(dctx *D, dstmt *S, insn *in) {
  static const char *const fields[] = {"global_address", "rank",           "box_dim",  "global_dim",
                                       "global_stride",  "element_stride", "elemtype", "interleave_layout",
                                       "swizzle_mode",   "fill_mode",      NULL};
  if (!dec_take(S, "replace") || !dec_take(S, "tile"))
    return dec_error(D, S, -1, "only tensormap.replace.tile is supported");
  int f = dec_take_any(S, fields);
  if (f < 0)
    return dec_error(D, S, -1, "tensormap.replace: unsupported field (swizzle_atomicity is sm_100's)");
  int space = PTX_SPACE_GENERIC;
  if (dec_take(S, "global"))
    space = PTX_SPACE_GLOBAL;
  else if (dec_take(S, "shared::cta"))
    space = PTX_SPACE_SHARED;
  if (!dec_take(S, "b1024")) return dec_error(D, S, -1, "tensormap.replace works on .b1024 objects");
  int64_t off;
  uint8_t fl = 0;
  int ordinal = f == TR_BOX || f == TR_GDIM || f == TR_GSTRIDE || f == TR_ESTRIDE;
  if (dec_nops(D, S, ordinal ? 3 : 2) < 0) return -1;
  if (dec_addr(D, S, 0, &in->a, &off, &space, &fl) < 0) return -1;
  if (fl & IF_FRAME) return dec_error(D, S, 0, "a tensor map cannot be in local memory");
  in->imm = off;
  in->space = (uint8_t)space;
  in->b = SR_ZERO;
  if (ordinal && dec_src(D, S, 1, PTX_T_U32, &in->b) < 0) return -1;
  if (dec_src(D, S, ordinal ? 2 : 1, f == TR_ADDR || f == TR_GSTRIDE ? PTX_T_U64 : PTX_T_U32, &in->c) < 0)
    return -1;
  in->mode = (uint8_t)f;
  in->fn = h_tmap_replace;
  return 0;
}
