/* mem.c: ld, ldu and st in every state space, width and vector form. The
 * shared and global 32/64-bit scalar forms have straight-line handlers;
 * everything else goes through one generic loop. Every access is checked
 * (bounds and alignment) and reported to the analysis hook when one is on
 * (global accesses: not when the bank model is the only one). */
#include "async/async.h"
#include "exec/b128.h"
#include "exec/exec.h"
#include "exec/hooks.h"
#include "exec/memfast.h"
#include "ir/decode.h"

/* Effective address of lane l. */
static inline uint64_t ea(const warp *w, const insn *in, const uint64_t *A, int l) {
  uint64_t a = A[l] + (uint64_t)in->imm;
  return (in->flags & IF_FRAME) ? a + w->local_base : a;
}

/* Generic load: any space, any element size, 1/2/4 elements. Every lane's
 * address is checked before any register is written. */
void ld_gen(warp *w, const insn *in, uint32_t m) {
  if (in->space == PTX_SPACE_PARAM && ld_param_fast(w, in, m)) return;
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
  LANES(m, {
    for (int k = 0; k < n; k++)
      if (in->v[k] != SLOT_SINK) w->r[in->v[k]][l] = load_bytes(ptr[l] + k * es, es, sgn);
  });
  /* after the read: an acquiring load (a grid barrier's spin) is ordered
   * after the release whose value it saw, which another block's thread
   * may have made between a hook before the read and the read */
  if (w->L->hooks) hook_mem(w, in, m, addr, total);
}

void st_gen(warp *w, const insn *in, uint32_t m) {
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

/* The addresses of a full warp's access, each half-warp from its first
 * lane: 1 when every lane of a half has its first lane's address (a
 * broadcast), 2 when lane l of a half is at its first lane's plus
 * (l % 16) * es (consecutive elements), 0 otherwise. The two reductions
 * vectorise. */
static inline int half_pattern(const uint64_t *A, uint64_t es) {
  uint64_t x0 = 0, xs = 0, b0 = A[0], b1 = A[16];
  for (int l = 0; l < 16; l++) {
    x0 |= (A[l] ^ b0) | (A[l + 16] ^ b1);
    xs |= (A[l] - b0 - es * (uint64_t)l) | (A[l + 16] - b1 - es * (uint64_t)l);
  }
  return !x0 ? 1 : !xs ? 2 : 0;
}

/* Load es-byte elements into D (zero-extended) for a half_pattern: p0 the
 * first half's address, p1 the second's. */
static inline void half_load(uint64_t *D, const uint8_t *p0, const uint8_t *p1, int pat, uint64_t es) {
  if (pat == 1) {
    uint64_t v0 = 0, v1 = 0;
    memcpy(&v0, p0, es); /* little-endian: zero-extended */
    memcpy(&v1, p1, es);
    for (int l = 0; l < 16; l++) {
      D[l] = v0;
      D[l + 16] = v1;
    }
  } else if (es == 4) {
    for (int l = 0; l < 16; l++) {
      uint32_t v, u;
      memcpy(&v, p0 + 4 * l, 4);
      memcpy(&u, p1 + 4 * l, 4);
      D[l] = v;
      D[l + 16] = u;
    }
  } else {
    for (int l = 0; l < 16; l++) {
      uint64_t v, u;
      memcpy(&v, p0 + 8 * l, 8);
      memcpy(&u, p1 + 8 * l, 8);
      D[l] = v;
      D[l + 16] = u;
    }
  }
}

/* Whether an es-byte access at a starts in [lo, hi] and is aligned. */
static inline int sm_ok(uint64_t a, uint64_t lo, uint64_t hi, uint64_t es) {
  return a >= lo && a <= hi && !(a & (es - 1));
}

/* Whether the 32 addresses base[l] + imm all pass sm_ok: one range check
 * for the warp (these reductions vectorise). */
static inline int warp_ok(const uint64_t *base, uint64_t imm, uint64_t lo, uint64_t hi, uint64_t es) {
  uint64_t amin = UINT64_MAX, amax = 0, aor = 0;
  for (int l = 0; l < 32; l++) {
    uint64_t a = base[l] + imm;
    amin = a < amin ? a : amin;
    amax = a > amax ? a : amax;
    aor |= a;
  }
  return !(amin < lo || amax > hi || (aor & (es - 1)));
}

/* addr[l] = A[l] + imm for the lanes of m; 0 as soon as one fails sm_ok. */
static inline int lanes_ok(uint64_t *addr, const uint64_t *A, uint64_t imm, uint32_t m, uint64_t lo,
                           uint64_t hi, uint64_t es) {
  LANES(m, {
    uint64_t a = addr[l] = A[l] + imm;
    if (!sm_ok(a, lo, hi, es)) return 0;
  });
  return 1;
}

/* Whether both halves of a half_pattern (first addresses a0 and a1, each
 * spanning span more bytes) start in [lo, hi] and are aligned. */
static inline int halves_ok(uint64_t a0, uint64_t a1, uint64_t span, uint64_t lo, uint64_t hi, uint64_t es) {
  return span <= hi && a0 >= lo && a0 <= hi - span && a1 >= lo && a1 <= hi - span && !((a0 | a1) & (es - 1));
}

/* Shared-memory scalar fast paths: one range check per lane. */
#define SHARED_LD(name, T)                                                                                   \
  static void name(warp *w, const insn *in, uint32_t m) {                                                    \
    const uint64_t *A = w->r[in->a];                                                                         \
    uint64_t *D = w->r[in->d];                                                                               \
    const uint64_t imm_ = (uint64_t)in->imm;                                                                 \
    block *b = w->blk;                                                                                       \
    uint64_t lo = w->L->prog->smem_lo, hi = b->smem_size - sizeof(T);                                        \
    if (w->L->hooks && m == FULL_MASK) {                                                                     \
      /* the analyses see the addresses, then the loads run as without them */                               \
      uint64_t addr[32];                                                                                     \
      int pat = half_pattern(A, sizeof(T));                                                                  \
      if (pat) {                                                                                             \
        uint64_t a0 = A[0] + imm_, a1 = A[16] + imm_, span = pat == 2 ? 15 * sizeof(T) : 0;                  \
        if (!halves_ok(a0, a1, span, lo, hi, sizeof(T))) {                                                   \
          ld_gen(w, in, m);                                                                                  \
          return;                                                                                            \
        }                                                                                                    \
        /* a pattern the bank model has seen: its figures from the cache */                                  \
        if (hooks_banks_only(w) ? !hook_banks_halves(w, in, a0, a1, pat == 2 ? sizeof(T) : 0, sizeof(T))     \
                                : !hook_mem_shape(w, in, a0, a1, pat, sizeof(T))) {                          \
          for (int l = 0; l < 32; l++) addr[l] = A[l] + imm_;                                                \
          hook_mem_halves(w, in, addr, sizeof(T), a0, a1, pat == 2 ? sizeof(T) : 0);                         \
        }                                                                                                    \
        half_load(D, b->smem + a0, b->smem + a1, pat, sizeof(T));                                            \
        return;                                                                                              \
      } else {                                                                                               \
        for (int l = 0; l < 32; l++) addr[l] = A[l] + imm_;                                                  \
        if (!warp_ok(addr, 0, lo, hi, sizeof(T))) {                                                          \
          ld_gen(w, in, m);                                                                                  \
          return;                                                                                            \
        }                                                                                                    \
      }                                                                                                      \
      hook_mem(w, in, m, addr, sizeof(T));                                                                   \
      for (int l = 0; l < 32; l++) {                                                                         \
        T v;                                                                                                 \
        memcpy(&v, b->smem + addr[l], sizeof(T));                                                            \
        D[l] = v;                                                                                            \
      }                                                                                                      \
      return;                                                                                                \
    }                                                                                                        \
    if (w->L->hooks) {                                                                                       \
      uint64_t addr[32] = {0};                                                                               \
      if (!lanes_ok(addr, A, imm_, m, lo, hi, sizeof(T))) {                                                  \
        ld_gen(w, in, m);                                                                                    \
        return;                                                                                              \
      }                                                                                                      \
      hook_mem(w, in, m, addr, sizeof(T));                                                                   \
      LANES(m, {                                                                                             \
        T v;                                                                                                 \
        memcpy(&v, b->smem + addr[l], sizeof(T));                                                            \
        D[l] = v;                                                                                            \
      });                                                                                                    \
      return;                                                                                                \
    }                                                                                                        \
    if (m == FULL_MASK) {                                                                                    \
      /* each half-warp on one address or on consecutive elements (a row of                                  \
       * a tile, a broadcast): two range checks and block copies */                                          \
      int pat = half_pattern(A, sizeof(T));                                                                  \
      if (pat) {                                                                                             \
        uint64_t a0 = A[0] + imm_, a1 = A[16] + imm_;                                                        \
        if (halves_ok(a0, a1, pat == 2 ? 15 * sizeof(T) : 0, lo, hi, sizeof(T))) {                           \
          half_load(D, b->smem + a0, b->smem + a1, pat, sizeof(T));                                          \
          return;                                                                                            \
        }                                                                                                    \
      }                                                                                                      \
      if (!warp_ok(A, imm_, lo, hi, sizeof(T))) {                                                            \
        ld_gen(w, in, m);                                                                                    \
        return;                                                                                              \
      }                                                                                                      \
      for (int l = 0; l < 32; l++) {                                                                         \
        T v;                                                                                                 \
        memcpy(&v, b->smem + A[l] + imm_, sizeof(T));                                                        \
        D[l] = v;                                                                                            \
      }                                                                                                      \
      return;                                                                                                \
    }                                                                                                        \
    LANES(m, {                                                                                               \
      uint64_t a = A[l] + imm_;                                                                              \
      if (!sm_ok(a, lo, hi, sizeof(T))) {                                                                    \
        ld_gen(w, in, m);                                                                                    \
        return;                                                                                              \
      }                                                                                                      \
      T v;                                                                                                   \
      memcpy(&v, b->smem + a, sizeof(T));                                                                    \
      D[l] = v;                                                                                              \
    });                                                                                                      \
  }
#define SHARED_ST(name, T)                                                                                   \
  static void name(warp *w, const insn *in, uint32_t m) {                                                    \
    const uint64_t *A = w->r[in->a], *V = w->r[in->v[0]];                                                    \
    const uint64_t imm_ = (uint64_t)in->imm;                                                                 \
    block *b = w->blk;                                                                                       \
    uint64_t lo = w->L->prog->smem_lo, hi = b->smem_size - sizeof(T);                                        \
    if (w->L->hooks && m == FULL_MASK) {                                                                     \
      /* halves the bank model has seen (its figures from the cache) or the                                  \
       * race and init checks take from the halves' addresses */                                             \
      int pat = half_pattern(A, sizeof(T));                                                                  \
      uint64_t a0 = A[0] + imm_, a1 = A[16] + imm_, span = pat == 2 ? 15 * sizeof(T) : 0;                    \
      if (pat && halves_ok(a0, a1, span, lo, hi, sizeof(T)) &&                                               \
          (hooks_banks_only(w) ? hook_banks_halves(w, in, a0, a1, pat == 2 ? sizeof(T) : 0, sizeof(T))       \
                               : hook_mem_shape(w, in, a0, a1, pat, sizeof(T)))) {                           \
        for (int l = 0; l < 32; l++) {                                                                       \
          T v = (T)V[l];                                                                                     \
          memcpy(b->smem + A[l] + imm_, &v, sizeof(T));                                                      \
        }                                                                                                    \
        return;                                                                                              \
      }                                                                                                      \
    }                                                                                                        \
    if (w->L->hooks) {                                                                                       \
      /* as st_gen: every lane checked, the analyses, then the stores */                                     \
      uint64_t addr[32] = {0};                                                                               \
      if (!lanes_ok(addr, A, imm_, m, lo, hi, sizeof(T))) {                                                  \
        st_gen(w, in, m);                                                                                    \
        return;                                                                                              \
      }                                                                                                      \
      hook_mem(w, in, m, addr, sizeof(T));                                                                   \
      LANES(m, {                                                                                             \
        T v = (T)V[l];                                                                                       \
        memcpy(b->smem + addr[l], &v, sizeof(T));                                                            \
      });                                                                                                    \
      return;                                                                                                \
    }                                                                                                        \
    LANES(m, {                                                                                               \
      if (!sm_ok(A[l] + imm_, lo, hi, sizeof(T))) {                                                          \
        st_gen(w, in, m);                                                                                    \
        return;                                                                                              \
      }                                                                                                      \
    });                                                                                                      \
    LANES(m, {                                                                                               \
      T v = (T)V[l];                                                                                         \
      memcpy(b->smem + A[l] + imm_, &v, sizeof(T));                                                          \
    });                                                                                                      \
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

/* Whether every lane of m accesses es aligned bytes at A[l] + imm inside g. */
static inline int glanes_ok(const alloc *g, const uint64_t *A, uint64_t imm, uint32_t m, uint64_t es) {
  LANES(m, {
    uint64_t a = A[l] + imm;
    if (a - g->base + es > g->size || a < g->base || (a & (es - 1))) return 0;
  });
  return 1;
}

/* Global fast paths: the warp's cached allocations cover most accesses. */
#define GLOBAL_LD(name, T)                                                                                   \
  static void name(warp *w, const insn *in, uint32_t m) {                                                    \
    const uint64_t *A = w->r[in->a];                                                                         \
    uint64_t *D = w->r[in->d];                                                                               \
    const uint64_t imm_ = (uint64_t)in->imm;                                                                 \
    const alloc *g;                                                                                          \
    if (!m || !(g = gpick(w, A[__builtin_ctz(m)] + imm_))) {                                                 \
      ld_gen(w, in, m);                                                                                      \
      return;                                                                                                \
    }                                                                                                        \
    if (m == FULL_MASK) {                                                                                    \
      int pat = half_pattern(A, sizeof(T));                                                                  \
      uint64_t a0 = A[0] + imm_, a1 = A[16] + imm_;                                                          \
      uint64_t span = pat == 2 ? 16 * sizeof(T) : sizeof(T);                                                 \
      if (pat && g->size >= span && a0 >= g->base && a0 - g->base <= g->size - span && a1 >= g->base &&      \
          a1 - g->base <= g->size - span && !((a0 | a1) & (sizeof(T) - 1))) {                                \
        if (hooks_see_global(w)) { /* as ld_gen: every lane is in g, aligned */                              \
          uint64_t addr[32];                                                                                 \
          for (int l = 0; l < 32; l++) addr[l] = A[l] + imm_;                                                \
          hook_mem(w, in, m, addr, sizeof(T));                                                               \
        }                                                                                                    \
        half_load(D, (const uint8_t *)(uintptr_t)a0, (const uint8_t *)(uintptr_t)a1, pat, sizeof(T));        \
        return;                                                                                              \
      }                                                                                                      \
    }                                                                                                        \
    if (hooks_see_global(w)) {                                                                               \
      ld_gen(w, in, m);                                                                                      \
      return;                                                                                                \
    }                                                                                                        \
    if (!glanes_ok(g, A, imm_, m, sizeof(T))) {                                                              \
      ld_gen(w, in, m);                                                                                      \
      return;                                                                                                \
    }                                                                                                        \
    LANES(m, {                                                                                               \
      T v;                                                                                                   \
      memcpy(&v, (const void *)(uintptr_t)(A[l] + imm_), sizeof(T));                                         \
      D[l] = v;                                                                                              \
    });                                                                                                      \
  }
#define GLOBAL_ST(name, T)                                                                                   \
  static void name(warp *w, const insn *in, uint32_t m) {                                                    \
    const uint64_t *A = w->r[in->a], *V = w->r[in->v[0]];                                                    \
    const uint64_t imm_ = (uint64_t)in->imm;                                                                 \
    const alloc *g;                                                                                          \
    if (hooks_see_global(w) || !m || !(g = gpick(w, A[__builtin_ctz(m)] + imm_)) || g->readonly) {           \
      st_gen(w, in, m);                                                                                      \
      return;                                                                                                \
    }                                                                                                        \
    if (!glanes_ok(g, A, imm_, m, sizeof(T))) {                                                              \
      st_gen(w, in, m);                                                                                      \
      return;                                                                                                \
    }                                                                                                        \
    LANES(m, {                                                                                               \
      T v = (T)V[l];                                                                                         \
      memcpy((void *)(uintptr_t)(A[l] + imm_), &v, sizeof(T));                                               \
    });                                                                                                      \
  }
GLOBAL_LD(ld_global_32, uint32_t)
GLOBAL_LD(ld_global_64, uint64_t)
GLOBAL_ST(st_global_32, uint32_t)
GLOBAL_ST(st_global_64, uint64_t)

int dec_cache_hint(dctx *D, dstmt *S, ptx_stmt *copy); /* sm90ctl.c */

/* ld, and st but st.async (async/stasync.c; dec_st, exec/dispatch.c) */
int dec_ldst(dctx *D, dstmt *S, insn *in) {
  ptx_stmt nohint;
  if (dec_cache_hint(D, S, &nohint) < 0) return -1;
  int st = in->op == OP_ST;
  int sp = dec_space(S);
  int vec = dec_vec(S);
  if (vec > 4) return dec_error(D, S, -1, ".v8 is not supported");
  if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 2) < 0) return -1;
  int t = S->types[0], es = ptx_type_size(t);
  const ptx_operand *v = &S->st->ops[st ? 1 : 0];
  uint32_t halves[2];
  int wide = t == PTX_T_B128 && vec == 1;
  if (wide) {
    /* a .b128 register: the 16-byte vector of its two .b64 halves (b128.c) */
    int r = b128_halves(D, v, !st, halves);
    if (r) return r < 0 ? -1 : dec_error(D, S, st ? 1 : 0, "%s.b128 needs a .b128 register", S->st->opcode);
    t = PTX_T_B64, es = 8, vec = 2;
  }
  if (t == PTX_T_PRED || es > 8)
    return dec_error(D, S, -1, "%s does not take .%s", S->st->opcode, ptx_type_name(t));
  in->type = (uint8_t)t;
  in->space = (uint8_t)sp;
  in->vec = (uint8_t)vec;
  in->c = (uint32_t)es;
  if (int_class(t) >= IT_S8 && int_class(t) != IT_NONE) in->flags |= IF_SIGNED;
  int space = sp;
  if (dec_addr(D, S, st ? 0 : 1, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  in->space = (uint8_t)space;
  if (wide) {
    in->v[0] = halves[0];
    in->v[1] = halves[1];
  } else if (vec > 1) {
    if (v->kind != PTX_OPD_VEC || v->nelems != vec)
      return dec_error(D, S, st ? 1 : 0, "expected a vector of %d registers", vec);
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
  if (vec > 1 && !(in->flags & IF_FRAME) && space == PTX_SPACE_GLOBAL && (es == 4 || es == 8))
    in->fn = st ? st_global_vec : ld_global_vec;
  /* (ld.param keeps ld_gen, which tries ld_param_fast first: a handler
   * of its own made the compiled tier miss synccheck's divergent-warp
   * errors, test_races_hw under SMEMU_TIER=jit) */
  if (in->op == OP_ST && space == PTX_SPACE_CONST) return dec_error(D, S, -1, "st.const is not allowed");
  return 0;
}

/* cp.async.{ca,cg}.shared.global [dst], [src], size{, src-size}: copies
 * size bytes from global to shared memory, the bytes past src-size zero.
 * smemu copies at once; cp.async.commit_group / wait_group / wait_all then
 * have nothing to wait for (finishing early is one of the orders the
 * asynchronous copy allows). The race checker sees a read of global and a
 * write of shared memory at this instruction, in flight until the thread's
 * wait_group / wait_all (or cp.async.mbarrier.arrive) completes it: another
 * thread's access before that is a hazard (hook_cp_wait). The
 * bank counters do not see the copy, as Nsight Compute's do not (hooks.h). */
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

/* commit_group, wait_group n, wait_all: only the race checks' view of the
 * copies in flight changes */
static void cp_commit(warp *w, const insn *in, uint32_t m) {
  (void)in;
  hook_cp_commit(w, m);
}
static void cp_wait_group(warp *w, const insn *in, uint32_t m) { hook_cp_wait(w, m, (uint32_t)in->imm); }
static void cp_wait_all(warp *w, const insn *in, uint32_t m) {
  (void)in;
  hook_cp_wait(w, m, HOOK_CP_ALL);
}

/* cp.async's own forms (the copies and their groups); the bulk, reduce and
 * mbarrier forms are the async family's (dec_cp, exec/dispatch.c). */
int dec_cp_async(dctx *D, dstmt *S, insn *in) {
  int commit = dec_take(S, "commit_group");
  if (commit || dec_take(S, "wait_all")) {
    if (dec_nops(D, S, 0) < 0) return -1;
    in->fn = commit ? cp_commit : cp_wait_all;
    return 0;
  }
  if (dec_take(S, "wait_group")) {
    if (dec_nops(D, S, 1) < 0) return -1;
    const ptx_operand *g = &S->st->ops[0];
    if (g->kind != PTX_OPD_INT || g->ival < 0)
      return dec_error(D, S, 0, "cp.async.wait_group takes a constant group count");
    in->imm = g->ival;
    in->fn = cp_wait_group;
    return 0;
  }
  ptx_stmt nohint;
  if (dec_cache_hint(D, S, &nohint) < 0) return -1;
  if (!dec_take(S, "ca")) dec_take(S, "cg");
  if (!(dec_take(S, "shared") || dec_take(S, "shared::cta")) || !dec_take(S, "global"))
    return dec_error(D, S, -1, "cp.async copies .global to .shared");
  int n = S->st->nops;
  if (n < 3 || n > 4)
    return dec_error(D, S, -1, "cp.async takes [dst], [src], size and an optional source size");
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
