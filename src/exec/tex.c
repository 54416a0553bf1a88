/* tex.c: the texture and surface family on texture and surface objects
 * (the .u64 handles smemu_tex_register gives): tex (1d, 2d, 3d, a1d, a2d,
 * cube, acube; plain, .level, .grad), tld4 (2d, a2d), txq, suld.b,
 * sust.b, sust.p, sured, suq and istypep. Sampling itself is texsample.c's; this file decodes the
 * operands, looks the handles up (texobj.c) and moves the values.
 *
 * insn fields: mode = geometry (TG_*); type = destination (tex, tld4,
 * suld) or source (sust) element type; type2 = coordinate type; vec =
 * elements moved; target = variant: tex 0 plain, 1 .level, 2 .grad; tld4
 * the component; suld/sust the out-of-range mode (SU_*), plus SU_P for
 * sust.p; imm indexes program.xslots:
 *   [0..3] destinations (sust: the values stored), [4] the handle,
 *   [5..8] coordinate elements as written, [9] the level of detail,
 *   [10..12] d/dx, [13..15] d/dy (unused: SR_ZERO / SLOT_SINK).
 * txq, suq: d the result, a the handle, mode the query; istypep: d the
 * predicate, a the handle, mode the type. */
#include "exec/tex.h"
#include "exec/atom.h"
#include "exec/exec.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { XS_D = 0, XS_H = 4, XS_C = 5, XS_LOD = 9, XS_DX = 10, XS_DY = 13, XS_N = 16 };
enum { SU_TRAP, SU_CLAMP, SU_ZERO, SU_P = 4 };

static const char *const geoms[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube", NULL};
/* coordinate elements each geometry takes (3d and cube pad to four) */
static const int geom_elems[] = {1, 2, 4, 2, 4, 4, 4};
static const int geom_dims[] = {1, 2, 3, 1, 2, 3, 3};
static const int geom_layered[] = {0, 0, 0, 1, 1, 0, 1};

/* The descriptor of lane l's handle, with a one-entry cache (the lanes of
 * a warp nearly always name the same object). Faults and returns NULL for
 * a handle that is no live object. */
typedef struct hcache {
  uint64_t h;
  int ok;
  smemu_tex_desc d;
} hcache;

static const smemu_tex_desc *lookup(warp *w, int l, uint64_t h, hcache *c, const char *what) {
  if (!c->ok || c->h != h) {
    c->ok = smemu_tex_lookup(h, &c->d) == 0;
    c->h = h;
  }
  if (!c->ok) {
    exec_fault(w, l, SMEMU_ERR_ILLEGAL_ADDRESS, "%s: 0x%llx is no live %s object", what,
               (unsigned long long)h, what[0] == 't' ? "texture" : "surface");
    return NULL;
  }
  return &c->d;
}

/* insn.flags of a texture or surface instruction on a module-scope
 * .texref/.surfref: its handle slot holds the reference variable's address,
 * and the handle bound to it is read from there at each execution (the
 * host binds it later: runtime/driver/texref.c). */
#define IF_REF IF_UNI

/* The object handle of lane l: slot s, or (IF_REF) what the reference
 * variable at the address in slot s holds. */
static uint64_t handle_of(warp *w, const insn *in, uint32_t s, int l) {
  uint64_t h = w->r[s][l], v = 0;
  if (!(in->flags & IF_REF)) return h;
  const uint8_t *p = exec_addr(w, l, PTX_SPACE_GLOBAL, h, 8, 0);
  if (p) memcpy(&v, p, 8);
  return v;
}

static inline float rf(warp *w, uint32_t s, int l) { return fp_from_bits32((uint32_t)w->r[s][l]); }

/* ---- tex, tld4 ---- */
static void tex_exec(warp *w, const insn *in, uint32_t m) {
  const uint32_t *xs = w->L->prog->xslots + in->imm;
  int geom = in->mode, intc = in->type2 == PTX_T_S32, lay = geom_layered[geom];
  int variant = (int)(in->target & 15), comp = in->op == OP_TLD4 ? (int)in->target : -1;
  uint32_t res[4][32];
  int isf[32];
  hcache c = {0};
  const char *what = in->op == OP_TLD4 ? "tld4" : "tex";
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    const smemu_tex_desc *d = lookup(w, l, handle_of(w, in, xs[XS_H], l), &c, what);
    if (!d) return;
    tex_query q;
    memset(&q, 0, sizeof q);
    q.geom = geom;
    q.int_coords = intc;
    q.gather = comp;
    int first = lay ? 1 : 0;
    if (lay) q.layer = (int32_t)w->r[xs[XS_C]][l];
    for (int k = 0; k < geom_dims[geom]; k++) {
      uint32_t s = xs[XS_C + first + k];
      q.f[k] = rf(w, s, l);
      q.i[k] = (int32_t)w->r[s][l];
    }
    if (variant == 1) q.lod = rf(w, xs[XS_LOD], l);
    if (variant == 2) {
      float dx[3], dy[3];
      for (int k = 0; k < 3; k++) dx[k] = rf(w, xs[XS_DX + k], l), dy[k] = rf(w, xs[XS_DY + k], l);
      q.lod = tex_grad_lod(d, geom, dx, dy);
    }
    uint32_t out[4];
    tex_sample(d, &q, out, &isf[l]);
    for (int k = 0; k < 4; k++) res[k][l] = out[k];
  }
  /* written after every lane read: a destination may be a coordinate */
  for (int k = 0; k < in->vec; k++) {
    uint32_t s = xs[XS_D + k];
    if (s == SLOT_SINK) continue;
    LANES(m, {
      uint32_t v = res[k][l];
      if (in->type == PTX_T_F16) v = fp_f32_to_f16(fp_from_bits32(v), FP_RN);
      if (in->type == PTX_T_F16X2) /* channels 2k, 2k + 1 as halves */
        v = fp_f32_to_f16(fp_from_bits32(res[2 * k][l]), FP_RN) |
            (uint32_t)fp_f32_to_f16(fp_from_bits32(res[2 * k + 1][l]), FP_RN) << 16;
      w->r[s][l] = v;
    });
  }
}

/* ---- txq, suq, istypep ---- */
enum {
  Q_WIDTH,
  Q_HEIGHT,
  Q_DEPTH,
  Q_CH_TYPE,
  Q_CH_ORDER,
  Q_NORM,
  Q_FILTER,
  Q_ADDR0,
  Q_ADDR1,
  Q_ADDR2,
  Q_LEVELS,
  Q_SAMPLES,
  Q_ARRAY,
  Q_LAYOUT,
  Q_FORCE_UNNORM
};
static const char *const queries[] = {"width",
                                      "height",
                                      "depth",
                                      "channel_data_type",
                                      "channel_order",
                                      "normalized_coords",
                                      "filter_mode",
                                      "addr_mode_0",
                                      "addr_mode_1",
                                      "addr_mode_2",
                                      "num_mipmap_levels",
                                      "num_samples",
                                      "array_size",
                                      "memory_layout",
                                      "force_unnormalized_coords",
                                      NULL};

/* What txq/suq give on an object: the extents of level 0 as the array has
 * them, in texels (elements for surfaces), 0 for a dimension the image
 * lacks (an H200 gives width 6, height 5, depth 0 for a 6 x 5 texture and
 * 3, 2, 4 for a 3 x 2 x 4 surface: tests/hw/textures/recorded/queries.out). */
static uint32_t query(const smemu_tex_desc *d, int qi) {
  const smemu_tex_level *l = &d->level[0];
  switch (qi) {
  case Q_WIDTH:
    return l->width;
  case Q_HEIGHT:
    return d->dims >= 2 ? l->height : 0;
  default:
    return d->dims == 3 ? l->depth : 0;
  }
}

static void txq_exec(warp *w, const insn *in, uint32_t m) {
  hcache c = {0};
  uint32_t res[32];
  const char *what = in->op == OP_TXQ ? "txq" : "suq";
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    const smemu_tex_desc *d = lookup(w, l, handle_of(w, in, in->a, l), &c, what);
    if (!d) return;
    res[l] = query(d, in->mode);
  }
  LANES(m, { w->r[in->d][l] = res[l]; });
}

/* istypep on an object handle: false for every type (the H200 answers 0
 * for .texref, .samplerref and .surfref on texture and surface objects:
 * recorded/queries.out); a handle carries no type a lane could test. */
static void istypep_exec(warp *w, const insn *in, uint32_t m) { w->p[in->d] &= ~m; }

/* ---- suld, sust ---- */

/* The byte address of an access of n bytes at (x bytes, y, z | layer) of a
 * surface, or NULL when it is outside: then *zero says the value reads 0
 * (SU_ZERO) and otherwise the lane faulted (SU_TRAP). */
static uint8_t *su_addr(warp *w, int l, const smemu_tex_desc *d, const insn *in, const uint32_t *xs,
                        uint32_t n, int *zero) {
  const smemu_tex_level *lv = &d->level[0];
  int geom = in->mode, lay = geom_layered[geom], dims = geom_dims[geom];
  int sp = (in->target & SU_P) != 0, mode = (int)(in->target & 3);
  int64_t tb = (int64_t)d->nch * d->bits / 8;
  int64_t c[3] = {0, 0, 0}, layer = 0, lim[3] = {lv->width, lv->height, lv->depth};
  if (lay) layer = (int32_t)w->r[xs[XS_C]][l];
  for (int k = 0; k < dims; k++) c[k] = (int32_t)w->r[xs[XS_C + lay + k]][l];
  /* .b addresses x in bytes, .p in elements */
  if (sp) c[0] *= tb;
  lim[0] = lim[0] * tb - (int64_t)n + 1;
  int out = 0;
  for (int k = 0; k < dims; k++)
    if (c[k] < 0 || c[k] >= lim[k]) {
      out = 1;
      if (mode == SU_CLAMP) c[k] = c[k] < 0 ? 0 : k ? lim[k] - 1 : (lv->width - 1) * tb;
    }
  int64_t nl = d->layered ? (int64_t)d->layers : 1;
  if (layer < 0 || layer >= nl) {
    out = 1;
    if (mode == SU_CLAMP) layer = layer < 0 ? 0 : nl - 1;
  }
  *zero = 0;
  if (out && mode != SU_CLAMP) {
    if (mode == SU_ZERO) {
      *zero = 1;
      return NULL;
    }
    exec_fault(w, l, SMEMU_ERR_ILLEGAL_ADDRESS,
               "%s: coordinate (%lld, %lld, %lld) layer %lld is outside the %ux%ux%u surface (.trap)",
               in->op == OP_SULD ? "suld" : "sust", (long long)c[0], (long long)c[1], (long long)c[2],
               (long long)layer, lv->width, lv->height, lv->depth);
    return NULL;
  }
  if (c[0] % (int64_t)(n < (uint32_t)tb ? n : (uint32_t)tb)) {
    exec_fault(w, l, SMEMU_ERR_MISALIGNED, "%s: byte offset %lld is not aligned to the %u-byte access",
               in->op == OP_SULD ? "suld" : "sust", (long long)c[0], n);
    return NULL;
  }
  return lv->base + (size_t)layer * lv->slice + (size_t)c[2] * lv->slice + (size_t)c[1] * lv->pitch +
         (size_t)c[0];
}

static void suld_exec(warp *w, const insn *in, uint32_t m) {
  const uint32_t *xs = w->L->prog->xslots + in->imm;
  uint32_t eb = (uint32_t)ptx_type_size(in->type), n = eb * in->vec;
  uint64_t res[4][32];
  hcache c = {0};
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    const smemu_tex_desc *d = lookup(w, l, handle_of(w, in, xs[XS_H], l), &c, "suld");
    if (!d) return;
    int zero;
    const uint8_t *p = su_addr(w, l, d, in, xs, n, &zero);
    if (!p && !zero) return;
    for (int k = 0; k < in->vec; k++) {
      res[k][l] = 0;
      if (p) memcpy(&res[k][l], p + k * eb, eb);
    }
  }
  for (int k = 0; k < in->vec; k++)
    if (xs[XS_D + k] != SLOT_SINK) LANES(m, { w->r[xs[XS_D + k]][l] = res[k][l]; });
}

/* sust.p: the 32-bit value of channel ch in the surface's format. */
static void format(const smemu_tex_desc *d, uint32_t v, uint8_t *p, int ch) {
  uint32_t raw = v;
  float f = fp_from_bits32(v);
  if (d->kind == SMEMU_TEX_FLOAT) {
    raw = d->bits == 16 ? fp_f32_to_f16(f, FP_RN) : v;
  } else if (d->read_norm) {
    double max =
        d->kind == SMEMU_TEX_UNSIGNED ? (double)((1u << d->bits) - 1) : (double)((1u << (d->bits - 1)) - 1);
    double lo = d->kind == SMEMU_TEX_UNSIGNED ? 0 : -1, x = f != f ? 0 : f < lo ? lo : f > 1 ? 1 : f;
    raw = (uint32_t)(int32_t)lrint(x * max);
  } else if (d->kind == SMEMU_TEX_UNSIGNED) {
    /* integer formats saturate the value (a float's bits as well: the
     * H200's "sustp_rgba8") */
    uint32_t max = d->bits == 32 ? ~0u : (1u << d->bits) - 1;
    raw = v > max ? max : v;
  } else {
    int32_t s = (int32_t)v, hi = d->bits == 32 ? INT32_MAX : (1 << (d->bits - 1)) - 1;
    raw = (uint32_t)(s > hi ? hi : s < -hi - 1 ? -hi - 1 : s);
  }
  memcpy(p + ch * (d->bits / 8), &raw, (size_t)d->bits / 8);
}

static void sust_exec(warp *w, const insn *in, uint32_t m) {
  const uint32_t *xs = w->L->prog->xslots + in->imm;
  int sp = (in->target & SU_P) != 0;
  uint32_t eb = (uint32_t)ptx_type_size(in->type), n = eb * in->vec;
  hcache c = {0};
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    const smemu_tex_desc *d = lookup(w, l, handle_of(w, in, xs[XS_H], l), &c, "sust");
    if (!d) return;
    int zero;
    uint32_t bytes = sp ? (uint32_t)(d->nch * d->bits / 8) : n;
    uint8_t *p = su_addr(w, l, d, in, xs, bytes, &zero);
    if (!p) {
      if (zero) continue; /* .zero: a store outside is dropped */
      return;
    }
    for (int k = 0; k < in->vec; k++) {
      uint64_t v = w->r[xs[XS_D + k]][l];
      if (!sp)
        memcpy(p + k * eb, &v, eb);
      else if (k < d->nch)
        format(d, (uint32_t)v, p, k);
    }
  }
}

/* sured: an atomic read-modify-write of one element (insn.mode's geometry
 * in su_addr; insn.type the element type; insn.c the operation). Blocks run
 * on several workers, so the update is a real atomic. */
enum { RED_ADD, RED_MIN, RED_MAX, RED_AND, RED_OR };

static void sured_exec(warp *w, const insn *in, uint32_t m) {
  const uint32_t *xs = w->L->prog->xslots + in->imm;
  uint32_t n = (uint32_t)ptx_type_size(in->type);
  /* an integer operation: signed min/max for .s32/.s64; sured.p's .b32 and
   * .b64 are signed on a signed surface and unsigned otherwise, a float
   * surface's too (its bits added and compared as integers: the H200 did,
   * tests/hw/sparse sured.cu) */
  int t = in->type == PTX_T_S32 || in->type == PTX_T_S64 ? (int)in->type : PTX_T_U64;
  int formatted = (in->target & SU_P) && (in->type == PTX_T_B32 || in->type == PTX_T_B64);
  static const int aop[] = {A_ADD, A_MIN, A_MAX, A_AND, A_OR}; /* by RED_* */
  hcache c = {0};
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    const smemu_tex_desc *d = lookup(w, l, handle_of(w, in, xs[XS_H], l), &c, "sured");
    if (!d) return;
    if (formatted) t = d->kind == SMEMU_TEX_SIGNED ? (n == 4 ? PTX_T_S32 : PTX_T_S64) : PTX_T_U64;
    int zero;
    uint8_t *p = su_addr(w, l, d, in, xs, n, &zero);
    if (!p) {
      if (zero) continue;
      return;
    }
    uint64_t v = w->r[xs[XS_D]][l];
    if (n == 4) {
      uint32_t *a = (uint32_t *)(void *)p, old = __atomic_load_n(a, __ATOMIC_RELAXED), nv;
      do nv = (uint32_t)atom_apply(aop[in->c], t, old, v, 0, 4);
      while (!__atomic_compare_exchange_n(a, &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    } else {
      uint64_t *a = (uint64_t *)(void *)p, old = __atomic_load_n(a, __ATOMIC_RELAXED), nv;
      do nv = atom_apply(aop[in->c], t, old, v, 0, 8);
      while (!__atomic_compare_exchange_n(a, &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    }
  }
}

/* ---- decoding ---- */

/* The handle and coordinates of address operand i ([h, {c...}] or [h]):
 * slots into xs; *nc gets the coordinates given. */
static int dec_handle(dctx *D, dstmt *S, insn *in, int i, uint32_t *xs, int *nc, int ctype) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing operand %d", i + 1);
  const ptx_operand *o = &S->st->ops[i];
  if (o->kind != PTX_OPD_ADDR || !o->name)
    return dec_error(D, S, i, "expected [handle] or [handle, {coordinates}]");
  ptx_operand h = {.kind = PTX_OPD_REG, .name = o->name, .pos = o->pos};
  if (o->name[0] != '%') {
    /* a module-scope reference: its address; the handle is read through it */
    int kind = dec_opaque(D, o->name),
        surf = in->op == OP_SULD || in->op == OP_SUST || in->op == OP_SURED || in->op == OP_SUQ;
    if (kind != (surf ? 3 : 1))
      return dec_error(D, S, i, "'%s' is no %s (nor a register holding an object handle)", o->name,
                       surf ? ".surfref" : ".texref");
    h.kind = PTX_OPD_SYM;
    in->flags |= IF_REF;
  }
  uint32_t hs;
  if (dec_src_opd(D, &h, PTX_T_U64, &hs)) return -1;
  xs[XS_H] = hs;
  *nc = 0;
  if (!o->nelems) return 0;
  if (o->nelems != 1)
    return dec_error(D, S, i, "separate samplers ([tex, sampler, {...}]) are not supported");
  const ptx_operand *v = &o->elems[0];
  int n = v->kind == PTX_OPD_VEC ? v->nelems : 1;
  if (n > 4) return dec_error(D, S, i, "at most four coordinates");
  for (int k = 0; k < n; k++) {
    const ptx_operand *e = v->kind == PTX_OPD_VEC ? &v->elems[k] : v;
    if (dec_src_opd(D, e, ctype, &xs[XS_C + k])) return dec_error(D, S, i, "bad coordinate %d", k + 1);
  }
  *nc = n;
  return 0;
}

/* A vector (or scalar) operand of n registers into xs[at..]. */
static int dec_regs(dctx *D, dstmt *S, int i, uint32_t *xs, int at, int n, int dst, int t) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing operand %d", i + 1);
  const ptx_operand *v = &S->st->ops[i];
  if (v->pair) return dec_error(D, S, i, "the sparse-texture predicate (|p) is not supported");
  int have = v->kind == PTX_OPD_VEC ? v->nelems : 1;
  if (have != n) return dec_error(D, S, i, "expected %d element%s", n, n > 1 ? "s" : "");
  for (int k = 0; k < n; k++) {
    const ptx_operand *e = v->kind == PTX_OPD_VEC ? &v->elems[k] : v;
    int r = dst ? dec_dst_opd(D, e, &xs[at + k]) : dec_src_opd(D, e, t, &xs[at + k]);
    if (r) return r < 0 ? -1 : dec_error(D, S, i, "expected a register");
  }
  return 0;
}

static int dec_geom(dctx *D, dstmt *S, insn *in) {
  int g = dec_take_any(S, geoms);
  if (g < 0) {
    if (dec_take(S, "2dms") || dec_take(S, "a2dms"))
      return dec_error(D, S, -1,
                       "multisample textures (.2dms, .a2dms) cannot be created through CUDA; not supported");
    return dec_error(D, S, -1, "%s needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)",
                     S->st->opcode);
  }
  in->mode = (uint8_t)g;
  return 0;
}

static int dec_texop(dctx *D, dstmt *S, insn *in) {
  uint32_t xs[XS_N];
  for (int k = 0; k < XS_N; k++) xs[k] = k < 4 ? SLOT_SINK : SR_ZERO;
  int tld4 = in->op == OP_TLD4;
  int variant = 0;
  if (tld4) {
    static const char *const comps[] = {"r", "g", "b", "a", NULL};
    int c = dec_take_any(S, comps);
    if (c < 0) return dec_error(D, S, -1, "tld4 needs a component (.r, .g, .b, .a)");
    in->target = (uint32_t)c;
  } else {
    variant = dec_take(S, "level") ? 1 : dec_take(S, "grad") ? 2 : 0;
    if (dec_take(S, "base")) variant = 0;
    in->target = (uint32_t)variant;
  }
  if (dec_geom(D, S, in) < 0) return -1;
  if (tld4 && in->mode != TG_2D && in->mode != TG_A2D)
    return dec_error(D, S, -1, "tld4 on .cube and .acube textures is not supported");
  /* .v4, or .v2 of .f16x2 pairs (the four channels, two a register) */
  int v2 = !tld4 && dec_take(S, "v2");
  if (!v2 && !dec_take(S, "v4")) return dec_error(D, S, -1, "%s returns .v4 vectors", S->st->opcode);
  if (S->ntypes != 2)
    return dec_error(D, S, -1, "%s needs a result type and a coordinate type", S->st->opcode);
  int dt = S->types[0], ct = S->types[1];
  if (v2 ? dt != PTX_T_F16X2 : (dt != PTX_T_F32 && dt != PTX_T_S32 && dt != PTX_T_U32 && dt != PTX_T_F16))
    return dec_error(D, S, -1,
                     v2 ? ".v2 results are .f16x2 pairs" : "result type must be .f32, .s32, .u32 or .f16");
  if (ct != PTX_T_F32 && ct != PTX_T_S32) return dec_error(D, S, -1, "coordinate type must be .f32 or .s32");
  if (ct == PTX_T_S32 && (variant || tld4 || in->mode >= TG_CUBE))
    return dec_error(D, S, -1, "integer coordinates are not allowed with this form");
  in->type = (uint8_t)dt;
  in->type2 = (uint8_t)ct;
  in->vec = v2 ? 2 : 4;
  int want = 2 + (variant == 1) + 2 * (variant == 2);
  if (S->st->nops > want)
    return dec_error(D, S, want, "texel offsets and depth compare operands are not supported");
  if (dec_nops(D, S, want) < 0 || dec_regs(D, S, 0, xs, XS_D, in->vec, 1, dt) < 0) return -1;
  int nc;
  if (dec_handle(D, S, in, 1, xs, &nc, ct) < 0) return -1;
  if (nc != geom_elems[in->mode])
    return dec_error(D, S, 1, "%s takes %d coordinate element%s", geoms[in->mode], geom_elems[in->mode],
                     geom_elems[in->mode] > 1 ? "s" : "");
  if (geom_layered[in->mode]) {
    /* the layer is an integer whatever the coordinate type */
    const ptx_operand *e = &S->st->ops[1].elems[0].elems[0];
    if (dec_src_opd(D, e, PTX_T_U32, &xs[XS_C])) return dec_error(D, S, 1, "bad layer");
  }
  if (variant == 1 && dec_src(D, S, 2, PTX_T_F32, &xs[XS_LOD])) return -1;
  if (variant == 2) {
    int n = geom_dims[in->mode];
    int g = in->mode == TG_CUBE || in->mode == TG_ACUBE ? 4 : n == 3 ? 4 : n;
    uint32_t tmp[XS_N];
    if (dec_regs(D, S, 2, tmp, 0, g, 0, PTX_T_F32) < 0 || dec_regs(D, S, 3, tmp, 4, g, 0, PTX_T_F32) < 0)
      return -1;
    for (int k = 0; k < n; k++) xs[XS_DX + k] = tmp[k], xs[XS_DY + k] = tmp[4 + k];
  }
  if (dec_xslots(D, xs, XS_N, &in->imm) < 0) return dec_error(D, S, -1, "out of memory");
  in->fn = tex_exec;
  return 0;
}

static int dec_su(dctx *D, dstmt *S, insn *in) {
  uint32_t xs[XS_N];
  for (int k = 0; k < XS_N; k++) xs[k] = k < 4 ? SLOT_SINK : SR_ZERO;
  int st = in->op == OP_SUST;
  int p = dec_take(S, "p");
  if (!p && !dec_take(S, "b")) return dec_error(D, S, -1, "%s needs .b or .p", S->st->opcode);
  if (p && !st) return dec_error(D, S, -1, "suld.p does not exist");
  if (dec_geom(D, S, in) < 0) return -1;
  if (in->mode >= TG_CUBE) return dec_error(D, S, -1, "surfaces have no cube geometry");
  static const char *const cops[] = {"ca", "cg", "cs", "cv", "wb", "wt", NULL};
  dec_take_any(S, cops); /* cache hints: no caches here */
  in->vec = (uint8_t)dec_vec(S);
  if (in->vec > 4) return dec_error(D, S, -1, "at most .v4");
  static const char *const modes[] = {"trap", "clamp", "zero", NULL};
  int mode = dec_take_any(S, modes);
  if (mode < 0) return dec_error(D, S, -1, "%s needs .trap, .clamp or .zero", S->st->opcode);
  if (S->ntypes != 1) return dec_error(D, S, -1, "%s needs one element type", S->st->opcode);
  int t = S->types[0];
  int ok = p ? t == PTX_T_B32 : (t == PTX_T_B8 || t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64);
  if (!ok) return dec_error(D, S, -1, p ? "sust.p stores .b32 elements" : "element type must be .b8 to .b64");
  in->type = (uint8_t)t;
  in->target = (uint32_t)mode | (p ? SU_P : 0);
  if (dec_nops(D, S, 2) < 0) return -1;
  int nc;
  if (dec_handle(D, S, in, st ? 0 : 1, xs, &nc, PTX_T_S32) < 0) return -1;
  if (nc != geom_elems[in->mode])
    return dec_error(D, S, st ? 0 : 1, "%s takes %d coordinate element%s", geoms[in->mode],
                     geom_elems[in->mode], geom_elems[in->mode] > 1 ? "s" : "");
  if (dec_regs(D, S, st ? 1 : 0, xs, XS_D, in->vec, !st, t) < 0) return -1;
  if (dec_xslots(D, xs, XS_N, &in->imm) < 0) return dec_error(D, S, -1, "out of memory");
  in->fn = st ? sust_exec : suld_exec;
  return 0;
}

static int dec_query(dctx *D, dstmt *S, insn *in) {
  int txq = in->op == OP_TXQ;
  if (txq && dec_take(S, "level")) return dec_error(D, S, -1, "txq.level is not supported");
  int q = dec_take_any(S, queries);
  if (q < 0) return dec_error(D, S, -1, "unknown %s query", S->st->opcode);
  /* on texture and surface objects sm_90 answers only the extents: the
   * H200's driver refuses a module with any other query
   * (CUDA_ERROR_NOT_SUPPORTED: tests/hw/textures/recorded/queries.out) */
  if (q > Q_DEPTH)
    return dec_error(D, S, -1,
                     "%s.%s on texture or surface objects is not supported on sm_90 (the GPU's driver "
                     "refuses the module: CUDA_ERROR_NOT_SUPPORTED)",
                     S->st->opcode, queries[q]);
  if (S->ntypes != 1 || S->types[0] != PTX_T_B32)
    return dec_error(D, S, -1, "%s results are .b32", S->st->opcode);
  in->mode = (uint8_t)q;
  in->type = PTX_T_B32;
  if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0) return -1;
  uint32_t xs[XS_N];
  int nc;
  if (dec_handle(D, S, in, 1, xs, &nc, PTX_T_S32) < 0) return -1;
  if (nc) return dec_error(D, S, 1, "%s takes [handle]", S->st->opcode);
  in->a = xs[XS_H];
  in->fn = txq_exec;
  return 0;
}

static int dec_istypep(dctx *D, dstmt *S, insn *in) {
  static const char *const types[] = {"texref", "samplerref", "surfref", NULL};
  int t = dec_take_any(S, types);
  if (t < 0) return dec_error(D, S, -1, "istypep needs .texref, .samplerref or .surfref");
  in->mode = (uint8_t)t;
  if (dec_nops(D, S, 2) < 0 || dec_pdst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_U64, &in->a) < 0)
    return -1;
  in->fn = istypep_exec;
  return 0;
}

static int dec_sured(dctx *D, dstmt *S, insn *in) {
  uint32_t xs[XS_N];
  for (int k = 0; k < XS_N; k++) xs[k] = k < 4 ? SLOT_SINK : SR_ZERO;
  int p = dec_take(S, "p");
  if (!p && !dec_take(S, "b")) return dec_error(D, S, -1, "sured needs .b or .p");
  static const char *const ops[] = {"add", "min", "max", "and", "or", NULL};
  int op = dec_take_any(S, ops);
  if (op < 0) return dec_error(D, S, -1, "sured needs .add, .min, .max, .and or .or");
  if (dec_geom(D, S, in) < 0) return -1;
  if (in->mode != TG_1D && in->mode != TG_2D && in->mode != TG_3D)
    return dec_error(D, S, -1, "sured takes .1d, .2d or .3d");
  static const char *const modes[] = {"trap", "clamp", "zero", NULL};
  int mode = dec_take_any(S, modes);
  if (mode < 0) return dec_error(D, S, -1, "sured needs .trap, .clamp or .zero");
  if (S->ntypes != 1) return dec_error(D, S, -1, "sured needs one element type");
  int t = S->types[0];
  int ok = op == RED_ADD   ? (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64)
           : op <= RED_MAX ? (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64 || t == PTX_T_S64)
                           : (t == PTX_T_B32 || t == PTX_T_B64);
  if (p && (t == PTX_T_B32 || t == PTX_T_B64)) ok = 1; /* sured.p: the surface's format */
  if (!ok) return dec_error(D, S, -1, "sured.%s does not take .%s", ops[op], ptx_type_name(t));
  in->type = (uint8_t)t;
  in->c = (uint32_t)op;
  in->vec = 1;
  in->target = (uint32_t)mode | (p ? SU_P : 0);
  if (dec_nops(D, S, 2) < 0) return -1;
  int nc;
  if (dec_handle(D, S, in, 0, xs, &nc, PTX_T_S32) < 0) return -1;
  if (nc != geom_elems[in->mode])
    return dec_error(D, S, 0, "%s takes %d coordinate element%s", geoms[in->mode], geom_elems[in->mode],
                     geom_elems[in->mode] > 1 ? "s" : "");
  if (dec_src(D, S, 1, t, &xs[XS_D]) < 0) return -1;
  if (dec_xslots(D, xs, XS_N, &in->imm) < 0) return dec_error(D, S, -1, "out of memory");
  in->fn = sured_exec;
  return 0;
}

int dec_tex(dctx *D, dstmt *S, insn *in) {
  switch (in->op) {
  case OP_TEX:
  case OP_TLD4:
    return dec_texop(D, S, in);
  case OP_SULD:
  case OP_SUST:
    return dec_su(D, S, in);
  case OP_TXQ:
  case OP_SUQ:
    return dec_query(D, S, in);
  case OP_ISTYPEP:
    return dec_istypep(D, S, in);
  case OP_SURED:
    return dec_sured(D, S, in);
  default:
    return dec_error(D, S, -1, "'%s' is not supported", S->st->opcode);
  }
}
