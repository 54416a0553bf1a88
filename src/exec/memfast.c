/* memfast.c: fast paths of ld and st that the generic handler (mem.c)
 * takes otherwise. ld.global and st.global of vectors (.v2/.v4 of 4- or
 * 8-byte elements, as uint4 and float2 accesses compile to): The generic handler
 * looks each lane's address up on its own; here one pass finds the span
 * of the warp's addresses and their alignment, and when one allocation
 * holds the whole span (the warp's cached ones, else the table) and no
 * analysis looks at global accesses, the lanes load or store directly.
 * Anything else (a fault to report, an analysis hook) takes the generic
 * handler, which behaves the same where both apply. */
#include "exec/memfast.h"
#include "exec/hooks.h"
#include "mem/mem.h"

/* The allocation holding every active lane's `total` bytes, each lane's
 * address aligned to total, or NULL. Found allocations are cached in the
 * warp as global_ptr caches them. */
static const alloc *span_alloc(warp *w, const insn *in, uint32_t m, uint64_t total, int write) {
  const uint64_t *A = w->r[in->a];
  const uint64_t imm = (uint64_t)in->imm;
  uint64_t lo = ~0ull, hi = 0, bits = 0;
  LANES(m, {
    uint64_t a = A[l] + imm;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    bits |= a;
  });
  if (!m || (bits & (total - 1)) || hi + total < hi) return NULL;
  hi += total;
  const alloc *g = w->gcache;
  if (!g || lo < g->base || hi - g->base > g->size) {
    g = w->gcache2;
    if (!g || lo < g->base || hi - g->base > g->size)
      g = mem_find(w->L->mem, (uintptr_t)lo, (size_t)(hi - lo));
    if (!g) return NULL;
    w->gcache2 = w->gcache;
    w->gcache = g;
  }
  return write && g->readonly ? NULL : g;
}

void ld_global_vec(warp *w, const insn *in, uint32_t m) {
  const int es = (int)in->c, n = in->vec;
  if (hooks_see_global(w) || !span_alloc(w, in, m, (uint64_t)(es * n), 0)) {
    ld_gen(w, in, m);
    return;
  }
  const uint64_t *A = w->r[in->a];
  const uint64_t imm = (uint64_t)in->imm;
  const int sgn = (in->flags & IF_SIGNED) != 0;
  LANES(m, {
    /* the address is read before a destination (which may be the
     * address register) is written */
    const uint8_t *p = (const uint8_t *)(uintptr_t)(A[l] + imm);
    for (int k = 0; k < n; k++) {
      if (in->v[k] == SLOT_SINK) continue;
      uint64_t v;
      if (es == 4) {
        uint32_t u;
        memcpy(&u, p + 4 * k, 4);
        v = sgn ? (uint64_t)(int64_t)(int32_t)u : u;
      } else {
        memcpy(&v, p + 8 * k, 8);
      }
      w->r[in->v[k]][l] = v;
    }
  });
}

void st_global_vec(warp *w, const insn *in, uint32_t m) {
  const int es = (int)in->c, n = in->vec;
  if (hooks_see_global(w) || !span_alloc(w, in, m, (uint64_t)(es * n), 1)) {
    st_gen(w, in, m);
    return;
  }
  const uint64_t *A = w->r[in->a];
  const uint64_t imm = (uint64_t)in->imm;
  /* lane by lane, element by element, as st_gen: where lanes meet, the
   * highest lane's value stays */
  LANES(m, {
    uint8_t *p = (uint8_t *)(uintptr_t)(A[l] + imm);
    for (int k = 0; k < n; k++) {
      uint64_t v = w->r[in->v[k]][l];
      if (es == 4) {
        uint32_t u = (uint32_t)v;
        memcpy(p + 4 * k, &u, 4);
      } else {
        memcpy(p + 8 * k, &v, 8);
      }
    }
  });
}

/* ld.param: a kernel's parameters are read at one address by every lane
 * (ld.param [name+off]); the elements are read once and copied to the
 * lanes. Lanes at different addresses, an address past the parameters and
 * launches with analyses are left to the generic handler (0; it reports,
 * and the analyses see every access). */
int ld_param_fast(warp *w, const insn *in, uint32_t m) {
  const int es = (int)in->c, n = in->vec, sgn = (in->flags & IF_SIGNED) != 0;
  const uint64_t *A = w->r[in->a];
  const uint64_t imm = (uint64_t)in->imm;
  if (w->L->hooks || !m || (in->flags & IF_FRAME)) return 0;
  const uint64_t a = A[__builtin_ctz(m)] + imm, total = (uint64_t)(es * n);
  uint64_t diff = 0;
  LANES(m, { diff |= (A[l] + imm) ^ a; });
  if (diff || a + total < a || a + total > w->L->prog->param_bytes) return 0;
  /* every element before any register is written (one may be the
   * address register) */
  uint64_t v[4];
  for (int k = 0; k < n; k++)
    v[k] = load_bytes((const uint8_t *)w->L->params + a + (uint64_t)(k * es), es, sgn);
  for (int k = 0; k < n; k++) {
    if (in->v[k] == SLOT_SINK) continue;
    uint64_t *D = w->r[in->v[k]];
    LANES(m, { D[l] = v[k]; });
  }
  return 1;
}
