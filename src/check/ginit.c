/* ginit.c: the global-memory initialisation shadow and its check (ginit.h). */
#include "check/ginit.h"
#include "check/checks.h"
#include "check/race.h"
#include "exec/hooks.h"
#include <stdlib.h>
#include <string.h>

ginit *ginit_new(void) { return calloc(1, sizeof(ginit)); }

void ginit_free(ginit *g) {
  if (!g) return;
  for (size_t i = 0; i < g->n; i++) free((void *)g->r[i].w);
  free(g->r);
  free(g);
}

/* Index of the first region whose base is above p. */
static size_t upper(const ginit *g, uintptr_t p) {
  size_t lo = 0, hi = g->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (g->r[mid].base <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The bitmap: bit i of byte i / 8 is byte i of the region. */
static inline int wbit(const ginit_region *r, size_t i) {
  return atomic_load_explicit(&r->w[i >> 3], memory_order_relaxed) >> (i & 7) & 1;
}

/* Set (v 1) or clear (v 0) the bits of [off, off+len): whole bytes stored,
 * the partial ones at the ends changed atomically (a block on another
 * worker may set a neighbouring bit). */
static void wbits(ginit_region *r, size_t off, size_t len, int v) {
  size_t end = off + len;
  while (off < end && (off & 7)) {
    uint8_t m = (uint8_t)(1u << (off & 7));
    if (v)
      atomic_fetch_or_explicit(&r->w[off >> 3], m, memory_order_relaxed);
    else
      atomic_fetch_and_explicit(&r->w[off >> 3], (uint8_t)~m, memory_order_relaxed);
    off++;
  }
  if (end - off >= 8) {
    memset((void *)(r->w + (off >> 3)), v ? 0xff : 0, (end - off) >> 3);
    off += (end - off) & ~(size_t)7;
  }
  if (off < end) {
    uint8_t m = (uint8_t)((1u << (end - off)) - 1);
    if (v)
      atomic_fetch_or_explicit(&r->w[off >> 3], m, memory_order_relaxed);
    else
      atomic_fetch_and_explicit(&r->w[off >> 3], (uint8_t)~m, memory_order_relaxed);
  }
}

static ginit_region *find(const ginit *g, uintptr_t p) {
  size_t i = upper(g, p);
  if (!i) return NULL;
  ginit_region *r = &g->r[i - 1];
  return p - r->base < r->size ? r : NULL;
}

int ginit_track(ginit *g, uintptr_t base, size_t size, int written) {
  if (!g || !size) return 0;
  ginit_forget(g, base);
  if (g->n == g->cap) {
    size_t cap = g->cap ? g->cap * 2 : 64;
    ginit_region *r = realloc(g->r, cap * sizeof *r);
    if (!r) return -1;
    g->r = r;
    g->cap = cap;
  }
  _Atomic uint8_t *w = calloc((size + 7) / 8, 1);
  if (!w) return -1;
  if (written) memset((void *)w, 0xff, (size + 7) / 8);
  size_t i = upper(g, base);
  memmove(&g->r[i + 1], &g->r[i], (g->n - i) * sizeof *g->r);
  g->r[i] = (ginit_region){base, size, w};
  g->n++;
  return 0;
}

void ginit_forget(ginit *g, uintptr_t base) {
  if (!g) return;
  size_t i = upper(g, base);
  if (!i || g->r[i - 1].base != base) return;
  i--;
  free((void *)g->r[i].w);
  memmove(&g->r[i], &g->r[i + 1], (g->n - i - 1) * sizeof *g->r);
  g->n--;
}

/* Apply f to the tracked parts of [p, p+n): region, offset in it, length,
 * offset in [p, p+n). */
#define EACH_PART(g, p, n, BODY)                                                                             \
  do {                                                                                                       \
    uintptr_t at_ = (p), end_ = (p) + (n);                                                                   \
    size_t i_ = upper((g), at_);                                                                             \
    if (i_) i_--;                                                                                            \
    for (; i_ < (g)->n && (g)->r[i_].base < end_; i_++) {                                                    \
      ginit_region *r = &(g)->r[i_];                                                                         \
      uintptr_t lo_ = r->base > at_ ? r->base : at_;                                                         \
      uintptr_t hi_ = r->base + r->size < end_ ? r->base + r->size : end_;                                   \
      if (lo_ >= hi_) continue;                                                                              \
      size_t off = lo_ - r->base, len = hi_ - lo_, rel = lo_ - at_;                                          \
      (void)rel;                                                                                             \
      BODY;                                                                                                  \
    }                                                                                                        \
  } while (0)

void ginit_mark(ginit *g, uintptr_t p, size_t n) {
  if (!g || !n) return;
  EACH_PART(g, p, n, wbits(r, off, len, 1));
}

int ginit_clear(ginit *g, uintptr_t p, size_t n) {
  int any = 0;
  if (!g || !n) return -1;
  EACH_PART(g, p, n, (wbits(r, off, len, 0), any = 1));
  return any ? 0 : -1;
}

size_t ginit_unwritten(const ginit *g, uintptr_t p, size_t n) {
  size_t z = 0;
  if (!g || !n) return 0;
  EACH_PART(g, p, n, for (size_t k = 0; k < len; k++) z += !wbit(r, off + k));
  return z;
}

size_t ginit_sectors(const ginit *g, uintptr_t p, size_t n, uint64_t *out, size_t max) {
  size_t k = 0;
  uintptr_t last = 0;
  int have = 0;
  if (!g || !n) return 0;
  EACH_PART(g, p, n, {
    for (size_t i = 0; i < len; i++) {
      uintptr_t a = r->base + off + i;
      if (wbit(r, off + i) || (have && a >> 5 == last)) continue;
      if (k < max) out[k] = a;
      k++;
      last = a >> 5;
      have = 1;
    }
  });
  return k;
}

static void add_rec(ginit_an *a, const warp *w, uint32_t tid, uint64_t addr, uint32_t size) {
  a->total++;
  if (w->pc < a->ncode) a->per_pc[w->pc]++;
  if (a->n == a->cap) {
    if (a->cap >= GINIT_KEEP) return;
    uint32_t cap = a->cap ? a->cap * 2 : 64;
    ginit_rec *r = realloc(a->rec, cap * sizeof *r);
    if (!r) return;
    a->rec = r;
    a->cap = cap;
  }
  const block *b = w->blk;
  a->rec[a->n++] = (ginit_rec){w->pc, b->linear, {b->ctaid[0], b->ctaid[1], b->ctaid[2]}, tid, size, addr};
}

/* Are bytes [off, off+n) all written? */
static inline int written(const ginit_region *r, size_t off, size_t n) {
  if ((off & 7) + n <= 8) {
    uint8_t m = (uint8_t)(((1u << n) - 1) << (off & 7));
    return (atomic_load_explicit(&r->w[off >> 3], memory_order_relaxed) & m) == m;
  }
  for (size_t k = off; k < off + n; k++)
    if (!wbit(r, k)) return 0;
  return 1;
}

static void mark_lane(ginit_region *r, size_t off, size_t n) {
  if ((off & 7) + n <= 8) {
    uint8_t m = (uint8_t)(((1u << n) - 1) << (off & 7));
    if ((atomic_load_explicit(&r->w[off >> 3], memory_order_relaxed) & m) != m)
      atomic_fetch_or_explicit(&r->w[off >> 3], m, memory_order_relaxed);
    return;
  }
  for (size_t k = off; k < off + n; k++)
    if (!wbit(r, k)) atomic_fetch_or_explicit(&r->w[k >> 3], (uint8_t)(1u << (k & 7)), memory_order_relaxed);
}

/* The n bytes from off on: 1 all written, 0 none, -1 some (bytes of
 * bits at a time). */
static int range_state(const ginit_region *r, size_t off, size_t n) {
  size_t k = off;
  uint8_t any = 0, all = 0xff;
  for (; k < off + n && (k & 7); k++) {
    uint8_t b = (uint8_t)wbit(r, k);
    any |= b, all &= (uint8_t)-b;
  }
  for (; k + 8 <= off + n; k += 8) {
    uint8_t b = atomic_load_explicit(&r->w[k >> 3], memory_order_relaxed);
    any |= b, all &= b;
  }
  for (; k < off + n; k++) {
    uint8_t b = (uint8_t)wbit(r, k);
    any |= b, all &= (uint8_t)-b;
  }
  return all == 0xff ? 1 : any ? -1 : 0;
}

/* The half-warps of a full warp's read whose 16 lanes are consecutive
 * elements of one tracked allocation, settled by whole bytes of bits:
 * those all written (lanes without a record) in *done, those with no byte
 * written (a record each) in *none. */
static void read_runs(const ginit *g, const insn *in, const uint64_t addr[32], uint32_t size, uint32_t *done,
                      uint32_t *none) {
  *done = *none = 0;
  for (int h = 0; h < 32; h += 16) {
    uint64_t a0 = addr[h], d = 0, win = 0;
    for (int k = 0; k < 16; k++) {
      d |= addr[h + k] - a0 - (uint64_t)k * size;
      win |= (uint64_t)(addr[h + k] - SHARED_WINDOW < WINDOW_SIZE) |
             (uint64_t)(addr[h + k] - LOCAL_WINDOW < WINDOW_SIZE);
    }
    if (d || (win && in->space == PTX_SPACE_GENERIC)) continue;
    const ginit_region *r = find(g, (uintptr_t)a0);
    if (!r || r->size - (a0 - r->base) < 16ull * size) continue;
    int st = range_state(r, a0 - r->base, 16ull * size);
    if (st == 1) *done |= 0xffffu << h;
    if (st == 0) *none |= 0xffffu << h;
  }
}

void ginit_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  ginit *g = w->L->ginit;
  ginit_an *a = w->blk->an ? w->blk->an->gin : NULL;
  if (!g || !a || !g->n) return;
  if (in->space != PTX_SPACE_GLOBAL && in->space != PTX_SPACE_GENERIC) return;
  ginit_region *last = NULL;
  uint64_t more = 0; /* uninitialised reads past the records kept: counted only */
  if (kind == ACC_READ && m == FULL_MASK && size && size <= 16) {
    /* runs of consecutive elements: all written, nothing to record; none
     * written once the records are full, a count */
    uint32_t done, none;
    read_runs(g, in, addr, size, &done, &none);
    if (a->n >= GINIT_KEEP) {
      more = (uint64_t)__builtin_popcount(none);
      done |= none;
    }
    m &= ~done;
  }
  LANES(m, {
    uint64_t x = addr[l];
    if (in->space == PTX_SPACE_GENERIC && (x - SHARED_WINDOW < WINDOW_SIZE || x - LOCAL_WINDOW < WINDOW_SIZE))
      continue;
    ginit_region *r = last && x - last->base < last->size ? last : find(g, (uintptr_t)x);
    if (!r) continue;
    last = r;
    size_t off = x - r->base, n = size;
    if (n > r->size - off) n = r->size - off;
    if (kind != ACC_WRITE && !written(r, off, n)) {
      if (a->n < GINIT_KEEP)
        add_rec(a, w, w->index * 32 + (uint32_t)l, x, size);
      else
        more++;
    }
    if (kind == ACC_WRITE) mark_lane(r, off, n);
  });
  if (more) {
    a->total += more;
    if (w->pc < a->ncode) a->per_pc[w->pc] += more;
  }
  /* an atomic writes after every lane read: 32 lanes adding to one unwritten
   * word are 32 errors on the GPU (tests/hw/sanitizer, init_atomic) */
  if (kind == ACC_ATOMIC)
    LANES(m, {
      ginit_region *r = find(g, (uintptr_t)addr[l]);
      if (!r) continue;
      size_t off = addr[l] - r->base;
      mark_lane(r, off, size < r->size - off ? size : r->size - off);
    });
}

ginit_an *ginit_an_new(uint32_t ncode) {
  ginit_an *a = calloc(1, sizeof *a);
  if (a && !(a->per_pc = calloc(ncode ? ncode : 1, sizeof *a->per_pc))) {
    free(a);
    return NULL;
  }
  if (a) a->ncode = ncode;
  return a;
}

void ginit_an_free(ginit_an *a) {
  if (!a) return;
  free(a->per_pc);
  free(a->rec);
  free(a);
}

void ginit_an_merge(ginit_an *into, const ginit_an *from) {
  into->total += from->total;
  for (uint32_t i = 0; i < into->ncode && i < from->ncode; i++) into->per_pc[i] += from->per_pc[i];
  uint32_t room = GINIT_KEEP * 2 - into->n; /* finish keeps the first GINIT_KEEP after sorting */
  uint32_t k = from->n < room ? from->n : room;
  if (!k) return;
  if (into->n + k > into->cap) {
    ginit_rec *r = realloc(into->rec, (into->n + k) * sizeof *r);
    if (!r) return;
    into->rec = r;
    into->cap = into->n + k;
  }
  memcpy(into->rec + into->n, from->rec, k * sizeof *from->rec);
  into->n += k;
}

static int cmp_rec(const void *x, const void *y) {
  const ginit_rec *a = x, *b = y;
  if (a->blk != b->blk) return a->blk < b->blk ? -1 : 1;
  if (a->tid != b->tid) return a->tid < b->tid ? -1 : 1;
  if (a->pc != b->pc) return a->pc < b->pc ? -1 : 1;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void ginit_an_finish(ginit_an *a) {
  if (!a || !a->n) return;
  qsort(a->rec, a->n, sizeof *a->rec, cmp_rec);
  if (a->n > GINIT_KEEP) a->n = GINIT_KEEP;
}

/* ---- the row ---- */

static int gin_wanted(const launch *L) { return L->ginit != NULL; }
static int gin_new(analysis *a, const launch *L) { return (a->gin = ginit_an_new(a->ncode)) ? 0 : -1; }
static void gin_drop(analysis *a) { ginit_an_free(a->gin); }
static void gin_merge(analysis *into, const analysis *from) { ginit_an_merge(into->gin, from->gin); }

/* cp.async: the global read */
static void gin_copy(warp *w, const insn *ld, const insn *st, uint32_t m, const uint64_t src[32],
                     const uint64_t dst[32], uint32_t size) {
  ginit_access(w, ld, m, src, size, ACC_READ);
}

const check_row check_ginit = {
    .name = "global init",
    .bit = CHECK_GINIT,
    .wanted = gin_wanted,
    .make = gin_new,
    .drop = gin_drop,
    .merge = gin_merge,
    .mem = ginit_access,
    .not_shared = 1,
    .copy = gin_copy,
};
