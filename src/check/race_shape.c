/* race_shape.c: the race and init checks' whole-warp paths: a warp's
 * 4-byte shared access whose half-warps each read one word or 16
 * consecutive words (the common shapes of tiled kernels) is checked and
 * recorded per half-warp or per run of words, with the result lane_access
 * would give lane by lane (race_int.h), for less. */
#include "check/install.h"
#include "check/race_int.h"
#include "exec/hooks.h"
#include <stdlib.h>
#include <string.h>

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
          race_add_hazard(r, b, HZ_RAW, &s->w, pc, t, ACC_READ, at, 0, b->smem[at], 4);
        }
      }
    });
}

/* Words w0..w0+15 read by threads ta+j (and then tb+j when two): through
 * their run when they are one, else word by word, making them one when
 * none has readers yet (ta, tb are 0 or 16 mod 32). */
static void run_reads(race_state *r, uint32_t w0, uint32_t pc, uint16_t ta, uint16_t tb, int two) {
  uint32_t k = r->nruns ? r->runof[w0] : 0;
  if (k && r->runs[k - 1].w0 == w0 && r->runs[k - 1].mask == 0xffff) {
    /* the 16 words are one run: one history for all */
    wrun *u = &r->runs[k - 1];
    if (two)
      keep_read2(r, &u->s, &u->x, pc, ta, tb);
    else
      keep_read(r, &u->s, &u->x, pc, ta);
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
    if (two)
      keep_read2(r, &u->s, &u->x, pc, ta, tb);
    else
      keep_read(r, &u->s, &u->x, pc, ta);
    for (uint32_t j = 0; j < 16; j++) r->runof[w0 + j] = k + 1;
    r->nruns++;
    return;
  }
  for (uint32_t j = 0; j < 16; j++)
    if (two)
      keep_read2(r, &r->wsh[w0 + j], &r->wshx[w0 + j], pc, (uint16_t)(ta + j), (uint16_t)(tb + j));
    else
      keep_read(r, &r->wsh[w0 + j], &r->wshx[w0 + j], pc, (uint16_t)(ta + j));
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

/* A write by thread t at pc (generation gen) where no read or write record
 * of the word is live: the word's only record from now on (check_one's
 * end, which no hazard precedes then). */
static inline void write_dead(shadow *s, uint32_t gen, uint32_t pc, uint16_t t) {
  s->w = (acc_rec){gen, pc, t, ACC_WRITE, 1};
  s->r[0].valid = s->r[1].valid = 0;
  s->spilled = 0;
}

/* Keep the readers of the shape reads put off (pattern_reads) and record
 * the stores put off (deferred_store), in order, each as of its
 * generation: before anything else looks at or changes a shadow. */
void race_flush_reads(race_state *r) {
  uint32_t g = r->gen, rg = r->rgen1;
  for (uint32_t i = 0; i < r->nplog; i++) {
    const struct pend_shape *e = &r->plog[i];
    r->gen = e->gen;
    if (!e->st) {
      keep_shape(r, e->w0, e->w1, e->n, e->pc, e->tb);
      continue;
    }
    for (uint32_t l = 0; l < 32; l++) {
      uint32_t wd = (l < 16 ? e->w0 : e->w1) + l % 16;
      own_word_w(r, wd);
      write_dead(&r->wsh[wd], e->gen, e->pc, (uint16_t)(e->tb + l));
    }
  }
  r->gen = g;
  r->rgen1 = rg;
  r->nplog = 0;
  r->st_only = 0;
}

/* A whole warp's read of shape ws: RAW checks now; the readers are kept
 * later (flush_reads), or never: a barrier every thread passes makes them
 * all older than it, ordered before every later access, and such readers
 * change no check's outcome (a shadow whose readers all are keeps and
 * reports as one with none), so they are dropped then. */
int race_pattern_reads(warp *w, const wshape *ws, race_state *r, block *b) {
  uint32_t n = ws->n, w0 = ws->w0, w1 = ws->w1, pc = w->pc, xb = n > 1;
  if (!pattern_fits(r, ws)) return 0;
  uint16_t tb = (uint16_t)(w->index * 32);
  if (r->wgen1 > r->all_gen) {
    uint32_t wd0[32];
    if (r->st_only) race_flush_reads(r); /* (the stores put off: the log holds nothing else) */
    for (uint32_t l = 0; l < 16; l++) {
      wd0[l] = w0 + (xb ? l : 0);
      wd0[l + 16] = w1 + (xb ? l : 0);
    }
    raw_reads(r, b, FULL_MASK, wd0, 1, pc, tb);
  }
  if (r->nplog == PLOG) race_flush_reads(r);
  r->plog[r->nplog++] = (struct pend_shape){w0, w1, pc, r->gen, tb, (uint8_t)n, 0};
  r->rgen1 = r->gen + 1;
  return 1;
}

int race_fast_reads(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size,
                    race_state *r, block *b, const wshape *ws) {
  uint32_t wd0[32], nw = size / 4, pc = w->pc, skip = 0;
  uint16_t tb = (uint16_t)(w->index * 32);
  if (size % 4 || !size || size > 32) return 0;
  if (ws && race_pattern_reads(w, ws, r, b)) return 1;
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
  if (r->nruns)
    LANES(m, {
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
  /* and every write too? Then no lane's record needs reading (the lanes'
   * words differ: no lane's write is another's last write), only writing:
   * the records are seldom in the cache by now */
  int wdead = rdead && r->wgen1 <= r->all_gen;
  for (int l = 0; l < 32; l++) {
    uint32_t wd = wdv[l], cur, x;
    shadow *s = &r->wsh[wd];
    own_word_w(r, wd);
    if (wdead || (rdead && !live(&s->w, r->all_gen))) {
      /* and the last write too: no hazard whatever the values */
      write_dead(s, r->gen, w->pc, (uint16_t)(tb + l));
      r->wgen1 = r->gen + 1;
      continue;
    }
    memcpy(&cur, b->smem + (uint64_t)wd * 4, 4);
    x = cur ^ (uint32_t)v[l];
    uint32_t changed = !!(x & 0xffu) + !!(x & 0xff00u) + !!(x & 0xff0000u) + !!(x & 0xff000000u);
    check_one(r, b, &r->wsh[wd], &r->wshx[wd], w->pc, (uint16_t)(tb + l), ACC_WRITE, (uint64_t)wd * 4, 4,
              changed, !x);
  }
}

/* store_words for a whole warp's 4-byte st.shared of lane addresses addr,
 * every lane aligned and in bounds and no word split; returns 0 (having
 * changed nothing) where it does not apply. */
int race_fast_stores(warp *w, const insn *in, const uint64_t addr[32], race_state *r, block *b) {
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

/* A store of shape_fits put off (in plog, before the words' shadows are
 * touched: seldom in the cache by now, and a barrier every thread passes
 * next makes the record of no use) where store_words would only write its
 * 32 records: no read record live, no write record live but those of
 * stores put off, on other words. Write records of any age matter to the
 * async proxy's reads and to racecheck compat (st_ok). */
static int deferred_store(warp *w, const wshape *ws, race_state *r) {
  if (!r->st_ok || r->nruns || r->nplog == PLOG || r->rgen1 > r->all_gen) return 0;
  if (r->wgen1 > r->all_gen) {
    if (!r->st_only) return 0;
    for (uint32_t i = 0; i < r->nplog; i++) {
      const struct pend_shape *e = &r->plog[i];
      uint32_t a[2] = {e->w0, e->w1}, c[2] = {ws->w0, ws->w1};
      for (int j = 0; j < 4; j++)
        if (a[j / 2] < c[j % 2] + 16 && c[j % 2] < a[j / 2] + 16) return 0;
    }
  }
  r->plog[r->nplog++] = (struct pend_shape){ws->w0, ws->w1, w->pc, r->gen, (uint16_t)(w->index * 32), 16, 1};
  r->st_only = 1;
  r->wgen1 = r->gen + 1;
  return 1;
}

/* The stores of shape_fits. */
void race_shape_stores(warp *w, const insn *in, const wshape *ws, race_state *r, block *b) {
  uint32_t wdv[32];
  if (deferred_store(w, ws, r)) return;
  race_flush_reads(r);
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

int check_mem_shape(warp *w, const insn *in, uint64_t a0, uint64_t a1, int pat, uint32_t size) {
  block *b = w->blk;
  analysis *an = b->an;
  /* (the global race and init checks pass shared memory by; the cluster
   * check needs the lanes; the reserved area's words: race_access leaves
   * them out) */
  if (!an || size != 4 || in->space != PTX_SPACE_SHARED || (pat != 1 && pat != 2) || a0 < an->shape_lo ||
      a1 < an->shape_lo)
    return 0;
  race_state *r = &an->race;
  uint32_t n = pat == 2 ? 16 : 1, sz = r->sh_size;
  /* (copies in flight: race_access sees the copier's own reads) */
  if (((a0 | a1) & 3) || sz < 4 * n || a0 > sz - 4 * n || a1 > sz - 4 * n || r->npcp) return 0;
  wshape ws = {(uint32_t)(a0 >> 2), (uint32_t)(a1 >> 2), n};
  if (n > 1 && ws.w0 != ws.w1 && (ws.w1 > ws.w0 ? ws.w1 - ws.w0 : ws.w0 - ws.w1) < 16) return 0;
  int kind = (op_flags[in->op] & OPF_WRITE) ? ACC_WRITE : ACC_READ;
  if (!shape_fits(w, in, &ws, kind, r)) return 0;
  if (an->banks && !check_banks_halves(w, in, a0, a1, pat == 2 ? size : 0, size)) return 0;
  race_shape_checks(w, in, &ws, kind, r, b);
  return 1;
}

/* What check_mem_reads' fast reads (read_fast) need of the state, read
 * once: none of it changes while only they run; the log's count and the
 * readers' generation are written back before anything else runs. */
typedef struct rd_ctx {
  uint64_t lo;  /* analysis.shape_lo */
  uint32_t sz;  /* shared bytes */
  uint32_t gen; /* the block's generation */
  uint32_t nplog, logged;
  int races, init, banks;
  uint32_t unset, init_lo; /* race_state's: no init test where every byte is written */
  const uint8_t *initp;
  struct pend_shape *plog;
} rd_ctx;

/* May check_mem_reads take the reads of a run without check_mem_shape
 * (what it would do then, read_fast)? Fills c when so. Nothing a fast
 * read changes (the log and the bank sums) changes this. */
static int reads_gate(const warp *w, const analysis *an, rd_ctx *c) {
  if (!an || an->shape_lo == UINT32_MAX) return 0;
  const race_state *r = &an->race;
  if (r->npcp) return 0;
  /* (reads when a write is live are RAW checks: race_pattern_reads') */
  if (w->L->want_races && (r->compat || r->nsplit || r->wgen1 > r->all_gen)) return 0;
  *c = (rd_ctx){an->shape_lo,    r->sh_size,        r->gen,        r->nplog,   0,       w->L->want_races,
                w->L->want_init, an->banks != NULL, r->init_unset, r->init_lo, r->init, r->plog};
  return 1;
}

/* The fast reads' log entries, counted in the state. */
static inline void reads_sync(race_state *r, rd_ctx *c) {
  if (!c->logged) return;
  r->nplog = c->nplog;
  r->rgen1 = c->gen + 1;
  c->logged = 0;
}

/* check_mem_shape of lanes at a0 / a1 + (l%16)*st (st 0 or 4) read by
 * instruction in at w->pc, where reads_gate holds: 1 when done as it would
 * do it (the init bytes all written, the bank cache's figures, the read
 * logged), 0 when nothing was changed and it is check_mem_shape's, -1
 * when the bank cache has not seen the pattern (check_mem_shape would
 * return 0: the bank model needs the lanes). */
static inline int read_fast(warp *w, const insn *in, uint64_t a0, uint64_t a1, uint64_t st, rd_ctx *c) {
  uint32_t n = st ? 16 : 1, sz = c->sz;
  if (a0 < c->lo || a1 < c->lo || ((a0 | a1) & 3) || sz < 4 * n || a0 > sz - 4 * n || a1 > sz - 4 * n)
    return 0;
  uint32_t w0 = (uint32_t)(a0 >> 2), w1 = (uint32_t)(a1 >> 2);
  if (n > 1 && w0 != w1 && (w1 > w0 ? w1 - w0 : w0 - w1) < 16) return 0;
  if (c->races && c->nplog == PLOG) return 0;
  if (c->init && (c->unset || a0 < c->init_lo || a1 < c->init_lo) &&
      (sinit_half(c->initp + a0, n) | sinit_half(c->initp + a1, n)))
    return 0;
  if (c->banks && !check_banks_halves(w, in, a0, a1, (uint32_t)st, 4)) return -1;
  if (c->races) {
    c->plog[c->nplog++] =
        (struct pend_shape){w0, w1, w->pc, c->gen, (uint16_t)(w->index * 32), (uint8_t)n, 0};
    c->logged = 1;
  }
  return 1;
}

void check_mem_reads(warp *w, simt_entry *t, const insn *code, uint32_t pc, uint64_t which,
                     const uint64_t *pat, uint32_t npat) {
  analysis *an = w->blk->an;
  rd_ctx c = {0};
  int gate = -1; /* reads_gate, -1: not known */
  for (; which; which &= which - 1) {
    uint32_t j = (uint32_t)__builtin_ctzll(which);
    const insn *in = &code[j];
    const uint64_t *p = pat;
    for (uint32_t k = 0; k < npat; k++)
      if (pat[4 * k] == in->a) p = &pat[4 * k];
    uint64_t a0 = p[1] + (uint64_t)in->imm, a1 = p[2] + (uint64_t)in->imm, st = p[3];
    w->pc = pc + j;
    t->pc = pc + j + 1;
    int f = 0;
    if (st == 0 || st == 4) {
      if (gate < 0) gate = reads_gate(w, an, &c);
      f = gate ? read_fast(w, in, a0, a1, st, &c) : 0;
      if (f > 0) continue;
    }
    /* (whatever the hooks below do can change the gate) */
    if (gate > 0) reads_sync(&an->race, &c);
    gate = -1;
    if (!f && (st == 0 || st == 4) && check_mem_shape(w, in, a0, a1, st ? 2 : 1, 4)) continue;
    uint64_t addr[32];
    for (uint32_t l = 0; l < 32; l++) addr[l] = (l < 16 ? a0 : a1) + (l % 16) * st;
    check_mem_halves(w, in, addr, 4, a0, a1, (uint32_t)st);
  }
  if (gate > 0) reads_sync(&an->race, &c);
}
