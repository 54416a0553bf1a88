/* pipeline.c: what the checks and the pipeline report see of asynchronous
 * copies (bulk.c, tma.c) and mbarriers (mbarrier.c).
 *
 * Race checks: a copy into shared memory is the issuing thread's write of
 * the bytes, released when it completes (on its mbarrier), so a reader
 * that did not complete a wait on that barrier races with it; a copy out
 * of shared memory is an async-proxy read, which also races with generic
 * writes not followed by fence.proxy.async in the writing thread.
 *
 * Pipeline statistics (SMEMU_ANALYZE_PIPELINE, `--report pipeline`): per
 * launch, the copies by kind and bytes; per mbarrier, its inits, phases
 * completed, copies and bytes landed, waits and failed polls; the most
 * loads (and bytes) landed in barrier phases not completed yet in one
 * block (the copies in flight as the program sees them: smemu copies at
 * issue, the program may use the bytes only after the phase); the most
 * bulk groups committed and not waited for. */
#include <stdio.h>
#include "async/async.h"
#include "check/race.h"
#include "exec/cluster.h"
#include "exec/hooks.h"
#include "smemu.h"

static pipe_stats *stats(warp *w) {
  return w->blk->an ? w->blk->an->pipe : NULL;
}

/* The record of barrier a (NULL when PIPE_BARS are taken). */
static pipe_bar *bar_of(pipe_stats *p, uint64_t a) {
  for (uint32_t i = 0; i < p->nbars; i++)
    if (p->bars[i].addr == (uint32_t)a) return &p->bars[i];
  if (p->nbars == PIPE_BARS) {
    p->more_bars++;
    return NULL;
  }
  pipe_bar *b = &p->bars[p->nbars++];
  memset(b, 0, sizeof *b);
  b->addr = (uint32_t)a;
  return b;
}

void async_copy_done(warp *w, const insn *in, int l, uint64_t sh, uint32_t bytes, int dir, int kind) {
  async_count(w, bytes, dir, kind);
  async_race(w, in, l, sh, bytes, dir);
}

void async_count(warp *w, uint32_t bytes, int dir, int kind) {
  pipe_stats *p = stats(w);
  if (!p) return;
  p->copies[kind]++;
  p->bytes[kind] += bytes;
  if (dir == ASYNC_FROM_SHARED) p->uncommitted++;
}

void async_race(warp *w, const insn *in, int l, uint64_t sh, uint32_t bytes, int dir) {
  if (!w->L->hooks || !w->blk->an || !w->blk->an->has_race) return;
  if (dir == ASYNC_FROM_SHARED) {
    race_proxy_read(w, in, l, sh, bytes);
    return;
  }
  insn s = *in;
  uint64_t at[32] = {0};
  at[l] = sh;
  if (sh >= CLUSTER_BASE) {
    /* into another block of the cluster: a remote write, ordered before
     * that block's readers by their completed wait on its mbarrier */
    s.space = PTX_SPACE_SHARED_CLUSTER;
    if (w->blk->crace) cl_race_access(w, &s, 1u << l, at, bytes, ACC_WRITE);
  } else {
    s.space = PTX_SPACE_SHARED;
    race_access(w, &s, 1u << l, at, bytes, ACC_WRITE);
  }
  mbar_race_release(w, 1u << l);
}

void async_proxy_fence(warp *w, const insn *in, uint32_t m) {
  (void)in;
  pipe_stats *p = stats(w);
  if (p) p->fences++;
  if (w->L->hooks) race_proxy_fence(w, m);
}

void pipe_tx(warp *w, uint64_t a, uint32_t bytes) {
  pipe_stats *p = stats(w);
  pipe_bar *b;
  if (!p || !(b = bar_of(p, a))) return;
  b->copies++;
  b->bytes += bytes;
  b->live_copies++;
  b->live_bytes += bytes;
  p->cur_copies++;
  p->cur_bytes += bytes;
  if (p->cur_copies > p->max_copies) p->max_copies = p->cur_copies;
  if (p->cur_bytes > p->max_bytes) p->max_bytes = p->cur_bytes;
}

/* The copies b was waiting for are no longer in flight. */
static void drop_live(pipe_stats *p, pipe_bar *b) {
  p->cur_copies -= b->live_copies;
  p->cur_bytes -= b->live_bytes;
  b->live_copies = 0;
  b->live_bytes = 0;
}

void pipe_phase(warp *w, uint64_t a) {
  pipe_stats *p = stats(w);
  pipe_bar *b;
  if (!p || !(b = bar_of(p, a))) return;
  b->phases++;
  drop_live(p, b);
}

void pipe_init(warp *w, uint64_t a, uint32_t count) {
  pipe_stats *p = stats(w);
  pipe_bar *b;
  if (!p || !(b = bar_of(p, a))) return;
  b->inits++;
  b->expected = count;
  drop_live(p, b);
}

void pipe_wait(warp *w, uint64_t a, int done) {
  pipe_stats *p = stats(w);
  pipe_bar *b;
  if (!p || !(b = bar_of(p, a))) return;
  if (done) b->waits++;
  else b->spins++;
}

void pipe_commit(warp *w, uint32_t m) {
  pipe_stats *p = stats(w);
  if (!p || !m) return;
  p->commits++;
  if (!p->uncommitted) return; /* an empty group */
  p->uncommitted = 0;
  if (++p->cur_groups > p->max_groups) p->max_groups = p->cur_groups;
}

void pipe_wait_group(warp *w, uint32_t m, uint32_t n) {
  pipe_stats *p = stats(w);
  if (!p || !m) return;
  p->group_waits++;
  if (p->cur_groups > n) p->cur_groups = n;
}

void pipe_block_start(pipe_stats *p) {
  p->cur_copies = p->cur_groups = p->uncommitted = 0;
  p->cur_bytes = 0;
  for (uint32_t i = 0; i < p->nbars; i++) {
    p->bars[i].live_copies = 0;
    p->bars[i].live_bytes = 0;
  }
}

void pipe_merge(pipe_stats *into, const pipe_stats *from) {
  for (int k = 0; k < PIPE_KINDS; k++) {
    into->copies[k] += from->copies[k];
    into->bytes[k] += from->bytes[k];
  }
  into->commits += from->commits;
  into->group_waits += from->group_waits;
  into->fences += from->fences;
  if (from->max_copies > into->max_copies) into->max_copies = from->max_copies;
  if (from->max_bytes > into->max_bytes) into->max_bytes = from->max_bytes;
  if (from->max_groups > into->max_groups) into->max_groups = from->max_groups;
  into->more_bars += from->more_bars;
  for (uint32_t i = 0; i < from->nbars; i++) {
    const pipe_bar *s = &from->bars[i];
    pipe_bar *d = bar_of(into, s->addr);
    if (!d) continue;
    d->inits += s->inits;
    d->phases += s->phases;
    d->copies += s->copies;
    d->bytes += s->bytes;
    d->waits += s->waits;
    d->spins += s->spins;
    if (s->expected) d->expected = s->expected;
  }
}
