/* decode.c: from a parsed kernel to a program. Finds the functions the
 * kernel reaches, lays out shared memory and call frames, resolves every
 * operand to a register slot, constant slot or address, and hands each
 * instruction to the family decoder its caller's table names (the
 * executor's dispatch, exec/dispatch.c) to pick a handler. */
#include "ir/decode.h"
#include "ir/cfg.h"
#include "ir/merge.h"
#include "model/atomsel.h"
#include "model/fpsem.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small string map (open addressing; keys live in the module) ---- */
typedef struct smap {
  const char **k;
  uint64_t *v;
  uint32_t cap, n;
} smap;

static uint32_t shash(const char *s) {
  uint32_t h = 2166136261u;
  while (*s) h = (h ^ (uint8_t)*s++) * 16777619u;
  return h;
}

static int smap_put(smap *m, const char *k, uint64_t v) {
  if (2 * (m->n + 1) > m->cap) {
    smap o = *m;
    m->cap = o.cap ? o.cap * 2 : 64;
    m->k = calloc(m->cap, sizeof *m->k);
    m->v = calloc(m->cap, sizeof *m->v);
    if (!m->k || !m->v) return -1;
    m->n = 0;
    for (uint32_t i = 0; i < o.cap; i++)
      if (o.k[i]) smap_put(m, o.k[i], o.v[i]);
    free(o.k);
    free(o.v);
  }
  uint32_t i = shash(k) & (m->cap - 1);
  while (m->k[i]) {
    if (!strcmp(m->k[i], k)) {
      m->v[i] = v;
      return 0;
    }
    i = (i + 1) & (m->cap - 1);
  }
  m->k[i] = k;
  m->v[i] = v;
  m->n++;
  return 0;
}

static int smap_get(const smap *m, const char *k, uint64_t *v) {
  if (!m->cap) return 0;
  uint32_t i = shash(k) & (m->cap - 1);
  while (m->k[i]) {
    if (!strcmp(m->k[i], k)) {
      if (v) *v = m->v[i];
      return 1;
    }
    i = (i + 1) & (m->cap - 1);
  }
  return 0;
}

static void smap_clear(smap *m) {
  free(m->k);
  free(m->v);
  memset(m, 0, sizeof *m);
}

/* Kinds of frame symbols (value stored in dctx.frame: kind << 32 | offset). */
enum { FS_LOCAL = 1, FS_PARAM = 2 };

struct dctx {
  const ptx_module *m;
  const decode_env *env;
  const decode_families *fam;
  char *err;
  size_t errsize;
  int failed;
  /* output */
  insn *code;
  src_line *lines;
  uint32_t ncode, capcode;
  call_info *calls;
  uint32_t ncalls, capcalls;
  uint32_t *xslots; /* program.xslots under construction */
  uint32_t nxslots, capxslots;
  /* reachable functions */
  const ptx_func **fl;
  uint32_t nf;
  smap funcs;   /* name -> index in fl */
  smap shared;  /* shared variable -> offset */
  smap globals; /* module variable -> host address */
  smap kparams; /* kernel parameter -> offset in the parameter buffer */
  placed_var *vars;
  uint32_t nvars, capvars;
  /* current function */
  uint32_t cur;
  const ptx_func *f;
  func_info *fi;
  smap regs, preds, labels, frame;
  smap wide; /* the .b128 registers (two slots each: regs gives the low one) */
  uint64_t *consts;
  uint32_t nconsts, capconsts;
  uint32_t nregs_decl, npreds;
  int reads_rsv_off; /* the kernel reads %reserved_smem_offset_0/1 */
  char namebuf[128];
};

static void verr(dctx *D, ptx_pos pos, const char *fmt, va_list ap) {
  if (D->failed) return;
  D->failed = 1;
  int n = snprintf(D->err, D->errsize, "%s:%u:%u: ", D->m->filename ? D->m->filename : "<ptx>", pos.line,
                   pos.col);
  if (n < 0 || (size_t)n >= D->errsize) return;
  vsnprintf(D->err + n, D->errsize - n, fmt, ap);
}

static int perr(dctx *D, ptx_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(dctx *D, ptx_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(D, pos, fmt, ap);
  va_end(ap);
  return -1;
}

int dec_error(dctx *D, dstmt *S, int i, const char *fmt, ...) {
  va_list ap;
  ptx_pos pos = S->st->pos;
  if (i >= 0 && i < S->st->nops) pos = S->st->ops[i].pos;
  va_start(ap, fmt);
  verr(D, pos, fmt, ap);
  va_end(ap);
  return -1;
}

const char *dec_opcode_text(dstmt *S, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "%s", S->st->opcode);
  for (int i = 0; i < S->st->nmods && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, ".%s", S->st->mods[i]);
  return buf;
}

/* ---- modifiers ---- */
int dec_take(dstmt *S, const char *mod) {
  for (int i = 0; i < S->st->nmods; i++)
    if (!(S->used >> i & 1) && !strcmp(S->st->mods[i], mod)) {
      S->used |= 1ull << i;
      return 1;
    }
  return 0;
}

int dec_take_any(dstmt *S, const char *const *list) {
  for (int j = 0; list[j]; j++)
    if (dec_take(S, list[j])) return j;
  return -1;
}

int dec_round(dstmt *S, int integer) {
  static const char *const f[] = {"rn", "rz", "rm", "rp", NULL};
  static const char *const n[] = {"rni", "rzi", "rmi", "rpi", NULL};
  int r = dec_take_any(S, integer ? n : f);
  return r < 0 ? -1 : r;
}

int dec_space(dstmt *S) {
  static const char *const sp[] = {"global", "shared",       "shared::cta", "local",           "const",
                                   "param",  "param::entry", "param::func", "shared::cluster", NULL};
  static const int val[] = {PTX_SPACE_GLOBAL, PTX_SPACE_SHARED, PTX_SPACE_SHARED,
                            PTX_SPACE_LOCAL,  PTX_SPACE_CONST,  PTX_SPACE_PARAM,
                            PTX_SPACE_PARAM,  PTX_SPACE_PARAM,  PTX_SPACE_SHARED_CLUSTER};
  int i = dec_take_any(S, sp);
  return i < 0 ? PTX_SPACE_GENERIC : val[i];
}

int dec_vec(dstmt *S) {
  if (dec_take(S, "v2")) return 2;
  if (dec_take(S, "v4")) return 4;
  if (dec_take(S, "v8")) return 8;
  return 1;
}

int dec_nops(dctx *D, dstmt *S, int n) {
  if (S->st->nops != n)
    return dec_error(D, S, -1, "'%s' takes %d operands, found %d", S->st->opcode, n, S->st->nops);
  return 0;
}

int dec_ntypes(dctx *D, dstmt *S, int n) {
  if (S->ntypes != n)
    return dec_error(D, S, -1, "'%s' needs %d type modifier%s, found %d", S->st->opcode, n, n == 1 ? "" : "s",
                     S->ntypes);
  return 0;
}

int int_class(int t) {
  switch (t) {
  case PTX_T_U8:
  case PTX_T_B8:
    return IT_U8;
  case PTX_T_U16:
  case PTX_T_B16:
    return IT_U16;
  case PTX_T_U32:
  case PTX_T_B32:
    return IT_U32;
  case PTX_T_U64:
  case PTX_T_B64:
    return IT_U64;
  case PTX_T_S8:
    return IT_S8;
  case PTX_T_S16:
    return IT_S16;
  case PTX_T_S32:
    return IT_S32;
  case PTX_T_S64:
    return IT_S64;
  default:
    return IT_NONE;
  }
}

/* ---- constants ---- */
static uint32_t const_slot(dctx *D, uint64_t v) {
  for (uint32_t i = 0; i < D->nconsts; i++)
    if (D->consts[i] == v) return D->nregs_decl + i;
  if (D->nconsts == D->capconsts) {
    D->capconsts = D->capconsts ? D->capconsts * 2 : 32;
    uint64_t *c = realloc(D->consts, D->capconsts * sizeof *c);
    if (!c) {
      D->failed = 1;
      return SLOT_SINK;
    }
    D->consts = c;
  }
  D->consts[D->nconsts] = v;
  return D->nregs_decl + D->nconsts++;
}

/* The bits of a literal operand as a value of type t. */
static uint64_t literal_bits(const ptx_operand *o, int t) {
  int size = ptx_type_size(t);
  uint64_t v;
  if (o->kind == PTX_OPD_INT) {
    if (t == PTX_T_F32) {
      float f = (float)o->ival;
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
    }
    if (t == PTX_T_F64) {
      double f = (double)o->ival;
      memcpy(&v, &f, 8);
      return v;
    }
    v = (uint64_t)o->ival;
  } else if (o->kind == PTX_OPD_F32) {
    if (t == PTX_T_F64) {
      uint32_t b = (uint32_t)o->bits;
      float f;
      memcpy(&f, &b, 4);
      double d = f;
      memcpy(&v, &d, 8);
      return v;
    }
    if (t == PTX_T_F16) {
      uint32_t b = (uint32_t)o->bits;
      float f;
      memcpy(&f, &b, 4);
      return fp_f32_to_f16(f, FP_RN);
    }
    if (t == PTX_T_BF16) {
      uint32_t b = (uint32_t)o->bits;
      float f;
      memcpy(&f, &b, 4);
      return fp_f32_to_bf16(f, FP_RN);
    }
    v = o->bits;
  } else { /* F64 */
    double d;
    memcpy(&d, &o->bits, 8);
    if (t == PTX_T_F32) {
      float f = (float)d;
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
    }
    if (t == PTX_T_F16) return fp_f64_to_f16(d, FP_RN);
    if (t == PTX_T_BF16) return fp_f64_to_bf16(d, FP_RN);
    v = o->bits;
  }
  return size >= 8 ? v : v & ((1ull << (size * 8)) - 1);
}

/* ---- registers ---- */
static const struct {
  const char *name;
  int slot;
} specials[] = {{"%tid.x", SR_TID_X},
                {"%tid.y", SR_TID_Y},
                {"%tid.z", SR_TID_Z},
                {"%ntid.x", SR_NTID_X},
                {"%ntid.y", SR_NTID_Y},
                {"%ntid.z", SR_NTID_Z},
                {"%ctaid.x", SR_CTAID_X},
                {"%ctaid.y", SR_CTAID_Y},
                {"%ctaid.z", SR_CTAID_Z},
                {"%nctaid.x", SR_NCTAID_X},
                {"%nctaid.y", SR_NCTAID_Y},
                {"%nctaid.z", SR_NCTAID_Z},
                {"%laneid", SR_LANEID},
                {"%warpid", SR_WARPID},
                {"%nwarpid", SR_NWARPID},
                {"%smid", SR_SMID},
                {"%nsmid", SR_NSMID},
                {"%gridid", SR_GRIDID},
                {"%lanemask_eq", SR_LANEMASK_EQ},
                {"%lanemask_lt", SR_LANEMASK_LT},
                {"%lanemask_le", SR_LANEMASK_LE},
                {"%lanemask_gt", SR_LANEMASK_GT},
                {"%lanemask_ge", SR_LANEMASK_GE},
                {"%dynamic_smem_size", SR_DYN_SMEM},
                {"%total_smem_size", SR_TOTAL_SMEM},
                {"%aggr_smem_size", SR_AGGR_SMEM},
                {"%reserved_smem_offset_begin", SR_RSV_BEGIN},
                {"%reserved_smem_offset_end", SR_RSV_END},
                {"%reserved_smem_offset_cap", SR_RSV_CAP},
                {"%reserved_smem_offset_0", SR_RSV_OFF},
                {"%reserved_smem_offset_1", SR_RSV_OFF},
                /* thread-block clusters (a launch without cluster dimensions has
                 * clusters of one block) */
                {"%nclusterid.x", SR_NCLUSTERID_X},
                {"%nclusterid.y", SR_NCLUSTERID_Y},
                {"%nclusterid.z", SR_NCLUSTERID_Z},
                {"%clusterid.x", SR_CLUSTERID_X},
                {"%clusterid.y", SR_CLUSTERID_Y},
                {"%clusterid.z", SR_CLUSTERID_Z},
                {"%cluster_nctaid.x", SR_CLUSTER_NCTAID_X},
                {"%cluster_nctaid.y", SR_CLUSTER_NCTAID_Y},
                {"%cluster_nctaid.z", SR_CLUSTER_NCTAID_Z},
                {"%cluster_nctarank", SR_CLUSTER_NCTARANK},
                {"%cluster_ctaid.x", SR_CLUSTER_CTAID_X},
                {"%cluster_ctaid.y", SR_CLUSTER_CTAID_Y},
                {"%cluster_ctaid.z", SR_CLUSTER_CTAID_Z},
                {"%cluster_ctarank", SR_CLUSTER_CTARANK},
                /* no CUDA graph is running */
                {"%current_graph_exec", SR_ZERO},
                {NULL, 0}};

/* The slot of a special register, or -1. Of the driver-defined %envregN,
 * 1 and 2 hold a cooperative launch's grid workspace (cooperative groups'
 * grid.sync() reads it); the others and the performance counters %pmN read
 * 0 (see README: special registers). */
static int special_slot(const char *name) {
  for (int i = 0; specials[i].name; i++)
    if (!strcmp(specials[i].name, name)) return specials[i].slot;
  if (!strcmp(name, "%envreg1")) return SR_ENVREG1;
  if (!strcmp(name, "%envreg2")) return SR_ENVREG2;
  if (!strncmp(name, "%envreg", 7) || !strncmp(name, "%pm", 3) ||
      !strncmp(name, "%reserved_smem_offset_", 22))
    return SR_ZERO;
  return -1;
}

int dec_src_opd(dctx *D, const ptx_operand *o, int t, uint32_t *slot) {
  uint64_t v;
  switch (o->kind) {
  case PTX_OPD_REG:
    if (smap_get(&D->regs, o->name, &v)) {
      *slot = (uint32_t)v;
      return 0;
    }
    if (smap_get(&D->preds, o->name, &v))
      return perr(D, o->pos, "predicate '%s' used where a value is expected", o->name);
    {
      int s = special_slot(o->name);
      if (s == SR_RSV_OFF) D->reads_rsv_off = 1;
      if (s >= 0) {
        *slot = (uint32_t)s;
        return 0;
      }
    }
    if (!strncmp(o->name, "%clock", 6) || !strncmp(o->name, "%globaltimer", 12))
      return perr(D, o->pos, "'%s' can only be read with mov", o->name);
    return perr(D, o->pos, "undeclared register '%s'", o->name);
  case PTX_OPD_INT:
  case PTX_OPD_F32:
  case PTX_OPD_F64:
    *slot = const_slot(D, literal_bits(o, t));
    return 0;
  case PTX_OPD_SYM:
    /* a symbol's address, plus the offset of `var+8` */
    if (smap_get(&D->shared, o->name, &v) || smap_get(&D->globals, o->name, &v)) {
      *slot = const_slot(D, v + (uint64_t)o->ival);
      return 0;
    }
    if (smap_get(&D->frame, o->name, &v)) {
      *slot = (uint32_t)v + (uint32_t)o->ival;
      return 1;
    }
    /* `mov.b64 %rd, param`: the parameter's address in the .param space,
     * its offset in the parameter buffer, for ld.param [%rd+...] (nvcc
     * writes it for a by-value struct whose array is indexed at run time) */
    if (smap_get(&D->kparams, o->name, &v)) {
      *slot = const_slot(D, v + (uint64_t)o->ival);
      return 0;
    }
    if (smap_get(&D->funcs, o->name, &v)) { /* a function's address: its index in the module */
      *slot = const_slot(D, FUNC_ADDR_BASE + (uint64_t)(D->fl[v] - D->m->funcs));
      return 0;
    }
    return perr(D, o->pos, "unknown symbol '%s'", o->name);
  case PTX_OPD_SINK:
    return perr(D, o->pos, "'_' is not a source operand");
  default:
    return perr(D, o->pos, "expected a register or constant operand");
  }
}

int dec_src(dctx *D, dstmt *S, int i, int t, uint32_t *slot) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing operand %d", i + 1);
  int r = dec_src_opd(D, &S->st->ops[i], t, slot);
  if (r == 1) return dec_error(D, S, i, "a local symbol is only allowed in mov");
  return r;
}

int dec_dst_opd(dctx *D, const ptx_operand *o, uint32_t *slot) {
  uint64_t v;
  if (o->kind == PTX_OPD_SINK) {
    *slot = SLOT_SINK;
    return 0;
  }
  if (o->kind != PTX_OPD_REG) return perr(D, o->pos, "expected a destination register");
  if (smap_get(&D->regs, o->name, &v)) {
    *slot = (uint32_t)v;
    return 0;
  }
  if (smap_get(&D->preds, o->name, &v))
    return perr(D, o->pos, "predicate '%s' used where a value register is expected", o->name);
  if (special_slot(o->name) >= 0) return perr(D, o->pos, "special register '%s' is read-only", o->name);
  return perr(D, o->pos, "undeclared register '%s'", o->name);
}

int dec_dst(dctx *D, dstmt *S, int i, uint32_t *slot) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing operand %d", i + 1);
  return dec_dst_opd(D, &S->st->ops[i], slot);
}

int dec_is_pred(dctx *D, dstmt *S, int i) {
  if (i >= S->st->nops) return 0;
  const ptx_operand *o = &S->st->ops[i];
  return o->kind == PTX_OPD_REG && smap_get(&D->preds, o->name, NULL);
}

static int pred_lookup(dctx *D, const char *name, ptx_pos pos, uint32_t *pred) {
  uint64_t v;
  if (smap_get(&D->preds, name, &v)) {
    *pred = (uint32_t)v;
    return 0;
  }
  return perr(D, pos, "'%s' is not a declared predicate", name);
}

int dec_pair(dctx *D, dstmt *S, int i, uint32_t *pred) {
  const ptx_operand *o = i < S->st->nops ? &S->st->ops[i] : NULL;
  if (!o || !o->pair) return 0;
  if (!strcmp(o->pair, "_")) {
    *pred = PRED_SINK;
    return 0;
  }
  return pred_lookup(D, o->pair, o->pos, pred);
}

int dec_psrc(dctx *D, dstmt *S, int i, uint32_t *pred, int *neg) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing operand %d", i + 1);
  const ptx_operand *o = &S->st->ops[i];
  *neg = o->neg;
  if (o->kind == PTX_OPD_INT) {
    *pred = o->ival ? PRED_TRUE : PRED_FALSE;
    return 0;
  }
  if (o->kind != PTX_OPD_REG) return dec_error(D, S, i, "expected a predicate");
  /* the one predicate special register, set per warp from the launch */
  if (!strcmp(o->name, "%is_explicit_cluster")) {
    *pred = PRED_EXPLICIT;
    return 0;
  }
  return pred_lookup(D, o->name, o->pos, pred);
}

int dec_pdst(dctx *D, dstmt *S, int i, uint32_t *pred) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing operand %d", i + 1);
  const ptx_operand *o = &S->st->ops[i];
  if (o->kind == PTX_OPD_SINK) {
    *pred = PRED_SINK;
    return 0;
  }
  if (o->kind != PTX_OPD_REG) return dec_error(D, S, i, "expected a predicate");
  return pred_lookup(D, o->name, o->pos, pred);
}

int dec_addr(dctx *D, dstmt *S, int i, uint32_t *base, int64_t *off, int *space, uint8_t *flags) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing operand %d", i + 1);
  const ptx_operand *o = &S->st->ops[i];
  uint64_t v;
  if (o->kind != PTX_OPD_ADDR) return dec_error(D, S, i, "expected an address [...]");
  *off = o->ival;
  *base = SR_ZERO;
  if (!o->name) return 0;
  if (smap_get(&D->regs, o->name, &v)) {
    *base = (uint32_t)v;
    return 0;
  }
  if (smap_get(&D->shared, o->name, &v)) {
    if (*space == PTX_SPACE_GENERIC) *space = PTX_SPACE_SHARED;
    *off += (int64_t)v;
    return 0;
  }
  if (smap_get(&D->globals, o->name, &v)) {
    *off += (int64_t)v;
    return 0;
  }
  if (smap_get(&D->kparams, o->name, &v)) {
    if (*space != PTX_SPACE_PARAM)
      return dec_error(D, S, i, "kernel parameter '%s' outside ld.param", o->name);
    *off += (int64_t)v;
    *flags |= IF_KPARAM;
    return 0;
  }
  if (smap_get(&D->frame, o->name, &v)) {
    int kind = (int)(v >> 32);
    if (kind == FS_PARAM && *space != PTX_SPACE_PARAM)
      return dec_error(D, S, i, "parameter '%s' outside ld/st.param", o->name);
    if (*space == PTX_SPACE_GENERIC || *space == PTX_SPACE_PARAM) *space = PTX_SPACE_LOCAL;
    *off += (int64_t)(uint32_t)v;
    *flags |= IF_FRAME;
    return 0;
  }
  if (smap_get(&D->preds, o->name, &v))
    return dec_error(D, S, i, "predicate '%s' used as an address", o->name);
  if (special_slot(o->name) >= 0) {
    *base = (uint32_t)special_slot(o->name);
    if (*base == SR_RSV_OFF) D->reads_rsv_off = 1;
    return 0;
  }
  return dec_error(D, S, i, "unknown symbol or register '%s' in address", o->name);
}

const ptx_func *dec_cur_func(dctx *D) { return D->f; }

int dec_label(dctx *D, dstmt *S, int i, uint32_t *pc) {
  if (i >= S->st->nops) return dec_error(D, S, -1, "missing branch target");
  const ptx_operand *o = &S->st->ops[i];
  uint64_t v;
  if (o->kind != PTX_OPD_SYM || !smap_get(&D->labels, o->name, &v))
    return dec_error(D, S, i, "unknown label '%s'", o->name ? o->name : "?");
  *pc = (uint32_t)v;
  return 0;
}

/* ---- functions reachable from the kernel ---- */
static const ptx_func *find_func(const ptx_module *m, const char *name) {
  const ptx_func *decl = NULL;
  for (int i = 0; i < m->nfuncs; i++)
    if (!strcmp(m->funcs[i].name, name)) {
      if (m->funcs[i].has_body) return &m->funcs[i];
      decl = &m->funcs[i];
    }
  return decl;
}

static int builtin_of(const char *name) {
  if (!strcmp(name, "vprintf")) return BUILTIN_VPRINTF;
  if (!strcmp(name, "__assertfail")) return BUILTIN_ASSERTFAIL;
  if (!strcmp(name, "malloc")) return BUILTIN_MALLOC;
  if (!strcmp(name, "free")) return BUILTIN_FREE;
  return ir_devrt_builtin(name);
}

int ir_is_builtin(const char *name) { return name && builtin_of(name) != BUILTIN_NONE; }

static int add_func(dctx *D, const ptx_func *f) {
  uint64_t v;
  if (smap_get(&D->funcs, f->name, &v)) return (int)v;
  const ptx_func **fl = realloc(D->fl, (D->nf + 1) * sizeof *fl);
  if (!fl) return -1;
  D->fl = fl;
  D->fl[D->nf] = f;
  smap_put(&D->funcs, f->name, D->nf);
  return (int)D->nf++;
}

/* Functions whose address an operand takes (mov.u64 %rd, f; .calltargets
 * f, g) are reachable through indirect calls. */
static int add_taken(dctx *D, const ptx_operand *ops, int n) {
  for (int j = 0; j < n; j++) {
    const ptx_operand *o = &ops[j];
    if (o->kind == PTX_OPD_SYM) {
      const ptx_func *g = find_func(D->m, o->name);
      if (g && g->has_body && add_func(D, g) < 0) return -1;
    }
    if (o->nelems && add_taken(D, o->elems, o->nelems) < 0) return -1;
  }
  return 0;
}

static int collect_funcs(dctx *D, const ptx_func *k) {
  if (add_func(D, k) < 0) return -1;
  /* function addresses in initializers (a table of function pointers) */
  for (int i = 0; i < D->m->nvars; i++)
    for (int r = 0; r < D->m->vars[i].nrelocs; r++) {
      const ptx_func *g = find_func(D->m, D->m->vars[i].relocs[r].symbol);
      if (g && g->has_body && add_func(D, g) < 0) return -1;
    }
  for (uint32_t i = 0; i < D->nf; i++) {
    const ptx_func *f = D->fl[i];
    if (!f->has_body) continue;
    for (int s = 0; s < f->nbody; s++) {
      const ptx_stmt *st = &f->body[s];
      if (st->opcode && strcmp(st->opcode, "call") && add_taken(D, st->ops, st->nops) < 0) return -1;
      if (!st->opcode || strcmp(st->opcode, "call")) continue;
      /* call [(r),] f, ...: an indirect call has a register there */
      int j = st->nops > 0 && st->ops[0].kind == PTX_OPD_LIST;
      const ptx_operand *callee = j < st->nops && st->ops[j].kind == PTX_OPD_SYM ? &st->ops[j] : NULL;
      if (!callee) continue;
      const ptx_func *g = find_func(D->m, callee->name);
      if (!g) return perr(D, callee->pos, "call to unknown function '%s'", callee->name);
      if (!g->has_body && !builtin_of(g->name))
        return perr(D, callee->pos, "call to external function '%s', which smemu does not provide", g->name);
      if (add_func(D, g) < 0) return -1;
    }
  }
  return 0;
}

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

static uint64_t var_bytes(const ptx_var *v) {
  return (uint64_t)ptx_type_size(v->type) * (uint64_t)(v->vec ? v->vec : 1) * v->nelems;
}

static uint64_t var_align(const ptx_var *v) {
  if (v->align) return (uint64_t)v->align;
  uint64_t a = (uint64_t)ptx_type_size(v->type) * (uint64_t)(v->vec ? v->vec : 1);
  return a ? a : 1;
}

static int name_used(const ptx_operand *o, const char *name) {
  if ((o->kind == PTX_OPD_SYM || o->kind == PTX_OPD_ADDR) && o->name && !strcmp(o->name, name)) return 1;
  for (int i = 0; i < o->nelems; i++)
    if (name_used(&o->elems[i], name)) return 1;
  return 0;
}

static int referenced(dctx *D, const char *name) {
  for (uint32_t i = 0; i < D->nf; i++) {
    const ptx_func *f = D->fl[i];
    for (int s = 0; s < f->nbody; s++)
      for (int j = 0; j < f->body[s].nops; j++)
        if (name_used(&f->body[s].ops[j], name)) return 1;
  }
  return 0;
}

static void place(dctx *D, const char *name, int space, uint64_t addr, uint64_t size, int dyn) {
  if (D->nvars == D->capvars) {
    D->capvars = D->capvars ? D->capvars * 2 : 16;
    placed_var *p = realloc(D->vars, D->capvars * sizeof *p);
    if (!p) {
      D->failed = 1;
      return;
    }
    D->vars = p;
  }
  D->vars[D->nvars++] = (placed_var){name, space, addr, size, dyn};
}

/* Static shared variables in declaration order after the reserved bytes,
 * then every extern (dynamic) array at one offset, aligned. */
static int layout_shared(dctx *D, program *P) {
  uint64_t off = D->env->smem_reserved, dyn_align = 16;
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t fi = 0; fi <= D->nf; fi++) {
      const ptx_var *vars = fi == 0 ? D->m->vars : D->fl[fi - 1]->vars;
      int n = fi == 0 ? D->m->nvars : D->fl[fi - 1]->nvars;
      for (int i = 0; i < n; i++) {
        const ptx_var *v = &vars[i];
        if (v->space != PTX_SPACE_SHARED || (v->unsized != 0) != (pass == 1)) continue;
        if (fi == 0 && !referenced(D, v->name)) continue;
        if (pass == 0) {
          off = align_up(off, var_align(v));
          smap_put(&D->shared, v->name, off);
          place(D, v->name, PTX_SPACE_SHARED, off, var_bytes(v), 0);
          off += var_bytes(v);
          if (off > 0xffffffffu) return perr(D, v->pos, "shared variable '%s' is too large", v->name);
        } else if (var_align(v) > dyn_align) {
          dyn_align = var_align(v);
        }
      }
    }
  }
  P->smem_reserved = D->env->smem_reserved;
  P->smem_static = (uint32_t)(off - D->env->smem_reserved);
  P->smem_dyn_align = (uint32_t)dyn_align;
  uint64_t dyn = align_up(off, dyn_align);
  for (uint32_t fi = 0; fi <= D->nf; fi++) {
    const ptx_var *vars = fi == 0 ? D->m->vars : D->fl[fi - 1]->vars;
    int n = fi == 0 ? D->m->nvars : D->fl[fi - 1]->nvars;
    for (int i = 0; i < n; i++)
      if (vars[i].space == PTX_SPACE_SHARED && vars[i].unsized) {
        smap_put(&D->shared, vars[i].name, dyn);
        place(D, vars[i].name, PTX_SPACE_SHARED, dyn, 0, 1);
      }
  }
  for (int i = 0; i < D->m->nvars; i++) {
    const ptx_var *v = &D->m->vars[i];
    if ((v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST) && D->env->var_addr &&
        D->env->var_addr[i]) {
      smap_put(&D->globals, v->name, (uint64_t)(uintptr_t)D->env->var_addr[i]);
      place(D, v->name, v->space, (uint64_t)(uintptr_t)D->env->var_addr[i], var_bytes(v), 0);
    }
  }
  return D->failed ? -1 : 0;
}

int dec_opaque(dctx *D, const char *name) {
  for (int i = 0; name && i < D->m->nvars; i++)
    if (D->m->vars[i].opaque && !strcmp(D->m->vars[i].name, name)) return D->m->vars[i].opaque;
  return 0;
}

int dec_is_b128(dctx *D, const char *name) { return name && smap_get(&D->wide, name, NULL); }

/* ---- per function ---- */
static int declare_elems(dctx *D, const char *name, int n, int pred) {
  static const char xyzw[] = "xyzw", rgba[] = "rgba";
  for (int e = 0; e < n && e < 4; e++) {
    uint32_t slot = pred ? D->npreds++ : D->nregs_decl++;
    for (int alias = 0; alias < 2; alias++) {
      size_t len = strlen(name) + 3;
      char *s = malloc(len);
      if (!s) return -1;
      snprintf(s, len, "%s.%c", name, (alias ? rgba : xyzw)[e]);
      place(D, s, -1, 0, 0, 0);
      smap_put(pred ? &D->preds : &D->regs, s, slot);
    }
  }
  return 0;
}

static int declare_regs(dctx *D, const ptx_func *f) {
  D->nregs_decl = SLOT_FIRST;
  D->npreds = PRED_FIRST;
  for (int i = 0; i < f->nregs; i++) {
    const ptx_regdecl *r = &f->regs[i];
    int pred = r->type == PTX_T_PRED;
    int n = r->count ? r->count : 1;
    for (int k = 0; k < n; k++) {
      const char *name = r->name;
      if (r->count) {
        /* names live as long as the program: keep them in a small arena */
        size_t len = strlen(r->name) + 12;
        char *s = malloc(len);
        if (!s) return -1;
        snprintf(s, len, "%s%d", r->name, k);
        name = s;
        /* remember for freeing */
        place(D, s, -1, 0, 0, 0);
      }
      if (r->vec > 1) {
        /* a vector register (.reg .v2 .f32 v): its elements v.x, v.y
         * (v.r, v.g) are registers of their own */
        if (declare_elems(D, name, r->vec, pred) < 0) return -1;
        continue;
      }
      if (smap_get(pred ? &D->preds : &D->regs, name, NULL)) continue;
      if (r->type == PTX_T_B128) {
        /* two slots, the low half first (exec/b128.c) */
        smap_put(&D->wide, name, D->nregs_decl);
        smap_put(&D->regs, name, D->nregs_decl);
        D->nregs_decl += 2;
      } else if (pred)
        smap_put(&D->preds, name, D->npreds++);
      else
        smap_put(&D->regs, name, D->nregs_decl++);
    }
  }
  return 0;
}

/* Frame: .local variables, then formal parameters, return parameters and
 * the call-site .param variables of the body, each aligned. */
static int layout_frame(dctx *D, const ptx_func *f, func_info *fi, int is_kernel) {
  uint64_t off = 0;
  for (int i = 0; i < f->nvars; i++) {
    const ptx_var *v = &f->vars[i];
    if (v->space != PTX_SPACE_LOCAL) continue;
    off = align_up(off, var_align(v));
    smap_put(&D->frame, v->name, ((uint64_t)FS_LOCAL << 32) | off);
    off += var_bytes(v);
  }
  if (!is_kernel) {
    fi->nparams = (uint32_t)f->nparams;
    fi->nrets = (uint32_t)f->nrets;
    fi->param_offs = calloc(f->nparams + 1, sizeof(uint32_t));
    fi->param_sizes = calloc(f->nparams + 1, sizeof(uint32_t));
    fi->ret_offs = calloc(f->nrets + 1, sizeof(uint32_t));
    fi->ret_sizes = calloc(f->nrets + 1, sizeof(uint32_t));
    if (!fi->param_offs || !fi->param_sizes || !fi->ret_offs || !fi->ret_sizes) return -1;
    for (int pass = 0; pass < 2; pass++) {
      const ptx_var *vs = pass ? f->rets : f->params;
      int n = pass ? f->nrets : f->nparams;
      for (int i = 0; i < n; i++) {
        off = align_up(off, var_align(&vs[i]) < 8 ? 8 : var_align(&vs[i]));
        smap_put(&D->frame, vs[i].name, ((uint64_t)FS_PARAM << 32) | off);
        (pass ? fi->ret_offs : fi->param_offs)[i] = (uint32_t)off;
        (pass ? fi->ret_sizes : fi->param_sizes)[i] = (uint32_t)var_bytes(&vs[i]);
        off += var_bytes(&vs[i]);
      }
    }
  }
  for (int i = 0; i < f->nvars; i++) {
    const ptx_var *v = &f->vars[i];
    if (v->space != PTX_SPACE_PARAM || smap_get(&D->frame, v->name, NULL)) continue;
    /* a name declared again in another call sequence reuses the largest slot */
    uint64_t size = var_bytes(v), al = var_align(v) < 8 ? 8 : var_align(v);
    for (int j = i + 1; j < f->nvars; j++)
      if (f->vars[j].space == PTX_SPACE_PARAM && !strcmp(f->vars[j].name, v->name)) {
        if (var_bytes(&f->vars[j]) > size) size = var_bytes(&f->vars[j]);
        if (var_align(&f->vars[j]) > al) al = var_align(&f->vars[j]);
      }
    off = align_up(off, al);
    smap_put(&D->frame, v->name, ((uint64_t)FS_PARAM << 32) | off);
    off += size;
  }
  off = align_up(off, 16);
  if (off > (1u << 24)) return perr(D, f->pos, "local frame of '%s' is too large", f->name);
  fi->frame_bytes = (uint32_t)off;
  return 0;
}

static int kernel_params(dctx *D, const ptx_func *k, program *P) {
  uint64_t off = 0;
  P->params = calloc((size_t)k->nparams + 1, sizeof *P->params);
  if (!P->params) return -1;
  for (int i = 0; i < k->nparams; i++) {
    const ptx_var *v = &k->params[i];
    uint64_t al = var_align(v), size = var_bytes(v);
    off = align_up(off, al);
    smap_put(&D->kparams, v->name, off);
    P->params[i] = (kparam){v->name,
                            (uint32_t)off,
                            (uint32_t)size,
                            (uint32_t)al,
                            v->ptr_space != 0 ||
                                (size == 8 && !v->is_array && (v->type == PTX_T_U64 || v->type == PTX_T_B64)),
                            v->ptr_space == PTX_SPACE_SHARED};
    off += size;
  }
  if (off > 32764) return perr(D, k->pos, "kernel parameters of '%s' exceed 32764 bytes", k->name);
  P->nparams = (uint32_t)k->nparams;
  P->param_bytes = (uint32_t)off;
  return 0;
}

static int grow_code(dctx *D) {
  if (D->ncode < D->capcode) return 0;
  D->capcode = D->capcode ? D->capcode * 2 : 256;
  insn *c = realloc(D->code, D->capcode * sizeof *c);
  src_line *l = realloc(D->lines, D->capcode * sizeof *l);
  if (c) D->code = c;
  if (l) D->lines = l;
  return c && l ? 0 : -1;
}

static const char *const ignorable[] = {"uni",
                                        "aligned",
                                        "sync",
                                        "volatile",
                                        "relaxed",
                                        "acquire",
                                        "release",
                                        "weak",
                                        "sc",
                                        "acq_rel",
                                        "mmio",
                                        "cta",
                                        "gpu",
                                        "sys",
                                        "cluster",
                                        "ca",
                                        "cg",
                                        "cs",
                                        "lu",
                                        "cv",
                                        "wb",
                                        "wt",
                                        "nc",
                                        "L1::no_allocate",
                                        "L1::evict_normal",
                                        "L1::evict_first",
                                        "L1::evict_last",
                                        "L1::evict_unchanged",
                                        "L2::evict_normal",
                                        "L2::evict_first",
                                        "L2::evict_last",
                                        "L2::64B",
                                        "L2::128B",
                                        "L2::256B",
                                        "unified",
                                        NULL};

static int mod_ok(const char *m) {
  for (int i = 0; ignorable[i]; i++)
    if (!strcmp(ignorable[i], m)) return 1;
  return 0;
}

static int opcode_of(const char *s) {
  for (int i = 0; i < OP_COUNT; i++)
    if (!strcmp(op_names[i], s)) return i;
  return -1;
}

static int decode_stmt(dctx *D, const ptx_stmt *st, uint32_t pc) {
  if (grow_code(D) < 0) return -1;
  insn *in = &D->code[D->ncode];
  memset(in, 0, sizeof *in);
  in->guard = -1;
  in->d2 = ~0u;
  in->rpc = NO_RPC;
  in->vec = 1;
  in->src = D->ncode;
  dstmt S = {.st = st, .pc = pc};
  char text[160];
  dec_opcode_text(&S, text, sizeof text);
  src_line *ln = &D->lines[D->ncode];
  memset(ln, 0, sizeof *ln);
  ln->text = strdup(text);
  ln->ptx_line = st->pos.line;
  ln->file = ~0u;
  {
    uint32_t file = st->loc.file, line = st->loc.line, col = st->loc.col;
    if (st->loc.inl_line) {
      file = st->loc.inl_file;
      line = st->loc.inl_line;
      col = st->loc.inl_col;
    }
    if (line) {
      ln->file = file;
      ln->line = line;
      ln->col = col;
      ln->frame = st->loc.frame;
    }
  }
  int op = opcode_of(st->opcode);
  if (op < 0) {
    free((char *)ln->text);
    return perr(D, st->pos, "unknown instruction '%s' (not PTX, or PTX that smemu does not support)", text);
  }
  in->op = (uint16_t)op;
  for (int i = 0; i < st->nmods; i++) {
    int t = ptx_type_from_name(st->mods[i]);
    if (t != PTX_T_NONE && S.ntypes < 4) {
      S.types[S.ntypes++] = t;
      S.used |= 1ull << i;
    }
  }
  if (st->nmods > 63) {
    free((char *)ln->text);
    return perr(D, st->pos, "too many modifiers");
  }
  if (st->guard) {
    uint32_t p = 0;
    if (pred_lookup(D, st->guard, st->pos, &p) < 0) {
      free((char *)ln->text);
      return -1;
    }
    in->guard = (int32_t)p;
    in->guard_xor = st->guard_neg ? ~0u : 0;
  }
  if (D->fam->decoders[op](D, &S, in) < 0 || D->failed) {
    if (!D->failed) perr(D, st->pos, "cannot decode '%s'", text);
    free((char *)ln->text);
    return -1;
  }
  for (int i = 0; i < st->nmods; i++)
    if (!(S.used >> i & 1) && !mod_ok(st->mods[i])) {
      free((char *)ln->text);
      return perr(D, st->pos, "unsupported modifier '.%s' in '%s'", st->mods[i], text);
    }
  if (!in->fn) {
    free((char *)ln->text);
    return perr(D, st->pos, "'%s' is not supported", text);
  }
  D->ncode++;
  return 0;
}

/* An implicit `ret` closing every function, so pc never runs off the end. */
static int add_end(dctx *D, ptx_pos pos) {
  static const ptx_stmt end = {.opcode = "ret"};
  ptx_stmt st = end;
  st.pos = pos;
  return decode_stmt(D, &st, D->ncode);
}

/* Callbacks of the merge pass (merge.h). */
static int32_t merge_reg(void *u, const char *name) {
  uint64_t v;
  return smap_get(&((dctx *)u)->regs, name, &v) ? (int32_t)v : -1;
}
static int merge_sym(void *u, const char *name, uint64_t *a) {
  dctx *D = u;
  return smap_get(&D->shared, name, a) || smap_get(&D->globals, name, a);
}
static void merge_mark(void *u, uint32_t pc, uint8_t m) {
  dctx *D = u;
  if (pc < D->ncode) D->code[pc].merge = m;
}

static void sel_mark(void *u, uint32_t pc, uint8_t form) {
  dctx *D = u;
  if (pc < D->ncode) D->code[pc].atom_form = form;
}

static void merge_func(dctx *D, const ptx_func *f, uint32_t first_pc) {
  merge_ctx *C = calloc(1, sizeof *C);
  if (!C) return;
  C->user = D;
  C->reg_slot = merge_reg;
  C->symbol_addr = merge_sym;
  C->mark = merge_mark;
  C->nslots = D->nregs_decl + 1;
  C->al = calloc(C->nslots, sizeof *C->al);
  if (C->al) merge_pass(C, f, first_pc);
  free(C->al);
  free(C);
  /* the SASS form of each shared atomic */
  atomsel_ctx S = {D, merge_reg, sel_mark, D->nregs_decl + 1, NULL, NULL};
  S.nonuni = calloc(S.nslots, 1);
  S.uses = calloc(S.nslots, sizeof *S.uses);
  if (S.nonuni && S.uses) atomsel_pass(&S, f, first_pc);
  free(S.nonuni);
  free(S.uses);
}

static int decode_func(dctx *D, program *P, uint32_t idx) {
  const ptx_func *f = D->fl[idx];
  func_info *fi = &P->funcs[idx];
  D->cur = idx;
  D->f = f;
  D->fi = fi;
  smap_clear(&D->regs);
  smap_clear(&D->wide);
  smap_clear(&D->preds);
  smap_clear(&D->labels);
  smap_clear(&D->frame);
  D->nconsts = 0;
  fi->name = f->name;
  fi->entry = D->ncode;
  if (!f->has_body) {
    fi->builtin = builtin_of(f->name);
    fi->nparams = (uint32_t)f->nparams;
    fi->nrets = (uint32_t)f->nrets;
    fi->nregs = SLOT_FIRST;
    fi->npreds = PRED_FIRST;
    fi->end = D->ncode;
    return 0;
  }
  if (declare_regs(D, f) < 0 || layout_frame(D, f, fi, idx == 0) < 0) return -1;
  uint32_t pc = D->ncode;
  for (int s = 0; s < f->nbody; s++) {
    if (f->body[s].label)
      smap_put(&D->labels, f->body[s].label, pc);
    else
      pc++;
  }
  for (int s = 0; s < f->nbody; s++) {
    if (f->body[s].label) continue;
    if (decode_stmt(D, &f->body[s], D->ncode) < 0) return -1;
  }
  if (add_end(D, f->pos) < 0) return -1;
  merge_func(D, f, fi->entry);
  fi->end = D->ncode;
  fi->nconsts = D->nconsts;
  fi->nregs = D->nregs_decl + D->nconsts;
  fi->npreds = D->npreds;
  fi->consts = malloc((D->nconsts + 1) * sizeof *fi->consts);
  if (!fi->consts) return -1;
  if (D->nconsts) memcpy(fi->consts, D->consts, D->nconsts * sizeof *fi->consts);
  if (fi->nregs > P->max_regs) P->max_regs = fi->nregs;
  if (fi->npreds > P->max_preds) P->max_preds = fi->npreds;
  return 0;
}

/* ---- calls ---- */
static int call_arg_of(dctx *D, dstmt *S, const ptx_operand *o, uint32_t size, call_arg *a, int is_ret) {
  uint64_t v;
  if (o->kind == PTX_OPD_SYM && smap_get(&D->frame, o->name, &v)) {
    *a = (call_arg){0, (uint32_t)v, size};
    return 0;
  }
  uint32_t slot;
  int r = is_ret ? dec_dst_opd(D, o, &slot) : dec_src_opd(D, o, size == 8 ? PTX_T_B64 : PTX_T_B32, &slot);
  if (r) return r < 0 ? -1 : dec_error(D, S, -1, "bad call argument");
  *a = (call_arg){1, slot, size > 8 ? 8 : size};
  return 0;
}

/* A call_info for calling g with these operands; its index, or -1. */
static int64_t add_call_info(dctx *D, dstmt *S, const ptx_func *g, const ptx_operand *rets,
                             const ptx_operand *args) {
  int nargs = args ? args->nelems : 0, nrets = rets ? rets->nelems : 0;
  if (nargs != g->nparams || nrets != g->nrets)
    return dec_error(D, S, -1, "call of '%s' with %d argument(s) and %d result(s); it takes %d and %d",
                     g->name, nargs, nrets, g->nparams, g->nrets);
  if (D->ncalls == D->capcalls) {
    D->capcalls = D->capcalls ? D->capcalls * 2 : 16;
    call_info *c = realloc(D->calls, D->capcalls * sizeof *c);
    if (!c) return -1;
    D->calls = c;
  }
  call_info *ci = &D->calls[D->ncalls];
  ci->nargs = (uint32_t)nargs;
  ci->nrets = (uint32_t)nrets;
  ci->args = calloc((size_t)nargs + 1, sizeof *ci->args);
  ci->rets = calloc((size_t)nrets + 1, sizeof *ci->rets);
  if (!ci->args || !ci->rets) return -1;
  D->ncalls++;
  for (int i = 0; i < nargs; i++)
    if (call_arg_of(D, S, &args->elems[i], (uint32_t)var_bytes(&g->params[i]), &ci->args[i], 0) < 0)
      return -1;
  for (int i = 0; i < nrets; i++)
    if (call_arg_of(D, S, &rets->elems[i], (uint32_t)var_bytes(&g->rets[i]), &ci->rets[i], 1) < 0) return -1;
  return (int64_t)(D->ncalls - 1);
}

/* call (r), %rd, (a), prototype-or-targets: one call_info per function of
 * the kernel with as many parameters and results; xslots get their
 * (program index, module index) pairs (exec/icall.c picks at run time). */
static int dec_call_indirect(dctx *D, dstmt *S, insn *in, const ptx_operand *rets, int k) {
  const ptx_stmt *st = S->st;
  const ptx_operand *args = NULL;
  if (dec_src_opd(D, &st->ops[k], PTX_T_B64, &in->a)) return dec_error(D, S, k, "bad function pointer");
  k++;
  if (k < st->nops && st->ops[k].kind == PTX_OPD_LIST) args = &st->ops[k++];
  if (k != st->nops - 1 || st->ops[k].kind != PTX_OPD_SYM)
    return dec_error(D, S, -1, "an indirect call ends with a .callprototype or .calltargets label");
  int nargs = args ? args->nelems : 0, nrets = rets ? rets->nelems : 0;
  uint32_t n = 0, *pairs = calloc(2 * (size_t)D->nf + 1, sizeof *pairs);
  if (!pairs) return -1;
  in->imm = -1;
  for (uint32_t i = 1; i < D->nf; i++) {
    const ptx_func *g = D->fl[i];
    if (!g->has_body || g->nparams != nargs || g->nrets != nrets) continue;
    int64_t c = add_call_info(D, S, g, rets, args);
    if (c < 0) {
      free(pairs);
      return -1;
    }
    if (in->imm < 0) in->imm = c;
    pairs[2 * n] = i;
    pairs[2 * n + 1] = (uint32_t)(g - D->m->funcs);
    n++;
  }
  int64_t x = 0;
  int rc = n ? dec_xslots(D, pairs, 2 * n, &x) : 0;
  free(pairs);
  if (rc < 0) return -1;
  in->target = (uint32_t)x;
  in->c = n;
  return 1;
}

int dec_callsite(dctx *D, dstmt *S, insn *in) {
  const ptx_stmt *st = S->st;
  const ptx_operand *rets = NULL, *args = NULL, *callee = NULL;
  int k = 0;
  dec_take(S, "uni");
  if (k < st->nops && st->ops[k].kind == PTX_OPD_LIST) rets = &st->ops[k++];
  if (k < st->nops && st->ops[k].kind == PTX_OPD_SYM)
    callee = &st->ops[k++];
  else if (k < st->nops && st->ops[k].kind == PTX_OPD_REG)
    return dec_call_indirect(D, S, in, rets, k);
  else
    return dec_error(D, S, k, "a call needs a function or a function pointer");
  if (k < st->nops && st->ops[k].kind == PTX_OPD_LIST) args = &st->ops[k++];
  uint64_t idx;
  if (!smap_get(&D->funcs, callee->name, &idx))
    return dec_error(D, S, -1, "unknown function '%s'", callee->name);
  int64_t c = add_call_info(D, S, D->fl[idx], rets, args);
  if (c < 0) return -1;
  in->target = (uint32_t)idx;
  in->imm = c;
  return 0;
}

int dec_xslots(dctx *D, const uint32_t *slots, uint32_t n, int64_t *index) {
  if (D->nxslots + n > D->capxslots) {
    uint32_t cap = D->capxslots ? D->capxslots * 2 : 64;
    while (cap < D->nxslots + n) cap *= 2;
    uint32_t *x = realloc(D->xslots, cap * sizeof *x);
    if (!x) return -1;
    D->xslots = x;
    D->capxslots = cap;
  }
  memcpy(D->xslots + D->nxslots, slots, n * sizeof *slots);
  *index = D->nxslots;
  D->nxslots += n;
  return 0;
}

void program_free(program *p) {
  if (!p) return;
  free(p->usects);
  free(p->sinks);
  for (uint32_t i = 0; i < p->nfuncs; i++) {
    func_info *f = &p->funcs[i];
    free(f->consts);
    free(f->param_offs);
    free(f->param_sizes);
    free(f->ret_offs);
    free(f->ret_sizes);
  }
  for (uint32_t i = 0; i < p->ncalls; i++) {
    free(p->calls[i].args);
    free(p->calls[i].rets);
  }
  for (uint32_t i = 0; i < p->nlines; i++) free((char *)p->lines[i].text);
  for (uint32_t i = 0; i < p->nvars; i++)
    if (p->vars[i].space == -1) free((char *)p->vars[i].name);
  free(p->calls);
  free(p->xslots);
  free(p->wg_orig);
  free(p->reread);
  free(p->funcs);
  free(p->code);
  free(p->lines);
  free(p->params);
  free(p->vars);
  free(p->files);
  free(p);
}

int ir_decode(const ptx_module *m, const ptx_func *k, const decode_env *env, const decode_families *fam,
              program **out, char *err, size_t errsize) {
  dctx D;
  memset(&D, 0, sizeof D);
  D.m = m;
  D.env = env;
  D.fam = fam;
  D.err = err;
  D.errsize = errsize;
  if (errsize) err[0] = 0;
  *out = NULL;
  program *P = calloc(1, sizeof *P);
  if (!P) return -1;
  P->name = k->name;
  int rc = -1;
  if (collect_funcs(&D, k) < 0 || layout_shared(&D, P) < 0 || kernel_params(&D, k, P) < 0) goto done;
  P->funcs = calloc(D.nf, sizeof *P->funcs);
  if (!P->funcs) goto done;
  P->nfuncs = D.nf;
  for (uint32_t i = 0; i < D.nf; i++)
    if (decode_func(&D, P, i) < 0) goto done;
  /* a kernel that asks where the system's part of the reserved shared
   * memory is (cooperative groups' tiles of more than 32 threads keep
   * their barriers there) may address the reserved bytes */
  P->smem_lo = D.reads_rsv_off ? 0 : P->smem_reserved;
  P->code = D.code;
  P->lines = D.lines;
  P->ncode = P->nlines = D.ncode;
  D.code = NULL;
  D.lines = NULL;
  P->calls = D.calls;
  P->ncalls = D.ncalls;
  P->has_calls = D.ncalls > 0;
  D.calls = NULL;
  P->xslots = D.xslots;
  P->nxslots = D.nxslots;
  D.xslots = NULL;
  for (int i = 0; i < 3; i++) {
    P->reqntid[i] = k->reqntid[i];
    P->maxntid[i] = k->maxntid[i];
    P->reqncluster[i] = k->reqncluster[i];
  }
  P->maxclusterrank = k->maxclusterrank;
  P->explicit_cluster = k->explicit_cluster;
  /* source files, indexed by .file number */
  uint32_t maxf = 0;
  for (int i = 0; i < m->nfiles; i++)
    if (m->files[i].index + 1 > maxf) maxf = m->files[i].index + 1;
  P->files = calloc(maxf + 1, sizeof *P->files);
  if (!P->files) goto done;
  P->nfiles = maxf;
  for (int i = 0; i < m->nfiles; i++) P->files[m->files[i].index] = m->files[i].path;
  P->inl = m->inl;
  P->ninl = (uint32_t)m->ninl;
  for (uint32_t i = 0; i < P->nlines; i++)
    if (P->lines[i].file != ~0u && (P->lines[i].file >= maxf || !P->files[P->lines[i].file]))
      P->lines[i].file = ~0u;
  if (cfg_reconvergence(P, err, errsize) < 0) goto done;
  if (fam->finish && fam->finish(P) < 0) goto done;
  rc = 0;
done:
  if (D.failed || rc < 0) {
    if (!D.failed && errsize && !err[0]) snprintf(err, errsize, "out of memory while decoding");
    rc = -1;
  }
  P->vars = D.vars;
  P->nvars = D.nvars;
  D.vars = NULL;
  if (rc < 0) {
    if (!P->code) {
      P->code = D.code;
      P->lines = D.lines;
      P->nlines = D.ncode;
      if (!P->calls) {
        P->calls = D.calls;
        P->ncalls = D.ncalls;
      }
    }
    program_free(P);
    P = NULL;
  }
  smap_clear(&D.funcs);
  smap_clear(&D.shared);
  smap_clear(&D.globals);
  smap_clear(&D.kparams);
  smap_clear(&D.regs);
  smap_clear(&D.wide);
  smap_clear(&D.preds);
  smap_clear(&D.labels);
  smap_clear(&D.frame);
  free(D.consts);
  free(D.xslots);
  free(D.fl);
  free(D.vars);
  *out = P;
  return rc;
}
