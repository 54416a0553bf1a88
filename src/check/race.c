/* race.c: hazards on shared memory (RAW, WAR, WAW per byte), barrier misuse
 * and uninitialised shared reads. Two accesses are ordered when both
 * threads passed a barrier (or, inside one warp, a bar.warp.sync) that
 * completed after the first one: each access records the block's
 * generation, and each thread the generation of the last barrier it
 * passed. Atomics do not race with atomics; fences order nothing here. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check/race.h"
#include "exec/hooks.h"

int race_init(race_state *r, const launch *L) {
  memset(r, 0, sizeof *r);
  r->sh_size = L->smem_size;
  r->compat = (uint8_t)L->racecheck_compat;
  /* per-byte shadows cover whole words: splitting a word's record writes all
   * four bytes, also in a last word the block only partly owns */
  size_t nbytes = ((size_t)r->sh_size + 3) / 4 * 4 + 4;
  r->sh = calloc(nbytes, sizeof *r->sh);
  r->wsh = calloc(r->sh_size / 4 + 1, sizeof *r->wsh);
  r->shx = calloc(nbytes, sizeof *r->shx);
  r->wshx = calloc(r->sh_size / 4 + 1, sizeof *r->wshx);
  r->split = calloc(r->sh_size / 4 + 1, 1);
  if (!r->wsh || !r->split || !r->shx || !r->wshx) return -1;
  r->init = calloc(nbytes, 1);
  r->block_gen = calloc(L->nthreads_block, sizeof *r->block_gen);
  r->warp_gen = calloc(L->nthreads_block, sizeof *r->warp_gen);
  r->fence_gen = calloc(L->nthreads_block, sizeof *r->fence_gen);
  r->fence_bar = calloc(L->nthreads_block, sizeof *r->fence_bar);
  return r->sh && r->init && r->block_gen && r->warp_gen && r->fence_gen && r->fence_bar ? 0 : -1;
}

void race_free(race_state *r) {
  free(r->sh);
  free(r->wsh);
  free(r->shx);
  free(r->wshx);
  free(r->split);
  free(r->init);
  free(r->block_gen);
  free(r->warp_gen);
  free(r->fence_gen);
  free(r->fence_bar);
  free(r->hz);
  free(r->sy);
  memset(r, 0, sizeof *r);
}

void race_block_start(race_state *r, block *b) {
  memset(r->wsh, 0, (size_t)(r->sh_size / 4 + 1) * sizeof *r->wsh);
  memset(r->split, 0, r->sh_size / 4 + 1);
  memset(r->init, 0, r->sh_size);
  memset(r->block_gen, 0, b->nthreads * sizeof *r->block_gen);
  memset(r->warp_gen, 0, b->nthreads * sizeof *r->warp_gen);
  memset(r->fence_gen, 0, b->nthreads * sizeof *r->fence_gen);
  memset(r->fence_bar, 0, b->nthreads * sizeof *r->fence_bar);
  r->nacq = 0;
  memset(r->bar_pc, 0, sizeof r->bar_pc);
  r->sync_stopped = 0;
  r->gen = 1;
  r->all_gen = 0;
}

/* Is the earlier access `a` ordered before an access by thread t now? */
static inline int ordered(const race_state *r, const acc_rec *a, uint32_t t) {
  if (a->gen < r->all_gen) return 1;
  if (r->block_gen[a->tid] > a->gen && r->block_gen[t] > a->gen) return 1;
  if (a->tid / 32 == t / 32 && r->warp_gen[a->tid] > a->gen && r->warp_gen[t] > a->gen) return 1;
  return 0;
}

/* The record of the pair of accesses (pc1, kind1) and (pc2, kind2), in
 * either order, or NULL. */
static hazard_rec *find_pair(race_state *r, uint32_t pc1, int kind1, uint32_t pc2, int kind2) {
  for (uint32_t i = 0; i < r->nhz; i++) {
    hazard_rec *h = &r->hz[i];
    if ((h->first_pc == pc1 && h->second_pc == pc2 && h->first_kind == kind1 && h->second_kind == kind2) ||
        (h->first_pc == pc2 && h->second_pc == pc1 && h->first_kind == kind2 && h->second_kind == kind1))
      return h;
  }
  return NULL;
}

/* A new, zeroed hazard record (NULL when out of memory). */
static hazard_rec *new_hazard(race_state *r) {
  if (r->nhz == r->caphz) {
    uint32_t cap = r->caphz ? r->caphz * 2 : 16;
    hazard_rec *h = realloc(r->hz, cap * sizeof *h);
    if (!h) return NULL;
    r->hz = h;
    r->caphz = cap;
  }
  memset(&r->hz[r->nhz], 0, sizeof *r->hz);
  return &r->hz[r->nhz++];
}

/* The barrier-error record of (kind, pc), created when new (NULL: no memory). */
static sync_rec *sync_at(race_state *r, int kind, uint32_t pc, int *fresh) {
  *fresh = 0;
  for (uint32_t i = 0; i < r->nsy; i++)
    if (r->sy[i].kind == kind && r->sy[i].pc == pc) return &r->sy[i];
  if (r->nsy == r->capsy) {
    uint32_t cap = r->capsy ? r->capsy * 2 : 8;
    sync_rec *n = realloc(r->sy, cap * sizeof *n);
    if (!n) return NULL;
    r->sy = n;
    r->capsy = cap;
  }
  *fresh = 1;
  memset(&r->sy[r->nsy], 0, sizeof *r->sy);
  return &r->sy[r->nsy++];
}

/* Count n byte-level hazards of one kind between first and (pc, tid). */
static void add_hazard(race_state *r, block *b, int type, const acc_rec *first, uint32_t pc, uint16_t tid, int kind,
                       uint64_t addr, uint64_t v1, uint64_t v2, uint32_t n) {
  /* Between warps an error; between lanes of one warp a warning, except
   * lanes of one instruction writing one place, which racecheck calls an
   * error (measured: tests/hw/races, warn_waw_same_insn). */
  int error = first->tid / 32 != tid / 32 || (first->pc == pc && first->gen == r->gen);
  /* one record per pair of accesses, whichever came first, as racecheck
   * aggregates: an error if any of its hazards is one (measured:
   * tests/hw/races, race_loop_war reports 256 hazards of one pair) */
  hazard_rec *h = find_pair(r, first->pc, first->kind, pc, kind);
  if (h) {
    h->count += n;
    h->error |= (uint8_t)error;
    if (h->type == HZ_WAR && type == HZ_RAW) {
      /* show the pair as write-then-read, as racecheck does */
      h->type = HZ_RAW;
      h->first_pc = first->pc;
      h->second_pc = pc;
      h->first_kind = first->kind;
      h->second_kind = (uint8_t)kind;
      h->first_tid = first->tid;
      h->second_tid = tid;
      h->address = addr;
    }
    return;
  }
  if (!(h = new_hazard(r))) return;
  *h = (hazard_rec){(uint8_t)type, (uint8_t)error, 0, first->kind, (uint8_t)kind, 0, 0, 0, first->pc, pc, n,
                    addr, {b->ctaid[0], b->ctaid[1], b->ctaid[2]}, first->tid, tid, v1, v2};
}

void race_add_cluster(race_state *r, int type, uint32_t pc1, int kind1, uint16_t tid1, uint32_t rank1, uint32_t pc2,
                      int kind2, uint16_t tid2, uint32_t rank2, const uint32_t block0[3], uint64_t addr, uint32_t n) {
  hazard_rec *h = find_pair(r, pc1, kind1, pc2, kind2);
  if (h) {
    h->count += n;
    return;
  }
  if (!(h = new_hazard(r))) return;
  *h = (hazard_rec){(uint8_t)type, 1, 0, (uint8_t)kind1, (uint8_t)kind2, 1, (uint8_t)rank1, (uint8_t)rank2, pc1, pc2,
                    n, addr, {block0[0], block0[1], block0[2]}, tid1, tid2, 0, 0};
}

/* Record lanes of warp wi at a barrier error (kind, pc). */
void race_add_sync(race_state *r, block *b, int kind, uint32_t pc, uint32_t wi, uint32_t lanes) {
  int fresh;
  if (!lanes) return;
  sync_rec *s = sync_at(r, kind, pc, &fresh);
  if (!s) return;
  if (fresh)
    *s = (sync_rec){(uint8_t)kind, pc, 0, {b->ctaid[0], b->ctaid[1], b->ctaid[2]},
                    (uint16_t)(wi * 32 + (uint32_t)__builtin_ctz(lanes)), {0}};
  if (wi < 32) s->lanes[wi] |= lanes;
  s->count += (uint32_t)__builtin_popcount(lanes);
}


static inline int same_group(const acc_rec *a, const acc_rec *b) {
  return a->valid && b->valid && a->pc == b->pc && a->tid / 32 == b->tid / 32;
}

/* Remember a read by thread t at pc among the shadow's readers. A later
 * write is checked against every reader it is not ordered after, not only
 * the last one: warp A reads, warp B reads, warp B writes is still A's
 * hazard. s->r[0] and r[1] are the last reads of two different threads
 * (one pc read by many lanes keeps two of them, so a writer among them
 * still meets another); a read pushed out of them that is of another pc
 * or warp than both goes to the cold x->r[0..1], which keep one read per
 * such (pc, warp), the newest, as long as there is room. */
static void spill_read(race_state *r, shadow *s, shadow_x *x, acc_rec o) {
  if (!o.valid || o.gen < r->all_gen || same_group(&o, &s->r[0]) || same_group(&o, &s->r[1])) return;
  if (!s->spilled) {
    x->r[0].valid = x->r[1].valid = 0;
    s->spilled = 1;
  }
  acc_rec *a = &x->r[0], *b = &x->r[1];
  if (same_group(&o, a) || !a->valid || a->gen < r->all_gen) *a = o;
  else if (same_group(&o, b) || !b->valid || b->gen < r->all_gen) *b = o;
  else *(a->gen <= b->gen ? a : b) = o;
}

static inline void keep_read(race_state *r, shadow *s, shadow_x *x, uint32_t pc, uint16_t t) {
  acc_rec now = {r->gen, pc, t, ACC_READ, 1}, out;
  if (s->r[0].valid && s->r[0].tid == t) {
    if (s->r[0].pc == pc) {
      s->r[0].gen = r->gen;
      return;
    }
    out = s->r[0];
  } else {
    out = s->r[1];
    s->r[1] = s->r[0];
  }
  s->r[0] = now;
  if (out.valid) spill_read(r, s, x, out);
}

/* Check one access (a word or a byte with shadow s) and record it. For a
 * write, `changed` is how many of its n bytes get a new value. */
static inline void check_one(race_state *r, block *b, shadow *s, shadow_x *xs, uint32_t pc, uint16_t t, int kind,
                             uint64_t at, uint32_t n, uint32_t changed, int silent) {
  /* racecheck reports no hazard with an atomic on either side (measured:
   * tests/hw/races, race_atomic_read and race_write_atomic) */
  if (kind == ACC_READ) {
    if (s->w.valid && s->w.gen >= r->all_gen && s->w.tid != t && s->w.kind != ACC_ATOMIC && !ordered(r, &s->w, t))
      add_hazard(r, b, HZ_RAW, &s->w, pc, t, kind, at, 0, b->smem[at], n);
    if (r->compat) {
      /* racecheck's one access per byte: a read replaces the record,
       * unless it is the writer reading its own write (measured:
       * tests/hw/races, war_readers_*, mixed_* and warn_reduce_volatile_tail) */
      if (!(s->w.valid && s->w.tid == t)) {
        s->w.valid = 0;
        s->r[0] = (acc_rec){r->gen, pc, t, ACC_READ, 1};
      }
      return;
    }
    keep_read(r, s, xs, pc, t);
    return;
  }
  if (kind != ACC_ATOMIC) {
    /* racecheck compares the incoming bytes with the current ones and
     * reports a WAW only for bytes that change (hazard mode prints
     * "Current Value : 11, Incoming Value : 48"; measured: tests/hw/races,
     * warn_waw_same_insn counts 35 hazards among 32 lanes' stores, and the
     * waw_same_value_* cases) */
    if (changed && s->w.valid && s->w.tid != t && s->w.kind != ACC_ATOMIC && !ordered(r, &s->w, t))
      add_hazard(r, b, HZ_WAW, &s->w, pc, t, kind, at, b->smem[at], 0, changed);
    /* one hazard per reading pc (and class) for this write, however many
     * of its readers are kept. A store that changes none of its bytes is
     * no WAR for racecheck (measured: tests/hw/races, war_same_value),
     * though it is still the last write for a later read (raw_same_value) */
    const acc_rec *rd[4] = {&s->r[0], &s->r[1], s->spilled ? &xs->r[0] : NULL, s->spilled ? &xs->r[1] : NULL};
    uint32_t seen_pc[4];
    uint8_t seen_err[4];
    int ns = 0;
    for (int j = 0; j < 4 && rd[j] && !silent; j++) {
      const acc_rec *x = rd[j];
      if (!x->valid || x->tid == t || ordered(r, x, t)) continue;
      uint8_t err = x->tid / 32 != t / 32;
      int dup = 0;
      for (int k = 0; k < ns; k++) dup |= seen_pc[k] == x->pc && seen_err[k] == err;
      if (dup) continue;
      seen_pc[ns] = x->pc;
      seen_err[ns++] = err;
      add_hazard(r, b, HZ_WAR, x, pc, t, kind, at, b->smem[at], 0, n);
    }
  }
  s->w = (acc_rec){r->gen, pc, t, (uint8_t)kind, 1};
  s->r[0].valid = s->r[1].valid = 0;
  s->spilled = 0;
}

/* The bytes lane l of a st instruction stores (size of them), or 0 when
 * the access is not a plain store whose data the checker can see. */
static int store_bytes(const warp *w, const insn *in, int l, uint32_t size, uint8_t *out) {
  if (in->op != OP_ST || !in->vec || (uint32_t)in->c * in->vec != size || size > 32) return 0;
  for (int k = 0; k < in->vec; k++) {
    uint64_t v = w->r[in->v[k]][l];
    memcpy(out + k * in->c, &v, in->c); /* little-endian, as st stores it */
  }
  return 1;
}

/* The shared offset of an access at a, or ~0 when it is not in shared
 * memory (or out of its bounds). */
static inline uint64_t shared_off(const insn *in, uint64_t a, uint32_t size, const race_state *r) {
  if (in->space == PTX_SPACE_GENERIC) {
    if (a - SHARED_WINDOW >= WINDOW_SIZE) return ~0ull;
    a -= SHARED_WINDOW;
  } else if (in->space != PTX_SPACE_SHARED) {
    return ~0ull;
  }
  return a + size > r->sh_size ? ~0ull : a;
}

/* One lane's access at shared offset a. For a store whose bytes are known
 * (val), cur holds the bytes it overwrites. */
static inline void lane_access(race_state *r, block *b, uint32_t pc, uint16_t t, int kind, uint64_t a, uint32_t size,
                               const uint8_t *val, const uint8_t *cur) {
  int silent = val && !memcmp(val, cur, size);
  for (uint32_t k = 0; k < size;) {
    uint64_t at = a + k, wd = at >> 2;
    shadow *s;
    shadow_x *x;
    uint32_t step;
    if (!(at & 3) && size - k >= 4 && !r->split[wd]) {
      s = &r->wsh[wd]; /* a whole word with one history */
      x = &r->wshx[wd];
      step = 4;
    } else {
      if (!r->split[wd]) {
        /* the word's bytes go separate ways: give each the word's history */
        for (int j = 0; j < 4; j++) {
          r->sh[wd * 4 + (uint64_t)j] = r->wsh[wd];
          r->shx[wd * 4 + (uint64_t)j] = r->wshx[wd];
        }
        r->split[wd] = 1;
      }
      s = &r->sh[at];
      x = &r->shx[at];
      step = 1;
    }
    uint32_t changed = step;
    if (val) {
      changed = 0;
      for (uint32_t j = 0; j < step; j++) changed += cur[k + j] != val[k + j];
    }
    check_one(r, b, s, x, pc, t, kind, at, step, changed, silent);
    k += step;
  }
  /* a whole-word write makes a split word's bytes agree again */
  if (kind != ACC_READ && !(a & 3) && size >= 4)
    for (uint64_t wd = a >> 2; wd < (a + size) >> 2; wd++)
      if (r->split[wd]) {
        r->wsh[wd] = r->sh[wd * 4];
        r->wshx[wd] = r->shx[wd * 4];
        r->split[wd] = 0;
      }
}

void race_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  race_state *r = &w->blk->an->race;
  block *b = w->blk;
  int races = w->L->want_races, init = w->L->want_init;
  if (!races && !init) return;
  if (init) {
    LANES(m, {
      uint64_t a = shared_off(in, addr[l], size, r);
      if (a == ~0ull) continue;
      if (kind == ACC_READ) {
        for (uint32_t k = 0; k < size; k++)
          if (!r->init[a + k]) {
            race_add_sync(r, b, SYNC_UNINIT, w->pc, w->index, 1u << l);
            break;
          }
      } else {
        memset(r->init + a, 1, size);
      }
    });
  }
  if (!races) return;
  if (kind != ACC_WRITE || in->op != OP_ST || size > 32) {
    LANES(m, {
      uint64_t a = shared_off(in, addr[l], size, r);
      if (a != ~0ull) lane_access(r, b, w->pc, (uint16_t)(w->index * 32 + (uint32_t)l), kind, a, size, NULL, NULL);
    });
    return;
  }
  /* A store: lanes store in lane order, so a lane's "current value" is what
   * the last earlier lane of this instruction wrote there, or else memory. */
  uint64_t sa[32];
  uint8_t val[32][32];
  uint32_t hasval = 0;
  LANES(m, {
    sa[l] = shared_off(in, addr[l], size, r);
    if (sa[l] != ~0ull && store_bytes(w, in, l, size, val[l])) hasval |= 1u << l;
  });
  LANES(m, {
    uint64_t a = sa[l];
    if (a == ~0ull) continue;
    uint8_t cur[32];
    int known = (hasval >> l) & 1;
    if (known) {
      memcpy(cur, b->smem + a, size);
      for (int l2 = 0; l2 < l; l2++)
        if ((hasval >> l2) & 1 && sa[l2] < a + size && a < sa[l2] + size)
          for (uint32_t k = 0; k < size; k++)
            if (a + k >= sa[l2] && a + k < sa[l2] + size) cur[k] = val[l2][a + k - sa[l2]];
    }
    lane_access(r, b, w->pc, (uint16_t)(w->index * 32 + (uint32_t)l), kind, a, size, known ? val[l] : NULL, cur);
  });
}

void race_barrier(block *b, warp *w, uint32_t lanes) {
  race_state *r = &b->an->race;
  LANES(lanes, r->block_gen[w->index * 32 + (uint32_t)l] = r->gen + 1);
}

void race_bar_released(block *b, uint32_t id, int all) {
  race_state *r = &b->an->race;
  r->gen++;
  if (all) r->all_gen = r->gen;
  r->bar_pc[id] = 0;
}

void race_cluster_released(block *b) {
  race_state *r = &b->an->race;
  r->gen++;
  r->all_gen = r->gen;
}

void race_warpsync(warp *w, uint32_t lanes) {
  race_state *r = &w->blk->an->race;
  r->gen++;
  LANES(lanes, r->warp_gen[w->index * 32 + (uint32_t)l] = r->gen);
}

void race_merge(race_state *into, const race_state *from) {
  for (uint32_t i = 0; i < from->nhz; i++) {
    const hazard_rec *h = &from->hz[i];
    hazard_rec *g = find_pair(into, h->first_pc, h->first_kind, h->second_pc, h->second_kind);
    if (g) {
      g->count += h->count;
      g->error |= h->error;
    } else if ((g = new_hazard(into))) {
      *g = *h;
    }
  }
  for (uint32_t i = 0; i < from->nsy; i++) {
    const sync_rec *s = &from->sy[i];
    int fresh;
    sync_rec *t = sync_at(into, s->kind, s->pc, &fresh);
    if (!t) return;
    if (fresh) {
      *t = *s;
    } else {
      t->count += s->count;
      for (int wi = 0; wi < 32; wi++) t->lanes[wi] |= s->lanes[wi];
    }
  }
}

/* ---- global memory ----
 * Bytes of global memory a launch touches get a shadow in a table split
 * into stripes (by word, so the bytes of one word share a lock), each with
 * its own lock, since blocks run on several worker threads at once. Per
 * byte, as in shared memory: threads storing different bytes of one word
 * do not race. Accesses of one block are ordered by its barriers as in
 * shared memory. Accesses of two blocks are ordered only through a release
 * and an acquire: block B's thread fences (gpu scope) and then performs an
 * atomic on X; block C later performs an atomic on X; then what B's thread
 * did before its fence (and what B's other threads did before a barrier
 * that thread passed before its fence) is ordered before what C's thread
 * does after its atomic (and C's other threads after a barrier that
 * follows it): the "last block" reduction (threadFenceReduction). Without
 * the fence a relaxed atomic releases nothing. Two atomics never race. */
global_shadow *gshadow_new(void) {
  global_shadow *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  for (int i = 0; i < GSTRIPES; i++) pthread_mutex_init(&g->s[i].lock, NULL);
  pthread_mutex_init(&g->rel_lock, NULL);
  atomic_init(&g->seq, 0);
  return g;
}

void gshadow_free(global_shadow *g) {
  if (!g) return;
  for (int i = 0; i < GSTRIPES; i++) {
    free(g->s[i].t);
    pthread_mutex_destroy(&g->s[i].lock);
  }
  pthread_mutex_destroy(&g->rel_lock);
  free(g->rel);
  free(g);
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/* The slot of `key` in stripe s (created when missing); NULL when out of memory. */
static gslot *gfind(gstripe *s, uint64_t key) {
  if (2 * (s->n + 1) > s->cap) {
    uint32_t cap = s->cap ? s->cap * 2 : 1024;
    gslot *t = calloc(cap, sizeof *t);
    if (!t) return NULL;
    for (uint32_t i = 0; i < s->cap; i++)
      if (s->t[i].byte) {
        uint32_t j = (uint32_t)mix(s->t[i].byte) & (cap - 1);
        while (t[j].byte) j = (j + 1) & (cap - 1);
        t[j] = s->t[i];
      }
    free(s->t);
    s->t = t;
    s->cap = cap;
  }
  uint32_t j = (uint32_t)mix(key) & (s->cap - 1);
  while (s->t[j].byte && s->t[j].byte != key) j = (j + 1) & (s->cap - 1);
  if (!s->t[j].byte) {
    s->t[j].byte = key;
    s->n++;
  }
  return &s->t[j];
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
static void gsync(global_shadow *g, race_state *r, block *b, uint64_t nblocks, uint16_t t, uint64_t a, int release,
                  int acquire) {
  uint64_t seq = atomic_fetch_add(&g->seq, 1) + 1;
  if (release) {
    pthread_mutex_lock(&g->rel_lock);
    if (!g->rel && nblocks) {
      g->rel = calloc(nblocks, sizeof *g->rel);
      g->nrel = g->rel ? nblocks : 0;
    }
    /* a release without a fence publishes up to the access itself */
    uint32_t gen = r->fence_gen[t] ? r->fence_gen[t] - 1 : r->gen;
    uint32_t bar = r->fence_gen[t] ? r->fence_bar[t] : r->block_gen[t];
    if (b->linear < g->nrel) g->rel[b->linear] = (grel){a, seq, gen, bar, t, 1};
    pthread_mutex_unlock(&g->rel_lock);
  }
  if (!acquire) return;
  uint32_t i = 0;
  while (i < r->nacq && !(r->acq[i].addr == a && r->acq[i].tid == t)) i++;
  if (i == r->nacq) {
    if (r->nacq < GACQ) r->nacq++;
    else i = (uint32_t)(seq % GACQ); /* full: replace one */
  }
  r->acq[i] = (struct gacq){a, seq, r->gen, t};
}

/* Is the earlier access a, by another block, published to thread t of
 * block b through a release of a's block and an acquire of b's? */
static int gpublished(global_shadow *g, const race_state *r, const gacc *a, uint32_t t) {
  grel rel = {0};
  pthread_mutex_lock(&g->rel_lock);
  if (a->blk < g->nrel) rel = g->rel[a->blk];
  pthread_mutex_unlock(&g->rel_lock);
  if (!rel.valid) return 0;
  if (!((a->tid == rel.tid && a->gen <= rel.gen) || a->gen < rel.bar)) return 0;
  for (uint32_t i = 0; i < r->nacq; i++) {
    const struct gacq *q = &r->acq[i];
    if (q->addr == rel.addr && q->seq > rel.seq && (q->tid == t || r->block_gen[t] > q->gen)) return 1;
  }
  return 0;
}

/* Is the earlier global access a ordered before thread t of block b now? */
static int gordered(global_shadow *g, const race_state *r, const block *b, const gacc *a, uint32_t t) {
  if (a->blk != b->linear) return gpublished(g, r, a, t);
  acc_rec x = {a->gen, a->pc, a->tid, a->kind, 1};
  return ordered(r, &x, t);
}

/* Is the access at pc "morally strong" (PTX memory model): an atomic, a
 * volatile access (relaxed, system scope), or a relaxed/acquire/release
 * one whose scope reaches the other block? Two strong accesses do not race
 * (a flag spun on with volatile loads, races.cuh). */
static int gstrong(const program *P, uint32_t pc, int kind, int cross_block) {
  if (kind == ACC_ATOMIC) return 1;
  const char *t = pc < P->nlines ? P->lines[pc].text : NULL;
  if (!t) return 0;
  if (strstr(t, ".volatile")) return 1;
  if (strstr(t, ".relaxed") || strstr(t, ".acquire") || strstr(t, ".release"))
    return !cross_block || !strstr(t, ".cta");
  return 0;
}

static void ghazard(race_state *r, block *b, int type, const gacc *first, uint32_t pc, uint16_t t, int kind,
                    uint64_t addr, const program *P, uint32_t n) {
  int cross = first->blk != b->linear;
  if (gstrong(P, first->pc, first->kind, cross) && gstrong(P, pc, kind, cross)) return;
  acc_rec f = {first->gen, first->pc, first->tid, first->kind, 1};
  add_hazard(r, b, type, &f, pc, t, kind, addr, 0, 0, n);
  /* a global record; between blocks always an error */
  hazard_rec *h = find_pair(r, first->pc, first->kind, pc, kind);
  if (h) {
    h->global = 1;
    if (first->blk != b->linear) h->error = 1;
  }
}

/* Check one access against a slot (a word's or a byte's) and record it. */
static void gcheck(global_shadow *g, race_state *r, block *b, gslot *x, uint32_t pc, uint16_t t, int kind,
                   uint64_t at, uint32_t n, const program *P) {
  gacc now = {b->linear, r->gen, pc, t, (uint8_t)kind, 1};
  if (kind == ACC_READ) {
    if (x->w.valid && !(x->w.blk == b->linear && x->w.tid == t) && !gordered(g, r, b, &x->w, t))
      ghazard(r, b, HZ_RAW, &x->w, pc, t, kind, at, P, n);
    int same = x->r[0].valid && x->r[0].blk == b->linear && x->r[0].tid == t;
    if (x->r[0].valid && !same) x->r[1] = x->r[0];
    x->r[0] = now;
    return;
  }
  if (x->w.valid && !(x->w.blk == b->linear && x->w.tid == t) && !gordered(g, r, b, &x->w, t) &&
      !(kind == ACC_ATOMIC && x->w.kind == ACC_ATOMIC))
    ghazard(r, b, HZ_WAW, &x->w, pc, t, kind, at, P, n);
  for (int j = 0; j < 2; j++)
    if (x->r[j].valid && !(x->r[j].blk == b->linear && x->r[j].tid == t) && !gordered(g, r, b, &x->r[j], t))
      ghazard(r, b, HZ_WAR, &x->r[j], pc, t, kind, at, P, n);
  x->w = now;
  x->r[0].valid = x->r[1].valid = 0;
}

/* Keys of the shadow table: a word's slot, and (once the word's bytes go
 * separate ways) its bytes' slots; never 0. */
static inline uint64_t key_word(uint64_t wd) { return wd << 3 | 4; }
static inline uint64_t key_byte(uint64_t at) { return at << 1 | 1; }

void race_global(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  block *b = w->blk;
  race_state *r = &b->an->race;
  global_shadow *g = w->L->gshadow;
  const program *P = w->L->prog;
  if (!g) return;
  /* release/acquire semantics written on the instruction */
  const char *txt = w->pc < P->nlines && P->lines[w->pc].text ? P->lines[w->pc].text : "";
  int sem_rel = kind != ACC_READ && (strstr(txt, ".release") || strstr(txt, ".acq_rel"));
  int sem_acq = kind != ACC_WRITE && (strstr(txt, ".acquire") || strstr(txt, ".acq_rel"));
  LANES(m, {
    uint64_t a = addr[l];
    if (in->space == PTX_SPACE_SHARED || in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_PARAM) continue;
    if (a - SHARED_WINDOW < WINDOW_SIZE || a - LOCAL_WINDOW < WINDOW_SIZE) continue;
    uint16_t t = (uint16_t)(w->index * 32 + (uint32_t)l);
    if (kind == ACC_ATOMIC || sem_rel || sem_acq)
      gsync(g, r, b, w->L->nblocks, t, a, (kind == ACC_ATOMIC && r->fence_gen[t]) || sem_rel,
            kind == ACC_ATOMIC || sem_acq);
    for (uint64_t wd = a >> 2; wd <= (a + size - 1) >> 2; wd++) {
      uint64_t lo = wd * 4 > a ? wd * 4 : a, hi = wd * 4 + 4 < a + size ? wd * 4 + 4 : a + size;
      int whole = lo == wd * 4 && hi == wd * 4 + 4;
      gstripe *s = &g->s[mix(wd) % GSTRIPES];
      pthread_mutex_lock(&s->lock);
      gslot *x = gfind(s, key_word(wd));
      if (x && !x->split && whole) {
        gcheck(g, r, b, x, w->pc, t, kind, wd * 4, 4, P); /* the word's bytes share one history */
      } else if (x) {
        if (!x->split) {
          /* the bytes go separate ways: each starts with the word's history */
          gslot word = *x;
          for (int j = 0; j < 4; j++) {
            gslot *y = gfind(s, key_byte(wd * 4 + (uint64_t)j));
            if (y) {
              y->w = word.w;
              y->r[0] = word.r[0];
              y->r[1] = word.r[1];
            }
          }
          if ((x = gfind(s, key_word(wd)))) x->split = 1; /* gfind may have moved it */
        }
        for (uint64_t at = lo; at < hi; at++) {
          gslot *y = gfind(s, key_byte(at));
          if (y) gcheck(g, r, b, y, w->pc, t, kind, at, 1, P);
        }
        /* a whole-word write makes the bytes agree again */
        if (whole && kind != ACC_READ && (x = gfind(s, key_word(wd)))) {
          x->split = 0;
          x->w = (gacc){b->linear, r->gen, w->pc, t, (uint8_t)kind, 1};
          x->r[0].valid = x->r[1].valid = 0;
        }
      }
      pthread_mutex_unlock(&s->lock);
    }
  });
}
