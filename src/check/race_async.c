/* race_async.c: the race checks' tracking of asynchronous accesses to
 * shared memory: copies of the async proxy (TMA and bulk copies), cp.async
 * copies in flight, and the operand reads of wgmma.mma_async, which go on
 * until the issuing warp's wgmma.wait_group (a write to them before it is
 * a hazard). */
#include <stdlib.h>
#include <string.h>
#include "check/race.h"
#include "exec/addr.h"
#include "exec/hooks.h"

/* ---- wgmma.mma_async reads ---- */

/* One mma_async's reads in flight for one warp (the whole operation's:
 * A rows of all four warps of the warpgroup and B), oldest first. */
typedef struct aread {
  uint32_t pc;        /* the instruction */
  uint32_t group;     /* commit group (the warp's commits then), ~0u while uncommitted */
  uint16_t *chunks;   /* the 16-byte chunks of shared memory it reads */
  uint32_t nchunks;
} aread;

typedef struct aread_warp {
  aread *p;           /* in flight, oldest first */
  uint32_t n, cap;
  uint32_t commits;   /* wgmma.commit_group executed */
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
  case HEV_PROXY_FENCE: race_proxy_fence(e->w, e->m); break;
  case HEV_MBAR_RELEASE: mbar_release(e->w, e->m); break;
  case HEV_BULK_COMMIT: race_proxy_commit(e->w, e->m); break;
  case HEV_BULK_WAIT: race_proxy_wait(e->w, e->m, e->n); break;
  case HEV_CP_COMMIT: race_cp_commit(e->w, e->m); break;
  case HEV_CP_WAIT: race_cp_wait(e->w, e->m, e->n); break;
  case HEV_ASYNC_RACE: async_race(e); break;
  case HEV_WGMMA_ISSUE: wgmma_issue(e); break;
  case HEV_WGMMA_COMMIT: wgmma_commit(r, e->w); break;
  case HEV_WGMMA_WAIT: wgmma_wait(r, e->w, e->n, e->k); break;
  default: break;
  }
}
