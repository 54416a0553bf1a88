/* mem.c: ld, ldu and st in every state space, width and vector form. The
 * shared and global 32/64-bit scalar forms have straight-line handlers;
 * everything else goes through one generic loop. Every access is checked
 * (bounds and alignment) and reported to the analysis hook when one is on. */
#include "exec/exec.h"
#include "exec/hooks.h"
#include "ir/decode.h"

/* Effective address of lane l. */
static inline uint64_t ea(const warp *w, const insn *in, const uint64_t *A, int l) {
  uint64_t a = A[l] + (uint64_t)in->imm;
  return (in->flags & IF_FRAME) ? a + w->local_base : a;
}

static inline uint64_t load_bytes(const uint8_t *p, int size, int sgn) {
  switch (size) {
  case 1: return sgn ? (uint64_t)(int64_t)(int8_t)*p : *p;
  case 2: { uint16_t v; memcpy(&v, p, 2); return sgn ? (uint64_t)(int64_t)(int16_t)v : v; }
  case 4: { uint32_t v; memcpy(&v, p, 4); return sgn ? (uint64_t)(int64_t)(int32_t)v : v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

/* Generic load: any space, any element size, 1/2/4 elements. Every lane's
 * address is checked before any register is written. */
static void ld_gen(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a];
  int es = in->c, n = in->vec, sgn = in->flags & IF_SIGNED;
  uint32_t total = (uint32_t)(es * n);
  uint64_t addr[32] = {0};
  uint8_t *ptr[32];
  uint32_t bad = 0;
  LANES(m, {
    addr[l] = ea(w, in, A, l);
    if (!(ptr[l] = exec_addr(w, l, in->space, addr[l], total, 0))) {
      if (!w->L->fault_all) return;
      bad |= 1u << l; /* memcheck: that lane has ended, the others go on */
    }
  });
  if (bad && !(m &= ~bad)) return;
  if (w->L->hooks) hook_mem(w, in, m, addr, total);
  LANES(m, {
    for (int k = 0; k < n; k++)
      if (in->v[k] != SLOT_SINK) w->r[in->v[k]][l] = load_bytes(ptr[l] + k * es, es, sgn);
  });
}

static void st_gen(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a];
  int es = in->c, n = in->vec;
  uint32_t total = (uint32_t)(es * n);
  uint64_t addr[32] = {0};
  uint8_t *ptr[32];
  uint32_t bad = 0;
  LANES(m, {
    addr[l] = ea(w, in, A, l);
    if (!(ptr[l] = exec_addr(w, l, in->space, addr[l], total, 1))) {
      if (!w->L->fault_all) return;
      bad |= 1u << l; /* memcheck: that lane has ended, the others go on */
    }
  });
  if (bad && !(m &= ~bad)) return;
  if (w->L->hooks) hook_mem(w, in, m, addr, total);
  LANES(m, {
    for (int k = 0; k < n; k++) {
      uint64_t v = w->r[in->v[k]][l];
      memcpy(ptr[l] + k * es, &v, (size_t)es);
    }
  });
}

/* Shared-memory scalar fast paths: one range check per lane. */
#define SHARED_LD(name, T)                                                        \
  static void name(warp *w, const insn *in, uint32_t m) {                         \
    const uint64_t *A = w->r[in->a];                                              \
    uint64_t *D = w->r[in->d];                                                    \
    block *b = w->blk;                                                            \
    uint64_t lo = w->L->prog->smem_reserved, hi = b->smem_size - sizeof(T);      \
    if (w->L->hooks) {                                                            \
      uint64_t addr[32] = {0};                                                    \
      LANES(m, {                                                                  \
        uint64_t a = addr[l] = A[l] + (uint64_t)in->imm;                          \
        if (a < lo || a > hi || (a & (sizeof(T) - 1))) { ld_gen(w, in, m); return; } \
      });                                                                         \
      hook_mem(w, in, m, addr, sizeof(T));                                        \
      LANES(m, { T v; memcpy(&v, b->smem + addr[l], sizeof(T)); D[l] = v; });     \
      return;                                                                     \
    }                                                                             \
    if (m == FULL_MASK) {                                                         \
      /* one range check for the warp: these reductions vectorise */              \
      uint64_t amin = UINT64_MAX, amax = 0, aor = 0;                              \
      for (int l = 0; l < 32; l++) {                                              \
        uint64_t a = A[l] + (uint64_t)in->imm;                                    \
        amin = a < amin ? a : amin; amax = a > amax ? a : amax; aor |= a;         \
      }                                                                           \
      if (amin < lo || amax > hi || (aor & (sizeof(T) - 1))) { ld_gen(w, in, m); return; } \
      for (int l = 0; l < 32; l++) {                                              \
        T v; memcpy(&v, b->smem + A[l] + (uint64_t)in->imm, sizeof(T)); D[l] = v; \
      }                                                                           \
      return;                                                                     \
    }                                                                             \
    LANES(m, {                                                                    \
      uint64_t a = A[l] + (uint64_t)in->imm;                                      \
      if (a < lo || a > hi || (a & (sizeof(T) - 1))) { ld_gen(w, in, m); return; } \
      T v; memcpy(&v, b->smem + a, sizeof(T)); D[l] = v;                          \
    });                                                                           \
  }
#define SHARED_ST(name, T)                                                        \
  static void name(warp *w, const insn *in, uint32_t m) {                         \
    const uint64_t *A = w->r[in->a], *V = w->r[in->v[0]];                         \
    block *b = w->blk;                                                            \
    uint64_t lo = w->L->prog->smem_reserved, hi = b->smem_size - sizeof(T);      \
    if (w->L->hooks) { st_gen(w, in, m); return; }                                \
    LANES(m, {                                                                    \
      uint64_t a = A[l] + (uint64_t)in->imm;                                      \
      if (a < lo || a > hi || (a & (sizeof(T) - 1))) { st_gen(w, in, m); return; } \
    });                                                                           \
    LANES(m, { T v = (T)V[l]; memcpy(b->smem + A[l] + (uint64_t)in->imm, &v, sizeof(T)); }); \
  }
SHARED_LD(ld_shared_32, uint32_t)
SHARED_LD(ld_shared_64, uint64_t)
SHARED_ST(st_shared_32, uint32_t)
SHARED_ST(st_shared_64, uint64_t)

/* The cached allocation (of the warp's two most recent) holding address a,
 * or NULL: kernels that alternate between two arrays stay on the fast path. */
static inline const alloc *gpick(warp *w, uint64_t a) {
  const alloc *g = w->gcache;
  if (g && a >= g->base && a - g->base < g->size) return g;
  g = w->gcache2;
  if (g && a >= g->base && a - g->base < g->size) {
    w->gcache2 = w->gcache;
    w->gcache = g;
    return g;
  }
  return NULL;
}

/* Global fast paths: the warp's cached allocations cover most accesses. */
#define GLOBAL_LD(name, T)                                                        \
  static void name(warp *w, const insn *in, uint32_t m) {                         \
    const uint64_t *A = w->r[in->a];                                              \
    uint64_t *D = w->r[in->d];                                                    \
    const alloc *g;                                                               \
    if (w->L->hooks || !m || !(g = gpick(w, A[__builtin_ctz(m)] + (uint64_t)in->imm))) { \
      ld_gen(w, in, m); return; }                                                 \
    LANES(m, {                                                                    \
      uint64_t a = A[l] + (uint64_t)in->imm;                                      \
      if (a - g->base + sizeof(T) > g->size || a < g->base || (a & (sizeof(T) - 1))) { \
        ld_gen(w, in, m); return; }                                               \
    });                                                                           \
    LANES(m, { T v; memcpy(&v, (const void *)(uintptr_t)(A[l] + (uint64_t)in->imm), sizeof(T)); D[l] = v; }); \
  }
#define GLOBAL_ST(name, T)                                                        \
  static void name(warp *w, const insn *in, uint32_t m) {                         \
    const uint64_t *A = w->r[in->a], *V = w->r[in->v[0]];                         \
    const alloc *g;                                                               \
    if (w->L->hooks || !m || !(g = gpick(w, A[__builtin_ctz(m)] + (uint64_t)in->imm)) || g->readonly) { \
      st_gen(w, in, m); return; }                                                 \
    LANES(m, {                                                                    \
      uint64_t a = A[l] + (uint64_t)in->imm;                                      \
      if (a - g->base + sizeof(T) > g->size || a < g->base || (a & (sizeof(T) - 1))) { \
        st_gen(w, in, m); return; }                                               \
    });                                                                           \
    LANES(m, { T v = (T)V[l]; memcpy((void *)(uintptr_t)(A[l] + (uint64_t)in->imm), &v, sizeof(T)); }); \
  }
GLOBAL_LD(ld_global_32, uint32_t)
GLOBAL_LD(ld_global_64, uint64_t)
GLOBAL_ST(st_global_32, uint32_t)
GLOBAL_ST(st_global_64, uint64_t)

int dec_ldst(dctx *D, dstmt *S, insn *in) {
  int st = in->op == OP_ST;
  int sp = dec_space(S);
  int vec = dec_vec(S);
  if (vec > 4) return dec_error(D, S, -1, ".v8 is not supported");
  if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 2) < 0) return -1;
  int t = S->types[0], es = ptx_type_size(t);
  if (t == PTX_T_PRED || es > 8) return dec_error(D, S, -1, "%s does not take .%s", S->st->opcode, ptx_type_name(t));
  in->type = (uint8_t)t;
  in->space = (uint8_t)sp;
  in->vec = (uint8_t)vec;
  in->c = (uint32_t)es;
  if (int_class(t) >= IT_S8 && int_class(t) != IT_NONE) in->flags |= IF_SIGNED;
  int space = sp;
  if (dec_addr(D, S, st ? 0 : 1, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  in->space = (uint8_t)space;
  const ptx_operand *v = &S->st->ops[st ? 1 : 0];
  if (vec > 1) {
    if (v->kind != PTX_OPD_VEC || v->nelems != vec) return dec_error(D, S, st ? 1 : 0, "expected a vector of %d registers", vec);
    for (int k = 0; k < vec; k++) {
      int r = st ? dec_src_opd(D, &v->elems[k], t, &in->v[k]) : dec_dst_opd(D, &v->elems[k], &in->v[k]);
      if (r) return r < 0 ? -1 : dec_error(D, S, -1, "bad vector element");
    }
  } else {
    int r = st ? dec_src_opd(D, v, t, &in->v[0]) : dec_dst_opd(D, v, &in->v[0]);
    if (r) return r < 0 ? -1 : dec_error(D, S, st ? 1 : 0, "bad operand");
    in->d = in->v[0];
  }
  in->fn = st ? st_gen : ld_gen;
  if (vec == 1 && !(in->flags & IF_FRAME) && !(in->flags & IF_SIGNED)) {
    if (space == PTX_SPACE_SHARED && es == 4) in->fn = st ? st_shared_32 : ld_shared_32;
    if (space == PTX_SPACE_SHARED && es == 8) in->fn = st ? st_shared_64 : ld_shared_64;
    if (space == PTX_SPACE_GLOBAL && es == 4) in->fn = st ? st_global_32 : ld_global_32;
    if (space == PTX_SPACE_GLOBAL && es == 8) in->fn = st ? st_global_64 : ld_global_64;
  }
  if (in->op == OP_ST && space == PTX_SPACE_CONST) return dec_error(D, S, -1, "st.const is not allowed");
  return 0;
}

/* cp.async.{ca,cg}.shared.global [dst], [src], size{, src-size}: copies
 * size bytes from global to shared memory, the bytes past src-size zero.
 * smemu copies at once; cp.async.commit_group / wait_group / wait_all then
 * have nothing to wait for (finishing early is one of the orders the
 * asynchronous copy allows). The race checker sees a read of global and a
 * write of shared memory at this instruction; the bank counters do not,
 * as Nsight Compute's do not (hooks.h). */
static void cp_async(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  uint32_t size = (uint32_t)in->imm;
  uint64_t dst[32] = {0}, src[32] = {0};
  uint8_t *dp[32];
  const uint8_t *sp[32];
  LANES(m, {
    dst[l] = A[l] + (uint64_t)(int64_t)(int32_t)in->v[0];
    src[l] = B[l] + (uint64_t)(int64_t)(int32_t)in->v[1];
    if (!(dp[l] = exec_addr(w, l, PTX_SPACE_SHARED, dst[l], size, 1))) return;
    uint32_t n = (uint32_t)C[l] < size ? (uint32_t)C[l] : size;
    sp[l] = NULL;
    if (n && !(sp[l] = exec_addr(w, l, PTX_SPACE_GLOBAL, src[l], size, 0))) return;
  });
  if (w->L->hooks) hook_copy(w, in, m, src, dst, size);
  LANES(m, {
    uint32_t n = (uint32_t)C[l] < size ? (uint32_t)C[l] : size;
    if (n) memcpy(dp[l], sp[l], n);
    memset(dp[l] + n, 0, size - n);
  });
}

static void cp_nop(warp *w, const insn *in, uint32_t m) { (void)w; (void)in; (void)m; }

int dec_cp(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "reduce")) return dec_bulk_reduce(D, S, in);
  if (!dec_take(S, "async")) return dec_error(D, S, -1, "only cp.async is supported");
  if (dec_take(S, "bulk")) return dec_bulk(D, S, in);
  if (dec_take(S, "commit_group") || dec_take(S, "wait_all")) {
    if (dec_nops(D, S, 0) < 0) return -1;
    in->fn = cp_nop;
    return 0;
  }
  if (dec_take(S, "wait_group")) {
    if (dec_nops(D, S, 1) < 0) return -1;
    in->fn = cp_nop;
    return 0;
  }
  if (!dec_take(S, "ca")) dec_take(S, "cg");
  if (!(dec_take(S, "shared") || dec_take(S, "shared::cta")) || !dec_take(S, "global"))
    return dec_error(D, S, -1, "cp.async copies .global to .shared");
  int n = S->st->nops;
  if (n < 3 || n > 4) return dec_error(D, S, -1, "cp.async takes [dst], [src], size and an optional source size");
  int space = PTX_SPACE_SHARED;
  int64_t off;
  uint8_t fl = 0;
  if (dec_addr(D, S, 0, &in->a, &off, &space, &fl) < 0) return -1;
  in->v[0] = (uint32_t)(int32_t)off;
  space = PTX_SPACE_GLOBAL;
  if (dec_addr(D, S, 1, &in->b, &off, &space, &fl) < 0) return -1;
  in->v[1] = (uint32_t)(int32_t)off;
  const ptx_operand *sz = &S->st->ops[2];
  if (sz->kind != PTX_OPD_INT || (sz->ival != 4 && sz->ival != 8 && sz->ival != 16))
    return dec_error(D, S, 2, "cp.async copies 4, 8 or 16 bytes");
  in->imm = sz->ival;
  if (dec_src(D, S, n == 4 ? 3 : 2, PTX_T_U32, &in->c) < 0) return -1;
  in->space = PTX_SPACE_SHARED;
  in->fn = cp_async;
  return 0;
}
