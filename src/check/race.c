/* race.c: hazards on shared memory (RAW, WAR, WAW per byte), barrier misuse
 * and uninitialised shared reads. Two accesses are ordered when both
 * threads passed a barrier (or, inside one warp, a bar.warp.sync) that
 * completed after the first one: each access records the block's
 * generation, and each thread the generation of the last barrier it
 * passed. Atomics do not race with atomics; fences order nothing here. */
#include <stdlib.h>
#include <string.h>
#include "check/race.h"
#include "exec/hooks.h"

int race_init(race_state *r, const launch *L) {
  memset(r, 0, sizeof *r);
  r->sh_size = L->smem_size;
  r->sh = calloc(r->sh_size ? r->sh_size : 1, sizeof *r->sh);
  r->init = calloc(r->sh_size ? r->sh_size : 1, 1);
  r->block_gen = calloc(L->nthreads_block, sizeof *r->block_gen);
  r->warp_gen = calloc(L->nthreads_block, sizeof *r->warp_gen);
  return r->sh && r->init && r->block_gen && r->warp_gen ? 0 : -1;
}

void race_free(race_state *r) {
  free(r->sh);
  free(r->init);
  free(r->block_gen);
  free(r->warp_gen);
  free(r->hz);
  free(r->sy);
  memset(r, 0, sizeof *r);
}

void race_block_start(race_state *r, block *b) {
  memset(r->sh, 0, (size_t)r->sh_size * sizeof *r->sh);
  memset(r->init, 0, r->sh_size);
  memset(r->block_gen, 0, b->nthreads * sizeof *r->block_gen);
  memset(r->warp_gen, 0, b->nthreads * sizeof *r->warp_gen);
  memset(r->bar_pc, 0, sizeof r->bar_pc);
  r->gen = 1;
}

/* Is the earlier access `a` ordered before an access by thread t now? */
static int ordered(const race_state *r, const acc_rec *a, uint32_t t) {
  if (r->block_gen[a->tid] > a->gen && r->block_gen[t] > a->gen) return 1;
  if (a->tid / 32 == t / 32 && r->warp_gen[a->tid] > a->gen && r->warp_gen[t] > a->gen) return 1;
  return 0;
}

static void add_hazard(race_state *r, block *b, int type, const acc_rec *first, uint32_t pc, uint16_t tid, int kind,
                       uint64_t addr, uint64_t v1, uint64_t v2) {
  int error = first->tid / 32 != tid / 32;
  for (uint32_t i = 0; i < r->nhz; i++) {
    hazard_rec *h = &r->hz[i];
    if (h->type == type && h->error == error && h->first_pc == first->pc && h->second_pc == pc &&
        h->first_kind == first->kind && h->second_kind == kind) {
      h->count++;
      return;
    }
  }
  if (r->nhz == r->caphz) {
    uint32_t cap = r->caphz ? r->caphz * 2 : 16;
    hazard_rec *h = realloc(r->hz, cap * sizeof *h);
    if (!h) return;
    r->hz = h;
    r->caphz = cap;
  }
  r->hz[r->nhz++] = (hazard_rec){(uint8_t)type, (uint8_t)error, 0, first->kind, (uint8_t)kind, first->pc, pc, 1,
                                  addr, {b->ctaid[0], b->ctaid[1], b->ctaid[2]}, first->tid, tid, v1, v2};
}

static void add_sync(race_state *r, block *b, int kind, uint32_t pc, uint16_t tid, uint32_t n) {
  for (uint32_t i = 0; i < r->nsy; i++)
    if (r->sy[i].kind == kind && r->sy[i].pc == pc) {
      r->sy[i].count += n;
      return;
    }
  if (r->nsy == r->capsy) {
    uint32_t cap = r->capsy ? r->capsy * 2 : 8;
    sync_rec *s = realloc(r->sy, cap * sizeof *s);
    if (!s) return;
    r->sy = s;
    r->capsy = cap;
  }
  r->sy[r->nsy++] = (sync_rec){(uint8_t)kind, pc, n, {b->ctaid[0], b->ctaid[1], b->ctaid[2]}, tid};
}

void race_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  race_state *r = &w->blk->an->race;
  block *b = w->blk;
  int races = w->L->want_races, init = w->L->want_init;
  LANES(m, {
    uint64_t a = addr[l];
    if (in->space == PTX_SPACE_GENERIC) {
      if (a - SHARED_WINDOW >= WINDOW_SIZE) continue;
      a -= SHARED_WINDOW;
    } else if (in->space != PTX_SPACE_SHARED) {
      continue;
    }
    if (a + size > r->sh_size) continue;
    uint16_t t = (uint16_t)(w->index * 32 + (uint32_t)l);
    if (init && kind == ACC_READ) {
      for (uint32_t k = 0; k < size; k++)
        if (!r->init[a + k]) {
          add_sync(r, b, SYNC_UNINIT, w->pc, t, 1);
          break;
        }
    }
    if (init && kind != ACC_READ) memset(r->init + a, 1, size);
    if (!races) continue;
    for (uint32_t k = 0; k < size; k++) {
      shadow *s = &r->sh[a + k];
      uint64_t val = b->smem[a + k];
      if (kind == ACC_READ) {
        if (s->w.valid && s->w.tid != t && !ordered(r, &s->w, t))
          add_hazard(r, b, HZ_RAW, &s->w, w->pc, t, kind, a + k, 0, val);
        /* keep the last reads of two different threads */
        if (s->r[0].valid && s->r[0].tid != t) s->r[1] = s->r[0];
        s->r[0] = (acc_rec){r->gen, w->pc, t, ACC_READ, 1};
      } else {
        if (s->w.valid && s->w.tid != t && !ordered(r, &s->w, t) &&
            !(kind == ACC_ATOMIC && s->w.kind == ACC_ATOMIC))
          add_hazard(r, b, HZ_WAW, &s->w, w->pc, t, kind, a + k, val, 0);
        for (int j = 0; j < 2; j++)
          if (s->r[j].valid && s->r[j].tid != t && !ordered(r, &s->r[j], t))
            add_hazard(r, b, HZ_WAR, &s->r[j], w->pc, t, kind, a + k, val, 0);
        s->w = (acc_rec){r->gen, w->pc, t, (uint8_t)kind, 1};
        s->r[0].valid = s->r[1].valid = 0;
      }
    }
  });
}

void race_barrier(block *b, warp *w, uint32_t lanes) {
  race_state *r = &b->an->race;
  LANES(lanes, r->block_gen[w->index * 32 + (uint32_t)l] = r->gen + 1);
}

void race_bar_released(block *b, uint32_t id) {
  race_state *r = &b->an->race;
  r->gen++;
  r->bar_pc[id] = 0;
}

void race_warpsync(warp *w, uint32_t lanes) {
  race_state *r = &w->blk->an->race;
  r->gen++;
  LANES(lanes, r->warp_gen[w->index * 32 + (uint32_t)l] = r->gen);
}

void race_sync_error(warp *w, int kind, uint32_t lanes) {
  if (!w->L->want_sync) return;
  add_sync(&w->blk->an->race, w->blk, kind, w->pc, (uint16_t)(w->index * 32 + (uint32_t)__builtin_ctz(lanes ? lanes : 1)),
           (uint32_t)__builtin_popcount(lanes));
}

void race_bar_arrive(warp *w, uint32_t id, uint32_t m) {
  if (!w->L->want_sync) return;
  race_state *r = &w->blk->an->race;
  uint32_t live = w->valid & ~w->exited;
  if (m != live) race_sync_error(w, SYNC_DIVERGENT_WARP, m);
  if (!r->bar_pc[id]) r->bar_pc[id] = w->pc + 1;
  else if (r->bar_pc[id] != w->pc + 1) race_sync_error(w, SYNC_DIVERGENT_BLOCK, m);
}

void race_merge(race_state *into, const race_state *from) {
  for (uint32_t i = 0; i < from->nhz; i++) {
    const hazard_rec *h = &from->hz[i];
    uint32_t j;
    for (j = 0; j < into->nhz; j++) {
      hazard_rec *g = &into->hz[j];
      if (g->type == h->type && g->error == h->error && g->first_pc == h->first_pc && g->second_pc == h->second_pc &&
          g->first_kind == h->first_kind && g->second_kind == h->second_kind) {
        g->count += h->count;
        break;
      }
    }
    if (j < into->nhz) continue;
    if (into->nhz == into->caphz) {
      uint32_t cap = into->caphz ? into->caphz * 2 : 16;
      hazard_rec *n = realloc(into->hz, cap * sizeof *n);
      if (!n) return;
      into->hz = n;
      into->caphz = cap;
    }
    into->hz[into->nhz++] = *h;
  }
  for (uint32_t i = 0; i < from->nsy; i++) {
    const sync_rec *s = &from->sy[i];
    uint32_t j;
    for (j = 0; j < into->nsy; j++)
      if (into->sy[j].kind == s->kind && into->sy[j].pc == s->pc) {
        into->sy[j].count += s->count;
        break;
      }
    if (j < into->nsy) continue;
    if (into->nsy == into->capsy) {
      uint32_t cap = into->capsy ? into->capsy * 2 : 8;
      sync_rec *n = realloc(into->sy, cap * sizeof *n);
      if (!n) return;
      into->sy = n;
      into->capsy = cap;
    }
    into->sy[into->nsy++] = *s;
  }
}
