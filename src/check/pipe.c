/* pipe.c: the pipeline statistics (SMEMU_ANALYZE_PIPELINE, `--report
 * pipeline`) of asynchronous copies (async/bulk.c, tma.c) and mbarriers
 * (async/mbarrier.c), from their hook events: per launch, the copies by
 * kind and bytes; per mbarrier, its inits, phases completed, copies and
 * bytes landed, waits and failed polls; the most loads (and bytes) landed
 * in barrier phases not completed yet in one block (the copies in flight
 * as the program sees them: smemu copies at issue, the program may use the
 * bytes only after the phase); the most bulk groups committed and not
 * waited for. */
#include "check/checks.h"
#include "exec/hooks.h"
#include <stdlib.h>
#include <string.h>

_Static_assert(PIPE_NKINDS == PIPE_KINDS, "pipe.h's copy kinds are hooks.h's");

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

/* The copies b was waiting for are no longer in flight. */
static void drop_live(pipe_stats *p, pipe_bar *b) {
  p->cur_copies -= b->live_copies;
  p->cur_bytes -= b->live_bytes;
  b->live_copies = 0;
  b->live_bytes = 0;
}

static void pipe_event(const hook_ev *e) {
  pipe_stats *p = e->b->an->pipe;
  pipe_bar *b;
  switch (e->kind) {
  case HEV_ASYNC_COUNT:
    p->copies[e->k]++;
    p->bytes[e->k] += e->n;
    if (e->id == ASYNC_FROM_SHARED) p->uncommitted++;
    break;
  case HEV_PROXY_FENCE:
    p->fences++;
    break;
  case HEV_MBAR_TX:
    if (!(b = bar_of(p, e->x))) return;
    b->copies++;
    b->bytes += e->n;
    b->live_copies++;
    b->live_bytes += e->n;
    p->cur_copies++;
    p->cur_bytes += e->n;
    if (p->cur_copies > p->max_copies) p->max_copies = p->cur_copies;
    if (p->cur_bytes > p->max_bytes) p->max_bytes = p->cur_bytes;
    break;
  case HEV_MBAR_PHASE:
    if (!(b = bar_of(p, e->x))) return;
    b->phases++;
    drop_live(p, b);
    break;
  case HEV_MBAR_INIT:
    if (!(b = bar_of(p, e->x))) return;
    b->inits++;
    b->expected = e->n;
    drop_live(p, b);
    break;
  case HEV_MBAR_WAIT:
    if (!(b = bar_of(p, e->x))) return;
    if (e->n)
      b->waits++;
    else
      b->spins++;
    break;
  case HEV_BULK_COMMIT:
    if (!e->m) return;
    p->commits++;
    if (!p->uncommitted) return; /* an empty group */
    p->uncommitted = 0;
    if (++p->cur_groups > p->max_groups) p->max_groups = p->cur_groups;
    break;
  case HEV_BULK_WAIT:
    if (!e->m) return;
    p->group_waits++;
    if (p->cur_groups > e->n) p->cur_groups = e->n;
    break;
  default:
    break;
  }
}

static void pipe_block_start(block *blk) {
  pipe_stats *p = blk->an->pipe;
  p->cur_copies = p->cur_groups = p->uncommitted = 0;
  p->cur_bytes = 0;
  for (uint32_t i = 0; i < p->nbars; i++) {
    p->bars[i].live_copies = 0;
    p->bars[i].live_bytes = 0;
  }
}

static void pipe_merge(analysis *to, const analysis *fr) {
  pipe_stats *into = to->pipe;
  const pipe_stats *from = fr->pipe;
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

static int pipe_wanted(const launch *L) { return L->want_pipeline; }
static int pipe_new(analysis *a, const launch *L) { return (a->pipe = calloc(1, sizeof *a->pipe)) ? 0 : -1; }
static void pipe_free(analysis *a) { free(a->pipe); }

const check_row check_pipeline = {
    .name = "pipeline",
    .bit = CHECK_PIPELINE,
    .wanted = pipe_wanted,
    .make = pipe_new,
    .drop = pipe_free,
    .merge = pipe_merge,
    .block_start = pipe_block_start,
    .event = pipe_event,
    .events = HEV_BIT(HEV_ASYNC_COUNT) | HEV_BIT(HEV_PROXY_FENCE) | HEV_BIT(HEV_MBAR_TX) |
              HEV_BIT(HEV_MBAR_PHASE) | HEV_BIT(HEV_MBAR_INIT) | HEV_BIT(HEV_MBAR_WAIT) |
              HEV_BIT(HEV_BULK_COMMIT) | HEV_BIT(HEV_BULK_WAIT),
};
