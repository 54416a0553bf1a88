/* grace.c: races on global memory (SMEMU_ANALYZE_GLOBAL_RACES), between
 * threads of one block and between blocks. */
#include "check/checks.h"
#include "check/race.h"
#include "exec/hooks.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- global memory ----
 * Bytes of global memory a launch touches get a shadow in a flat map of
 * pages (4 KB of memory each, found through a three-level directory of the
 * address), each page with its own lock, since blocks run on several worker
 * threads at once. Per byte, as in shared memory: threads storing different
 * bytes of one word do not race. Accesses of one block are ordered by its
 * barriers as in shared memory. Accesses of two blocks are ordered only
 * through a release and an acquire: block B's thread fences (gpu scope)
 * and then performs an atomic on X; block C later performs an atomic on X;
 * then what B's thread did before its fence (and what B's other threads did
 * before a barrier that thread passed before its fence) is ordered before
 * what C's thread does after its atomic (and C's other threads after a
 * barrier that follows it): the "last block" reduction
 * (threadFenceReduction). Without the fence a relaxed atomic releases
 * nothing. Two atomics never race. */

/* Semantics written on an instruction (gshadow_new reads them once). */
enum { GP_VOLATILE = 1, GP_ORDERED = 2, GP_CTA = 4, GP_REL = 8, GP_ACQ = 16 };
/* Flags of a word's record. */
enum { GW_SPLIT = 1, GW_ATOMIC = 2 };
#define GTOP (1u << 16)
/* An access unpacked from its record. */
typedef struct gacc_v {
  uint32_t blk, gen, pc;
  uint16_t tid;
  uint8_t kind;
} gacc_v;
#define GNODE ((size_t)1 << GDIR_BITS)

static void *gmap(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* Bits for the values 0 .. n-1. */
static uint32_t gbits(uint64_t n) {
  uint32_t k = 0;
  while (k < 64 && (n - 1) >> k) k++;
  return n ? k : 0;
}

global_shadow *gshadow_new(const program *P, uint64_t nblocks, uint32_t nthreads) {
  global_shadow *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  /* tid: every lane of the last warp; pc: the program's instructions */
  uint32_t tidb = gbits((nthreads + 31) / 32 * 32), pcb = gbits((P ? P->ncode : 0) + 1ull),
           blkb = gbits(nblocks);
  /* SMEMU_GRACE_WIDE=1: wide records always (the tests run both layouts) */
  const char *e = getenv("SMEMU_GRACE_WIDE");
  g->wide = tidb + pcb + blkb > 32 || (e && *e == '1');
  g->tidb = (uint8_t)tidb;
  g->blksh = (uint8_t)(tidb + pcb);
  g->pcmask = pcb >= 32 ? UINT32_MAX : (1u << pcb) - 1;
  g->top = gmap(GTOP * sizeof *g->top);
  g->npc = P ? P->ncode : 0;
  g->pcf = calloc(g->npc + 1, 1);
  if (!g->top || !g->pcf) {
    if (g->top) munmap(g->top, GTOP * sizeof *g->top);
    free(g->pcf);
    free(g);
    return NULL;
  }
  for (uint32_t pc = 0; pc < g->npc; pc++) {
    const char *t = pc < P->nlines ? P->lines[pc].text : NULL;
    if (!t) continue;
    uint8_t f = 0;
    if (strstr(t, ".volatile")) f |= GP_VOLATILE;
    if (strstr(t, ".relaxed") || strstr(t, ".acquire") || strstr(t, ".release")) f |= GP_ORDERED;
    if (strstr(t, ".cta")) f |= GP_CTA;
    if (strstr(t, ".release") || strstr(t, ".acq_rel")) f |= GP_REL;
    if (strstr(t, ".acquire") || strstr(t, ".acq_rel")) f |= GP_ACQ;
    g->pcf[pc] = f;
  }
  pthread_mutex_init(&g->rel_lock, NULL);
  atomic_init(&g->seq, 0);
  return g;
}

void gshadow_free(global_shadow *g) {
  if (!g) return;
  for (size_t i = 0; i < GTOP; i++) {
    _Atomic(void *) *mid = atomic_load(&g->top[i]);
    if (!mid) continue;
    for (size_t j = 0; j < GNODE; j++) {
      _Atomic(void *) *leaf = atomic_load(&mid[j]);
      if (!leaf) continue;
      for (size_t k = 0; k < GNODE; k++) {
        gpage *pg = atomic_load(&leaf[k]);
        if (!pg) continue;
        pthread_mutex_destroy(&pg->lock);
        free(pg->s.w);
        free(pg->s.r);
        free(pg->bytes.w);
        free(pg->bytes.r);
        free(pg->bflag);
        free(pg);
      }
      munmap(leaf, GNODE * sizeof *leaf);
    }
    munmap(mid, GNODE * sizeof *mid);
  }
  munmap(g->top, GTOP * sizeof *g->top);
  pthread_mutex_destroy(&g->rel_lock);
  free(g->rel);
  free(g->pcf);
  free(g);
}

/* The directory entry `slot` (a node of `bytes` or, for bytes 0, a page),
 * created when missing; NULL when out of memory. */
static void *gnode(_Atomic(void *) *slot, size_t bytes) {
  void *p = atomic_load_explicit(slot, memory_order_acquire);
  if (p) return p;
  void *n;
  if (bytes) {
    n = gmap(bytes);
  } else {
    /* cache-line aligned: the fields a read touches share two lines */
    gpage *pg = aligned_alloc(64, (sizeof *pg + 63) / 64 * 64);
    if (pg) {
      memset(pg, 0, sizeof *pg);
      pthread_mutex_init(&pg->lock, NULL);
    }
    n = pg;
  }
  if (!n) return NULL;
  void *want = NULL;
  if (atomic_compare_exchange_strong_explicit(slot, &want, n, memory_order_acq_rel, memory_order_acquire))
    return n;
  if (bytes) {
    munmap(n, bytes);
  } else {
    pthread_mutex_destroy(&((gpage *)n)->lock);
    free(n);
  }
  return want; /* another worker's */
}

/* The page of global word wd (created when missing); NULL when out of memory. */
static gpage *gpage_of(global_shadow *g, uint64_t wd) {
  uint64_t p = wd / GPAGE_WORDS;
  _Atomic(void *) *mid = gnode(&g->top[(p >> (2 * GDIR_BITS)) & (GTOP - 1)], GNODE * sizeof(void *));
  if (!mid) return NULL;
  _Atomic(void *) *leaf = gnode(&mid[(p >> GDIR_BITS) & (GNODE - 1)], GNODE * sizeof(void *));
  if (!leaf) return NULL;
  return gnode(&leaf[p & (GNODE - 1)], 0);
}

/* Stored records (grace.h): bytes of one, the k-th of array s, storing x. */
static inline size_t gsize(const global_shadow *g) { return g->wide ? sizeof(grec) : sizeof(uint64_t); }

static inline grec gget(const global_shadow *g, const void *s, size_t k) {
  if (!s) return (grec){0, 0, 0, 0};
  if (g->wide) return ((const grec *)s)[k];
  uint64_t v = ((const uint64_t *)s)[k];
  return (grec){(uint32_t)((v & UINT32_MAX) >> g->blksh), (uint32_t)(v >> 32),
                (uint32_t)(v >> g->tidb) & g->pcmask, (uint32_t)v & ((1u << g->tidb) - 1)};
}

static inline void gput(const global_shadow *g, void *s, size_t k, grec x) {
  if (g->wide) {
    ((grec *)s)[k] = x;
    return;
  }
  ((uint64_t *)s)[k] =
      x.gen ? (uint64_t)x.gen << 32 | (uint64_t)x.blk << g->blksh | (uint64_t)x.pc << g->tidb | x.tid : 0;
}

/* The array *a of n records, allocated (empty) when missing; NULL: no memory. */
static inline void *garr(const global_shadow *g, void **a, size_t n) {
  if (!*a) *a = calloc(n, gsize(g));
  return *a;
}

/* A record as an access (kind: its kind). */
static inline gacc_v gunpack(const grec *x, int kind) {
  return (gacc_v){x->blk, x->gen, x->pc, (uint16_t)x->tid, (uint8_t)kind};
}

void race_fence(warp *w, uint32_t m) {
  if (!w->L->gshadow) return;
  race_state *r = &w->blk->an->race;
  LANES(m, {
    uint32_t t = w->index * 32 + (uint32_t)l;
    r->fence_gen[t] = r->gen + 1;
    r->fence_bar[t] = r->block_gen[t];
  });
}

/* A synchronising access by thread t of block b on global address a: a
 * release (an atomic after a gpu-scope fence, or an atomic or store with
 * .release/.acq_rel semantics) publishes the block's earlier accesses; an
 * acquire (any atomic, or a load with .acquire) lets the block see what
 * releases on the same address published before it. */
static void gsync(global_shadow *g, race_state *r, block *b, uint64_t nblocks, uint16_t t, uint64_t a,
                  int release, int acquire) {
  uint64_t seq = atomic_fetch_add(&g->seq, 1) + 1;
  if (release) {
    pthread_mutex_lock(&g->rel_lock);
    if (!g->rel && nblocks) {
      g->rel = calloc(nblocks * GREL_KEEP, sizeof *g->rel);
      g->nrel = g->rel ? nblocks : 0;
    }
    /* a release without a fence publishes up to the access itself */
    uint32_t gen = r->fence_gen[t] ? r->fence_gen[t] - 1 : r->gen;
    uint32_t bar = r->fence_gen[t] ? r->fence_bar[t] : r->block_gen[t];
    if (b->linear < g->nrel) {
      /* in place of the block's oldest */
      grel *ring = &g->rel[b->linear * GREL_KEEP], *old = ring;
      for (int k = 1; k < GREL_KEEP; k++)
        if (!ring[k].valid || (old->valid && ring[k].seq < old->seq)) old = &ring[k];
      *old = (grel){a, seq, gen, bar, t, 1};
    }
    pthread_mutex_unlock(&g->rel_lock);
  }
  if (!acquire) return;
  uint32_t i = 0;
  while (i < r->nacq && !(r->acq[i].addr == a && r->acq[i].tid == t)) i++;
  if (i == r->nacq) {
    if (r->nacq < GACQ)
      r->nacq++;
    else
      i = (uint32_t)(seq % GACQ); /* full: replace one */
  }
  r->acq[i] = (struct gacq){a, seq, r->gen, t};
}

/* Is the earlier access a, by another block, published to thread t of
 * block b through a release of a's block and an acquire of b's? */
static int gpublished(global_shadow *g, const race_state *r, const gacc_v *a, uint32_t t) {
  grel rels[GREL_KEEP] = {0};
  pthread_mutex_lock(&g->rel_lock);
  if (a->blk < g->nrel) memcpy(rels, &g->rel[a->blk * GREL_KEEP], sizeof rels);
  pthread_mutex_unlock(&g->rel_lock);
  for (int k = 0; k < GREL_KEEP; k++) {
    const grel *rel = &rels[k];
    if (!rel->valid || !((a->tid == rel->tid && a->gen <= rel->gen) || a->gen < rel->bar)) continue;
    for (uint32_t i = 0; i < r->nacq; i++) {
      const struct gacq *q = &r->acq[i];
      if (q->addr == rel->addr && q->seq > rel->seq && (q->tid == t || r->block_gen[t] > q->gen)) return 1;
    }
  }
  return 0;
}

/* Is the earlier global access a ordered before thread t of block b now? */
static int gordered(global_shadow *g, const race_state *r, const block *b, const gacc_v *a, uint32_t t) {
  if (a->blk != b->linear) return gpublished(g, r, a, t);
  acc_rec x = {a->gen, a->pc, a->tid, a->kind, 1};
  return race_ordered(r, &x, t);
}

/* Is the access at pc "morally strong" (PTX memory model): an atomic, a
 * volatile access (relaxed, system scope), or a relaxed/acquire/release
 * one whose scope reaches the other block? Two strong accesses do not race
 * (a flag spun on with volatile loads, races.cuh). */
static int gstrong(const global_shadow *g, uint32_t pc, int kind, int cross_block) {
  if (kind == ACC_ATOMIC) return 1;
  uint8_t f = pc < g->npc ? g->pcf[pc] : 0;
  if (f & GP_VOLATILE) return 1;
  if (f & GP_ORDERED) return !cross_block || !(f & GP_CTA);
  return 0;
}

static void ghazard(global_shadow *g, race_state *r, block *b, int type, const gacc_v *first, uint32_t pc,
                    uint16_t t, int kind, uint64_t addr, uint32_t n) {
  int cross = first->blk != b->linear;
  if (gstrong(g, first->pc, first->kind, cross) && gstrong(g, pc, kind, cross)) return;
  acc_rec f = {first->gen, first->pc, first->tid, first->kind, 1};
  race_add_hazard(r, b, type, &f, pc, t, kind, addr, 0, 0, n);
  /* a global record; between blocks always an error */
  hazard_rec *h = race_find_pair(r, first->pc, first->kind, pc, kind);
  if (h) {
    h->global = 1;
    if (first->blk != b->linear) h->error = 1;
  }
}

/* Check one access against the records of word or byte i of x (n of
 * them), whose flags are *fl, and record it. */
static void gcheck(global_shadow *g, race_state *r, block *b, grecs *x, size_t n, size_t i, uint8_t *fl,
                   uint32_t pc, uint16_t t, int kind, uint64_t at, uint32_t nb) {
  grec now = {b->linear, r->gen, pc, t};
  if (!g->wide && kind == ACC_READ && !(x->w && ((const uint64_t *)x->w)[i])) {
    /* the common case, packed: a read of a word no one wrote */
    uint64_t *rs = garr(g, &x->r, 2 * n),
             v = (uint64_t)now.gen << 32 | (uint64_t)now.blk << g->blksh | (uint64_t)pc << g->tidb | t;
    if (!rs) return;
    /* the same thread: equal but for the pc bits */
    uint64_t r0 = rs[2 * i], thread = ~((uint64_t)g->pcmask << g->tidb) & UINT32_MAX;
    if (r0 && (r0 ^ v) & thread) rs[2 * i + 1] = r0;
    rs[2 * i] = v;
    return;
  }
  int wkind = *fl & GW_ATOMIC ? ACC_ATOMIC : ACC_WRITE;
  grec w = gget(g, x->w, i);
  if (kind == ACC_READ) {
    if (w.gen && !(w.blk == b->linear && w.tid == t)) {
      gacc_v a = gunpack(&w, wkind);
      if (!gordered(g, r, b, &a, t)) ghazard(g, r, b, HZ_RAW, &a, pc, t, kind, at, nb);
    }
    void *rs = garr(g, &x->r, 2 * n);
    if (!rs) return;
    grec r0 = gget(g, rs, 2 * i);
    int same = r0.gen && r0.blk == b->linear && r0.tid == t;
    if (r0.gen && !same) gput(g, rs, 2 * i + 1, r0);
    gput(g, rs, 2 * i, now);
    return;
  }
  if (w.gen && !(w.blk == b->linear && w.tid == t) && !(kind == ACC_ATOMIC && wkind == ACC_ATOMIC)) {
    gacc_v a = gunpack(&w, wkind);
    if (!gordered(g, r, b, &a, t)) ghazard(g, r, b, HZ_WAW, &a, pc, t, kind, at, nb);
  }
  if (x->r)
    for (int j = 0; j < 2; j++) {
      grec rj = gget(g, x->r, 2 * i + (size_t)j);
      if (rj.gen && !(rj.blk == b->linear && rj.tid == t)) {
        gacc_v a = gunpack(&rj, ACC_READ);
        if (!gordered(g, r, b, &a, t)) ghazard(g, r, b, HZ_WAR, &a, pc, t, kind, at, nb);
      }
    }
  void *ws = garr(g, &x->w, n);
  if (!ws) return;
  gput(g, ws, i, now);
  *fl = (uint8_t)((*fl & ~GW_ATOMIC) | (kind == ACC_ATOMIC ? GW_ATOMIC : 0));
  if (x->r) {
    gput(g, x->r, 2 * i, (grec){0, 0, 0, 0});
    gput(g, x->r, 2 * i + 1, (grec){0, 0, 0, 0});
  }
}

/* ---- runs of 16 words read by 16 consecutive lanes ----
 * A half-warp reading 16 consecutive words (a row of a tile) records each
 * word's read with the same block, generation and pc and the thread
 * indices t0 .. t0+15. While every read of a chunk (16 words at a multiple
 * of 16) comes so, the chunk keeps its two read records as two summaries,
 * word k's records being summary + k (+k lands in the thread bits: those
 * threads exist), instead of 16 pairs in the page's array: large arrays
 * read by every block then cost a sixteenth of the memory traffic. Any
 * other access to the chunk writes the summaries out (gchunk_out) first,
 * so every other path sees the records as if stored word by word. Packed
 * records only. */

/* Chunk k of page pg is about to be seen word by word. */
static inline int gchunk_out(const global_shadow *g, gpage *pg, uint32_t k) {
  uint8_t st = pg->cst[k];
  if (st == GC_WORDS) return 0;
  pg->cst[k] = GC_WORDS;
  if (st == GC_EMPTY) return 0; /* the array's records of it are empty */
  uint64_t *rs = garr(g, &pg->s.r, 2 * GPAGE_WORDS);
  if (!rs) return -1;
  uint64_t s0 = pg->csum[k][0], s1 = pg->csum[k][1];
  for (uint32_t j = 0; j < GCHUNK; j++) {
    rs[2 * (k * GCHUNK + j)] = s0 + j;
    rs[2 * (k * GCHUNK + j) + 1] = s1 ? s1 + j : 0;
  }
  return 0;
}

/* The read of chunk k of pg by 16 consecutive lanes whose first lane's
 * record is v (its thread index t0: word j read by t0 + j), when no word
 * of the chunk is split or was written; 0 when done, else the caller goes
 * word by word. thread: the record bits that name the thread. */
static inline int gchunk_read(gpage *pg, uint32_t k, uint64_t v, uint64_t thread) {
  if (pg->split) {
    const uint8_t *fl = &pg->flag[k * GCHUNK];
    uint64_t f0, f1;
    memcpy(&f0, fl, 8);
    memcpy(&f1, fl + 8, 8);
    if ((f0 | f1) & 0x0101010101010101ull * GW_SPLIT) return 1;
  }
  if (pg->s.w) {
    const uint64_t *ws = (const uint64_t *)pg->s.w + k * GCHUNK;
    uint64_t any = 0;
    for (uint32_t j = 0; j < GCHUNK; j++) any |= ws[j];
    if (any) return 1;
  }
  uint8_t st = pg->cst[k];
  if (st == GC_WORDS) return 1;
  if (st == GC_EMPTY) {
    pg->cst[k] = GC_SUM;
    pg->csum[k][0] = v;
    pg->csum[k][1] = 0;
    return 0;
  }
  /* word j: r0 + j and v + j name the same thread iff r0 and v do */
  uint64_t r0 = pg->csum[k][0];
  if ((r0 ^ v) & thread) pg->csum[k][1] = r0;
  pg->csum[k][0] = v;
  return 0;
}

/* A lane's global access, word by word. */
typedef struct gwarp {
  global_shadow *g;
  race_state *r;
  block *b;
  warp *w;
  gpage *held;     /* locked across lanes on one page */
  uint64_t held_p; /* its page number */
  int kind, sem_rel, sem_acq;
} gwarp;

/* The page of word wd, locked (the one held before unlocked). */
static inline gpage *glock(gwarp *x, uint64_t wd) {
  gpage *pg = x->held && wd / GPAGE_WORDS == x->held_p ? x->held : gpage_of(x->g, wd);
  x->held_p = wd / GPAGE_WORDS;
  if (pg != x->held) {
    if (x->held) pthread_mutex_unlock(&x->held->lock);
    x->held = pg;
    if (pg) pthread_mutex_lock(&pg->lock);
  }
  return pg;
}

static void glane(gwarp *x, int l, uint64_t a, uint32_t size) {
  global_shadow *g = x->g;
  race_state *r = x->r;
  block *b = x->b;
  warp *w = x->w;
  int kind = x->kind;
  uint16_t t = (uint16_t)(w->index * 32 + (uint32_t)l);
  if (kind == ACC_ATOMIC || x->sem_rel || x->sem_acq)
    gsync(g, r, b, w->L->nblocks, t, a, (kind == ACC_ATOMIC && r->fence_gen[t]) || x->sem_rel,
          kind == ACC_ATOMIC || x->sem_acq);
  for (uint64_t wd = a >> 2; wd <= (a + size - 1) >> 2; wd++) {
    uint64_t lo = wd * 4 > a ? wd * 4 : a, hi = wd * 4 + 4 < a + size ? wd * 4 + 4 : a + size;
    int whole = lo == wd * 4 && hi == wd * 4 + 4;
    gpage *pg = glock(x, wd);
    if (!pg) continue;
    uint32_t i = (uint32_t)(wd % GPAGE_WORDS);
    if (!g->wide && gchunk_out(g, pg, i / GCHUNK) < 0) continue;
    uint8_t *fl = &pg->flag[i];
    if (!(*fl & GW_SPLIT) && whole) {
      /* the word's bytes share one history */
      gcheck(g, r, b, &pg->s, GPAGE_WORDS, i, fl, w->pc, t, kind, wd * 4, 4);
      continue;
    }
    if (!pg->bflag) {
      pg->bflag = calloc(4 * GPAGE_WORDS, 1);
      if (!pg->bflag || !garr(g, &pg->bytes.w, 4 * GPAGE_WORDS) || !garr(g, &pg->bytes.r, 8 * GPAGE_WORDS)) {
        free(pg->bflag);
        pg->bflag = NULL;
        continue;
      }
    }
    if (!(*fl & GW_SPLIT)) {
      /* the bytes go separate ways: each starts with the word's history */
      grec ww = gget(g, pg->s.w, i), r0 = gget(g, pg->s.r, 2 * i), r1 = gget(g, pg->s.r, 2 * i + 1);
      for (uint32_t j = 0; j < 4; j++) {
        gput(g, pg->bytes.w, 4 * i + j, ww);
        gput(g, pg->bytes.r, 2 * (4 * i + j), r0);
        gput(g, pg->bytes.r, 2 * (4 * i + j) + 1, r1);
        pg->bflag[4 * i + j] = *fl & GW_ATOMIC;
      }
      *fl |= GW_SPLIT;
      pg->split = 1;
    }
    for (uint64_t at = lo; at < hi; at++)
      gcheck(g, r, b, &pg->bytes, 4 * GPAGE_WORDS, 4 * i + (at & 3), &pg->bflag[4 * i + (at & 3)], w->pc, t,
             kind, at, 1);
    /* a whole-word write makes the bytes agree again */
    if (whole && kind != ACC_READ) {
      void *ws = garr(g, &pg->s.w, GPAGE_WORDS);
      if (ws) gput(g, ws, i, (grec){b->linear, r->gen, w->pc, t});
      *fl = (uint8_t)(kind == ACC_ATOMIC ? GW_ATOMIC : 0);
      if (pg->s.r) {
        gput(g, pg->s.r, 2 * i, (grec){0, 0, 0, 0});
        gput(g, pg->s.r, 2 * i + 1, (grec){0, 0, 0, 0});
      }
    }
  }
}

/* Are the 16 lanes from A[0] on consecutive 4-byte words starting a
 * chunk, all in global memory? */
static inline int grun16(const uint64_t *A) {
  uint64_t a0 = A[0], d = 0, win = 0;
  for (int l = 0; l < 16; l++) {
    d |= A[l] - a0 - 4 * (uint64_t)l;
    win |= (uint64_t)(A[l] - SHARED_WINDOW < WINDOW_SIZE) | (uint64_t)(A[l] - LOCAL_WINDOW < WINDOW_SIZE);
  }
  return !d && !win && !(a0 & (4 * GCHUNK - 1));
}

void race_global(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  block *b = w->blk;
  race_state *r = &b->an->race;
  global_shadow *g = w->L->gshadow;
  if (!g) return;
  if (in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_PARAM) return;
  /* release/acquire semantics written on the instruction */
  uint8_t pf = w->pc < g->npc ? g->pcf[w->pc] : 0;
  gwarp x = {
      g, r, b, w, NULL, 0, kind, kind != ACC_READ && (pf & GP_REL), kind != ACC_WRITE && (pf & GP_ACQ)};
  if (m == FULL_MASK && !g->wide && kind == ACC_READ && !x.sem_acq && size == 4) {
    /* half-warps on runs of 16 words: a chunk's summaries (lane order kept:
     * the run's words are its own) */
    uint64_t vpc = (uint64_t)r->gen << 32 | (uint64_t)b->linear << g->blksh | (uint64_t)w->pc << g->tidb,
             thread = ~((uint64_t)g->pcmask << g->tidb) & UINT32_MAX;
    for (int h = 0; h < 32; h += 16) {
      if (grun16(addr + h)) {
        uint64_t wd = addr[h] >> 2;
        gpage *pg = glock(&x, wd);
        if (pg && !gchunk_read(pg, (uint32_t)(wd % GPAGE_WORDS) / GCHUNK,
                               vpc | (w->index * 32u + (uint32_t)h), thread))
          continue;
        if (!pg) continue;
      }
      for (int l = h; l < h + 16; l++)
        if (addr[l] - SHARED_WINDOW >= WINDOW_SIZE && addr[l] - LOCAL_WINDOW >= WINDOW_SIZE)
          glane(&x, l, addr[l], size);
    }
  } else {
    LANES(m, {
      uint64_t a = addr[l];
      if (a - SHARED_WINDOW < WINDOW_SIZE || a - LOCAL_WINDOW < WINDOW_SIZE) continue;
      glane(&x, l, a, size);
    });
  }
  if (x.held) pthread_mutex_unlock(&x.held->lock);
}

/* ---- the row ---- */

static int grace_wanted(const launch *L) { return L->want_global_races; }

/* cp.async: the global read */
static void grace_copy(warp *w, const insn *ld, const insn *st, uint32_t m, const uint64_t src[32],
                       const uint64_t dst[32], uint32_t size) {
  race_global(w, ld, m, src, size, ACC_READ);
}

/* a gpu/system-scope fence: the global check's release point */
static void grace_event(const hook_ev *e) {
  if (e->kind == HEV_FENCE && e->w->L->gshadow) race_fence(e->w, e->m);
}

const check_row check_global = {
    .name = "global races",
    .bit = CHECK_GLOBAL,
    .wanted = grace_wanted,
    .mem = race_global,
    .not_shared = 1,
    .copy = grace_copy,
    .event = grace_event,
    .events = HEV_BIT(HEV_FENCE),
};
