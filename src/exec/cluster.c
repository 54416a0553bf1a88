/* cluster.c: thread-block clusters (sm_90). barrier.cluster.arrive/wait
 * across the blocks of a cluster, mapa and getctarank on shared::cluster
 * addresses (layout in cluster.h), isspacep for the cluster window, the
 * deadlock report of a cluster barrier that can never complete (the race
 * check between blocks of a cluster is check/crace.c's).
 *
 * The barrier: each thread arrives once per phase and waits for the phase
 * it arrived in; a phase completes when every thread of the cluster has
 * arrived or exited (exited threads release it, as for bar.sync). Per
 * thread, block.c_arr counts arrivals and c_wait completed waits. */
#include "exec/cluster.h"
#include "exec/hooks.h"
#include "exec/sched.h"
#include "smemu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- barrier.cluster ---- */
enum { CB_ARRIVE, CB_WAIT };

static inline int thread_exited(const block *b, uint32_t t) {
  return b->warps[t / 32].exited >> (t % 32) & 1;
}

/* The phase completed: every waiting thread goes on. */
static void complete(cluster *c) {
  c->phase++;
  c->arrived = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    block *b = &c->blocks[i];
    hook_cluster_released(b);
    for (uint32_t j = 0; j < b->nwarps; j++) {
      warp *w = &b->warps[j];
      int any = 0;
      for (uint32_t k = 0; k < w->sp; k++) {
        simt_entry *e = &w->stack[k];
        if (e->blocked != CLUSTER_BAR + 1) continue;
        e->blocked = 0;
        any = 1;
        LANES(e->mask, b->c_wait[j * 32 + (uint32_t)l] = b->c_arr[j * 32 + (uint32_t)l]);
      }
      if (any && w->state == W_BAR && !w->stack[w->sp - 1].blocked) w->state = W_RUN;
    }
  }
}

/* Complete the cluster barrier when every live thread has arrived (after
 * arrivals and exits). */
static void cluster_check(cluster *c) {
  if (!c || !c->arrived) return;
  uint32_t ex = 0;
  for (uint32_t i = 0; i < c->n; i++) ex += c->blocks[i].exited_threads;
  if (c->arrived + ex < c->nthreads) return;
  /* a thread that arrived and then exited counts once */
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    const block *b = &c->blocks[i];
    for (uint32_t t = 0; t < b->nthreads; t++) n += b->c_arr[t] > c->phase || thread_exited(b, t);
  }
  if (n >= c->nthreads) complete(c);
}

static void h_cbar(warp *w, const insn *in, uint32_t m) {
  if (!m) return;
  block *b = w->blk;
  cluster *c = b->cl;
  uint32_t base = w->index * 32, bad = 0, live = w->valid & ~w->exited;
  if ((in->type2 & 2) && m != live) {
    /* .aligned: every live thread of the warp executes it together. The
     * H100 hangs when lanes of one warp reach it apart (recorded:
     * tests/hw/cluster bad7), so this is reported as a deadlock */
    exec_fault(w, __builtin_ctz(m), SMEMU_ERR_DEADLOCK,
               "deadlock: barrier.cluster.%s.aligned executed by lanes 0x%08x of the warp's 0x%08x: .aligned "
               "needs the whole warp converged (use the form without .aligned in divergent code); the GPU "
               "hangs here",
               in->mode == CB_ARRIVE ? "arrive" : "wait", m, live);
    return;
  }
  if (in->mode == CB_ARRIVE) {
    LANES(m, bad |= (uint32_t)(b->c_arr[base + (uint32_t)l] != b->c_wait[base + (uint32_t)l]) << l);
    if (bad) {
      exec_fault(
          w, __builtin_ctz(bad), SMEMU_ERR_ILLEGAL_INSTRUCTION,
          "barrier.cluster.arrive again before barrier.cluster.wait (each thread arrives once per phase, "
          "then waits)");
      return;
    }
    LANES(m, b->c_arr[base + (uint32_t)l]++);
    c->arrived += (uint32_t)__builtin_popcount(m);
    cluster_check(c);
    return;
  }
  LANES(m, bad |= (uint32_t)(b->c_arr[base + (uint32_t)l] == b->c_wait[base + (uint32_t)l]) << l);
  if (bad) {
    exec_fault(
        w, __builtin_ctz(bad), SMEMU_ERR_ILLEGAL_INSTRUCTION,
        "barrier.cluster.wait without a barrier.cluster.arrive before it: the thread would wait for its "
        "own arrival");
    return;
  }
  uint32_t done = 0;
  LANES(m, done |= (uint32_t)(b->c_arr[base + (uint32_t)l] <= c->phase) << l);
  LANES(done, b->c_wait[base + (uint32_t)l] = b->c_arr[base + (uint32_t)l]);
  if (done == m) return;
  /* the lanes whose phase is still open wait (they all arrived in the
   * current phase: a thread cannot be two phases ahead) */
  simt_entry *t = &w->stack[w->sp - 1];
  if (done) {
    /* lanes already past go on as their own path */
    exec_fault(w, __builtin_ctz(m & ~done), SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "barrier.cluster.wait: lanes of one warp wait for different phases");
    return;
  }
  t->blocked = CLUSTER_BAR + 1;
  if (!simt_run_sibling(w)) w->state = W_BAR;
}

/* barrier.cluster.arrive{.release|.relaxed}{.aligned};
 * barrier.cluster.wait{.acquire}{.aligned}; */
int dec_barrier_cluster(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "arrive")) {
    in->mode = CB_ARRIVE;
    if (dec_take(S, "relaxed"))
      in->type2 = 1;
    else
      dec_take(S, "release");
  } else if (dec_take(S, "wait")) {
    in->mode = CB_WAIT;
    dec_take(S, "acquire");
  } else {
    return dec_error(D, S, -1, "expected barrier.cluster.arrive or barrier.cluster.wait");
  }
  if (dec_take(S, "aligned")) in->type2 |= 2;
  if (dec_nops(D, S, 0) < 0) return -1;
  in->fn = h_cbar;
  return 0;
}

/* Threads of warp w that wait at the cluster barrier. */
static uint32_t cbar_waiters(const warp *w) {
  uint32_t m = 0;
  for (uint32_t k = 0; k < w->sp; k++)
    if (w->stack[k].blocked == CLUSTER_BAR + 1) m |= w->stack[k].mask;
  return m;
}

static int cluster_deadlock(cluster *c) {
  warp *w0 = NULL;
  uint32_t waiting = 0, exited = 0, elsewhere = 0;
  char lines[1200];
  size_t k = 0;
  lines[0] = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    block *b = &c->blocks[i];
    exited += b->exited_threads;
    for (uint32_t j = 0; j < b->nwarps; j++) {
      warp *w = &b->warps[j];
      uint32_t cw = cbar_waiters(w);
      if (cw && !w0) w0 = w;
      waiting += (uint32_t)__builtin_popcount(cw);
      /* threads held elsewhere: at a block barrier or an mbarrier */
      for (uint32_t s = 0; s < w->sp; s++) {
        simt_entry *e = &w->stack[s];
        if (!e->mask || e->blocked == CLUSTER_BAR + 1 || w->state == W_DONE) continue;
        uint32_t n = (uint32_t)__builtin_popcount(e->mask);
        elsewhere += n;
        if (k < sizeof lines - 200 && (s == w->sp - 1 || e->blocked)) {
          char where[512];
          uint32_t pc = e->blocked ? e->pc - 1 : (w->state == W_SPIN ? w->spin_pc : e->pc);
          exec_where(w->L->prog, pc, where, sizeof where);
          k += (size_t)snprintf(lines + k, sizeof lines - k,
                                "\n    block rank %u (block (%u,%u,%u)) warp %u: %u thread(s) %s at %s", i,
                                b->ctaid[0], b->ctaid[1], b->ctaid[2], j, n,
                                e->blocked           ? "wait at a block barrier"
                                : w->state == W_SPIN ? "wait on an mbarrier"
                                                     : "are held",
                                where);
        }
      }
    }
  }
  if (!w0) return 0;
  for (uint32_t s = 0; s < w0->sp; s++)
    if (w0->stack[s].blocked == CLUSTER_BAR + 1) w0->pc = w0->stack[s].pc - 1;
  exec_fault(
      w0, -1, SMEMU_ERR_DEADLOCK,
      "deadlock: %u thread(s) wait at barrier.cluster.wait, which can never complete: %u of the cluster's %u "
      "threads arrived in this phase, %u have exited, %u wait elsewhere%s",
      waiting, c->arrived, c->nthreads, exited, elsewhere, lines);
  return 1;
}

/* ---- mapa, getctarank, isspacep ---- */
/* mode bit 0: generic addresses (mapa.u64 / getctarank.u64 without a space) */
/* The 32-bit shared address of lane l's operand a (a generic address when
 * `generic`) in *out; 0 after a fault naming `what` when a generic address
 * is not in shared memory. */
static int shared_operand(warp *w, int l, uint64_t a, int generic, const char *what, uint64_t *out) {
  if (generic) {
    if (a - SHARED_WINDOW >= WINDOW_SIZE) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_ADDRESS,
                 "%s of generic address 0x%llx, which is not in shared memory", what, (unsigned long long)a);
      return 0;
    }
    a -= SHARED_WINDOW;
  }
  *out = a & 0xffffffffu;
  return 1;
}

static void h_mapa(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  uint64_t *D = w->r[in->d];
  uint64_t out[32] = {0};
  int generic = in->mode & 1;
  LANES(m, {
    uint64_t a;
    if (!shared_operand(w, l, A[l], generic, "mapa", &a)) return;
    uint64_t off = a < CLUSTER_BASE ? a : (a - CLUSTER_BASE) % CLUSTER_STRIDE;
    uint64_t r = (uint32_t)B[l];
    /* a rank past the cluster gives an address that faults when used, naming the rank */
    if (r > 255) r = 255;
    /* the own rank maps to the shared::cta address itself */
    uint64_t c = r == w->blk->rank ? off : CLUSTER_BASE + r * CLUSTER_STRIDE + off;
    out[l] = c + (generic ? SHARED_WINDOW : 0);
  });
  LANES(m, D[l] = in->vec == 4 ? out[l] & 0xffffffffu : out[l]);
}

static void h_getctarank(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a];
  uint64_t *D = w->r[in->d];
  uint32_t out[32] = {0};
  LANES(m, {
    uint64_t a;
    if (!shared_operand(w, l, A[l], in->mode & 1, "getctarank", &a)) return;
    out[l] = a < CLUSTER_BASE ? w->blk->rank : (uint32_t)((a - CLUSTER_BASE) / CLUSTER_STRIDE);
  });
  LANES(m, D[l] = out[l]);
}

/* mapa{.shared::cluster}.{u32,u64} d, a, rank */
int dec_mapa(dctx *D, dstmt *S, insn *in) {
  int sp = dec_take(S, "shared::cluster");
  if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 3) < 0) return -1;
  int t = S->types[0];
  if (t != PTX_T_U32 && t != PTX_T_U64 && t != PTX_T_B32 && t != PTX_T_B64)
    return dec_error(D, S, -1, "mapa takes .u32 or .u64");
  in->vec = (uint8_t)ptx_type_size(t);
  in->mode = (uint8_t)!sp;
  if (!sp && in->vec != 8) return dec_error(D, S, -1, "mapa of a generic address takes .u64");
  if (dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, t, &in->a) < 0 ||
      dec_src(D, S, 2, PTX_T_U32, &in->b) < 0)
    return -1;
  in->fn = h_mapa;
  return 0;
}

/* getctarank{.shared::cluster}.{u32,u64} d, a */
int dec_getctarank(dctx *D, dstmt *S, insn *in) {
  int sp = dec_take(S, "shared::cluster");
  if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 2) < 0) return -1;
  int t = S->types[0];
  if (t != PTX_T_U32 && t != PTX_T_U64 && t != PTX_T_B32 && t != PTX_T_B64)
    return dec_error(D, S, -1, "getctarank takes .u32 or .u64");
  in->mode = (uint8_t)!sp;
  if (dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, t, &in->a) < 0) return -1;
  in->fn = h_getctarank;
  return 0;
}

int cluster_isspacep(const warp *w, uint64_t a, int cluster_space) {
  if (a - SHARED_WINDOW >= WINDOW_SIZE) return 0;
  a -= SHARED_WINDOW;
  if (a < CLUSTER_BASE) return 1;
  uint64_t r = (a - CLUSTER_BASE) / CLUSTER_STRIDE;
  if (cluster_space) return r < w->blk->cl->n;
  return r == w->blk->rank;
}

/* The scheduler completes the cluster barrier after arrivals and exits,
 * and asks it first when every warp waits. */
static const sched_waits cluster_waits = {.check = cluster_check, .deadlock = cluster_deadlock};
SCHED_REGISTER(cluster_waits)
