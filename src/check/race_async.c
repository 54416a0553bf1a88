/* race_async.c: the race checks' tracking of asynchronous accesses to
 * shared memory: copies of the async proxy (TMA and bulk copies), cp.async
 * copies in flight, and the operand reads of wgmma.mma_async, which go on
 * until the issuing warp's wgmma.wait_group (a write to them before it is
 * a hazard). */
#include "check/race.h"
#include "check/race_int.h"
#include "exec/addr.h"
#include "exec/hooks.h"
#include <stdlib.h>
#include <string.h>

/* ---- wgmma.mma_async reads ---- */

/* One mma_async's reads in flight for one warp (the whole operation's:
 * A rows of all four warps of the warpgroup and B), oldest first. */
typedef struct aread {
  uint32_t pc;      /* the instruction */
  uint32_t group;   /* commit group (the warp's commits then), ~0u while uncommitted */
  uint16_t *chunks; /* the 16-byte chunks of shared memory it reads */
  uint32_t nchunks;
} aread;

typedef struct aread_warp {
  aread *p; /* in flight, oldest first */
  uint32_t n, cap;
  uint32_t commits; /* wgmma.commit_group executed */
} aread_warp;

struct aread_block {
  aread_warp w[32];   /* per warp of the block */
  uint16_t *inflight; /* per 16-byte chunk of shared memory: reads in flight */
  uint32_t nchunk;    /* chunks of the block's shared memory */
  uint32_t npend;     /* reads in flight of all warps */
};

/* The block's reads, made on first use (NULL out of memory). */
static aread_block *ar_get(race_state *r) {
  if (r->ar) return r->ar;
  aread_block *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->nchunk = (r->sh_size + 15) / 16;
  g->inflight = calloc(g->nchunk ? g->nchunk : 1, sizeof *g->inflight);
  if (!g->inflight) {
    free(g);
    return NULL;
  }
  return r->ar = g;
}

void race_async_reset(race_state *r) {
  aread_block *g = r->ar;
  if (!g) return;
  for (int i = 0; i < 32; i++) {
    aread_warp *x = &g->w[i];
    for (uint32_t j = 0; j < x->n; j++) free(x->p[j].chunks);
    free(x->p);
    memset(x, 0, sizeof *x);
  }
  memset(g->inflight, 0, g->nchunk * sizeof *g->inflight);
  g->npend = 0;
}

void race_async_free(race_state *r) {
  if (!r->ar) return;
  race_async_reset(r);
  free(r->ar->inflight);
  free(r->ar);
  r->ar = NULL;
}

/* Add chunk c to p's list (a duplicate of one of the last few is left out). */
static void chunk_add(aread *p, uint32_t c, uint32_t *cap) {
  for (uint32_t j = p->nchunks; j-- > 0 && j + 8 >= p->nchunks;)
    if (p->chunks[j] == c) return; /* recent duplicate */
  if (p->nchunks == *cap) {
    uint32_t n = *cap ? 2 * *cap : 256;
    uint16_t *q = realloc(p->chunks, n * sizeof *q);
    if (!q) return;
    p->chunks = q;
    *cap = n;
  }
  p->chunks[p->nchunks++] = (uint16_t)c;
}

/* The warpgroup's shared reads: the collective orders what its 128 threads
 * did before it (they all reached it), then each warp reads its chunks (as
 * its lane 0); each warp's record of the reads covers the whole
 * operation's, until that warp waits for it. */
static void wgmma_issue(const hook_ev *e) {
  warp *const *mem = e->ws;
  block *b = mem[0]->blk;
  race_state *r = &b->an->race;
  for (int j = 0; j < 4; j++) LANES(FULL_MASK, r->block_gen[mem[j]->index * 32 + (uint32_t)l] = r->gen + 1);
  r->gen++;
  for (int j = 0; j < 4; j++) {
    uint64_t addr[32] = {0};
    for (uint32_t c = 0; c < e->nck[j]; c++) {
      addr[0] = (uint64_t)e->ck[j][c] * 16;
      race_access(mem[j], e->in, 1u, addr, 16, ACC_READ);
    }
  }
  aread_block *g = ar_get(r);
  if (!g) return;
  for (int j = 0; j < 4; j++) {
    aread_warp *x = &g->w[mem[j]->index];
    if (x->n == x->cap) {
      uint32_t n = x->cap ? 2 * x->cap : 8;
      aread *q = realloc(x->p, n * sizeof *q);
      if (!q) return;
      x->p = q;
      x->cap = n;
    }
    aread *p = &x->p[x->n];
    uint32_t cap = e->nck[j];
    *p = (aread){e->w->pc, ~0u, cap ? malloc(cap * sizeof *p->chunks) : NULL, 0};
    if (cap && !p->chunks) return;
    memcpy(p->chunks, e->ck[j], cap * sizeof *p->chunks);
    p->nchunks = cap;
    for (int o = 0; o < 4; o++)
      for (uint32_t c = 0; o != j && c < e->nck[o]; c++) chunk_add(p, e->ck[o][c], &cap);
    x->n++;
    g->npend++;
    for (uint32_t c = 0; c < p->nchunks; c++)
      if (p->chunks[c] < g->nchunk) g->inflight[p->chunks[c]]++;
  }
}

static void wgmma_commit(race_state *r, warp *w) {
  aread_block *g = ar_get(r);
  if (!g) return;
  aread_warp *x = &g->w[w->index];
  for (uint32_t i = 0; i < x->n; i++)
    if (x->p[i].group == ~0u) x->p[i].group = x->commits;
  x->commits++;
}

/* wgmma.wait_group n by warp w: its reads of groups older than the newest
 * n are complete (for w: another warp's wait orders nothing for w); what
 * the warpgroup's operations read (as each warp's lane 0) is ordered
 * before what w does next. */
static void wgmma_wait(race_state *r, warp *w, uint32_t n, int issued) {
  aread_block *g = ar_get(r);
  if (g) {
    aread_warp *x = &g->w[w->index];
    uint32_t keep = 0;
    for (uint32_t i = 0; i < x->n; i++) {
      aread *p = &x->p[i];
      /* an uncommitted operation is waited for by no wait_group: it stays */
      if (p->group != ~0u && p->group + n < x->commits) {
        for (uint32_t c = 0; c < p->nchunks; c++)
          if (p->chunks[c] < g->nchunk && g->inflight[p->chunks[c]]) g->inflight[p->chunks[c]]--;
        free(p->chunks);
        g->npend--;
      } else {
        x->p[keep++] = *p;
      }
    }
    x->n = keep;
  }
  if (!issued) return;
  block *b = w->blk;
  uint32_t base = w->index / 4 * 4;
  for (uint32_t j = base; j < base + 4 && j < b->nwarps; j++) r->block_gen[j * 32] = r->gen + 1;
  LANES(FULL_MASK, r->block_gen[w->index * 32 + (uint32_t)l] = r->gen + 1);
  r->gen++;
}

void race_async_write(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  aread_block *g = w->blk->an->race.ar;
  if (!g || !g->npend) return;
  LANES(m, {
    uint64_t a = addr[l];
    if (in->space == PTX_SPACE_GENERIC) {
      if (a - SHARED_WINDOW >= WINDOW_SIZE) continue;
      a -= SHARED_WINDOW;
    } else if (in->space != PTX_SPACE_SHARED) {
      continue;
    }
    for (uint64_t c = a / 16; c <= (a + size - 1) / 16 && c < g->nchunk; c++) {
      if (!g->inflight[c]) continue;
      /* an operation the writing warp has not waited for reads it (another
       * warp's write is the race checks' business: it is ordered after the
       * reads only through a barrier) */
      const aread_warp *x = &g->w[w->index < 32 ? w->index : 0];
      for (uint32_t k = 0; k < x->n; k++) {
        const aread *p = &x->p[k];
        for (uint32_t q = 0; q < p->nchunks; q++)
          if (p->chunks[q] == c) {
            race_async_war(w, l, c * 16 > a ? c * 16 : a, p->pc, (uint16_t)(w->index / 4 * 4 * 32));
            return;
          }
      }
    }
  });
}

/* A write to bytes an asynchronous read is still reading. */
void race_async_war(warp *w, int lane, uint64_t at, uint32_t read_pc, uint16_t read_tid) {
  race_state *r = &w->blk->an->race;
  acc_rec first = {r->gen, read_pc, read_tid, ACC_READ, 1};
  race_add_hazard(r, w->blk, HZ_WAR, &first, w->pc, (uint16_t)(w->index * 32 + (uint32_t)lane), ACC_WRITE, at,
                  w->blk->smem[at], 0, 1);
  /* an error even within the issuing warp: no program order covers it */
  hazard_rec *h = race_find_pair(r, read_pc, ACC_READ, w->pc, ACC_WRITE);
  if (h) h->error = 1;
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
    race_add_hazard(r, b, HZ_RAW, x, w->pc, t, ACC_READ, at, 0, b->smem[at], 1);
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
 * tests/hw/async_pipeline, rd and wr). A read by the issuing thread itself before
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
 * synchronization)", one per byte (tests/hw/async_pipeline san_racecheck_rd). */
void race_cp_own_reads(race_state *r, warp *w, const insn *in, uint32_t m, const uint64_t addr[32],
                       uint32_t size) {
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
        race_add_hazard(r, w->blk, HZ_RAW, &cp, w->pc, t, ACC_READ, at, 0, w->blk->smem[at], 1);
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
    int mine =
        s->w.valid && s->w.pc == p->pc && s->w.tid == p->tid && s->w.gen == p->gen && s->w.kind == ACC_WRITE;
    if (s->w.valid && !mine && s->w.tid != p->tid && s->w.kind != ACC_ATOMIC && s->w.gen >= p->gen)
      race_add_hazard(r, b, HZ_WAW, &cp, s->w.pc, s->w.tid, s->w.kind, at, 0, b->smem[at], 1);
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
      race_add_hazard(r, b, HZ_RAW, &cp, y->pc, y->tid, ACC_READ, at, 0, b->smem[at], 1);
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
    int done =
        p.tid / 32u == w->index && (m >> lane & 1) && (n == RACE_CP_ALL || p.group + n < r->cp_groups[p.tid]);
    if (!done) {
      r->pcp[keep++] = p;
      continue;
    }
    r->cp_npend[p.tid]--;
    if (w->L->want_races) cp_complete(r, w->blk, &p);
  }
  r->npcp = keep;
}

/* ---- mbarriers and asynchronous copies ---- */

/* Lanes of w pass a synchronisation point (an mbarrier arrival or
 * completed wait, a bulk copy's completion): their earlier accesses are
 * ordered before those of threads that later complete a wait. Both are
 * modelled as the thread passing a synchronisation point, as at bar.sync;
 * this orders an arriving thread's accesses before a waiter's later ones
 * (and, approximately, before any thread's that later completes a wait on
 * any barrier: hazards across two unrelated mbarriers can be missed, none
 * are invented). */
static void mbar_release(warp *w, uint32_t lanes) {
  if (!lanes) return;
  race_state *r = &w->blk->an->race;
  LANES(lanes, r->block_gen[w->index * 32 + (uint32_t)l] = r->gen + 1);
  r->gen++;
}

/* A copy into shared memory is the issuing thread's write of the bytes,
 * released when it completes (on its mbarrier), so a reader that did not
 * complete a wait on that barrier races with it; a copy out of shared
 * memory is an async-proxy read, which also races with generic writes not
 * followed by fence.proxy.async in the writing thread. (A copy into
 * another block of the cluster is the cluster check's: crace.c.) */
static void async_race(const hook_ev *e) {
  warp *w = e->w;
  if (e->id == ASYNC_FROM_SHARED) {
    race_proxy_read(w, e->in, e->l, e->x, e->n);
    return;
  }
  if (e->x < CLUSTER_BASE) {
    insn s = *e->in;
    uint64_t at[32] = {0};
    at[e->l] = e->x;
    s.space = PTX_SPACE_SHARED;
    race_access(w, &s, 1u << e->l, at, e->n, ACC_WRITE);
  }
  mbar_release(w, 1u << e->l);
}

void race_async_event(const hook_ev *e) {
  race_state *r = &e->b->an->race;
  switch (e->kind) {
  case HEV_PROXY_FENCE:
    race_proxy_fence(e->w, e->m);
    break;
  case HEV_MBAR_RELEASE:
    mbar_release(e->w, e->m);
    break;
  case HEV_BULK_COMMIT:
    race_proxy_commit(e->w, e->m);
    break;
  case HEV_BULK_WAIT:
    race_proxy_wait(e->w, e->m, e->n);
    break;
  case HEV_CP_COMMIT:
    race_cp_commit(e->w, e->m);
    break;
  case HEV_CP_WAIT:
    race_cp_wait(e->w, e->m, e->n);
    break;
  case HEV_ASYNC_RACE:
    async_race(e);
    break;
  case HEV_WGMMA_ISSUE:
    wgmma_issue(e);
    break;
  case HEV_WGMMA_COMMIT:
    wgmma_commit(r, e->w);
    break;
  case HEV_WGMMA_WAIT:
    wgmma_wait(r, e->w, e->n, e->k);
    break;
  default:
    break;
  }
}
