/* race_int.h: the race checks' shadow operations (race.h's state), shared
 * by race.c (accesses lane by lane), race_shape.c (whole-warp shapes),
 * sinit.c (the shared init check) and race_async.c: inline where the hot
 * paths use them. Private to src/check. */
#ifndef SMEMU_RACE_INT_H
#define SMEMU_RACE_INT_H
#include "check/race.h"
#include "exec/hooks.h"
#include <string.h>

/* ---- hazard records (race.c) ---- */
/* A new, zeroed hazard record (NULL when out of memory), the record of a
 * barrier error (kind, pc) (*fresh: new), and run k's word wd given its
 * own readers again. (race_find_pair, race_add_hazard: grace.h) */
hazard_rec *race_new_hazard(race_state *r);
sync_rec *race_sync_at(race_state *r, int kind, uint32_t pc, int *fresh);
void race_unrun(race_state *r, uint32_t k, uint64_t wd);

/* ---- the shadow ---- */
/* Is the earlier access `a` ordered before an access by thread t now? */
static inline int ordered(const race_state *r, const acc_rec *a, uint32_t t) {
  if (a->gen < r->all_gen) return 1;
  if (r->block_gen[a->tid] > a->gen && r->block_gen[t] > a->gen) return 1;
  if (a->tid / 32 == t / 32 && r->warp_gen[a->tid] > a->gen && r->warp_gen[t] > a->gen) return 1;
  return 0;
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
  if (same_group(o, a) || !a->valid || a->gen < r->all_gen)
    *a = *o;
  else if (same_group(o, b) || !b->valid || b->gen < r->all_gen)
    *b = *o;
  else
    *(a->gen <= b->gen ? a : b) = *o;
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

/* Word wd's readers in wsh, wshx (out of any run). */
static inline void own_word(race_state *r, uint64_t wd) {
  if (r->nruns && r->runof[wd]) race_unrun(r, r->runof[wd] - 1, wd);
}

static inline int live(const acc_rec *a, uint32_t all_gen) { return a->valid && a->gen >= all_gen; }

/* own_word for a word a write is about to record: when every reader of its
 * run is older than the last barrier everyone passed (ordered before the
 * write, and dropped by it), the word just leaves the run with none. */
static inline void own_word_w(race_state *r, uint64_t wd) {
  if (!r->nruns || !r->runof[wd]) return;
  uint32_t k = r->runof[wd] - 1, ag = r->all_gen;
  wrun *u = &r->runs[k];
  if (live(&u->s.r[0], ag) || live(&u->s.r[1], ag) ||
      (u->s.spilled && (live(&u->x.r[0], ag) || live(&u->x.r[1], ag)))) {
    race_unrun(r, k, wd);
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
static inline void check_one(race_state *r, block *b, shadow *s, shadow_x *xs, uint32_t pc, uint16_t t,
                             int kind, uint64_t at, uint32_t n, uint32_t changed, int silent) {
  /* racecheck reports no hazard with an atomic on either side (measured:
   * tests/hw/races, race_atomic_read and race_write_atomic) */
  if (kind == ACC_READ) {
    if (s->w.valid && s->w.gen >= r->all_gen && s->w.tid != t && s->w.kind != ACC_ATOMIC &&
        !ordered(r, &s->w, t))
      race_add_hazard(r, b, HZ_RAW, &s->w, pc, t, kind, at, 0, b->smem[at], n);
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
      race_add_hazard(r, b, HZ_WAW, &s->w, pc, t, kind, at, b->smem[at], 0, changed);
    /* one hazard per reading pc (and class) for this write, however many
     * of its readers are kept. A store that changes none of its bytes is
     * no WAR for racecheck (measured: tests/hw/races, war_same_value),
     * though it is still the last write for a later read (raw_same_value) */
    /* (a reader older than the last barrier everyone passed is ordered) */
    uint32_t ag = r->all_gen;
    silent |= !(live(&s->r[0], ag) || live(&s->r[1], ag) ||
                (s->spilled && (live(&xs->r[0], ag) || live(&xs->r[1], ag))));
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
      race_add_hazard(r, b, HZ_WAR, x, pc, t, kind, at, b->smem[at], 0, n);
    }
  }
  s->w = (acc_rec){r->gen, pc, t, (uint8_t)kind, 1};
  r->wgen1 = r->gen + 1;
  s->r[0].valid = s->r[1].valid = 0;
  s->spilled = 0;
}

/* The bytes lane l of a st instruction stores (size of them), or 0 when
 * the access is not a plain store whose data the checker can see. */
static inline int store_bytes(const warp *w, const insn *in, int l, uint32_t size, uint8_t *out) {
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
static inline void lane_access(race_state *r, block *b, uint32_t pc, uint16_t t, int kind, uint64_t a,
                               uint32_t size, const uint8_t *val, const uint8_t *cur) {
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
  if ((xb && xc) || ((a0 | a1) & 3) || sh_size < 4 * n || a0 > sh_size - 4 * n || a1 > sh_size - 4 * n)
    return 0;
  if (xb && w0 != w1 && (w1 > w0 ? w1 - w0 : w0 - w1) < 16) return 0;
  *ws = (wshape){w0, w1, n};
  return 1;
}

/* No word of shape ws is split (pattern_reads applies). */
static inline int pattern_fits(const race_state *r, const wshape *ws) {
  for (uint32_t j = 0; r->nsplit && j < ws->n; j++)
    if (r->split[ws->w0 + j] || r->split[ws->w1 + j]) return 0;
  return 1;
}

/* Do the race checks of a whole warp's 4-byte st or ld.shared of shape ws
 * (in bounds) take the shape paths: reads as pattern_reads, stores of 32
 * different words as fast_stores? */
static inline int shape_fits(const warp *w, const insn *in, const wshape *ws, int kind, const race_state *r) {
  if (!w->L->want_races) return 1;
  if (!pattern_fits(r, ws)) return 0;
  if (kind == ACC_READ) return !r->compat;
  return kind == ACC_WRITE && in->op == OP_ST && in->vec == 1 && in->c == 4 && ws->n == 16 &&
         ws->w0 != ws->w1 && !r->ar;
}

/* ---- whole-warp shapes (race_shape.c) ---- */
void race_flush_reads(race_state *r);
int race_fast_reads(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size,
                    race_state *r, block *b, const wshape *ws);
int race_fast_stores(warp *w, const insn *in, const uint64_t addr[32], race_state *r, block *b);
/* The reads (as a log of shapes) and the stores of shape_fits. */
int race_pattern_reads(warp *w, const wshape *ws, race_state *r, block *b);
void race_shape_stores(warp *w, const insn *in, const wshape *ws, race_state *r, block *b);

/* ---- the shared init check (sinit.c) ---- */
/* (inline: the shape paths' share of it) */
/* The init bytes of a half-warp's words (n 1: one word for all 16 lanes,
 * n 16: word l for lane l) from p: bit l set where lane l's word is not
 * all written. */
static inline uint32_t sinit_half(const uint8_t *p, uint32_t n) {
  const uint64_t ones = 0x0101010101010101ull;
  if (n == 1) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v != (uint32_t)ones ? 0xffffu : 0;
  }
  uint64_t v[8], any = 0;
  for (int k = 0; k < 8; k++) {
    memcpy(&v[k], p + 8 * k, 8);
    any |= v[k] ^= ones;
  }
  if (!any) return 0; /* (most reads: every byte written) */
  uint32_t bad = 0;
  for (int k = 0; k < 8; k++)
    bad |= (uint32_t)((uint32_t)v[k] != 0) << 2 * k | (uint32_t)(v[k] >> 32 != 0) << (2 * k + 1);
  return bad;
}

/* Shared bytes [a, a+n) (in bounds) written: their init bytes set, those
 * newly set from init_lo on counted off init_unset. */
static inline void sinit_mark(race_state *r, uint64_t a, uint32_t n) {
  if (!r->init_unset) { /* (nothing left to count) */
    memset(r->init + a, 1, n);
    return;
  }
  uint64_t lo = a < r->init_lo ? r->init_lo : a;
  uint32_t set = 0, counted = a + n > lo ? (uint32_t)(a + n - lo) : 0;
  for (uint64_t k = lo; k < a + n; k++) set += r->init[k]; /* (0 or 1 each) */
  r->init_unset -= counted - set;
  memset(r->init + a, 1, n);
}

/* The init check of a whole warp's 4-byte access of shape ws: a word of
 * init bytes per half-warp or per lane of each half. */
static inline void sinit_shape(warp *w, race_state *r, block *b, const wshape *ws, int kind) {
  uint32_t n = ws->n;
  if (kind == ACC_READ) {
    if (!r->init_unset && (uint64_t)ws->w0 * 4 >= r->init_lo && (uint64_t)ws->w1 * 4 >= r->init_lo)
      return; /* (every byte written) */
    uint32_t bad =
        sinit_half(r->init + (uint64_t)ws->w0 * 4, n) | sinit_half(r->init + (uint64_t)ws->w1 * 4, n) << 16;
    for (; bad; bad &= bad - 1) race_add_sync(r, b, SYNC_UNINIT, w->pc, w->index, bad & -bad);
  } else {
    sinit_mark(r, (uint64_t)ws->w0 * 4, 4 * n);
    if (ws->w1 != ws->w0) sinit_mark(r, (uint64_t)ws->w1 * 4, 4 * n);
  }
}

/* Any access of lanes m (race_access's, ws its shape or NULL). */
void sinit_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind,
                  const wshape *ws);

/* The race and init checks of an access shape_fits passed. */
static inline void race_shape_checks(warp *w, const insn *in, const wshape *ws, int kind, race_state *r,
                                     block *b) {
  if (w->L->want_init) sinit_shape(w, r, b, ws, kind);
  if (!w->L->want_races) return;
  if (kind == ACC_READ)
    race_pattern_reads(w, ws, r, b);
  else
    race_shape_stores(w, in, ws, r, b);
}

/* ---- cp.async (race_async.c) ---- */
/* Reads by lanes m of bytes their own thread's cp.async is still copying. */
void race_cp_own_reads(race_state *r, warp *w, const insn *in, uint32_t m, const uint64_t addr[32],
                       uint32_t size);

#endif
