/* race.c: hazards on shared memory (RAW, WAR, WAW per byte), barrier misuse
 * and uninitialised shared reads: the state, the hazard records, one
 * access lane by lane (race_access) and the barrier events; whole-warp
 * shapes are race_shape.c's, the init check sinit.c's, asynchronous
 * accesses race_async.c's, barrier misuse sync.c's. Two accesses are ordered when both
 * threads passed a barrier (or, inside one warp, a bar.warp.sync) that
 * completed after the first one: each access records the block's
 * generation, and each thread the generation of the last barrier it
 * passed. Atomics do not race with atomics; fences order nothing here. */
#include "check/race.h"
#include "check/checks.h"
#include "check/race_int.h"
#include "exec/hooks.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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
  r->st_ok = !r->compat;
  for (uint32_t pc = 0; pc < L->prog->ncode; pc++)
    if (L->prog->code[pc].op == OP_CP) r->st_ok = 0;
  r->init = calloc(nbytes, 1);
  r->init_lo = L->prog->smem_reserved < r->sh_size ? L->prog->smem_reserved : r->sh_size;
  r->block_gen = calloc(L->nthreads_block, sizeof *r->block_gen);
  r->warp_gen = calloc(L->nthreads_block, sizeof *r->warp_gen);
  r->fence_gen = calloc(L->nthreads_block, sizeof *r->fence_gen);
  r->fence_bar = calloc(L->nthreads_block, sizeof *r->fence_bar);
  r->proxy_gen = calloc(L->nthreads_block, sizeof *r->proxy_gen);
  r->groups = calloc(L->nthreads_block, sizeof *r->groups);
  r->cp_groups = calloc(L->nthreads_block, sizeof *r->cp_groups);
  r->cp_npend = calloc(L->nthreads_block, sizeof *r->cp_npend);
  return r->sh && r->init && r->block_gen && r->warp_gen && r->fence_gen && r->fence_bar && r->proxy_gen &&
                 r->groups && r->cp_groups && r->cp_npend
             ? 0
             : -1;
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
  r->st_only = 0;
  memset(r->init, 0, r->sh_size);
  r->init_unset = r->sh_size - r->init_lo;
  r->dv_any = 0;
  memset(r->dv_lanes, 0, sizeof r->dv_lanes);
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

/* The record of the pair of accesses (pc1, kind1) and (pc2, kind2), in
 * either order, or NULL. */
hazard_rec *race_find_pair(race_state *r, uint32_t pc1, int kind1, uint32_t pc2, int kind2) {
  for (uint32_t i = 0; i < r->nhz; i++) {
    hazard_rec *h = &r->hz[i];
    if ((h->first_pc == pc1 && h->second_pc == pc2 && h->first_kind == kind1 && h->second_kind == kind2) ||
        (h->first_pc == pc2 && h->second_pc == pc1 && h->first_kind == kind2 && h->second_kind == kind1))
      return h;
  }
  return NULL;
}

/* A new, zeroed hazard record (NULL when out of memory). */
hazard_rec *race_new_hazard(race_state *r) {
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
sync_rec *race_sync_at(race_state *r, int kind, uint32_t pc, int *fresh) {
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
void race_add_hazard(race_state *r, block *b, int type, const acc_rec *first, uint32_t pc, uint16_t tid,
                     int kind, uint64_t addr, uint64_t v1, uint64_t v2, uint32_t n) {
  /* Between warps an error; between lanes of one warp a warning, except
   * lanes of one instruction writing one place, which racecheck calls an
   * error (measured: tests/hw/races, warn_waw_same_insn). */
  int error = first->tid / 32 != tid / 32 || (first->pc == pc && first->gen == r->gen);
  /* one record per pair of accesses, whichever came first, as racecheck
   * aggregates: an error if any of its hazards is one (measured:
   * tests/hw/races, race_loop_war reports 256 hazards of one pair) */
  hazard_rec *h = race_find_pair(r, first->pc, first->kind, pc, kind);
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
  if (!(h = race_new_hazard(r))) return;
  *h = (hazard_rec){(uint8_t)type,
                    (uint8_t)error,
                    0,
                    first->kind,
                    (uint8_t)kind,
                    0,
                    0,
                    0,
                    first->pc,
                    pc,
                    n,
                    addr,
                    {b->ctaid[0], b->ctaid[1], b->ctaid[2]},
                    first->tid,
                    tid,
                    v1,
                    v2};
}

void race_add_cluster(race_state *r, int type, uint32_t pc1, int kind1, uint16_t tid1, uint32_t rank1,
                      uint32_t pc2, int kind2, uint16_t tid2, uint32_t rank2, const uint32_t block0[3],
                      uint64_t addr, uint32_t n) {
  hazard_rec *h = race_find_pair(r, pc1, kind1, pc2, kind2);
  if (h) {
    h->count += n;
    return;
  }
  if (!(h = race_new_hazard(r))) return;
  *h = (hazard_rec){(uint8_t)type,
                    1,
                    0,
                    (uint8_t)kind1,
                    (uint8_t)kind2,
                    1,
                    (uint8_t)rank1,
                    (uint8_t)rank2,
                    pc1,
                    pc2,
                    n,
                    addr,
                    {block0[0], block0[1], block0[2]},
                    tid1,
                    tid2,
                    0,
                    0};
}

/* Record lanes of warp wi at a barrier error (kind, pc). */
void race_add_sync(race_state *r, block *b, int kind, uint32_t pc, uint32_t wi, uint32_t lanes) {
  int fresh;
  if (!lanes) return;
  sync_rec *s = race_sync_at(r, kind, pc, &fresh);
  if (!s) return;
  if (fresh)
    *s = (sync_rec){(uint8_t)kind,
                    pc,
                    0,
                    {b->ctaid[0], b->ctaid[1], b->ctaid[2]},
                    (uint16_t)(wi * 32 + (uint32_t)__builtin_ctz(lanes)),
                    {0}};
  if (wi < 32) s->lanes[wi] |= lanes;
  s->count += (uint32_t)__builtin_popcount(lanes);
}

/* Give word wd of run k its own readers again. */
void race_unrun(race_state *r, uint32_t k, uint64_t wd) {
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

void race_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  race_state *r = &w->blk->an->race;
  block *b = w->blk;
  int races = w->L->want_races, init = w->L->want_init;
  if (r->dv_any) race_sync_effect(w, m);
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
  if (r->npcp && races && kind == ACC_READ) race_cp_own_reads(r, w, in, m, addr, size);
  wshape shape;
  const wshape *ws = NULL;
  /* (the shape path keeps reads in a log a barrier may drop: not while a
   * cp.async is in flight, whose completion looks for the reads that came
   * meanwhile, barriers or not) */
  if (m == FULL_MASK && in->space == PTX_SPACE_SHARED && size == 4 && warp_shape(addr, r->sh_size, &shape)) {
    if (!r->npcp && shape_fits(w, in, &shape, kind, r)) {
      race_shape_checks(w, in, &shape, kind, r, b);
      return;
    }
    ws = &shape;
  }
  if (races) race_flush_reads(r);
  if (init) sinit_access(w, in, m, addr, size, kind, ws);
  if (!races) return;
  if (kind == ACC_READ && !r->compat && race_fast_reads(w, in, m, addr, size, r, b, r->npcp ? NULL : ws))
    return;
  if (kind != ACC_READ && r->ar) race_async_write(w, in, m, addr, size);
  if (kind == ACC_WRITE && in->op == OP_ST && size == 4 && in->vec == 1 && in->c == 4 && m == FULL_MASK &&
      in->space == PTX_SPACE_SHARED && race_fast_stores(w, in, addr, r, b))
    return;
  if (kind != ACC_WRITE || in->op != OP_ST || size > 32) {
    LANES(m, {
      uint64_t a = shared_off(in, addr[l], size, r);
      if (a != ~0ull)
        lane_access(r, b, w->pc, (uint16_t)(w->index * 32 + (uint32_t)l), kind, a, size, NULL, NULL);
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
    lane_access(r, b, w->pc, (uint16_t)(w->index * 32 + (uint32_t)l), kind, a, size, known ? val[l] : NULL,
                cur);
  });
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
    r->nplog = 0; /* (pattern_reads, deferred_store) */
    r->st_only = 0;
  }
  r->bar_pc[id] = 0;
  if (r->dv_any) race_sync_released(b);
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
  r->st_only = 0;
}

void race_warpsync(warp *w, uint32_t lanes) {
  race_state *r = &w->blk->an->race;
  r->gen++;
  LANES(lanes, r->warp_gen[w->index * 32 + (uint32_t)l] = r->gen);
}

/* 1 when block a comes before block b in the grid (z, then y, then x). */
static int block_before(const uint32_t a[3], const uint32_t b[3]) {
  for (int d = 2; d >= 0; d--)
    if (a[d] != b[d]) return a[d] < b[d];
  return 0;
}

void race_merge(race_state *into, const race_state *from) {
  for (uint32_t i = 0; i < from->nhz; i++) {
    const hazard_rec *h = &from->hz[i];
    hazard_rec *g = race_find_pair(into, h->first_pc, h->first_kind, h->second_pc, h->second_kind);
    if (g) {
      /* the instance shown is the first block's, whichever worker ran it:
       * the same report on any number of workers */
      uint64_t count = g->count + h->count;
      uint8_t error = g->error | h->error;
      if (block_before(h->block, g->block)) *g = *h;
      g->count = count;
      g->error = error;
    } else if ((g = race_new_hazard(into))) {
      *g = *h;
    }
  }
  for (uint32_t i = 0; i < from->nsy; i++) {
    const sync_rec *s = &from->sy[i];
    int fresh;
    sync_rec *t = race_sync_at(into, s->kind, s->pc, &fresh);
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
  case HEV_BAR_ARRIVE:
    race_bar_arrive(e->w, e->id, e->m);
    break;
  case HEV_BAR_PASS:
    race_barrier(e->b, e->w, e->m);
    break;
  case HEV_BAR_RELEASED:
    race_bar_released(e->b, e->id, (int)e->n);
    break;
  case HEV_WARPSYNC:
    if (e->w->blk->an->race.dv_any) race_sync_effect(e->w, e->m);
    race_warpsync(e->w, e->m);
    break;
  case HEV_WARPSYNC_MASKS:
    race_warpsync_masks(e->w, e->m, e->v);
    break;
  case HEV_SYNC_ERROR:
    race_sync_error(e->w, (int)e->n, e->m);
    break;
  case HEV_CLUSTER_RELEASED:
    race_cluster_released(e->b);
    break;
  case HEV_RSV_RELEASE:
    race_rsv_release(e->w, e->in, e->m, e->a, e->v);
    break;
  case HEV_WGMMA_EARLY:
    race_add_sync(&e->b->an->race, e->b, SYNC_WGMMA_EARLY, e->w->pc, e->w->index, e->m);
    break;
  default:
    race_async_event(e);
    break;
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
    .events = HEV_BIT(HEV_BAR_ARRIVE) | HEV_BIT(HEV_BAR_PASS) | HEV_BIT(HEV_BAR_RELEASED) |
              HEV_BIT(HEV_WARPSYNC) | HEV_BIT(HEV_WARPSYNC_MASKS) | HEV_BIT(HEV_SYNC_ERROR) |
              HEV_BIT(HEV_CLUSTER_RELEASED) | HEV_BIT(HEV_RSV_RELEASE) | HEV_BIT(HEV_WGMMA_EARLY) |
              HEV_BIT(HEV_PROXY_FENCE) | HEV_BIT(HEV_MBAR_RELEASE) | HEV_BIT(HEV_BULK_COMMIT) |
              HEV_BIT(HEV_BULK_WAIT) | HEV_BIT(HEV_CP_COMMIT) | HEV_BIT(HEV_CP_WAIT) |
              HEV_BIT(HEV_ASYNC_RACE) | HEV_BIT(HEV_WGMMA_ISSUE) | HEV_BIT(HEV_WGMMA_COMMIT) |
              HEV_BIT(HEV_WGMMA_WAIT),
};
