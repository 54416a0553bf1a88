/* race.c: hazards on shared memory (RAW, WAR, WAW per byte), barrier misuse
 * and uninitialised shared reads. Two accesses are ordered when both
 * threads passed a barrier (or, inside one warp, a bar.warp.sync) that
 * completed after the first one: each access records the block's
 * generation, and each thread the generation of the last barrier it
 * passed. Atomics do not race with atomics; fences order nothing here. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check/checks.h"
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
  r->capruns = r->sh_size / 64 + 1;
  r->runof = calloc(r->sh_size / 4 + 1, sizeof *r->runof);
  r->runs = calloc(r->capruns, sizeof *r->runs);
  r->runfree = calloc(r->capruns, sizeof *r->runfree);
  if (!r->runof || !r->runs || !r->runfree) return -1;
  r->plog = malloc(PLOG * sizeof *r->plog);
  if (!r->plog) return -1;
  r->init = calloc(nbytes, 1);
  r->block_gen = calloc(L->nthreads_block, sizeof *r->block_gen);
  r->warp_gen = calloc(L->nthreads_block, sizeof *r->warp_gen);
  r->fence_gen = calloc(L->nthreads_block, sizeof *r->fence_gen);
  r->fence_bar = calloc(L->nthreads_block, sizeof *r->fence_bar);
  r->proxy_gen = calloc(L->nthreads_block, sizeof *r->proxy_gen);
  r->groups = calloc(L->nthreads_block, sizeof *r->groups);
  r->cp_groups = calloc(L->nthreads_block, sizeof *r->cp_groups);
  r->cp_npend = calloc(L->nthreads_block, sizeof *r->cp_npend);
  return r->sh && r->init && r->block_gen && r->warp_gen && r->fence_gen && r->fence_bar && r->proxy_gen && r->groups &&
                 r->cp_groups && r->cp_npend
             ? 0 : -1;
}

void race_free(race_state *r) {
  free(r->sh);
  free(r->wsh);
  free(r->shx);
  free(r->wshx);
  free(r->split);
  free(r->runof);
  free(r->runs);
  free(r->runfree);
  free(r->plog);
  free(r->init);
  free(r->block_gen);
  free(r->warp_gen);
  free(r->fence_gen);
  free(r->fence_bar);
  free(r->proxy_gen);
  free(r->groups);
  free(r->cp_groups);
  free(r->cp_npend);
  free(r->pcp);
  free(r->pend);
  free(r->hz);
  free(r->sy);
  race_async_free(r);
  memset(r, 0, sizeof *r);
}

void race_block_start(race_state *r, block *b) {
  memset(r->wsh, 0, (size_t)(r->sh_size / 4 + 1) * sizeof *r->wsh);
  memset(r->split, 0, r->sh_size / 4 + 1);
  r->nsplit = 0;
  r->wgen1 = r->rgen1 = 0;
  if (r->nruns) memset(r->runof, 0, (size_t)(r->sh_size / 4 + 1) * sizeof *r->runof);
  r->nruns = r->nrunused = r->nrunfree = 0;
  r->nplog = 0;
  memset(r->init, 0, r->sh_size);
  memset(r->block_gen, 0, b->nthreads * sizeof *r->block_gen);
  memset(r->warp_gen, 0, b->nthreads * sizeof *r->warp_gen);
  memset(r->fence_gen, 0, b->nthreads * sizeof *r->fence_gen);
  memset(r->fence_bar, 0, b->nthreads * sizeof *r->fence_bar);
  memset(r->proxy_gen, 0, b->nthreads * sizeof *r->proxy_gen);
  memset(r->groups, 0, b->nthreads * sizeof *r->groups);
  r->npend = 0;
  memset(r->cp_groups, 0, b->nthreads * sizeof *r->cp_groups);
  memset(r->cp_npend, 0, b->nthreads * sizeof *r->cp_npend);
  r->npcp = 0;
  r->nacq = 0;
  memset(r->bar_pc, 0, sizeof r->bar_pc);
  r->sync_stopped = 0;
  r->gen = 1;
  r->all_gen = 0;
  race_async_reset(r);
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
static inline void spill_cold(race_state *r, shadow *s, shadow_x *x, const acc_rec *o) {
  if (!s->spilled) {
    x->r[0].valid = x->r[1].valid = 0;
    s->spilled = 1;
  }
  acc_rec *a = &x->r[0], *b = &x->r[1];
  if (same_group(o, a) || !a->valid || a->gen < r->all_gen) *a = *o;
  else if (same_group(o, b) || !b->valid || b->gen < r->all_gen) *b = *o;
  else *(a->gen <= b->gen ? a : b) = *o;
}

static inline void spill_read(race_state *r, shadow *s, shadow_x *x, acc_rec o) {
  if (!o.valid || o.gen < r->all_gen || same_group(&o, &s->r[0]) || same_group(&o, &s->r[1])) return;
  spill_cold(r, s, x, &o);
}

static inline void keep_read(race_state *r, shadow *s, shadow_x *x, uint32_t pc, uint16_t t) {
  acc_rec now = {r->gen, pc, t, ACC_READ, 1}, out;
  r->rgen1 = r->gen + 1;
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

/* Give word wd of run k its own readers again. */
static void unrun(race_state *r, uint32_t k, uint64_t wd) {
  wrun *u = &r->runs[k];
  uint32_t j = (uint32_t)(wd - u->w0);
  shadow *s = &r->wsh[wd];
  shadow_x *x = &r->wshx[wd];
  s->r[0] = u->s.r[0];
  s->r[1] = u->s.r[1];
  s->r[0].tid = (uint16_t)(s->r[0].tid + j);
  s->r[1].tid = (uint16_t)(s->r[1].tid + j);
  s->spilled = u->s.spilled;
  *x = u->x;
  x->r[0].tid = (uint16_t)(x->r[0].tid + j);
  x->r[1].tid = (uint16_t)(x->r[1].tid + j);
  r->runof[wd] = 0;
  u->mask &= ~(1u << j);
  if (!u->mask) {
    r->runfree[r->nrunfree++] = k;
    r->nruns--;
  }
}

/* Word wd's readers in wsh, wshx (out of any run). */
static inline void own_word(race_state *r, uint64_t wd) {
  if (r->nruns && r->runof[wd]) unrun(r, r->runof[wd] - 1, wd);
}

static inline int live(const acc_rec *a, uint32_t all_gen) {
  return a->valid && a->gen >= all_gen;
}

/* own_word for a word a write is about to record: when every reader of its
 * run is older than the last barrier everyone passed (ordered before the
 * write, and dropped by it), the word just leaves the run with none. */
static inline void own_word_w(race_state *r, uint64_t wd) {
  if (!r->nruns || !r->runof[wd]) return;
  uint32_t k = r->runof[wd] - 1, ag = r->all_gen;
  wrun *u = &r->runs[k];
  if (live(&u->s.r[0], ag) || live(&u->s.r[1], ag) || (u->s.spilled && (live(&u->x.r[0], ag) || live(&u->x.r[1], ag)))) {
    unrun(r, k, wd);
    return;
  }
  shadow *s = &r->wsh[wd];
  s->r[0].valid = s->r[1].valid = 0;
  s->spilled = 0;
  r->runof[wd] = 0;
  u->mask &= ~(1u << (wd - u->w0));
  if (!u->mask) {
    r->runfree[r->nrunfree++] = k;
    r->nruns--;
  }
}

/* keep_read(ta) then keep_read(tb) for two threads of one warp reading at
 * one pc (ta != tb), with the same result: r[0], r[1] end as tb, ta, and
 * the reads they push out are spilled as keep_read spills them, in its
 * order, against the readers kept at that point. */
static inline void keep_read2(race_state *r, shadow *s, shadow_x *x, uint32_t pc, uint16_t ta, uint16_t tb) {
  const acc_rec *r0 = &s->r[0], *r1 = &s->r[1];
  uint32_t ag = r->all_gen, wp = ta / 32u;
  r->rgen1 = r->gen + 1;
  /* (spilling touches only x: r0 and r1 are replaced last) */
  if (r0->valid && r0->tid == ta) {
    /* keep_read(ta) pushes out r0 unless it is ta's read at pc (against ta,
     * of another pc then, and r1); keep_read(tb) pushes out r1 (against
     * tb and ta, of one group) */
    if (r0->pc != pc && r0->gen >= ag && !same_group(r0, r1)) spill_cold(r, s, x, r0);
    if (r1->valid && r1->gen >= ag && !(r1->pc == pc && r1->tid / 32u == wp)) spill_cold(r, s, x, r1);
  } else {
    /* keep_read(ta) pushes out r1 (against ta and r0), keep_read(tb) r0
     * (against tb and ta) */
    if (r1->valid && r1->gen >= ag && !(r1->pc == pc && r1->tid / 32u == wp) && !same_group(r1, r0))
      spill_cold(r, s, x, r1);
    if (r0->valid && r0->gen >= ag && !(r0->pc == pc && r0->tid / 32u == wp)) spill_cold(r, s, x, r0);
  }
  s->r[0] = (acc_rec){r->gen, pc, tb, ACC_READ, 1};
  s->r[1] = (acc_rec){r->gen, pc, ta, ACC_READ, 1};
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
        r->rgen1 = r->gen + 1;
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
    /* (a reader older than the last barrier everyone passed is ordered) */
    uint32_t ag = r->all_gen;
    silent |= !(live(&s->r[0], ag) || live(&s->r[1], ag) || (s->spilled && (live(&xs->r[0], ag) || live(&xs->r[1], ag))));
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
  r->wgen1 = r->gen + 1;
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
    own_word(r, wd);
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
        r->nsplit++;
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
        r->nsplit--;
      }
}

/* A warp's plain read of whole, unsplit words (size a multiple of 4, every
 * lane aligned): what lane_access does lane by lane, with the same result
 * for less. Reads leave the write records alone, so every RAW check is made
 * first, in lane order (the hazards' order); then each word's readers are
 * kept. Of k lanes of this instruction reading one word, lanes 3..k each
 * push out the reader before the last (of this pc and warp: keep_read
 * drops it) and end with r[0], r[1] the last two; only the first two need
 * keep_read. Returns 0 (having changed nothing) where it does not apply. */
static void raw_reads(race_state *r, block *b, uint32_t m, const uint32_t wd0[32], uint32_t nw, uint32_t pc,
                      uint16_t tb) {
  uint32_t maybe = 0;
  /* a RAW is possible only on a word whose last write is not older than
   * the last barrier everyone passed */
  if (r->wgen1 <= r->all_gen) return;
  LANES(m, {
    for (uint32_t j = 0; j < nw; j++) {
      const shadow *s = &r->wsh[wd0[l] + j];
      maybe |= s->w.valid & (s->w.gen >= r->all_gen);
    }
  });
  if (maybe)
    LANES(m, {
      uint16_t t = (uint16_t)(tb + (uint32_t)l);
      for (uint32_t j = 0; j < nw; j++) {
        const shadow *s = &r->wsh[wd0[l] + j];
        if (s->w.valid && s->w.gen >= r->all_gen && s->w.tid != t && s->w.kind != ACC_ATOMIC &&
            !ordered(r, &s->w, t)) {
          uint64_t at = (uint64_t)(wd0[l] + j) * 4;
          add_hazard(r, b, HZ_RAW, &s->w, pc, t, ACC_READ, at, 0, b->smem[at], 4);
        }
      }
    });
}

/* The shape of a whole warp's 4-byte access of shared offsets addr, every
 * lane aligned and in bounds: each half-warp on one word (n 1) or on 16
 * consecutive ones (n 16), from words w0 and w1, the halves' words the
 * same or apart. Returns 0 for any other. */
typedef struct wshape {
  uint32_t w0, w1, n;
} wshape;

static inline int warp_shape(const uint64_t addr[32], uint32_t sh_size, wshape *ws) {
  uint64_t a0 = addr[0], a1 = addr[16], xb = 0, xc = 0;
  for (int l = 0; l < 16; l++) {
    xb |= (addr[l] ^ a0) | (addr[l + 16] ^ a1);
    xc |= (addr[l] - a0 - 4 * (uint64_t)l) | (addr[l + 16] - a1 - 4 * (uint64_t)l);
  }
  uint32_t n = xb ? 16 : 1, w0 = (uint32_t)(a0 >> 2), w1 = (uint32_t)(a1 >> 2);
  if ((xb && xc) || ((a0 | a1) & 3) || sh_size < 4 * n || a0 > sh_size - 4 * n || a1 > sh_size - 4 * n) return 0;
  if (xb && w0 != w1 && (w1 > w0 ? w1 - w0 : w0 - w1) < 16) return 0;
  *ws = (wshape){w0, w1, n};
  return 1;
}

/* Words w0..w0+15 read by threads ta+j (and then tb+j when two): through
 * their run when they are one, else word by word, making them one when
 * none has readers yet (ta, tb are 0 or 16 mod 32). */
static void run_reads(race_state *r, uint32_t w0, uint32_t pc, uint16_t ta, uint16_t tb, int two) {
  uint32_t k = r->nruns ? r->runof[w0] : 0;
  if (k && r->runs[k - 1].w0 == w0 && r->runs[k - 1].mask == 0xffff) {
    /* the 16 words are one run: one history for all */
    wrun *u = &r->runs[k - 1];
    if (two) keep_read2(r, &u->s, &u->x, pc, ta, tb);
    else keep_read(r, &u->s, &u->x, pc, ta);
    return;
  }
  uint32_t fresh = 1;
  for (uint32_t j = 0; j < 16; j++) {
    own_word(r, w0 + j);
    const shadow *s = &r->wsh[w0 + j];
    fresh &= !s->r[0].valid & !s->r[1].valid & !s->spilled;
  }
  if (fresh && (r->nrunfree || r->nrunused < r->capruns)) {
    /* no readers yet: after this read the words' readers differ by j
     * alone, a run from now on */
    k = r->nrunfree ? r->runfree[--r->nrunfree] : r->nrunused++;
    wrun *u = &r->runs[k];
    u->w0 = w0;
    u->mask = 0xffff;
    u->s = r->wsh[w0];
    if (two) keep_read2(r, &u->s, &u->x, pc, ta, tb);
    else keep_read(r, &u->s, &u->x, pc, ta);
    for (uint32_t j = 0; j < 16; j++) r->runof[w0 + j] = k + 1;
    r->nruns++;
    return;
  }
  for (uint32_t j = 0; j < 16; j++)
    if (two) keep_read2(r, &r->wsh[w0 + j], &r->wshx[w0 + j], pc, (uint16_t)(ta + j), (uint16_t)(tb + j));
    else keep_read(r, &r->wsh[w0 + j], &r->wshx[w0 + j], pc, (uint16_t)(ta + j));
}

/* No word of shape ws is split (pattern_reads applies). */
static inline int pattern_fits(const race_state *r, const wshape *ws) {
  for (uint32_t j = 0; r->nsplit && j < ws->n; j++)
    if (r->split[ws->w0 + j] || r->split[ws->w1 + j]) return 0;
  return 1;
}

/* fast_reads for a whole warp reading one word per lane, each half-warp
 * either one word (broadcast) or 16 consecutive ones, all in bounds. */
/* The readers pattern_reads keeps for warp tb / 32 at pc (read at r->gen). */
static void keep_shape(race_state *r, uint32_t w0, uint32_t w1, uint32_t n, uint32_t pc, uint16_t tb) {
  if (n == 1) {
    /* each half on one word: its first two lanes, then its last two
     * (lanes 2.. each push out a read of this pc and warp: dropped) */
    uint32_t first = w0 == w1 ? 1 : 2;
    own_word(r, w0);
    own_word(r, w1);
    for (uint32_t h = 0; h < first; h++) {
      uint32_t wd = h ? w1 : w0, lo = h * 16, hi = first == 1 ? 31 : lo + 15;
      shadow *s = &r->wsh[wd];
      keep_read2(r, s, &r->wshx[wd], pc, (uint16_t)(tb + lo), (uint16_t)(tb + lo + 1));
      s->r[1] = (acc_rec){r->gen, pc, (uint16_t)(tb + hi - 1), ACC_READ, 1};
      s->r[0] = (acc_rec){r->gen, pc, (uint16_t)(tb + hi), ACC_READ, 1};
    }
    return;
  }
  /* consecutive words: each read by lane j (and j + 16 when the halves agree) */
  if (w0 == w1) {
    run_reads(r, w0, pc, tb, (uint16_t)(tb + 16), 1);
    return;
  }
  /* (the halves' words are apart: in either order) */
  run_reads(r, w0, pc, tb, 0, 0);
  run_reads(r, w1, pc, (uint16_t)(tb + 16), 0, 0);
}

/* Keep the readers of the shape reads put off (pattern_reads), in order,
 * each as of its generation: before anything else looks at or changes a
 * shadow's readers. */
static void flush_reads(race_state *r) {
  uint32_t g = r->gen, rg = r->rgen1;
  for (uint32_t i = 0; i < r->nplog; i++) {
    const struct pend_shape *e = &r->plog[i];
    r->gen = e->gen;
    keep_shape(r, e->w0, e->w1, e->n, e->pc, e->tb);
  }
  r->gen = g;
  r->rgen1 = rg;
  r->nplog = 0;
}

/* A whole warp's read of shape ws: RAW checks now; the readers are kept
 * later (flush_reads), or never: a barrier every thread passes makes them
 * all older than it, ordered before every later access, and such readers
 * change no check's outcome (a shadow whose readers all are keeps and
 * reports as one with none), so they are dropped then. */
static int pattern_reads(warp *w, const wshape *ws, race_state *r, block *b) {
  uint32_t n = ws->n, w0 = ws->w0, w1 = ws->w1, pc = w->pc, xb = n > 1;
  if (!pattern_fits(r, ws)) return 0;
  uint16_t tb = (uint16_t)(w->index * 32);
  if (r->wgen1 > r->all_gen) {
    uint32_t wd0[32];
    for (uint32_t l = 0; l < 16; l++) {
      wd0[l] = w0 + (xb ? l : 0);
      wd0[l + 16] = w1 + (xb ? l : 0);
    }
    raw_reads(r, b, FULL_MASK, wd0, 1, pc, tb);
  }
  if (r->nplog == PLOG) flush_reads(r);
  r->plog[r->nplog++] = (struct pend_shape){w0, w1, pc, r->gen, tb, (uint8_t)n};
  r->rgen1 = r->gen + 1;
  return 1;
}

static int fast_reads(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, race_state *r,
                      block *b, const wshape *ws) {
  uint32_t wd0[32], nw = size / 4, pc = w->pc, skip = 0;
  uint16_t tb = (uint16_t)(w->index * 32);
  if (size % 4 || !size || size > 32) return 0;
  if (ws && pattern_reads(w, ws, r, b)) return 1;
  if (m == FULL_MASK && in->space == PTX_SPACE_SHARED) {
    /* the whole warp in bounds and aligned: no lane skipped */
    uint64_t amax = 0, aor = 0;
    for (int l = 0; l < 32; l++) {
      amax = addr[l] > amax ? addr[l] : amax;
      aor |= addr[l];
    }
    if ((aor & 3) || amax + size > r->sh_size || amax + size < amax) return 0;
    uint8_t sp = 0;
    for (int l = 0; l < 32; l++) {
      wd0[l] = (uint32_t)(addr[l] >> 2);
      for (uint32_t j = 0; j < nw; j++) sp |= r->split[wd0[l] + j];
    }
    if (sp) return 0;
  } else {
    LANES(m, {
      uint64_t a = shared_off(in, addr[l], size, r);
      if (a == ~0ull) {
        skip |= 1u << l;
        continue;
      }
      if (a & 3) return 0;
      wd0[l] = (uint32_t)(a >> 2);
      for (uint32_t j = 0; j < nw; j++)
        if (r->split[wd0[l] + j]) return 0;
    });
    m &= ~skip;
  }
  raw_reads(r, b, m, wd0, nw, pc, tb);
  if (r->nruns) LANES(m, {
      for (uint32_t j = 0; j < nw; j++) own_word(r, wd0[l] + j);
    });
  if (m == FULL_MASK && nw == 1) {
    uint32_t x0 = 0, x1 = 0, w0 = wd0[0], w1 = wd0[16];
    for (int l = 0; l < 16; l++) {
      x0 |= (wd0[l] ^ w0) | (wd0[l + 16] ^ w1);
      x1 |= (wd0[l] - w0 - (uint32_t)l) | (wd0[l + 16] - w1 - (uint32_t)l);
    }
    if (!x0) {
      /* each half on one word: its first two lanes, then its last two */
      uint32_t first = w0 == w1 ? 1 : 2;
      for (uint32_t h = 0; h < first; h++) {
        uint32_t wd = h ? w1 : w0, lo = h * 16, hi = first == 1 ? 31 : lo + 15;
        shadow *s = &r->wsh[wd];
        keep_read(r, s, &r->wshx[wd], pc, (uint16_t)(tb + lo));
        keep_read(r, s, &r->wshx[wd], pc, (uint16_t)(tb + lo + 1));
        s->r[1] = (acc_rec){r->gen, pc, (uint16_t)(tb + hi - 1), ACC_READ, 1};
        s->r[0] = (acc_rec){r->gen, pc, (uint16_t)(tb + hi), ACC_READ, 1};
      }
      return 1;
    }
    if (!x1 && (w0 == w1 || (w1 > w0 ? w1 - w0 : w0 - w1) >= 16)) {
      /* consecutive words: each read by lane j (and j + 16 when the halves agree) */
      for (uint32_t j = 0; j < 16; j++) {
        keep_read(r, &r->wsh[w0 + j], &r->wshx[w0 + j], pc, (uint16_t)(tb + j));
        keep_read(r, &r->wsh[w1 + j], &r->wshx[w1 + j], pc, (uint16_t)(tb + 16 + j));
      }
      return 1;
    }
  }
  /* the words of this instruction: open addressing on the word index */
  struct wslot {
    uint32_t wd, n;
    uint16_t prev, last;
  } tab[128];
  uint64_t used[2] = {0, 0};
  LANES(m, {
    uint16_t t = (uint16_t)(tb + (uint32_t)l);
    for (uint32_t j = 0; j < nw; j++) {
      uint32_t wd = wd0[l] + j, h = (wd * 0x9e3779b1u) >> 25;
      while ((used[h >> 6] >> (h & 63) & 1) && tab[h].wd != wd) h = (h + 1) & 127;
      struct wslot *e = &tab[h];
      if (!(used[h >> 6] >> (h & 63) & 1)) {
        used[h >> 6] |= 1ull << (h & 63);
        e->wd = wd;
        e->n = 0;
      }
      if (e->n < 2) keep_read(r, &r->wsh[wd], &r->wshx[wd], pc, t);
      e->prev = e->last;
      e->last = t;
      e->n++;
    }
  });
  for (int i = 0; i < 2; i++)
    for (uint64_t u = used[i]; u; u &= u - 1) {
      const struct wslot *e = &tab[i * 64 + __builtin_ctzll(u)];
      if (e->n < 3) continue;
      shadow *s = &r->wsh[e->wd];
      s->r[1] = (acc_rec){r->gen, pc, e->prev, ACC_READ, 1};
      s->r[0] = (acc_rec){r->gen, pc, e->last, ACC_READ, 1};
    }
  return 1;
}

/* A whole warp's st.shared of one 4-byte register per lane, lane l on
 * word wdv[l], no two lanes on one word, no word split: what lane_access
 * does lane by lane (each lane's current bytes are memory's), with the
 * bytes compared as words. */
static void store_words(warp *w, const insn *in, const uint32_t wdv[32], race_state *r, block *b) {
  const uint64_t *v = w->r[in->v[0]];
  uint16_t tb = (uint16_t)(w->index * 32);
  /* every read so far is ordered before these (older than the last barrier
   * everyone passed)? */
  int rdead = r->rgen1 <= r->all_gen;
  for (int l = 0; l < 32; l++) {
    uint32_t wd = wdv[l], cur, x;
    shadow *s = &r->wsh[wd];
    own_word_w(r, wd);
    if (rdead && !live(&s->w, r->all_gen)) {
      /* and the last write too: no hazard whatever the values, the word's
       * only record is now this write (check_one's end) */
      s->w = (acc_rec){r->gen, w->pc, (uint16_t)(tb + l), ACC_WRITE, 1};
      s->r[0].valid = s->r[1].valid = 0;
      s->spilled = 0;
      r->wgen1 = r->gen + 1;
      continue;
    }
    memcpy(&cur, b->smem + (uint64_t)wd * 4, 4);
    x = cur ^ (uint32_t)v[l];
    uint32_t changed = !!(x & 0xffu) + !!(x & 0xff00u) + !!(x & 0xff0000u) + !!(x & 0xff000000u);
    check_one(r, b, &r->wsh[wd], &r->wshx[wd], w->pc, (uint16_t)(tb + l), ACC_WRITE, (uint64_t)wd * 4, 4, changed,
              !x);
  }
}

/* store_words for a whole warp's 4-byte st.shared of lane addresses addr,
 * every lane aligned and in bounds and no word split; returns 0 (having
 * changed nothing) where it does not apply. */
static int fast_stores(warp *w, const insn *in, const uint64_t addr[32], race_state *r, block *b) {
  uint64_t amax = 0, aor = 0, seen[4] = {0, 0, 0, 0};
  uint32_t wdv[32];
  for (int l = 0; l < 32; l++) {
    amax = addr[l] > amax ? addr[l] : amax;
    aor |= addr[l];
  }
  if ((aor & 3) || amax >= r->sh_size || amax + 4 > r->sh_size) return 0;
  for (int l = 0; l < 32; l++) {
    uint32_t wd = wdv[l] = (uint32_t)(addr[l] >> 2), h = wd & 255;
    if ((seen[h >> 6] >> (h & 63) & 1) || (r->nsplit && r->split[wd])) return 0;
    seen[h >> 6] |= 1ull << (h & 63);
  }
  store_words(w, in, wdv, r, b);
  return 1;
}

/* The init check of a whole warp's 4-byte access of shape ws: a word of
 * init bytes per half-warp or per lane of each half. */
static inline void init_shape(warp *w, race_state *r, block *b, const wshape *ws, int kind) {
  const uint32_t ones = 0x01010101u;
  uint32_t n = ws->n;
  if (kind == ACC_READ) {
    uint32_t bad = 0;
    for (uint32_t l = 0; l < 16; l++) {
      uint32_t v0, v1;
      memcpy(&v0, r->init + (uint64_t)(ws->w0 + (n > 1 ? l : 0)) * 4, 4);
      memcpy(&v1, r->init + (uint64_t)(ws->w1 + (n > 1 ? l : 0)) * 4, 4);
      bad |= (uint32_t)(v0 != ones) << l | (uint32_t)(v1 != ones) << (l + 16);
    }
    for (; bad; bad &= bad - 1) race_add_sync(r, b, SYNC_UNINIT, w->pc, w->index, bad & -bad);
  } else {
    memset(r->init + (uint64_t)ws->w0 * 4, 1, 4 * n);
    memset(r->init + (uint64_t)ws->w1 * 4, 1, 4 * n);
  }
}

/* Run k of 16 words from w0 read only before the last barrier every
 * thread passed: the words leave it with no readers (own_word_w on each). */
static inline void drop_dead_run(race_state *r, uint32_t w0) {
  uint32_t k = r->runof[w0], ag = r->all_gen;
  if (!k) return;
  wrun *u = &r->runs[k - 1];
  if (u->w0 != w0 || u->mask != 0xffff || live(&u->s.r[0], ag) || live(&u->s.r[1], ag) ||
      (u->s.spilled && (live(&u->x.r[0], ag) || live(&u->x.r[1], ag))))
    return;
  for (uint32_t j = 0; j < 16; j++) {
    shadow *s = &r->wsh[w0 + j];
    s->r[0].valid = s->r[1].valid = 0;
    s->spilled = 0;
    r->runof[w0 + j] = 0;
  }
  u->mask = 0;
  r->runfree[r->nrunfree++] = k - 1;
  r->nruns--;
}

/* Do the race checks of a whole warp's 4-byte st or ld.shared of shape ws
 * (in bounds) take the shape paths: reads as pattern_reads, stores of 32
 * different words as fast_stores? */
static inline int shape_fits(const warp *w, const insn *in, const wshape *ws, int kind, const race_state *r) {
  if (!w->L->want_races) return 1;
  if (!pattern_fits(r, ws)) return 0;
  if (kind == ACC_READ) return !r->compat;
  return kind == ACC_WRITE && in->op == OP_ST && in->vec == 1 && in->c == 4 && ws->n == 16 && ws->w0 != ws->w1 &&
         !r->ar;
}

/* The stores of shape_fits. */
static void shape_stores(warp *w, const insn *in, const wshape *ws, race_state *r, block *b) {
  uint32_t wdv[32];
  flush_reads(r);
  for (uint32_t l = 0; l < 16; l++) {
    wdv[l] = ws->w0 + l;
    wdv[l + 16] = ws->w1 + l;
  }
  if (r->nruns) {
    drop_dead_run(r, ws->w0);
    drop_dead_run(r, ws->w1);
  }
  store_words(w, in, wdv, r, b);
}

/* The race and init checks of an access shape_fits passed. */
static inline void shape_checks(warp *w, const insn *in, const wshape *ws, int kind, race_state *r, block *b) {
  if (w->L->want_init) init_shape(w, r, b, ws, kind);
  if (!w->L->want_races) return;
  if (kind == ACC_READ) pattern_reads(w, ws, r, b);
  else shape_stores(w, in, ws, r, b);
}

int hook_mem_shape(warp *w, const insn *in, uint64_t a0, uint64_t a1, int pat, uint32_t size) {
  block *b = w->blk;
  analysis *an = b->an;
  /* (the global race and init checks pass shared memory by; the cluster
   * check needs the lanes) */
  if (!an || !an->has_race || an->crace || size != 4 || in->space != PTX_SPACE_SHARED) return 0;
  if (!w->L->want_races && !w->L->want_init) return 0;
  race_state *r = &an->race;
  int kind = (op_flags[in->op] & OPF_WRITE) ? ACC_WRITE : ACC_READ;
  uint32_t n = pat == 2 ? 16 : 1, sz = r->sh_size;
  if (pat != 1 && pat != 2) return 0;
  if (((a0 | a1) & 3) || sz < 4 * n || a0 > sz - 4 * n || a1 > sz - 4 * n) return 0;
  /* (copies in flight: race_access sees the copier's own reads) */
  if (r->npcp) return 0;
  /* (the reserved area's words: race_access leaves them out) */
  if (w->L->prog->smem_lo < w->L->prog->smem_reserved && (a0 < w->L->prog->smem_reserved || a1 < w->L->prog->smem_reserved))
    return 0;
  wshape ws = {(uint32_t)(a0 >> 2), (uint32_t)(a1 >> 2), n};
  if (n > 1 && ws.w0 != ws.w1 && (ws.w1 > ws.w0 ? ws.w1 - ws.w0 : ws.w0 - ws.w1) < 16) return 0;
  if (!shape_fits(w, in, &ws, kind, r)) return 0;
  if (w->L->want_banks && !hook_banks_halves(w, in, a0, a1, pat == 2 ? size : 0, size)) return 0;
  shape_checks(w, in, &ws, kind, r, b);
  return 1;
}

static void cp_own_reads(race_state *r, warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);

void race_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  race_state *r = &w->blk->an->race;
  block *b = w->blk;
  int races = w->L->want_races, init = w->L->want_init;
  if (!races && !init) return;
  /* global, local and other spaces are not shared memory */
  if (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_GENERIC) return;
  /* The reserved shared memory is the system's (a kernel addresses it only
   * when it reads %reserved_smem_offset_0/1: cooperative groups' barriers
   * and exchange slots of tiles wider than a warp, ordered by their own
   * release/acquire protocol). Neither race- nor init-checked: README,
   * reserved shared memory. */
  const uint32_t user_lo = w->L->prog->smem_reserved;
  if (w->L->prog->smem_lo < user_lo) {
    uint32_t keep = m;
    LANES(m, {
      uint64_t a = shared_off(in, addr[l], size, r);
      if (a != ~0ull && a < user_lo) keep &= ~(1u << l);
    });
    if (!keep) return;
    m = keep;
  }
  if (r->npcp && races && kind == ACC_READ) cp_own_reads(r, w, in, m, addr, size);
  wshape shape;
  const wshape *ws = NULL;
  /* (the shape path keeps reads in a log a barrier may drop: not while a
   * cp.async is in flight, whose completion looks for the reads that came
   * meanwhile, barriers or not) */
  if (m == FULL_MASK && in->space == PTX_SPACE_SHARED && size == 4 && warp_shape(addr, r->sh_size, &shape)) {
    if (!r->npcp && shape_fits(w, in, &shape, kind, r)) {
      shape_checks(w, in, &shape, kind, r, b);
      return;
    }
    ws = &shape;
  }
  if (races) flush_reads(r);
  uint64_t amax = UINT64_MAX;
  if (init && ws) {
    init_shape(w, r, b, ws, kind);
  } else if (init && m == FULL_MASK && in->space == PTX_SPACE_SHARED && size == 4) {
    amax = 0;
    for (int l = 0; l < 32; l++) amax = addr[l] > amax ? addr[l] : amax;
  }
  if (amax < r->sh_size && amax + 4 <= r->sh_size) {
    /* a whole warp in bounds: a word of init bytes per lane */
    const uint32_t ones = 0x01010101u;
    if (kind == ACC_READ) {
      uint32_t bad = 0;
      for (int l = 0; l < 32; l++) {
        uint32_t v;
        memcpy(&v, r->init + addr[l], 4);
        bad |= (uint32_t)(v != ones) << l;
      }
      for (; bad; bad &= bad - 1) race_add_sync(r, b, SYNC_UNINIT, w->pc, w->index, bad & -bad);
    } else {
      for (int l = 0; l < 32; l++) memcpy(r->init + addr[l], &ones, 4);
    }
  } else if (init && !ws) {
    LANES(m, {
      uint64_t a = shared_off(in, addr[l], size, r);
      if (a == ~0ull) continue;
      if (kind == ACC_READ) {
        /* init bytes are 0 or 1: a word of them is 0x01010101 when all written */
        uint32_t v;
        int all = size == 4 ? (memcpy(&v, r->init + a, 4), v == 0x01010101u) : !memchr(r->init + a, 0, size);
        if (!all) race_add_sync(r, b, SYNC_UNINIT, w->pc, w->index, 1u << l);
      } else {
        memset(r->init + a, 1, size);
      }
    });
  }
  if (!races) return;
  if (kind == ACC_READ && !r->compat && fast_reads(w, in, m, addr, size, r, b, r->npcp ? NULL : ws)) return;
  if (kind != ACC_READ && r->ar) race_async_write(w, in, m, addr, size);
  if (kind == ACC_WRITE && in->op == OP_ST && size == 4 && in->vec == 1 && in->c == 4 && m == FULL_MASK &&
      in->space == PTX_SPACE_SHARED && fast_stores(w, in, addr, r, b))
    return;
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
  /* can two lanes' bytes overlap? Not when every lane is aligned to the
   * size and no two lanes share an address (a bitmap of addresses; a
   * collision is taken for an overlap) */
  int ovl = 0;
  uint64_t seen[4] = {0, 0, 0, 0};
  LANES(hasval, {
    uint32_t h = (uint32_t)(sa[l] / size) & 255;
    if (sa[l] % size || (seen[h >> 6] >> (h & 63) & 1)) {
      ovl = 1;
      break;
    }
    seen[h >> 6] |= 1ull << (h & 63);
  });
  LANES(m, {
    uint64_t a = sa[l];
    if (a == ~0ull) continue;
    uint8_t cur[32];
    int known = (hasval >> l) & 1;
    if (known) {
      memcpy(cur, b->smem + a, size);
      for (int l2 = 0; ovl && l2 < l; l2++)
        if ((hasval >> l2) & 1 && sa[l2] < a + size && a < sa[l2] + size)
          for (uint32_t k = 0; k < size; k++)
            if (a + k >= sa[l2] && a + k < sa[l2] + size) cur[k] = val[l2][a + k - sa[l2]];
    }
    lane_access(r, b, w->pc, (uint16_t)(w->index * 32 + (uint32_t)l), kind, a, size, known ? val[l] : NULL, cur);
  });
}

void race_async_war(warp *w, int lane, uint64_t at, uint32_t read_pc, uint16_t read_tid) {
  race_state *r = &w->blk->an->race;
  acc_rec first = {r->gen, read_pc, read_tid, ACC_READ, 1};
  add_hazard(r, w->blk, HZ_WAR, &first, w->pc, (uint16_t)(w->index * 32 + (uint32_t)lane), ACC_WRITE, at,
             w->blk->smem[at], 0, 1);
  /* an error even within the issuing warp: no program order covers it */
  hazard_rec *h = find_pair(r, read_pc, ACC_READ, w->pc, ACC_WRITE);
  if (h) h->error = 1;
}

void race_barrier(block *b, warp *w, uint32_t lanes) {
  race_state *r = &b->an->race;
  LANES(lanes, r->block_gen[w->index * 32 + (uint32_t)l] = r->gen + 1);
}

void race_bar_released(block *b, uint32_t id, int all) {
  race_state *r = &b->an->race;
  r->gen++;
  if (all) {
    r->all_gen = r->gen;
    r->nplog = 0; /* (pattern_reads) */
  }
  r->bar_pc[id] = 0;
}

void race_rsv_release(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], const uint64_t *B) {
  block *b = w->blk;
  race_state *r = &b->an->race;
  const uint32_t user_lo = w->L->prog->smem_reserved;
  if (w->L->prog->smem_lo >= user_lo) return;
  LANES(m, {
    uint64_t a = shared_off(in, addr[l], 4, r);
    if (a == ~0ull || a >= user_lo) continue;
    /* the bits of warp i clear with the operand's bit i: the tile's warps,
     * whose last one has seen all of them arrive (atom.or.acq_rel) */
    uint32_t clr = ~(uint32_t)B[l];
    if (b->nwarps < 32) clr &= (1u << b->nwarps) - 1;
    if (__builtin_popcount(clr) < 2) continue; /* a warp resets its own bit */
    for (uint32_t c = clr; c; c &= c - 1) {
      warp *x = &b->warps[__builtin_ctz(c)];
      race_barrier(b, x, x->valid & ~x->exited);
    }
    r->gen++;
  });
}

void race_cluster_released(block *b) {
  race_state *r = &b->an->race;
  r->gen++;
  r->all_gen = r->gen;
  r->nplog = 0;
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

/* The shared helpers, for the global-memory check (grace.c). */
int race_ordered(const race_state *r, const acc_rec *a, uint32_t t) { return ordered(r, a, t); }
hazard_rec *race_find_pair(race_state *r, uint32_t pc1, int kind1, uint32_t pc2, int kind2) {
  return find_pair(r, pc1, kind1, pc2, kind2);
}
void race_add_hazard(race_state *r, block *b, int type, const acc_rec *first, uint32_t pc, uint16_t tid, int kind,
                     uint64_t addr, uint64_t v1, uint64_t v2, uint32_t n) {
  add_hazard(r, b, type, first, pc, tid, kind, addr, v1, v2, n);
}

/* ---- the async proxy ----
 * A fence.proxy.async advances the block's generation (a clock: no thread's
 * barrier generation moves, so nothing becomes ordered by it) and stamps the
 * thread: a generic write it made before carries an older generation. */
void race_proxy_fence(warp *w, uint32_t m) {
  if (!w->blk->an || !w->blk->an->has_race) return;
  race_state *r = &w->blk->an->race;
  r->gen++;
  LANES(m, r->proxy_gen[w->index * 32 + (uint32_t)l] = r->gen);
}

void race_proxy_read(warp *w, const insn *in, int l, uint64_t a, uint32_t n) {
  if (!w->blk->an || !w->blk->an->has_race || !w->L->want_races) return;
  race_state *r = &w->blk->an->race;
  block *b = w->blk;
  uint16_t t = (uint16_t)(w->index * 32 + (uint32_t)l);
  const program *P = w->L->prog;
  if (a + n > r->sh_size) return;
  for (uint64_t at = a; at < a + n; at++) {
    uint64_t wd = at >> 2;
    const shadow *s = r->split[wd] ? &r->sh[at] : &r->wsh[wd];
    const acc_rec *x = &s->w;
    /* a barrier does not order generic writes before async-proxy reads:
     * only the writer's fence.proxy.async does */
    if (!x->valid || x->kind != ACC_WRITE) continue;
    /* a write by the async proxy itself (a TMA load) needs no fence */
    if (x->pc < P->ncode && P->code[x->pc].op == OP_CP) continue;
    if (r->proxy_gen[x->tid] > x->gen) continue;
    /* the generic write is not visible to the async proxy: the copy may
     * read the old bytes (or the new), whatever barrier lies between */
    add_hazard(r, b, HZ_RAW, x, w->pc, t, ACC_READ, at, 0, b->smem[at], 1);
  }
  uint64_t addr[32] = {0};
  addr[l] = a;
  insn sh = *in;
  sh.space = PTX_SPACE_SHARED;
  race_access(w, &sh, 1u << l, addr, n, ACC_READ);
  /* the copy reads until its group is waited for: check it again then */
  if (r->npend == r->cappend) {
    uint32_t cap = r->cappend ? r->cappend * 2 : 16;
    struct pend_read *p = realloc(r->pend, cap * sizeof *p);
    if (!p) return;
    r->pend = p;
    r->cappend = cap;
  }
  r->pend[r->npend++] = (struct pend_read){a, n, w->pc, r->groups[t], t};
}

void race_proxy_commit(warp *w, uint32_t m) {
  if (!w->blk->an || !w->blk->an->has_race) return;
  race_state *r = &w->blk->an->race;
  LANES(m, r->groups[w->index * 32 + (uint32_t)l]++);
}

void race_proxy_wait(warp *w, uint32_t m, uint32_t n) {
  if (!w->blk->an || !w->blk->an->has_race) return;
  race_state *r = &w->blk->an->race;
  uint32_t keep = 0, pc = w->pc;
  for (uint32_t i = 0; i < r->npend; i++) {
    struct pend_read p = r->pend[i];
    uint32_t lane = p.tid % 32;
    if (p.tid / 32 != w->index || !(m >> lane & 1) || p.group + n >= r->groups[p.tid]) {
      r->pend[keep++] = p;
      continue;
    }
    /* the read as of now, reported at the copy's instruction: a write since
     * the copy was issued that no barrier orders after this wait raced */
    uint64_t addr[32] = {0};
    addr[lane] = p.a;
    insn sh = w->L->prog->code[p.pc];
    sh.space = PTX_SPACE_SHARED;
    w->pc = p.pc;
    race_access(w, &sh, 1u << lane, addr, p.n, ACC_READ);
    w->pc = pc;
  }
  r->npend = keep;
}

/* ---- cp.async ----
 * smemu copies at issue (finishing early is one of the orders allowed), so
 * a program sees the bytes at once; the race checks keep each lane's copy
 * as in flight until the issuing thread waits for it (or a
 * cp.async.mbarrier.arrive completes it). The copy's write is recorded at
 * issue, which clears the byte's readers; at completion, a reader still
 * kept, or a write other than the copy's, by another thread came while the
 * copy was in flight: whatever barrier lay between, it may have seen (or
 * been overwritten by) the copy's bytes landing (an H100 shows both:
 * tests/hw/async_f, rd and wr). A read by the issuing thread itself before
 * its wait is reported too, as racecheck does (a warning); racecheck does
 * not report the other threads' accesses, smemu does. The copy's write record
 * then takes the completion's generation, so that only what is ordered
 * after the completion is ordered after the write. (Readers pushed out of
 * the shadow by later reads are missed; a read in flight followed by a
 * write of another thread is checked only as that write's WAR.) */
void race_cp_issue(warp *w, uint32_t m, const uint64_t dst[32], uint32_t size) {
  if (!w->blk->an || !w->blk->an->has_race || !w->L->want_races) return;
  race_state *r = &w->blk->an->race;
  LANES(m, {
    uint64_t a = dst[l];
    if (a >= r->sh_size || a + size > r->sh_size) continue;
    if (r->npcp == r->cappcp) {
      uint32_t cap = r->cappcp ? r->cappcp * 2 : 32;
      struct pend_cp *p = realloc(r->pcp, cap * sizeof *p);
      if (!p) return;
      r->pcp = p;
      r->cappcp = cap;
    }
    uint16_t t = (uint16_t)(w->index * 32 + (uint32_t)l);
    r->pcp[r->npcp++] = (struct pend_cp){(uint32_t)a, w->pc, r->gen, r->cp_groups[t], t, (uint8_t)size};
    r->cp_npend[t]++;
  });
}

/* Reads by lanes m of bytes their own thread's cp.async is still copying:
 * undefined (the bytes land at any time until the wait). racecheck reports
 * them as warnings, "Potential RAW hazard detected (invalid memcpy_async
 * synchronization)", one per byte (tests/hw/async_f san_racecheck_rd). */
static void cp_own_reads(race_state *r, warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  LANES(m, {
    uint16_t t = (uint16_t)(w->index * 32 + (uint32_t)l);
    if (!r->cp_npend[t]) continue;
    uint64_t a = shared_off(in, addr[l], size, r);
    if (a == ~0ull) continue;
    for (uint32_t i = 0; i < r->npcp; i++) {
      const struct pend_cp *p = &r->pcp[i];
      if (p->tid != t || a >= p->a + p->n || p->a >= a + size) continue;
      acc_rec cp = {p->gen, p->pc, p->tid, ACC_WRITE, 1};
      for (uint64_t at = a > p->a ? a : p->a; at < a + size && at < p->a + p->n; at++)
        add_hazard(r, w->blk, HZ_RAW, &cp, w->pc, t, ACC_READ, at, 0, w->blk->smem[at], 1);
    }
  });
}

void race_cp_commit(warp *w, uint32_t m) {
  if (!w->blk->an || !w->blk->an->has_race) return;
  race_state *r = &w->blk->an->race;
  LANES(m, r->cp_groups[w->index * 32 + (uint32_t)l]++);
}

/* Copy p completes now: check and re-date its bytes. */
static void cp_complete(race_state *r, block *b, const struct pend_cp *p) {
  acc_rec cp = {p->gen, p->pc, p->tid, ACC_WRITE, 1};
  for (uint32_t at = p->a; at < p->a + p->n; at++) {
    uint64_t wd = at >> 2;
    own_word(r, wd);
    shadow *s = r->split[wd] ? &r->sh[at] : &r->wsh[wd];
    shadow_x *x = r->split[wd] ? &r->shx[at] : &r->wshx[wd];
    int mine = s->w.valid && s->w.pc == p->pc && s->w.tid == p->tid && s->w.gen == p->gen && s->w.kind == ACC_WRITE;
    if (s->w.valid && !mine && s->w.tid != p->tid && s->w.kind != ACC_ATOMIC && s->w.gen >= p->gen)
      add_hazard(r, b, HZ_WAW, &cp, s->w.pc, s->w.tid, s->w.kind, at, 0, b->smem[at], 1);
    const acc_rec *rd[4] = {&s->r[0], &s->r[1], s->spilled ? &x->r[0] : NULL, s->spilled ? &x->r[1] : NULL};
    uint32_t seen_pc[4];
    int ns = 0;
    for (int j = 0; j < 4 && rd[j]; j++) {
      const acc_rec *y = rd[j];
      /* (the issuing thread's own reads were checked as they came) */
      if (!y->valid || y->tid == p->tid || y->gen < p->gen) continue;
      int dup = 0;
      for (int k = 0; k < ns; k++) dup |= seen_pc[k] == y->pc;
      if (dup) continue;
      seen_pc[ns++] = y->pc;
      add_hazard(r, b, HZ_RAW, &cp, y->pc, y->tid, ACC_READ, at, 0, b->smem[at], 1);
    }
    if (mine) {
      s->w.gen = r->gen;
      r->wgen1 = r->gen + 1;
    }
  }
}

void race_cp_wait(warp *w, uint32_t m, uint32_t n) {
  if (!w->blk->an || !w->blk->an->has_race) return;
  race_state *r = &w->blk->an->race;
  uint32_t keep = 0;
  for (uint32_t i = 0; i < r->npcp; i++) {
    struct pend_cp p = r->pcp[i];
    uint32_t lane = p.tid % 32u;
    int done = p.tid / 32u == w->index && (m >> lane & 1) &&
               (n == RACE_CP_ALL || p.group + n < r->cp_groups[p.tid]);
    if (!done) {
      r->pcp[keep++] = p;
      continue;
    }
    r->cp_npend[p.tid]--;
    if (w->L->want_races) cp_complete(r, w->blk, &p);
  }
  r->npcp = keep;
}

/* ---- the row ---- */

static int race_wanted(const launch *L) {
  return L->want_races || L->want_sync || L->want_init || L->want_global_races;
}

static int race_new(analysis *a, const launch *L) {
  if (race_init(&a->race, L) < 0) return -1;
  a->has_race = 1;
  return 0;
}

static void race_drop(analysis *a) { race_free(&a->race); }
static void race_merge_an(analysis *into, const analysis *from) { race_merge(&into->race, &from->race); }
static void race_start(block *b) { race_block_start(&b->an->race, b); }

/* cp.async: the shared write, in flight until the thread waits for it */
static void race_copy(warp *w, const insn *ld, const insn *st, uint32_t m, const uint64_t src[32],
                      const uint64_t dst[32], uint32_t size) {
  race_access(w, st, m, dst, size, ACC_WRITE);
  race_cp_issue(w, m, dst, size);
}

static void race_event(const hook_ev *e) {
  switch (e->kind) {
  case HEV_BAR_ARRIVE: race_bar_arrive(e->w, e->id, e->m); break;
  case HEV_BAR_PASS: race_barrier(e->b, e->w, e->m); break;
  case HEV_BAR_RELEASED: race_bar_released(e->b, e->id, (int)e->n); break;
  case HEV_WARPSYNC: race_warpsync(e->w, e->m); break;
  case HEV_WARPSYNC_MASKS: race_warpsync_masks(e->w, e->m, e->v); break;
  case HEV_SYNC_ERROR: race_sync_error(e->w, (int)e->n, e->m); break;
  case HEV_CLUSTER_RELEASED: race_cluster_released(e->b); break;
  case HEV_RSV_RELEASE: race_rsv_release(e->w, e->in, e->m, e->a, e->v); break;
  case HEV_WGMMA_EARLY:
    race_add_sync(&e->b->an->race, e->b, SYNC_WGMMA_EARLY, e->w->pc, e->w->index, e->m);
    break;
  default: race_async_event(e); break;
  }
}

const check_row check_race = {
    .name = "races",
    .bit = CHECK_RACE,
    .wanted = race_wanted,
    .make = race_new,
    .drop = race_drop,
    .merge = race_merge_an,
    .block_start = race_start,
    .mem = race_access,
    .copy = race_copy,
    .event = race_event,
};
