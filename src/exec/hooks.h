/* hooks.h: the one road from the executor (src/exec, src/async) to the
 * analyses (src/check). The executor and the instruction families report
 * what happens (memory accesses, barriers, warp syncs, fences, async copies
 * and their completion, mbarrier and cluster barrier events) only through
 * these functions; the analyses, their state and the table of checks
 * (check/checks.h) are behind them. Every event is tested first, inline,
 * against one flag (the block has analyses, launch.hooks, and one of them
 * takes events of its kind, analysis.evmask), so with every analysis off
 * an instruction pays that test only. */
#ifndef SMEMU_HOOKS_H
#define SMEMU_HOOKS_H
#include "check/analysis.h"
#include "exec/exec.h"

/* atom.cas's mode number (atom.c), which the bank model counts apart. */
#define ATOM_MODE_CAS 5
#define ATOM_MODE_MIN 1 /* (model/atomcost.h: min/max CAS loops skip the CAS) */
#define ATOM_MODE_MAX 2

/* ---- the seam ----
 * The executor defines the interface and calls through it; the analyses
 * (src/check) implement it and a floor above both installs the
 * implementation (checks_install, called by the API before a launch). One
 * indirect call per hook; the inline tests below run first, so with every
 * analysis off nothing is called. */
struct hook_ev;
typedef struct exec_hooks {
  analysis *(*analysis_new)(const launch *L);
  void (*analysis_merge)(analysis *into, const analysis *from);
  void (*analysis_free)(analysis *a);
  void (*block_start)(block *b);
  void (*block_end)(block *b);
  void (*mem)(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);
  void (*mem_halves)(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                     uint64_t a1, uint32_t stride);
  void (*mem_pattern)(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                      uint64_t a1, uint64_t stride);
  int (*mem_shape)(warp *w, const insn *in, uint64_t a0, uint64_t a1, int pat, uint32_t size);
  void (*mem_reads)(warp *w, simt_entry *t, const insn *code, uint32_t pc, uint64_t which,
                    const uint64_t *pat, uint32_t npat);
  int (*banks_halves)(warp *w, const insn *in, uint64_t a0, uint64_t a1, uint32_t stride, uint32_t size);
  uint32_t (*banks_masks)(const warp *w);
  void (*atom)(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);
  void (*copy)(warp *w, const insn *in, uint32_t m, const uint64_t src[32], const uint64_t dst[32],
               uint32_t size);
  void (*event)(const struct hook_ev *e);
} exec_hooks;
/* The installed implementation (exec/hooks_seam.c), NULL until one is:
 * then no launch has analyses (analysis_new fails). */
extern const exec_hooks *exec_hooks_on;

/* ---- memory ---- */

/* A block starts on this worker. */
static inline void hook_block_start(block *b) { exec_hooks_on->block_start(b); }
/* The block has run (all its warps are done). */
static inline void hook_block_end(block *b) { exec_hooks_on->block_end(b); }

/* A memory instruction of warp w touched addr[l] (size bytes) for lanes m. */
static inline void hook_mem(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  exec_hooks_on->mem(w, in, m, addr, size);
}
/* hook_mem of a full warp whose lanes are at a0 + (l%16)*stride (lanes
 * 0-15) and a1 + (l%16)*stride (lanes 16-31): the bank model takes its
 * figures from the cache when it has them (as hook_banks_halves). */
static inline void hook_mem_halves(warp *w, const insn *in, const uint64_t addr[32], uint32_t size,
                                   uint64_t a0, uint64_t a1, uint32_t stride) {
  exec_hooks_on->mem_halves(w, in, addr, size, a0, a1, stride);
}
/* hook_mem_halves for the compiled tier (any stride, any analyses): a
 * whole-warp shape of the race and init checks (stride 0 or size: a
 * half-warp broadcast or consecutive elements) is checked from the halves
 * (hook_mem_shape), anything else as hook_mem_halves. */
static inline void hook_mem_pattern(warp *w, const insn *in, const uint64_t addr[32], uint32_t size,
                                    uint64_t a0, uint64_t a1, uint64_t stride) {
  exec_hooks_on->mem_pattern(w, in, addr, size, a0, a1, stride);
}
/* hook_mem for a whole warp's shared read or write whose lanes are at
 * a0 + (l%16)*size (pat 2) or a0 (pat 1), a1 the same for lanes 16-31, in
 * bounds of the shared window: every analysis served without the lane
 * addresses (1), or nothing done (0: the caller calls hook_mem). */
static inline int hook_mem_shape(warp *w, const insn *in, uint64_t a0, uint64_t a1, int pat, uint32_t size) {
  return exec_hooks_on->mem_shape(w, in, a0, a1, pat, size);
}
/* hook_mem_pattern, in order, for the compiled tier's run of full-warp
 * 4-byte shared reads from pc: instruction pc + j for each bit j of
 * `which`, its lanes at a + in->imm + (l%16)*st from the entry {slot, a0,
 * a1, st} of pat[0..npat) whose slot is its address register (a for lanes
 * 0-15 a0, for 16-31 a1); each is made at its pc (w->pc, t->pc) as its
 * handler would make it. One call instead of one per read. */
static inline void hook_mem_reads(warp *w, simt_entry *t, const insn *code, uint32_t pc, uint64_t which,
                                  const uint64_t *pat, uint32_t npat) {
  exec_hooks_on->mem_reads(w, t, code, pc, which, pat, npat);
}
/* A full warp's shared access at pc whose lanes are at a0 + (l%16)*stride
 * (lanes 0-15) and a1 + (l%16)*stride (lanes 16-31), made while the bank
 * model is the only analysis (hooks_banks_only): counted from the bank
 * cache when the pattern has been seen (1), else 0 and the caller calls
 * hook_mem with the addresses. */
static inline int hook_banks_halves(warp *w, const insn *in, uint64_t a0, uint64_t a1, uint32_t stride,
                                    uint32_t size) {
  return exec_hooks_on->banks_halves(w, in, a0, a1, stride, size);
}

/* bank_cache_period(w's launch, bytes) - 1 for 4, 8 and 16 bytes in bytes
 * 0, 1 and 2 (compiled code looks the bank cache up itself: jit.c) */
static inline uint32_t hook_banks_masks(const warp *w) { return exec_hooks_on->banks_masks(w); }

/* The bank model is the only analysis hook_mem serves: an access to global
 * or local memory needs no hook (the bank model counts shared memory). */
static inline int hooks_banks_only(const warp *w) {
  return w->L->want_banks && w->blk->an && !w->blk->an->has_race && !w->L->ginit;
}
/* No analysis looks at a global (or local, param, const) access: the
 * global race and init checks are off (the shared race, init and bank
 * checks pass such accesses by). */
static inline int hooks_global_none(const warp *w) { return !w->L->want_global_races && !w->L->ginit; }
/* A global access needs the analyses' hook. */
static inline int hooks_see_global(const warp *w) {
  return w->L->hooks && !hooks_banks_only(w) && !hooks_global_none(w);
}

/* An atomic (hooks see it before it runs). */
static inline void hook_atom(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  exec_hooks_on->atom(w, in, m, addr, size);
}

/* cp.async: a read of global and a write of shared memory that Nsight
 * Compute does not count as shared-memory requests (LDGSTS; measured on an
 * H200, tests/hw/shared_counters): the race checks see it, the bank model does not;
 * the copies are in flight until the issuing threads wait for them
 * (hook_cp_commit, hook_cp_wait). */
static inline void hook_copy(warp *w, const insn *in, uint32_t m, const uint64_t src[32],
                             const uint64_t dst[32], uint32_t size) {
  exec_hooks_on->copy(w, in, m, src, dst, size);
}

/* The per-worker state of the analyses a launch asks for (the table of
 * checks), merged into the launch's at its end. */
static inline analysis *analysis_new(const launch *L) {
  return exec_hooks_on ? exec_hooks_on->analysis_new(L) : NULL;
}
static inline void analysis_merge(analysis *into, const analysis *from) {
  exec_hooks_on->analysis_merge(into, from);
}
static inline void analysis_free(analysis *a) {
  if (a) exec_hooks_on->analysis_free(a);
}

/* ---- synchronisation and asynchronous events ----
 * One record per event, handed to every enabled check that takes events
 * (check/checks.h); the inline functions below fill it. */
enum {
  HEV_BAR_ARRIVE,       /* lanes m of w arrive at barrier id (not bar.arrive) */
  HEV_BAR_PASS,         /* lanes m of w (block b) passed a completed block barrier */
  HEV_BAR_RELEASED,     /* barrier id of b completed; n: 1 when it waited for every live thread */
  HEV_WARPSYNC,         /* lanes m of w met (bar.warp.sync, .sync warp operations) */
  HEV_WARPSYNC_MASKS,   /* lanes m of w executed bar.warp.sync, lane l with mask v[l] */
  HEV_SYNC_ERROR,       /* lanes m of w: a barrier error of kind n (SYNC_*) */
  HEV_FENCE,            /* lanes m of w: a fence at gpu/system scope */
  HEV_PROXY_FENCE,      /* lanes m of w: fence.proxy.async */
  HEV_CLUSTER_RELEASED, /* a barrier.cluster phase completed for block b */
  HEV_RSV_RELEASE,      /* lanes m of w: atom.and.b32 of bits v[l] on words a[l] (reserved shared memory) */
  HEV_MBAR_RELEASE,     /* lanes m of w passed an mbarrier arrival or completed wait */
  HEV_MBAR_TX,          /* n transaction bytes completed on the mbarrier at shared offset x */
  HEV_MBAR_PHASE,       /* the mbarrier at x completed a phase */
  HEV_MBAR_INIT,        /* the mbarrier at x was initialised with count n */
  HEV_MBAR_WAIT,        /* a wait on the mbarrier at x: n 1 succeeded, 0 failed */
  HEV_BULK_COMMIT,      /* lanes m of w: cp.async.bulk.commit_group */
  HEV_BULK_WAIT,        /* lanes m of w: cp.async.bulk.wait_group n */
  HEV_CP_COMMIT,        /* lanes m of w: cp.async.commit_group */
  HEV_CP_WAIT,          /* lanes m of w: cp.async.wait_group n (HOOK_CP_ALL: all) */
  HEV_ASYNC_COUNT,      /* an asynchronous copy of n bytes, direction id, kind k (statistics) */
  HEV_ASYNC_RACE,       /* lane l of w's asynchronous copy (in) wrote or read (id) shared bytes [x, x+n) */
  HEV_WGMMA_ISSUE,      /* the warps ws[0..3] of w's warpgroup issued wgmma.mma_async (in): warp j reads
                           the 16-byte chunks ck[j][0..nck[j]) of shared memory until it waits */
  HEV_WGMMA_COMMIT,     /* lanes m of w: wgmma.commit_group */
  HEV_WGMMA_WAIT,       /* lanes m of w: wgmma.wait_group n; k: the warp has issued an mma_async */
  HEV_WGMMA_EARLY,      /* lanes m of w touched registers of an mma_async not waited for */
  HEV_COUNT             /* (at most 32: check_row.events) */
};

/* Directions and kinds of asynchronous copies (HEV_ASYNC_*). */
enum { ASYNC_TO_SHARED, ASYNC_FROM_SHARED };
enum { PIPE_BULK_LOAD, PIPE_BULK_STORE, PIPE_TENSOR_LOAD, PIPE_TENSOR_STORE, PIPE_REDUCE, PIPE_KINDS };
#define HOOK_CP_ALL UINT32_MAX

typedef struct hook_ev {
  int kind;            /* HEV_* */
  block *b;            /* the block */
  warp *w;             /* the warp, or NULL for block events */
  const insn *in;      /* the instruction, where the event has one */
  uint32_t m;          /* lanes */
  uint32_t id;         /* barrier id, or the copy's direction */
  uint32_t n;          /* count, group or bytes (as the kind says) */
  int l, k;            /* lane; copy kind or flag */
  uint64_t x;          /* address */
  const uint64_t *a;   /* per-lane addresses */
  const uint64_t *v;   /* per-lane operand values */
  warp *const *ws;     /* HEV_WGMMA_ISSUE: the warpgroup's warps */
  uint16_t *const *ck; /* their chunks */
  const uint32_t *nck;
} hook_ev;

/* Hand e to the enabled checks (check/hooks.c). */
static inline void hook_event(const hook_ev *e) { exec_hooks_on->event(e); }
/* Does an enabled check of block b take events of this kind? */
static inline int hooks_take(const block *b, int kind) { return b->an && (b->an->evmask >> kind & 1); }

static inline void hook_ev_w(int kind, warp *w, uint32_t m, uint32_t id, uint32_t n) {
  if (!hooks_take(w->blk, kind)) return;
  hook_ev e = {.kind = kind, .b = w->blk, .w = w, .m = m, .id = id, .n = n};
  hook_event(&e);
}

static inline void hook_bar_arrive(warp *w, uint32_t id, uint32_t m) {
  hook_ev_w(HEV_BAR_ARRIVE, w, m, id, 0);
}
static inline void hook_bar_pass(block *b, warp *w, uint32_t m) {
  if (!hooks_take(b, HEV_BAR_PASS)) return;
  hook_ev e = {.kind = HEV_BAR_PASS, .b = b, .w = w, .m = m};
  hook_event(&e);
}
static inline void hook_bar_released(block *b, uint32_t id, int all) {
  if (!hooks_take(b, HEV_BAR_RELEASED)) return;
  hook_ev e = {.kind = HEV_BAR_RELEASED, .b = b, .id = id, .n = (uint32_t)all};
  hook_event(&e);
}
static inline void hook_warpsync(warp *w, uint32_t m) { hook_ev_w(HEV_WARPSYNC, w, m, 0, 0); }
static inline void hook_warpsync_masks(warp *w, uint32_t m, const uint64_t *mask) {
  if (!hooks_take(w->blk, HEV_WARPSYNC_MASKS)) return;
  hook_ev e = {.kind = HEV_WARPSYNC_MASKS, .b = w->blk, .w = w, .m = m, .v = mask};
  hook_event(&e);
}
static inline void hook_sync_error(warp *w, int kind, uint32_t m) {
  hook_ev_w(HEV_SYNC_ERROR, w, m, 0, (uint32_t)kind);
}
static inline void hook_fence(warp *w, uint32_t m) { hook_ev_w(HEV_FENCE, w, m, 0, 0); }
static inline void hook_proxy_fence(warp *w, uint32_t m) { hook_ev_w(HEV_PROXY_FENCE, w, m, 0, 0); }
static inline void hook_cluster_released(block *b) {
  if (!hooks_take(b, HEV_CLUSTER_RELEASED)) return;
  hook_ev e = {.kind = HEV_CLUSTER_RELEASED, .b = b};
  hook_event(&e);
}
static inline void hook_rsv_release(warp *w, const insn *in, uint32_t m, const uint64_t addr[32],
                                    const uint64_t *B) {
  if (!hooks_take(w->blk, HEV_RSV_RELEASE)) return;
  hook_ev e = {.kind = HEV_RSV_RELEASE, .b = w->blk, .w = w, .in = in, .m = m, .a = addr, .v = B};
  hook_event(&e);
}
static inline void hook_mbar_release(warp *w, uint32_t m) { hook_ev_w(HEV_MBAR_RELEASE, w, m, 0, 0); }
static inline void hook_mbar_at(int kind, warp *w, uint64_t a, uint32_t n) {
  if (!hooks_take(w->blk, kind)) return;
  hook_ev e = {.kind = kind, .b = w->blk, .w = w, .n = n, .x = a};
  hook_event(&e);
}
static inline void hook_mbar_tx(warp *w, uint64_t a, uint32_t bytes) {
  hook_mbar_at(HEV_MBAR_TX, w, a, bytes);
}
static inline void hook_mbar_phase(warp *w, uint64_t a) { hook_mbar_at(HEV_MBAR_PHASE, w, a, 0); }
static inline void hook_mbar_init(warp *w, uint64_t a, uint32_t count) {
  hook_mbar_at(HEV_MBAR_INIT, w, a, count);
}
static inline void hook_mbar_wait(warp *w, uint64_t a, int done) {
  hook_mbar_at(HEV_MBAR_WAIT, w, a, (uint32_t)done);
}
static inline void hook_bulk_commit(warp *w, uint32_t m) { hook_ev_w(HEV_BULK_COMMIT, w, m, 0, 0); }
static inline void hook_bulk_wait(warp *w, uint32_t m, uint32_t n) { hook_ev_w(HEV_BULK_WAIT, w, m, 0, n); }
static inline void hook_cp_commit(warp *w, uint32_t m) { hook_ev_w(HEV_CP_COMMIT, w, m, 0, 0); }
static inline void hook_cp_wait(warp *w, uint32_t m, uint32_t n) { hook_ev_w(HEV_CP_WAIT, w, m, 0, n); }
/* A copy of `bytes` in direction dir (ASYNC_*) of kind (PIPE_*), for the
 * pipeline statistics. */
static inline void hook_async_count(warp *w, uint32_t bytes, int dir, int kind) {
  if (!hooks_take(w->blk, HEV_ASYNC_COUNT)) return;
  hook_ev e = {.kind = HEV_ASYNC_COUNT, .b = w->blk, .w = w, .id = (uint32_t)dir, .n = bytes, .k = kind};
  hook_event(&e);
}
/* The race checks' view of shared bytes [sh, sh+bytes) of lane l's copy
 * (a copy whose shared bytes are not contiguous reports each piece): a
 * write (ASYNC_TO_SHARED) released at its completion on the mbarrier, or
 * an async-proxy read that needs fence.proxy.async after generic writes.
 * For a copy into shared memory, sh may be a shared::cluster address of
 * another block of the cluster (the cluster's race check sees it). */
static inline void hook_async_race(warp *w, const insn *in, int l, uint64_t sh, uint32_t bytes, int dir) {
  if (!hooks_take(w->blk, HEV_ASYNC_RACE)) return;
  hook_ev e = {.kind = HEV_ASYNC_RACE,
               .b = w->blk,
               .w = w,
               .in = in,
               .id = (uint32_t)dir,
               .n = bytes,
               .l = l,
               .x = sh};
  hook_event(&e);
}
/* Both: lane l's copy (instruction in) is done. */
static inline void hook_async_copy(warp *w, const insn *in, int l, uint64_t sh, uint32_t bytes, int dir,
                                   int kind) {
  hook_async_count(w, bytes, dir, kind);
  hook_async_race(w, in, l, sh, bytes, dir);
}
static inline void hook_wgmma_issue(warp *w, warp *const ws[4], const insn *in, uint16_t *const ck[4],
                                    const uint32_t nck[4]) {
  if (!hooks_take(w->blk, HEV_WGMMA_ISSUE)) return;
  hook_ev e = {.kind = HEV_WGMMA_ISSUE, .b = w->blk, .w = w, .in = in, .ws = ws, .ck = ck, .nck = nck};
  hook_event(&e);
}
static inline void hook_wgmma_commit(warp *w, uint32_t m) { hook_ev_w(HEV_WGMMA_COMMIT, w, m, 0, 0); }
static inline void hook_wgmma_wait(warp *w, uint32_t m, uint32_t n, int issued) {
  if (!hooks_take(w->blk, HEV_WGMMA_WAIT)) return;
  hook_ev e = {.kind = HEV_WGMMA_WAIT, .b = w->blk, .w = w, .m = m, .n = n, .k = issued};
  hook_event(&e);
}
/* Does the sync check want HEV_WGMMA_EARLY (worth looking for)? */
static inline int hooks_want_sync(const warp *w) { return w->blk->an && w->L->want_sync; }
static inline void hook_wgmma_early(warp *w, uint32_t m) { hook_ev_w(HEV_WGMMA_EARLY, w, m, 0, 0); }

#endif
