/* launch.c: the worker pool of a launch. Each worker owns one cluster's
 * worth of blocks (one block without cluster dimensions): warps, register
 * stacks, local and shared memory, allocated once and reset for every
 * cluster it takes from the launch's counter. */
#include "exec/coop.h"
#include "exec/exec.h"
#include "exec/hooks.h"
#include "exec/sched.h"
#include "exec/watch.h"
#include "exec/wgmma.h"
#include "model/arch.h"
#include "smemu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct worker {
  launch *L;
  block *bs;  /* the cluster's blocks, L->csize of them */
  cluster cl; /* their cluster */
  uint64_t ninsn, nthread;
  int oom;
  int filled; /* its warps' special registers hold the launch's values */
} worker;

static int block_init(block *b, launch *L) {
  const program *P = L->prog;
  b->nthreads = L->nthreads_block;
  b->nwarps = (b->nthreads + 31) / 32;
  b->smem_size = L->smem_size;
  b->smem = calloc(1, b->smem_size ? b->smem_size : 1);
  b->warps = calloc(b->nwarps, sizeof *b->warps);
  b->c_arr = calloc(b->nthreads, sizeof *b->c_arr);
  b->c_wait = calloc(b->nthreads, sizeof *b->c_wait);
  if (!b->smem || !b->warps || !b->c_arr || !b->c_wait) return -1;
  if (L->hooks && !(b->an = analysis_new(L))) return -1;
  uint32_t depth = P->has_calls ? MAX_CALL_DEPTH : 1;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    warp *w = &b->warps[i];
    w->L = L;
    w->blk = b;
    w->index = i;
    w->local_size = L->local_size;
    w->local = calloc(32, L->local_size ? L->local_size : 16);
    w->stack = calloc(64 + 4 * depth, sizeof *w->stack);
    w->frames = calloc(depth, sizeof *w->frames);
    w->reg_cap = P->has_calls ? P->max_regs * 8 + P->funcs[0].nregs : P->funcs[0].nregs;
    w->pred_cap = P->has_calls ? P->max_preds * 8 + P->funcs[0].npreds : P->funcs[0].npreds;
    w->regstack = calloc(w->reg_cap, sizeof *w->regstack);
    w->predstack = calloc(w->pred_cap, sizeof *w->predstack);
    if (!w->local || !w->stack || !w->frames || !w->regstack || !w->predstack) return -1;
  }
  return 0;
}

/* All of a worker's blocks, set up for the launch. */
static int worker_init(worker *k, launch *L) {
  memset(k, 0, sizeof *k);
  k->L = L;
  k->bs = calloc(L->csize, sizeof *k->bs);
  if (!k->bs) return -1;
  k->cl.blocks = k->bs;
  k->cl.n = L->csize;
  k->cl.nthreads = L->csize * L->nthreads_block;
  for (uint32_t i = 0; i < L->csize; i++) {
    k->bs[i].cl = &k->cl;
    k->bs[i].rank = i;
    if (block_init(&k->bs[i], L) < 0) return -1;
  }
  return 0;
}

static void block_free(block *b) {
  for (uint32_t i = 0; b->warps && i < b->nwarps; i++) {
    warp *w = &b->warps[i];
    free(w->local);
    free(w->stack);
    free(w->frames);
    free(w->regstack);
    free(w->predstack);
  }
  free(b->warps);
  free(b->smem);
  free(b->c_arr);
  free(b->c_wait);
  analysis_free(b->an);
  wgmma_block_free(b);
}

static void worker_free(worker *k) {
  for (uint32_t i = 0; k->bs && i < k->cl.n; i++) block_free(&k->bs[i]);
  free(k->bs);
}

/* Fill a frame's special registers and constants from the launch. */
void exec_fill_specials(warp *w, uint64_t (*r)[32], const func_info *f) {
  launch *L = w->L;
  block *b = w->blk;
  uint32_t bx = L->block[0], by = L->block[1];
  /* Shared-memory sizes as an H100 reports them (tests/hw/fidelity/,
   * sregs.txt): %total_smem_size is the static and dynamic bytes without
   * the reserved area, in 128-byte units; the reserved 1 KB has
   * %reserved_smem_offset_end at 288 (what the system uses of it) and the
   * cap at its end. %reserved_smem_offset_0/1 (where cooperative groups
   * keeps the barriers and the exchange slots of tiles wider than a warp,
   * 288 bytes: cooperative_groups/details/memory.h) are the start of that
   * system part, as the offsets of a recorded GPU are (README: reserved
   * shared memory; tests/hw/rsvsmem/record.sh records an H100's). */
  uint32_t rsv = L->prog->smem_reserved, rsv_end = rsv < 288 ? rsv : 288;
  uint32_t total_smem = (L->smem_aggr - rsv + 127) / 128 * 128;
  /* the values every lane shares, computed once (no divisions per lane) */
  uint64_t u[SR_COUNT] = {0};
  u[SR_NTID_X] = bx;
  u[SR_NTID_Y] = by;
  u[SR_NTID_Z] = L->block[2];
  u[SR_CTAID_X] = b->ctaid[0];
  u[SR_CTAID_Y] = b->ctaid[1];
  u[SR_CTAID_Z] = b->ctaid[2];
  u[SR_NCTAID_X] = L->grid[0];
  u[SR_NCTAID_Y] = L->grid[1];
  u[SR_NCTAID_Z] = L->grid[2];
  u[SR_WARPID] = w->index;
  u[SR_NWARPID] = (uint32_t)L->arch->max_warps_per_sm;
  u[SR_SMID] = (uint32_t)(b->linear % L->nsm);
  u[SR_NSMID] = L->nsm;
  u[SR_GRIDID] = 1;
  u[SR_DYN_SMEM] = L->dyn_smem;
  u[SR_TOTAL_SMEM] = total_smem;
  u[SR_AGGR_SMEM] = L->smem_aggr;
  u[SR_RSV_BEGIN] = 0;
  u[SR_RSV_END] = rsv_end;
  u[SR_RSV_CAP] = rsv;
  u[SR_RSV_OFF] = 0;
  u[SR_ZERO] = 0;
  u[SR_ONE] = 1;
  u[SR_ENVREG1] = L->grid_ws >> 32;
  u[SR_ENVREG2] = (uint32_t)L->grid_ws;
  for (int i = 0; i < 3; i++) {
    u[SR_CLUSTER_CTAID_X + i] = b->cctaid[i];
    u[SR_CLUSTER_NCTAID_X + i] = L->cdim[i];
    u[SR_CLUSTERID_X + i] = b->cl->cid[i];
    u[SR_NCLUSTERID_X + i] = L->grid[i] / L->cdim[i];
  }
  u[SR_CLUSTER_CTARANK] = b->rank;
  u[SR_CLUSTER_NCTARANK] = L->csize;
  /* the uniform ones: [NTID_X, NCTAID_Z], [WARPID, GRIDID], [DYN_SMEM, end) */
  static const int ranges[3][2] = {
      {SR_NTID_X, SR_NCTAID_Z + 1}, {SR_WARPID, SR_GRIDID + 1}, {SR_DYN_SMEM, SR_COUNT}};
  for (int k = 0; k < 3; k++)
    for (int i = ranges[k][0]; i < ranges[k][1]; i++) {
      uint64_t v = u[i], *d = r[i];
      for (int l = 0; l < 32; l += 4) {
        d[l] = v;
        d[l + 1] = v;
        d[l + 2] = v;
        d[l + 3] = v;
      }
    }
  /* %tid of lane l is that of thread t = 32 * warp + l: t % bx, t / bx %
   * by, t / (bx * by), stepped lane by lane from the first */
  uint32_t t0 = w->index * 32, tx = t0 % bx, ty = t0 / bx % by, tz = t0 / (bx * by);
  for (int l = 0; l < 32; l++) {
    r[SR_TID_X][l] = tx;
    r[SR_TID_Y][l] = ty;
    r[SR_TID_Z][l] = tz;
    if (++tx == bx) {
      tx = 0;
      if (++ty == by) {
        ty = 0;
        tz++;
      }
    }
    r[SR_LANEID][l] = (uint32_t)l;
    r[SR_LANEMASK_EQ][l] = 1u << l;
    r[SR_LANEMASK_LT][l] = (1u << l) - 1;
    r[SR_LANEMASK_LE][l] = l == 31 ? FULL_MASK : (2u << l) - 1;
    r[SR_LANEMASK_GT][l] = l == 31 ? 0 : ~((2u << l) - 1);
    r[SR_LANEMASK_GE][l] = ~((1u << l) - 1);
  }
  uint32_t c0 = f->nregs - f->nconsts;
  for (uint32_t c = 0; c < f->nconsts; c++)
    for (int l = 0; l < 32; l++) r[c0 + c][l] = f->consts[c];
}

/* The special registers that differ between the blocks a warp runs in one
 * launch (a warp keeps its index and rank, so %tid, %laneid, the masks and
 * the launch's sizes stay as exec_fill_specials set them; no instruction
 * writes a special register or a constant slot: decode.c rejects it).
 * Only those whose value changed are written (of a 1-D grid, %ctaid.x and
 * %smid). */
#define NREFILL 7
static const int refill_slot[NREFILL] = {SR_CTAID_X,     SR_CTAID_Y,     SR_CTAID_Z,    SR_SMID,
                                         SR_CLUSTERID_X, SR_CLUSTERID_Y, SR_CLUSTERID_Z};
static void refill_block_specials(warp *w, const uint64_t v[NREFILL]) {
  uint64_t(*r)[32] = w->r;
  for (int k = 0; k < NREFILL; k++)
    if (r[refill_slot[k]][0] != v[k])
      for (int l = 0; l < 32; l++) r[refill_slot[k]][l] = v[k];
}

/* Block b (rank b->rank) of cluster c, whose %clusterid is set; `refill`:
 * the block's warps ran a block of this launch before, so only the
 * block-dependent special registers are set again. */
static void block_reset(launch *L, cluster *c, block *b, int refill) {
  const program *P = L->prog;
  uint32_t r = b->rank;
  b->cctaid[0] = r % L->cdim[0];
  b->cctaid[1] = r / L->cdim[0] % L->cdim[1];
  b->cctaid[2] = r / (L->cdim[0] * L->cdim[1]);
  for (int i = 0; i < 3; i++) b->ctaid[i] = c->cid[i] * L->cdim[i] + b->cctaid[i];
  b->linear = b->ctaid[0] + L->grid[0] * (b->ctaid[1] + L->grid[1] * b->ctaid[2]);
  b->exited_threads = 0;
  b->async_progress = 0;
  memset(b->c_arr, 0, b->nthreads * sizeof *b->c_arr);
  memset(b->c_wait, 0, b->nthreads * sizeof *b->c_wait);
  b->fault = 0;
  memset(b->bar, 0, sizeof b->bar);
  for (int i = 0; i < MAX_BARRIERS; i++) b->bar[i].red_and = 1;
  memset(b->smem, 0, b->smem_size);
  wgmma_block_reset(b);
  const uint64_t v[NREFILL] = {b->ctaid[0], b->ctaid[1], b->ctaid[2], (uint32_t)(b->linear % L->nsm),
                               c->cid[0],   c->cid[1],   c->cid[2]};
  for (uint32_t i = 0; i < b->nwarps; i++) {
    warp *w = &b->warps[i];
    uint32_t n = b->nthreads - i * 32;
    w->valid = n >= 32 ? FULL_MASK : (1u << n) - 1;
    w->exited = 0;
    w->state = W_RUN;
    w->sp = 1;
    w->stack[0] = (simt_entry){P->funcs[0].entry, NO_RPC, w->valid, 0, ~0u, 0, 0, 0};
    w->nframes = 1;
    w->frames[0] = (frame){0, 0, 0, 0, 0, 0, 0};
    w->r = w->regstack;
    w->p = w->predstack;
    w->local_base = 0;
    /* the allocations a warp last used stay cached from block to block
     * (a launch's allocations stay put): a warp whose block touches each
     * array once would otherwise look every one up anew. With analyses
     * on, a block's first access to an allocation stays the handler's,
     * whose hooks the checks see. */
    if (L->hooks) w->gcache = w->gcache2 = NULL;
    memset(w->arrive_mask, 0, sizeof w->arrive_mask);
    w->nreg_count = w->nreg_last = 0;
    w->alloca_low = 0;
    w->polls = 0;
    w->cas_lost = 0;
    w->deferred = 0;
    memset(w->alloca_used, 0, sizeof w->alloca_used);
    w->p[PRED_TRUE] = FULL_MASK;
    w->p[PRED_FALSE] = 0;
    w->p[PRED_EXPLICIT] = L->cluster_explicit ? FULL_MASK : 0;
    if (refill)
      refill_block_specials(w, v);
    else
      exec_fill_specials(w, w->r, &P->funcs[0]);
  }
}

static void *worker_main(void *arg) {
  worker *k = arg;
  launch *L = k->L;
  cluster *c = &k->cl;
  uint64_t nclusters = L->nblocks / L->csize;
  uint32_t ng[3] = {L->grid[0] / L->cdim[0], L->grid[1] / L->cdim[1], L->grid[2] / L->cdim[2]};
  if (L->gate) coop_enter(L->gate);
  for (;;) {
    if (atomic_load(&L->abort)) break;
    /* the counter hands out clusters (blocks without cluster dimensions) */
    uint64_t i = atomic_fetch_add(&L->next_block, 1);
    if (i >= nclusters) break;
    c->cid[0] = (uint32_t)(i % ng[0]);
    c->cid[1] = (uint32_t)(i / ng[0] % ng[1]);
    c->cid[2] = (uint32_t)(i / ((uint64_t)ng[0] * ng[1]));
    c->phase = 0;
    c->arrived = 0;
    c->seq = 0;
    for (uint32_t r = 0; r < c->n; r++) {
      block_reset(L, c, &k->bs[r], k->filled);
      if (L->hooks) hook_block_start(&k->bs[r]);
    }
    k->filled = 1;
    cluster_run(c);
    if (L->hooks)
      for (uint32_t r = 0; r < c->n; r++) hook_block_end(&k->bs[r]);
    for (uint32_t r = 0; r < c->n; r++) {
      block *b = &k->bs[r];
      for (uint32_t j = 0; j < b->nwarps; j++) {
        k->ninsn += b->warps[j].ninsn;
        k->nthread += b->warps[j].nthread;
        b->warps[j].ninsn = b->warps[j].nthread = 0;
      }
    }
    atomic_fetch_add(&L->blocks_done, c->n);
  }
  sched_flush(c);
  /* no more blocks from this worker: the hang check counts the others */
  atomic_fetch_sub(&L->nactive, 1);
  if (L->gate) coop_leave(L->gate);
  return NULL;
}

int exec_launch(launch *L, int nworkers) {
  if (nworkers < 1) nworkers = 1;
  if (!L->csize) {
    L->cdim[0] = L->cdim[1] = L->cdim[2] = 1;
    L->csize = 1;
  }
  /* a cooperative launch keeps every block resident: one worker each, so
   * that a block spinning at grid.sync() lets the others run (the launch
   * was checked against what fits the device at once); nworkers of them
   * run at a time */
  if (L->cooperative) {
    if (!(L->gate = coop_gate_new(nworkers))) {
      snprintf(L->msg, sizeof L->msg, "out of host memory for a cooperative launch");
      return L->status = SMEMU_ERR_OUT_OF_MEMORY;
    }
    nworkers = (int)(L->nblocks / L->csize);
  }
  if ((uint64_t)nworkers > L->nblocks / L->csize) nworkers = (int)(L->nblocks / L->csize);
  if (!L->max_warp_insns) L->max_warp_insns = UINT64_MAX;
  worker *ks = calloc((size_t)nworkers, sizeof *ks);
  pthread_t *th = calloc((size_t)nworkers, sizeof *th);
  int ok = ks && th;
  for (int i = 0; ok && i < nworkers; i++)
    if (worker_init(&ks[i], L) < 0) ok = 0;
  if (!ok) {
    for (int i = 0; ks && i < nworkers; i++) worker_free(&ks[i]);
    free(ks);
    free(th);
    coop_gate_free(L->gate);
    L->gate = NULL;
    snprintf(L->msg, sizeof L->msg, "out of host memory for %u threads per block", L->nthreads_block);
    return L->status = SMEMU_ERR_OUT_OF_MEMORY;
  }
  int started = 0;
  atomic_store(&L->nactive, nworkers);
  watch wt;
  watch_start(&wt, L);
  for (int i = 1; i < nworkers; i++)
    if (pthread_create(&th[i], NULL, worker_main, &ks[i]) == 0)
      started = i;
    else
      break;
  /* workers that could not be started take no blocks */
  atomic_fetch_sub(&L->nactive, nworkers - 1 - started);
  worker_main(&ks[0]);
  for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
  watch_stop(&wt);
  uint64_t wi = 0, ti = 0;
  for (int i = 0; i < nworkers; i++) {
    for (uint32_t r = 0; L->result && ks[i].bs && r < L->csize; r++)
      if (ks[i].bs[r].an) analysis_merge(L->result, ks[i].bs[r].an);
    wi += ks[i].ninsn;
    ti += ks[i].nthread;
    worker_free(&ks[i]);
  }
  coop_gate_free(L->gate);
  L->gate = NULL;
  atomic_store(&L->warp_insns, wi);
  atomic_store(&L->thread_insns, ti);
  free(ks);
  free(th);
  return L->status;
}
