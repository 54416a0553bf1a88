/* mbarrier.c: the mbarrier instructions (sm_80/sm_90): init, inval,
 * arrive (with a count, .noComplete, arrive_drop), arrive(_drop).expect_tx,
 * expect_tx, complete_tx, test_wait / try_wait (with a state token or a
 * phase parity) and pending_count, on the state layout of async.h; and
 * cp.async.mbarrier.arrive(.noinc), the arrive-on triggered when the
 * thread's earlier cp.async copies complete.
 *
 * Misuse is reported as a fault naming the barrier's state: arriving on a
 * barrier never initialised or invalidated, more arrivals than pending,
 * init of a valid barrier, more transaction bytes than a phase expects.
 * A failed wait yields the warp (W_SPIN) so that the warps it waits for
 * can run; when every live warp only spins and no barrier changes, the
 * scheduler calls mbar_deadlock, which names each barrier waited on with
 * its pending arrivals and transaction bytes. */
#include "async/async.h"
#include "exec/cluster.h"
#include "exec/hooks.h"
#include "exec/sched.h"
#include "ir/decode.h"
#include "smemu.h"
#include <stdio.h>

enum {
  MB_INIT,
  MB_INVAL,
  MB_ARRIVE,
  MB_ARRIVE_TX,
  MB_DROP,
  MB_EXPECT_TX,
  MB_COMPLETE_TX,
  MB_TEST,
  MB_TRY,
  MB_PENDING
};
/* insn.type2 bits */
enum { MBF_PARITY = 1, MBF_NOCOMPLETE = 2, MBF_HAS_COUNT = 4, MBF_TX = 8 /* arrive_drop.expect_tx */ };

#define F_EXPECTED(s) ((uint32_t)((s)&0xfffff))
#define F_PENDING(s) ((uint32_t)(((s) >> 20) & 0xfffff))
#define F_PHASE(s) ((uint32_t)((s) >> 61 & 1))
#define F_INVALID(s) ((s) >> 62 & 1)
#define F_VALID(s) ((s) >> 63 & 1)
static int32_t f_tx(uint64_t s) {
  int32_t t = (int32_t)((s >> 40) & 0x1fffff);
  return t & 0x100000 ? t - 0x200000 : t;
}
static uint64_t pack(uint32_t expected, uint32_t pending, int32_t tx, uint32_t phase) {
  return 1ull << 63 | (uint64_t)phase << 61 | ((uint64_t)(uint32_t)tx & 0x1fffff) << 40 |
         (uint64_t)pending << 20 | expected;
}

/* "shared 0x40 (bar)" */
static void describe(warp *w, uint64_t a, char *buf, size_t n) {
  const program *P = w->L->prog;
  const placed_var *best = NULL;
  for (uint32_t i = 0; i < P->nvars; i++) {
    const placed_var *v = &P->vars[i];
    if (v->space == PTX_SPACE_SHARED && a >= v->addr && (v->dynamic || a < v->addr + v->size))
      if (!best || v->addr > best->addr) best = v;
  }
  if (best && a == best->addr)
    snprintf(buf, n, "shared 0x%llx (%s)", (unsigned long long)a, best->name);
  else if (best)
    snprintf(buf, n, "shared 0x%llx (%s + %llu)", (unsigned long long)a, best->name,
             (unsigned long long)(a - best->addr));
  else
    snprintf(buf, n, "shared 0x%llx", (unsigned long long)a);
}

static void state_text(uint64_t s, char *buf, size_t n) {
  if (!F_VALID(s)) {
    snprintf(buf, n, F_INVALID(s) ? "invalidated" : "never initialised");
    return;
  }
  int tx = f_tx(s);
  snprintf(buf, n, "phase parity %u, %u of %u arrivals pending, %d transaction bytes pending%s", F_PHASE(s),
           F_PENDING(s), F_EXPECTED(s), tx,
           tx < 0 ? " (bytes completed before any expect_tx announced them)" : "");
}

/* The barrier word of lane l: its shared offset in *off and host pointer. */
static uint8_t *bar_ptr(warp *w, const insn *in, int l, uint64_t *off) {
  uint64_t a = w->r[in->a][l] + (uint64_t)in->imm;
  if (in->space == PTX_SPACE_SHARED_CLUSTER) {
    /* possibly a barrier of another block of the cluster (exec/cluster.h):
     * *off is its offset in that block */
    uint8_t *p = exec_addr(w, l, in->space, a, 8, 1);
    if (p) cluster_target(w, a & 0xffffffffu, off);
    return p;
  }
  if (in->space == PTX_SPACE_GENERIC) {
    if (a - SHARED_WINDOW >= WINDOW_SIZE) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_ADDRESS, "mbarrier at 0x%llx: an mbarrier lives in shared memory",
                 (unsigned long long)a);
      return NULL;
    }
    a -= SHARED_WINDOW;
  }
  *off = a;
  return exec_addr(w, l, PTX_SPACE_SHARED, a, 8, 1);
}

static uint64_t load(const uint8_t *p) {
  uint64_t s;
  memcpy(&s, p, 8);
  return s;
}
static void store(warp *w, uint8_t *p, uint64_t s) {
  memcpy(p, &s, 8);
  w->blk->async_progress++;
}
/* store, telling the pipeline statistics of a completed phase */
static void store_at(warp *w, uint8_t *p, uint64_t a, uint64_t s) {
  uint64_t old = load(p);
  store(w, p, s);
  if ((old >> 63 & 1) && (s >> 63 & 1) && ((old ^ s) >> 61 & 1)) hook_mbar_phase(w, a);
}

/* A phase whose arrivals are all in completes once its transaction count
 * reaches zero (bytes that completed before the last arrival may leave it
 * below zero: the phase completes then too). */
static uint64_t settle(uint64_t s) {
  if (F_PENDING(s) == 0 && f_tx(s) <= 0) return pack(F_EXPECTED(s), F_EXPECTED(s), 0, F_PHASE(s) ^ 1);
  return s;
}

static int need_valid(warp *w, int l, uint64_t a, uint64_t s, const char *what) {
  if (F_VALID(s)) return 1;
  char where[96];
  describe(w, a, where, sizeof where);
  exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION, "%s on the mbarrier at %s, which is %s", what, where,
             F_INVALID(s) ? "invalidated (mbarrier.inval): init it again first"
                          : "not initialised (no mbarrier.init on it)");
  return 0;
}

/* Transaction bytes: the count stays within the hardware's range. */
static int add_tx(warp *w, int l, uint64_t a, uint64_t *s, int64_t delta, const char *what) {
  int64_t t = (int64_t)f_tx(*s) + delta;
  if (t > 0xfffff || t < -0xfffff) {
    char where[96], st[200];
    describe(w, a, where, sizeof where);
    state_text(*s, st, sizeof st);
    exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "%s of %lld bytes on the mbarrier at %s takes its transaction count out of range "
               "(+-(2^20-1)); it has %s",
               what, (long long)(delta < 0 ? -delta : delta), where, st);
    return 0;
  }
  *s = pack(F_EXPECTED(*s), F_PENDING(*s), (int32_t)t, F_PHASE(*s));
  return 1;
}

/* Completing more bytes than a phase whose arrivals are all in still
 * expects is an over-run. The H100 did not behave the same way twice
 * (tests/hw/modern mbar_bad4: the phase completed in one recording and
 * never in the next), so smemu reports it. Before all arrivals are in,
 * bytes may complete ahead of the expect_tx that announces them. */
static int overrun(warp *w, int l, uint64_t a, uint64_t s, uint32_t bytes, const char *what) {
  if (F_PENDING(s) != 0 || f_tx(s) <= 0 || (int64_t)bytes <= f_tx(s)) return 0;
  char where[96], st[200];
  describe(w, a, where, sizeof where);
  state_text(s, st, sizeof st);
  exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
             "transaction over-run: %s of %u bytes on the mbarrier at %s, which has %s", what, bytes, where,
             st);
  return 1;
}

int mbar_complete_tx(warp *w, int l, uint64_t ca, uint32_t bytes) {
  /* a barrier of another block of the cluster (a multicast or remote
   * copy): checked as a remote access (rank, bounds, exited block); a is
   * then its offset in that block */
  uint64_t a = ca;
  uint8_t *p;
  if (ca < CLUSTER_BASE || ca >> 32) {
    p = exec_addr(w, l, PTX_SPACE_SHARED, ca, 8, 1);
  } else {
    p = exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, ca, 8, 1);
    if (p) cluster_rank(w, ca, &a);
  }
  if (!p) return -1;
  uint64_t s = load(p);
  if (!need_valid(w, l, a, s, "a bulk copy's complete_tx")) return -1;
  if (overrun(w, l, a, s, bytes, "a bulk copy completing")) return -1;
  if (!add_tx(w, l, a, &s, -(int64_t)bytes, "complete_tx")) return -1;
  hook_mbar_tx(w, a, bytes);
  store_at(w, p, a, settle(s));
  return 0;
}

static void h_mbarrier(warp *w, const insn *in, uint32_t m) {
  const uint64_t *B = w->r[in->b];
  uint32_t done = 0, arrived = 0;
  int waited = 0;
  uint64_t wait_addr = 0;
  LANES(m, {
    uint64_t a;
    uint8_t *p;
    if (in->mode == MB_PENDING) { /* from a state token alone */
      w->r[in->d][l] = (B[l] >> 1) & 0xfffff;
      continue;
    }
    if (!(p = bar_ptr(w, in, l, &a))) return;
    uint64_t s = load(p);
    switch (in->mode) {
    case MB_INIT: {
      uint32_t n = (uint32_t)B[l];
      if (n == 0 || n > 0xfffff) {
        exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                   "mbarrier.init with count %u (it must be 1 .. 2^20-1)", n);
        return;
      }
      if (F_VALID(s) && s == pack(n, n, 0, 0)) {
        /* the same init again on a barrier nothing touched since (several
         * threads initialising it before a __syncthreads): the state does
         * not change. An H100 runs it and compute-sanitizer (synccheck,
         * racecheck, memcheck) reports nothing (tests/hw/async_pipeline, init) */
        break;
      }
      if (F_VALID(s)) {
        /* the PTX ISA leaves init of a valid object undefined: a barrier
         * reused without mbarrier.inval may still have waiters */
        char where[96], st[200];
        describe(w, a, where, sizeof where);
        state_text(s, st, sizeof st);
        exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                   "mbarrier.init on the mbarrier at %s, which is still valid (%s): invalidate it with "
                   "mbarrier.inval before initialising it again",
                   where, st);
        return;
      }
      store(w, p, pack(n, n, 0, 0));
      hook_mbar_init(w, a, n);
      break;
    }
    case MB_INVAL:
      store(w, p, 1ull << 62);
      break;
    case MB_EXPECT_TX:
    case MB_COMPLETE_TX: {
      if (!need_valid(w, l, a, s, in->mode == MB_EXPECT_TX ? "mbarrier.expect_tx" : "mbarrier.complete_tx"))
        return;
      int64_t n = (int64_t)(uint32_t)B[l];
      if (in->mode == MB_COMPLETE_TX && overrun(w, l, a, s, (uint32_t)n, "mbarrier.complete_tx")) return;
      if (!add_tx(w, l, a, &s, in->mode == MB_EXPECT_TX ? n : -n,
                  in->mode == MB_EXPECT_TX ? "expect_tx" : "complete_tx"))
        return;
      store_at(w, p, a, settle(s));
      break;
    }
    case MB_ARRIVE:
    case MB_ARRIVE_TX:
    case MB_DROP: {
      if (!need_valid(w, l, a, s, "mbarrier.arrive")) return;
      int tx = in->mode == MB_ARRIVE_TX || (in->type2 & MBF_TX);
      uint32_t n = tx ? 1 : (in->type2 & MBF_HAS_COUNT) ? (uint32_t)w->r[in->c][l] : 1;
      if (tx && !add_tx(w, l, a, &s, (int64_t)(uint32_t)w->r[in->c][l], "expect_tx")) return;
      if (n == 0 || n > F_PENDING(s)) {
        char where[96], st[200];
        describe(w, a, where, sizeof where);
        state_text(s, st, sizeof st);
        exec_fault(
            w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
            "mbarrier.arrive with count %u on the mbarrier at %s, which has %s: more arrivals than the "
            "phase expects",
            n, where, st);
        return;
      }
      uint32_t phase = F_PHASE(s), left = F_PENDING(s) - n, expected = F_EXPECTED(s);
      if (in->mode == MB_DROP) expected -= n; /* later phases expect fewer */
      if ((in->type2 & MBF_NOCOMPLETE) && left == 0 && f_tx(s) <= 0) {
        exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
                   "mbarrier.arrive.noComplete completed the phase (it must not)");
        return;
      }
      s = settle(pack(expected, left, f_tx(s), phase));
      store_at(w, p, a, s);
      arrived |= 1u << l;
      /* the state token: the phase arrived on and the arrivals pending
       * before this one (pending_count gives them: 128 for the first of 128
       * arrivals on an H100, tests/hw/modern mbar_ok) */
      if (in->d != SLOT_SINK) w->r[in->d][l] = phase | (uint64_t)(left + n) << 1;
      break;
    }
    case MB_TEST:
    case MB_TRY: {
      if (!need_valid(w, l, a, s, in->mode == MB_TEST ? "mbarrier.test_wait" : "mbarrier.try_wait")) return;
      /* complete when the current phase is no longer the one asked about */
      uint32_t asked = (uint32_t)(B[l] & 1);
      if (F_PHASE(s) != asked)
        done |= 1u << l;
      else {
        waited = 1;
        wait_addr = a;
      }
      hook_mbar_wait(w, a, F_PHASE(s) != asked);
      break;
    }
    }
  });
  /* for the race checks an arrival releases the arriving threads' earlier
   * accesses and a completed wait acquires them (hooks.h) */
  hook_mbar_release(w, arrived | done);
  if (in->mode == MB_TEST || in->mode == MB_TRY) {
    w->p[in->d] = (w->p[in->d] & ~m) | done;
    if (waited) {
      /* let the other warps run (and arrive) before this one polls again */
      w->state = W_SPIN;
      w->spin_pc = w->pc;
      w->spin_addr = (uint32_t)wait_addr;
    }
  }
}

/* cp.async.mbarrier.arrive{.noinc}: an arrive-on operation on the barrier,
 * triggered once every cp.async the thread issued before it has completed.
 * Without .noinc the pending count is first incremented, so the arrive-on
 * nets nothing (the thread arrives itself, as cuda::pipeline's
 * producer_commit does); with .noinc it is one of the arrivals the phase
 * expects. smemu's cp.async copies are complete at issue, so the arrive-on
 * happens at this instruction; the race checks complete the thread's copies
 * here (hook_cp_wait) and release them at the barrier, so a
 * thread that completes a wait on the phase sees their bytes. */
static void h_cp_arrive(warp *w, const insn *in, uint32_t m) {
  uint32_t arrived = 0;
  hook_cp_wait(w, m, HOOK_CP_ALL);
  /* (the decoder keeps a .shared address space in type2: sass/map.c takes
   * a cp instruction of .shared space for a copy) */
  insn at = *in;
  at.space = in->type2 ? PTX_SPACE_SHARED : PTX_SPACE_GENERIC;
  LANES(m, {
    uint64_t a;
    uint8_t *p;
    if (!(p = bar_ptr(w, &at, l, &a))) return;
    uint64_t s = load(p);
    if (!need_valid(w, l, a, s, in->mode ? "cp.async.mbarrier.arrive.noinc" : "cp.async.mbarrier.arrive"))
      return;
    if (in->mode) {
      /* a valid barrier always has an arrival pending (a phase that
       * completes starts the next one with its expected count) */
      s = settle(pack(F_EXPECTED(s), F_PENDING(s) - 1, f_tx(s), F_PHASE(s)));
      store_at(w, p, a, s);
    } else if (F_PENDING(s) == 0xfffff) {
      char where[96], st[200];
      describe(w, a, where, sizeof where);
      state_text(s, st, sizeof st);
      exec_fault(
          w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
          "cp.async.mbarrier.arrive on the mbarrier at %s, which has %s: its pending count would pass 2^20-1",
          where, st);
      return;
    }
    arrived |= 1u << l;
  });
  hook_mbar_release(w, arrived);
}

int dec_cp_mbarrier(dctx *D, dstmt *S, insn *in) {
  if (!dec_take(S, "arrive")) return dec_error(D, S, -1, "cp.async.mbarrier supports only arrive");
  in->mode = (uint8_t)dec_take(S, "noinc");
  int space = PTX_SPACE_GENERIC;
  if (dec_take(S, "shared") || dec_take(S, "shared::cta")) space = PTX_SPACE_SHARED;
  if (S->ntypes != 1 || S->types[0] != PTX_T_B64)
    return dec_error(D, S, -1, "cp.async.mbarrier.arrive takes .b64");
  if (dec_nops(D, S, 1) < 0) return -1;
  if (dec_addr(D, S, 0, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  if (in->flags & IF_FRAME) return dec_error(D, S, 0, "an mbarrier lives in shared memory");
  in->type2 = space == PTX_SPACE_SHARED;
  in->space = PTX_SPACE_GENERIC;
  in->fn = h_cp_arrive;
  return 0;
}

/* The scheduler found every live warp of b spinning on mbarrier waits (or
 * at bar.sync) with no barrier changing for a long time: report the
 * deadlock with each barrier's state. */
static void mbar_deadlock(block *b) {
  warp *w0 = NULL;
  char lines[1400];
  size_t k = 0;
  uint32_t seen[8], nseen = 0, threads = 0;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    warp *w = &b->warps[i];
    if (w->state != W_SPIN && w->state != W_RUN) continue;
    if (!w0) w0 = w;
    threads += (uint32_t)__builtin_popcount(w->stack[w->sp - 1].mask);
    uint32_t j;
    for (j = 0; j < nseen && seen[j] != w->spin_addr; j++) {
    }
    if (j < nseen || nseen == 8 || k >= sizeof lines) continue;
    seen[nseen++] = w->spin_addr;
    char where[96], st[200], at[512];
    uint64_t s;
    memcpy(&s, b->smem + w->spin_addr, 8);
    describe(w, w->spin_addr, where, sizeof where);
    state_text(s, st, sizeof st);
    exec_where(w->L->prog, w->spin_pc, at, sizeof at);
    k += (size_t)snprintf(lines + k, sizeof lines - k, "\n    mbarrier at %s: %s; waited on at %s", where, st,
                          at);
  }
  if (!w0) return;
  uint32_t at_bar = 0;
  for (uint32_t i = 0; i < b->nwarps; i++)
    if (b->warps[i].state == W_BAR)
      at_bar += (uint32_t)__builtin_popcount(b->warps[i].stack[b->warps[i].sp - 1].mask);
  w0->pc = w0->spin_pc;
  exec_fault(
      w0, -1, SMEMU_ERR_DEADLOCK,
      "deadlock: %u thread(s) wait on mbarrier phases that can never complete (no barrier changed in %d "
      "rounds; %u thread(s) wait at bar.sync, %u of the block's %u have exited):%s",
      threads, MBAR_SPIN_ROUNDS, at_bar, b->exited_threads, b->nthreads, lines);
}

int dec_mbarrier(dctx *D, dstmt *S, insn *in) {
  static const char *const subs[] = {"init",        "inval",     "arrive",   "arrive_drop",   "expect_tx",
                                     "complete_tx", "test_wait", "try_wait", "pending_count", NULL};
  int sub = dec_take_any(S, subs);
  static const int modes[] = {MB_INIT,        MB_INVAL, MB_ARRIVE, MB_DROP,   MB_EXPECT_TX,
                              MB_COMPLETE_TX, MB_TEST,  MB_TRY,    MB_PENDING};
  if (sub < 0) return dec_error(D, S, -1, "unknown mbarrier operation");
  int mode = modes[sub];
  if (mode == MB_ARRIVE && dec_take(S, "expect_tx")) mode = MB_ARRIVE_TX;
  if (mode == MB_DROP && dec_take(S, "expect_tx")) in->type2 |= MBF_TX;
  if ((mode == MB_ARRIVE || mode == MB_DROP) && dec_take(S, "noComplete")) in->type2 |= MBF_NOCOMPLETE;
  if ((mode == MB_TEST || mode == MB_TRY) && dec_take(S, "parity")) in->type2 |= MBF_PARITY;
  if (S->ntypes != 1 || S->types[0] != PTX_T_B64) return dec_error(D, S, -1, "mbarrier operations take .b64");
  in->mode = (uint8_t)mode;
  int space = PTX_SPACE_GENERIC;
  if (dec_take(S, "shared") || dec_take(S, "shared::cta"))
    space = PTX_SPACE_SHARED;
  else if (dec_take(S, "shared::cluster"))
    space = PTX_SPACE_SHARED_CLUSTER;
  in->fn = h_mbarrier;
  int n = S->st->nops;
  if (mode == MB_PENDING) {
    if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_B64, &in->b) < 0)
      return -1;
    return 0;
  }
  int addr_op =
      (mode == MB_INIT || mode == MB_INVAL || mode == MB_EXPECT_TX || mode == MB_COMPLETE_TX) ? 0 : 1;
  if (dec_addr(D, S, addr_op, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  if (in->flags & IF_FRAME) return dec_error(D, S, addr_op, "an mbarrier lives in shared memory");
  in->space = (uint8_t)space;
  switch (mode) {
  case MB_INIT:
  case MB_EXPECT_TX:
  case MB_COMPLETE_TX:
    return dec_nops(D, S, 2) < 0 || dec_src(D, S, 1, PTX_T_U32, &in->b) < 0 ? -1 : 0;
  case MB_INVAL:
    return dec_nops(D, S, 1);
  case MB_ARRIVE_TX:
    if (dec_nops(D, S, 3) < 0 || dec_src(D, S, 2, PTX_T_U32, &in->c) < 0) return -1;
    break;
  case MB_ARRIVE:
  case MB_DROP:
    if (n != 2 && n != 3)
      return dec_error(D, S, -1, "mbarrier.arrive takes state, [addr] and an optional count");
    if ((in->type2 & MBF_TX) && n != 3)
      return dec_error(D, S, -1, "mbarrier.arrive_drop.expect_tx takes state, [addr] and a byte count");
    if (n == 3) {
      if (dec_src(D, S, 2, PTX_T_U32, &in->c) < 0) return -1;
      if (!(in->type2 & MBF_TX)) in->type2 |= MBF_HAS_COUNT;
    }
    break;
  case MB_TEST:
  case MB_TRY:
    /* try_wait may carry a suspend-time hint: smemu does not wait in time */
    if (n != 3 && !(mode == MB_TRY && n == 4))
      return dec_error(D, S, -1, "mbarrier.%s takes a predicate, [addr] and a state or phase parity",
                       mode == MB_TEST ? "test_wait" : "try_wait");
    if (dec_pdst(D, S, 0, &in->d) < 0) return -1;
    return dec_src(D, S, 2, (in->type2 & MBF_PARITY) ? PTX_T_U32 : PTX_T_B64, &in->b) < 0 ? -1 : 0;
  }
  /* the state destination (or `_`) */
  if (S->st->ops[0].kind == PTX_OPD_SINK) {
    in->d = SLOT_SINK;
    return 0;
  }
  int r = dec_dst(D, S, 0, &in->d);
  return r ? (r < 0 ? -1 : dec_error(D, S, 0, "expected a .b64 register for the state")) : 0;
}

/* Warps spinning on mbarrier waits with no barrier changing: the
 * scheduler's spin deadlock is mbar_deadlock's report. */
static const sched_waits mbar_waits = {.spin_deadlock = mbar_deadlock};
SCHED_REGISTER(mbar_waits)
