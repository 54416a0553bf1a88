/* sync.c: barrier misuse (synccheck): warps that reach an aligned block
 * barrier divergently, warps of one block at different barrier
 * instructions, and bar.warp.sync masks that leave out the caller.
 *
 * Two rule sets, by the launch's architecture profile:
 *  - before sm_70 (documented PTX rules, not measured): every thread of a
 *    warp must execute the same barrier instruction, aligned or not, and
 *    each violation is reported;
 *  - sm_70 and later (measured with compute-sanitizer 2025.3 on sm_90:
 *    tests/hw/races, sync_* cases): the non-aligned barrier.sync is per
 *    thread; for the aligned form (bar.sync, __syncthreads) synccheck
 *    reports the threads that execute it while other live threads of their
 *    warp do not, where ptxas if-converts the divergent code so that the
 *    branch's fall-through side executes first, and threads that only go on
 *    to exit have already exited; synccheck then stops the kernel, so only
 *    that first barrier error is reported. Where the look-ahead cannot tell
 *    whether the lanes that skipped the barrier only exit (a lane-dependent
 *    branch first), the verdict waits: an access or a meeting of those
 *    lanes, or their still being there when the barrier completes, makes
 *    it an error; their exit drops it (the pattern of NVIDIA's divergent_threads
 *    sample, recorded without an error: tests/hw/sanitizer_patterns,
 *    skip_last_barrier). */
#include "check/race.h"
#include "exec/hooks.h"
#include "model/arch.h"
#include <string.h>

static int volta(const warp *w) { return w->L->arch && w->L->arch->major >= 7; }

static const char *text_at(const program *P, uint32_t pc) {
  return pc < P->nlines && P->lines[pc].text ? P->lines[pc].text : "";
}

/* An aligned block barrier (bar.*, or barrier.*.aligned)? */
static int aligned_barrier(const program *P, uint32_t pc) {
  const insn *in = &P->code[pc];
  if (in->op == OP_BAR) return 1;
  return in->op == OP_BARRIER && strstr(text_at(P, pc), ".aligned");
}

/* Does straight-line code from pc (following unconditional branches) exit
 * the kernel before any instruction with an effect others can see? ptxas
 * moves such an exit up, so the threads are gone before a barrier. */
static int exits_directly(const program *P, uint32_t pc) {
  for (int n = 0; n < 256 && pc < P->ncode; n++) {
    const insn *in = &P->code[pc];
    uint32_t f = op_flags[in->op];
    if (f & (OPF_RET | OPF_EXIT)) return in->guard < 0;
    if (in->op == OP_BRA) {
      if (in->guard >= 0) return 0;
      pc = in->target;
      continue;
    }
    if (f & (OPF_MEM | OPF_BARRIER | OPF_WARP | OPF_CALL | OPF_ATOMIC | OPF_FENCE)) return 0;
    pc++;
  }
  return 0;
}

/* Does straight-line code from pc reach an aligned barrier before rpc (the
 * join) or an exit? */
static int reaches_barrier(const program *P, uint32_t pc, uint32_t rpc) {
  for (int n = 0; n < 256 && pc < P->ncode && pc != rpc; n++) {
    const insn *in = &P->code[pc];
    uint32_t f = op_flags[in->op];
    if ((f & OPF_BARRIER) && aligned_barrier(P, pc)) return in->guard < 0;
    if (f & (OPF_RET | OPF_EXIT | OPF_CALL)) return 0;
    if (in->op == OP_BRA) {
      if (in->guard >= 0) return 0;
      pc = in->target;
      continue;
    }
    pc++;
  }
  return 0;
}

/* The not-yet-run sibling path of the warp's top path (the branch's
 * fall-through side: smemu runs the taken side first), or NULL. */
static const simt_entry *runnable_sibling(const warp *w) {
  const simt_entry *t = &w->stack[w->sp - 1];
  uint32_t base = w->frames[w->nframes - 1].stack_base;
  for (uint32_t k = w->sp - 1; k-- > base;) {
    const simt_entry *e = &w->stack[k];
    if (e->pc == t->rpc) break;
    if (e->rpc == t->rpc && !e->blocked && e->mask) return e;
  }
  return NULL;
}

/* Live lanes of w other than m that will not just exit: those waiting at
 * a join, blocked elsewhere, or on a path that does more than exit. */
static uint32_t staying_lanes(const warp *w, uint32_t m) {
  const program *P = w->L->prog;
  uint32_t live = w->valid & ~w->exited, seen = m, stay = 0;
  if (w->nframes != 1) return live & ~m; /* inside a call: no shortcut */
  for (uint32_t k = w->sp - 1; k-- > 0;) {
    const simt_entry *e = &w->stack[k];
    uint32_t lanes = e->mask & live & ~seen;
    seen |= e->mask;
    if (lanes && (e->blocked || !exits_directly(P, e->pc))) stay |= lanes;
  }
  return stay | (live & ~seen);
}

void race_sync_error(warp *w, int kind, uint32_t lanes) {
  if (!w->L->want_sync || w->blk->an->race.sync_stopped) return;
  race_add_sync(&w->blk->an->race, w->blk, kind, w->pc, w->index, lanes);
}

/* The error stops the kernel under synccheck on sm_70+ (measured: every
 * sync_* case reports one barrier instruction's threads only). */
static void stop(warp *w) {
  if (volta(w)) w->blk->an->race.sync_stopped = 1;
}

void race_warpsync_masks(warp *w, uint32_t m, const uint64_t *mask) {
  /* Each lane names its own mask: lanes with one mask synchronise with
   * each other (lanes 0-15 with 0xffff and 16-31 with 0xffff0000 are two
   * valid groups: sync_warp_mask_groups). A lane whose mask leaves itself
   * out is an error, and synccheck then names every calling lane
   * (sync_warp_mask: 0x7fffffff from 32 lanes names all 32;
   * sync_warp_mask_17: 0xffff from lanes 0-16 names those 17). Before
   * sm_70 the threads of the masks must also all be there (PTX ISA). */
  uint32_t bad = 0, left = m, want = 0;
  LANES(m, {
    bad |= (uint32_t)(~mask[l] >> l & 1) << l;
    want |= (uint32_t)mask[l];
  });
  if (!volta(w) && (want & ~m)) bad |= m;
  if (bad) {
    race_sync_error(w, SYNC_WARP_MASK, m);
    stop(w);
  }
  while (left) {
    uint32_t mk = (uint32_t)mask[__builtin_ctz(left)], group = 0;
    LANES(left, if ((uint32_t)mask[l] == mk) group |= 1u << l);
    race_warpsync(w, mk & group);
    left &= ~group;
  }
}

/* The divergent arrival of warp wi is an error: report it where it was. */
static void confirm(race_state *r, block *b, uint32_t wi) {
  uint32_t m = r->dv_m[wi], pc = r->dv_pc[wi];
  r->dv_lanes[wi] = 0;
  /* (found at its arrival, before any error that stopped the kernel since) */
  race_add_sync(r, b, SYNC_DIVERGENT_WARP, pc, wi, m);
  r->sync_stopped = 1; /* sm_70+ only: stop() */
}

void race_sync_effect(warp *w, uint32_t m) {
  race_state *r = &w->blk->an->race;
  if (w->index < 32 && (r->dv_lanes[w->index] & m)) confirm(r, w->blk, w->index);
}

void race_sync_released(block *b) {
  race_state *r = &b->an->race;
  r->dv_any = 0;
  for (uint32_t wi = 0; wi < 32 && wi < b->nwarps; wi++) {
    const warp *w = &b->warps[wi];
    /* the barrier waited for them: gone without a trace, or arrived */
    if (r->dv_lanes[wi] & ~w->exited) confirm(r, b, wi);
    r->dv_lanes[wi] = 0;
  }
}

void race_bar_arrive(warp *w, uint32_t id, uint32_t m) {
  if (!w->L->want_sync) return;
  race_state *r = &w->blk->an->race;
  const program *P = w->L->prog;
  if (r->dv_any) race_sync_effect(w, m);
  if (r->sync_stopped) return;
  int v = volta(w);
  /* sm_70+: the non-aligned barrier.sync (what cooperative groups' sync()
   * emits) is per thread: divergent warps may reach it apart */
  if (v && !aligned_barrier(P, w->pc)) return;
  uint32_t live = w->valid & ~w->exited, reported = 0;
  if (m != live) {
    if (!v) {
      race_sync_error(w, SYNC_DIVERGENT_WARP, m);
    } else {
      /* the hardware runs the fall-through side first: when that side
       * will reach a barrier of its own, it is the one reported, and this
       * arrival comes second (sync_halfwarp_two_bars: lanes 16-31) */
      const simt_entry *sib = runnable_sibling(w);
      if (sib && reaches_barrier(P, sib->pc, sib->rpc)) return;
      uint32_t stay = staying_lanes(w, m);
      if (stay && w->index < 32 && w->nframes == 1) {
        /* whether the lanes that skipped it matter shows later: they may
         * still just exit, through code the static look-ahead cannot
         * follow (skip_last_barrier, the divergent_threads pattern: a loop's last
         * round skipped by half a warp, whose lanes then test their index
         * and exit; no error on sm_90) */
        r->dv_lanes[w->index] |= stay;
        r->dv_m[w->index] = m;
        r->dv_pc[w->index] = w->pc;
        r->dv_any = 1;
      } else if (stay) {
        race_sync_error(w, SYNC_DIVERGENT_WARP, m);
        reported = 1;
      }
    }
  }
  /* Warps at different instructions of one barrier: synccheck names the
   * threads at the first one (measured: sync_divergent_block,
   * sync_halfwarp_two_bars_2w) */
  if (!r->bar_pc[id]) {
    r->bar_pc[id] = w->pc + 1;
    memset(r->bar_lanes[id], 0, sizeof r->bar_lanes[id]);
    r->bar_reported[id] = 0;
  }
  if (r->bar_pc[id] == w->pc + 1) {
    if (w->index < 32) r->bar_lanes[id][w->index] |= m;
  } else if (!r->bar_reported[id]) {
    for (uint32_t wi = 0; wi < 32; wi++)
      race_add_sync(r, w->blk, SYNC_DIVERGENT_BLOCK, r->bar_pc[id] - 1, wi, r->bar_lanes[id][wi]);
    r->bar_reported[id] = 1;
    reported = 1;
  }
  if (reported) stop(w);
}
