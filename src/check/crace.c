/* crace.c: the race check between the blocks of a cluster (distributed
 * shared memory), a row of the table of checks (checks.h). */
#include "check/checks.h"
#include "exec/addr.h"
#include "exec/hooks.h"
#include <stdlib.h>
#include <string.h>

/* ---- races between the blocks of a cluster ----
 * Each block keeps, per 4-byte word of its shared memory, the last write
 * and the last read by any thread of the cluster (rank, thread, pc), with
 * the accessing thread's barrier.cluster arrivals at the time and the
 * cluster's release count. Accesses of one block to its own memory are the
 * block's race check's (race.c); here only pairs of threads of different
 * blocks are checked. Two such accesses are ordered when the later thread
 * has completed a wait on a cluster-barrier phase the earlier one arrived
 * at after its access, or when, since the earlier access, its thread has
 * passed a release (a fence at cluster scope or wider, an mbarrier arrival)
 * and the later thread an acquire (such a fence, a completed mbarrier
 * wait). The second rule can miss hazards (it does not check that the
 * acquire saw that release); it never invents one. */
typedef struct crec {
  uint32_t arr; /* the thread's barrier.cluster arrivals at the access */
  uint32_t seq; /* cluster.seq at the access */
  uint32_t pc;
  uint16_t tid;
  uint8_t rank, valid;
  uint8_t kind;
  uint8_t strong; /* an atomic, or a .volatile/.relaxed/.acquire/.release access */
} crec;

typedef struct cl_race {
  crec *w, *r; /* per word: last write (or atomic), last read */
  uint32_t nwords;
  uint32_t *rel; /* per thread: cluster.seq after its last release, 0: none */
  uint32_t *acq; /* per thread: cluster.seq at its last acquire */
} cl_race;

static void cl_race_free(cl_race *r);

static cl_race *cl_race_new(const launch *L) {
  cl_race *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->nwords = L->smem_size / 4 + 1;
  r->w = calloc(r->nwords, sizeof *r->w);
  r->r = calloc(r->nwords, sizeof *r->r);
  r->rel = calloc(L->nthreads_block, sizeof *r->rel);
  r->acq = calloc(L->nthreads_block, sizeof *r->acq);
  if (!r->w || !r->r || !r->rel || !r->acq) {
    cl_race_free(r);
    return NULL;
  }
  return r;
}

static void cl_race_free(cl_race *r) {
  if (!r) return;
  free(r->w);
  free(r->r);
  free(r->rel);
  free(r->acq);
  free(r);
}

static void cl_race_reset(block *b) {
  cl_race *r = b->an->crace;
  if (!r) return;
  memset(r->w, 0, r->nwords * sizeof *r->w);
  memset(r->r, 0, r->nwords * sizeof *r->r);
  memset(r->rel, 0, b->nthreads * sizeof *r->rel);
  memset(r->acq, 0, b->nthreads * sizeof *r->acq);
}

static void cl_race_sync(warp *w, uint32_t m, int fence) {
  block *b = w->blk;
  cl_race *r = b->an->crace;
  if (!r || !m) return;
  /* racecheck orders nothing by fences: it reports a fence-and-flag
   * handoff (recorded, tests/hw/cluster dsmem); the compat mode does too */
  if (fence && w->L->racecheck_compat) return;
  uint32_t s = (uint32_t)++b->cl->seq;
  LANES(m, {
    r->rel[w->index * 32 + (uint32_t)l] = s;
    r->acq[w->index * 32 + (uint32_t)l] = s;
  });
}

/* Is access a (earlier) ordered before one by thread t of block bt now? */
static int c_ordered(const cluster *c, const crec *a, const block *bt, uint32_t t) {
  if (bt->c_wait[t] > a->arr) return 1;
  const block *ba = &c->blocks[a->rank];
  const cl_race *ra = ba->an->crace, *rt = bt->an->crace;
  return ra->rel[a->tid] > a->seq && rt->acq[t] > a->seq;
}

/* n byte hazards at offset off of owner's memory; reported as racecheck
 * shows them (race.h: hazard_rec.cluster) */
static void c_hazard(warp *w, const block *owner, int type, const crec *first, uint32_t t, int kind,
                     uint64_t off, uint32_t n) {
  block *b = w->blk;
  if (!b->an || !b->an->has_race) return;
  race_add_cluster(&b->an->race, type, first->pc, first->kind, first->tid, first->rank, w->pc, kind,
                   (uint16_t)t, b->rank, b->cl->blocks[0].ctaid, (uint64_t)owner->rank << 24 | off, n);
}

/* Strong accesses (atomics, and loads and stores with a memory order at
 * cluster scope or wider) do not race with each other. */
static int strong_access(const warp *w, int kind) {
  if (kind == ACC_ATOMIC) return 1;
  /* racecheck (compat) sees plain accesses in them (recorded) */
  if (w->L->racecheck_compat) return 0;
  const program *P = w->L->prog;
  const char *t = w->pc < P->nlines ? P->lines[w->pc].text : NULL;
  if (!t) return 0;
  if (strstr(t, ".volatile")) return 1;
  return (strstr(t, ".relaxed") || strstr(t, ".acquire") || strstr(t, ".release")) && !strstr(t, ".cta");
}

static void cl_race_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size,
                           int kind) {
  block *b = w->blk;
  cluster *c = b->cl;
  if (!b->an->crace || !w->L->want_races) return;
  int strong = strong_access(w, kind);
  LANES(m, {
    uint64_t a = addr[l];
    if (in->space == PTX_SPACE_GENERIC) {
      if (a - SHARED_WINDOW >= WINDOW_SIZE) continue;
      a -= SHARED_WINDOW;
    } else if (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_SHARED_CLUSTER) {
      continue;
    }
    uint64_t off;
    block *o = cluster_target(w, a, &off);
    if (!o || off + size > o->smem_size) continue;
    cl_race *r = o->an->crace;
    uint32_t t = w->index * 32 + (uint32_t)l;
    crec now = {b->c_arr[t], (uint32_t)c->seq, w->pc,          (uint16_t)t, (uint8_t)b->rank,
                1,           (uint8_t)kind,    (uint8_t)strong};
    for (uint64_t wd = off / 4; wd <= (off + size - 1) / 4 && wd < r->nwords; wd++) {
      crec *pw = &r->w[wd], *pr = &r->r[wd];
      /* bytes of this word the access covers (racecheck counts bytes) */
      uint64_t lo = wd * 4 > off ? wd * 4 : off, hi = wd * 4 + 4 < off + size ? wd * 4 + 4 : off + size;
      uint32_t nb = (uint32_t)(hi - lo);
      /* atomics do not race with atomics (as racecheck) */
      if (pw->valid && pw->rank != b->rank && !(strong && pw->strong) && !c_ordered(c, pw, b, t))
        c_hazard(w, o, kind == ACC_READ ? HZ_RAW : HZ_WAW, pw, t, kind, lo, nb);
      if (kind != ACC_READ && pr->valid && pr->rank != b->rank && !(strong && pr->strong) &&
          !c_ordered(c, pr, b, t))
        c_hazard(w, o, HZ_WAR, pr, t, kind, lo, nb);
      if (kind == ACC_READ) {
        /* keep a read of another block over one of the owner's */
        if (!pr->valid || pr->rank == b->rank || c_ordered(c, pr, b, t) || b->rank != o->rank) *pr = now;
      } else {
        *pw = now;
        pr->valid = 0;
      }
    }
  });
}

/* ---- the row ---- */

static int cl_wanted(const launch *L) { return L->csize > 1 && L->want_races; }
static int cl_new(analysis *a, const launch *L) { return (a->crace = cl_race_new(L)) ? 0 : -1; }
static void cl_drop(analysis *a) { cl_race_free(a->crace); }

static void cl_event(const hook_ev *e) {
  warp *w = e->w;
  switch (e->kind) {
  case HEV_FENCE:
    cl_race_sync(w, e->m, 1);
    break;
  case HEV_MBAR_RELEASE:
    cl_race_sync(w, e->m, 0);
    break;
  case HEV_ASYNC_RACE: {
    if (e->id != ASYNC_TO_SHARED) break;
    if (e->x >= CLUSTER_BASE) {
      /* into another block of the cluster: a remote write, ordered before
       * that block's readers by their completed wait on its mbarrier */
      insn s = *e->in;
      uint64_t at[32] = {0};
      at[e->l] = e->x;
      s.space = PTX_SPACE_SHARED_CLUSTER;
      cl_race_access(w, &s, 1u << e->l, at, e->n, ACC_WRITE);
    }
    /* the copy's completion releases it (as an mbarrier arrival) */
    cl_race_sync(w, 1u << e->l, 0);
    break;
  }
  default:
    break;
  }
}

const check_row check_cluster = {
    .name = "cluster races",
    .bit = CHECK_CLUSTER,
    .wanted = cl_wanted,
    .make = cl_new,
    .drop = cl_drop,
    .block_start = cl_race_reset,
    .mem = cl_race_access,
    .event = cl_event,
    .events = HEV_BIT(HEV_FENCE) | HEV_BIT(HEV_MBAR_RELEASE) | HEV_BIT(HEV_ASYNC_RACE),
};
