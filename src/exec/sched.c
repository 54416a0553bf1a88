/* sched.c: running a launch. Blocks are taken from a shared counter by a
 * pool of worker threads; inside a block, warps run in a fixed order, each
 * until it exits or waits at a barrier, round after round. A round in
 * which no warp can run while some wait is a deadlock; what a family that
 * holds warps says of it comes through the waits it registered (sched.h). Faults, block barriers and the warp
 * loop are here; the SIMT stack is simt.c's, addresses addr.c's. */
#include "exec/sched.h"
#include "exec/addr.h"
#include "exec/coop.h"
#include "exec/exec.h"
#include "exec/hang.h"
#include "exec/hooks.h"
#include "exec/meet.h"
#include "exec/tier.h"
#include "smemu.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- the families' waits ---- */
#define MAX_WAITS 8
/* Global rather than file-static: the two compiled copies of this folder
 * (Makefile, DUAL) share one registry, the base copy's (mk/dispatch.sh
 * weakens the v3 copy's data), which the base copy's constructors fill
 * (the v3 copy has none) and the copy the CPU runs reads. */
const sched_waits *sched_waits_reg[MAX_WAITS];
int sched_nwaits;

void sched_register(const sched_waits *f) {
  if (sched_nwaits < MAX_WAITS) sched_waits_reg[sched_nwaits++] = f;
}

/* The family holding warps blocked with tag `blocked` and describing them. */
static const sched_waits *waits_of(uint32_t blocked) {
  for (int i = 0; i < sched_nwaits; i++)
    if (sched_waits_reg[i]->blocked == blocked && sched_waits_reg[i]->blocked_text) return sched_waits_reg[i];
  return NULL;
}

/* Describe the source position of instruction pc: "t.cu:12:5 (t.ptx:57)". */
void exec_where(const program *P, uint32_t pc, char *buf, size_t n) {
  if (pc >= P->ncode) {
    snprintf(buf, n, "?");
    return;
  }
  const src_line *s = &P->lines[pc];
  if (s->file != ~0u)
    snprintf(buf, n, "%s:%u:%u (PTX line %u)", P->files[s->file], s->line, s->col, s->ptx_line);
  else
    snprintf(buf, n, "PTX line %u", s->ptx_line);
}

/* The function holding pc. */
static const char *func_of(const program *P, uint32_t pc) {
  for (uint32_t i = 0; i < P->nfuncs; i++)
    if (pc >= P->funcs[i].entry && pc < P->funcs[i].end) return P->funcs[i].name;
  return P->name;
}

/* The fault of a bad address being reported (bad() sets it for exec_fault,
 * on the faulting worker's own thread). */
static _Thread_local const fault_info *pending_access;

/* memcheck's way (SMEMU_ANALYZE_MEMCHECK): keep a bad address's record and
 * end its lane as `exit` would, so the warp's other lanes, the block's
 * barriers and the other blocks go on. Called with L->lock held. */
static void keep_fault(warp *w, int lane, const fault_info *fi) {
  launch *L = w->L;
  block *b = w->blk;
  L->faults_total++;
  if (L->nfaults == L->capfaults && L->capfaults < MAX_FAULT_RECORDS) {
    uint32_t cap = L->capfaults ? L->capfaults * 2 : 64;
    fault_info *f = realloc(L->faults, cap * sizeof *f);
    if (f) L->faults = f, L->capfaults = cap;
  }
  if (L->nfaults < L->capfaults) {
    fault_info *f = &L->faults[L->nfaults++];
    *f = *fi;
    f->pc = w->pc;
    memcpy(f->block, b->ctaid, sizeof f->block);
    f->has_thread = 1;
    f->tid = w->index * 32 + (uint32_t)lane;
    f->linear = b->linear;
  }
}

static void end_lane(warp *w, uint32_t m) {
  block *b = w->blk;
  m &= ~w->exited;
  w->exited |= m;
  simt_remove(w, m, 0);
  b->exited_threads += (uint32_t)__builtin_popcount(m);
  simt_cleanup(w);
  barrier_check_all(b);
}

static void vfault(warp *w, int lane, int status, const char *fmt, va_list ap) {
  launch *L = w->L;
  block *b = w->blk;
  int keep = L->fault_all && pending_access && lane >= 0;
  if (!keep) {
    w->state = W_FAULT;
    b->fault = 1;
  }
  pthread_mutex_lock(&L->lock);
  if (keep) keep_fault(w, lane, pending_access);
  if (!L->status) {
    const program *P = L->prog;
    char where[512], what[768];
    vsnprintf(what, sizeof what, fmt, ap);
    if (pending_access)
      L->fault = *pending_access;
    else
      memset(&L->fault, 0, sizeof L->fault);
    L->fault.pc = w->pc;
    memcpy(L->fault.block, b->ctaid, sizeof L->fault.block);
    L->fault.has_thread = lane >= 0;
    L->fault.tid = w->index * 32 + (uint32_t)(lane >= 0 ? lane : (w->valid ? __builtin_ctz(w->valid) : 0));
    exec_where(P, w->pc, where, sizeof where);
    int n = snprintf(L->msg, sizeof L->msg, "kernel %s: block (%u,%u,%u)", P->name, b->ctaid[0], b->ctaid[1],
                     b->ctaid[2]);
    if (lane >= 0) {
      uint32_t t = w->index * 32 + (uint32_t)lane;
      uint32_t bx = L->block[0], by = L->block[1];
      n += snprintf(L->msg + n, sizeof L->msg - n, " thread (%u,%u,%u)", t % bx, t / bx % by, t / (bx * by));
    } else {
      n += snprintf(L->msg + n, sizeof L->msg - n, " warp %u", w->index);
    }
    snprintf(L->msg + n, sizeof L->msg - n, ": %s\n  at '%s' in %s, %s", what, P->lines[w->pc].text,
             func_of(P, w->pc), where);
    L->status = status;
    if (!keep) atomic_store(&L->abort, 1);
  }
  pthread_mutex_unlock(&L->lock);
  if (keep) end_lane(w, 1u << lane);
}

void exec_fault(warp *w, int lane, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfault(w, lane, status, fmt, ap);
  va_end(ap);
}

void exec_fault_access(warp *w, int lane, const fault_info *fi, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pending_access = fi;
  vfault(w, lane, status, fmt, ap);
  pending_access = NULL;
  va_end(ap);
}

/* ---- barriers ---- */
/* The bit of warp w in barrier_state.warps: every bit for a block of more
 * than 64 warps, whose release then visits every warp. */
static inline uint64_t warp_bit(const warp *w) { return w->index < 64 ? 1ull << w->index : ~0ull; }

/* The bar.red result of entry e of warp w into its destination. */
static __attribute__((noinline, cold)) void red_result(warp *w, simt_entry *e, const barrier_state *bs) {
  uint64_t v = e->red_kind == 0 ? bs->red_popc : e->red_kind == 1 ? bs->red_and : bs->red_or;
  if (e->red_pred) {
    /* predicate result of bar.red.and/.or */
    w->p[e->red_dst] = (w->p[e->red_dst] & ~e->red_mask) | (v ? e->red_mask : 0);
  } else {
    uint64_t *d = w->r[e->red_dst];
    LANES(e->red_mask, d[l] = v);
  }
  e->red_dst = ~0u;
}

/* Barrier id completed: every warp that arrived goes on. Only the warps
 * that arrived in this phase can hold its waits and bar.arrive lanes, and
 * they are visited in index order, as the analyses' events need. */
static void release(block *b, uint32_t id) {
  barrier_state *bs = &b->bar[id];
  uint64_t ws = bs->warps;
  int all = b->nwarps > 64, pass = hooks_take(b, HEV_BAR_PASS);
  bs->warps = 0;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    if (!all) {
      if (!ws) break;
      i = (uint32_t)__builtin_ctzll(ws);
      ws &= ws - 1;
    }
    warp *w = &b->warps[i];
    int any = 0;
    if (w->arrive_mask[id]) {
      if (pass) hook_bar_pass(b, w, w->arrive_mask[id]);
      w->arrive_mask[id] = 0;
    }
    for (uint32_t k = 0; k < w->sp; k++) {
      simt_entry *e = &w->stack[k];
      if (e->blocked != id + 1) continue;
      e->blocked = 0;
      any = 1;
      if (pass) hook_bar_pass(b, w, e->mask);
      if (e->red_dst != ~0u) red_result(w, e, bs);
    }
    if (any && w->state == W_BAR && !w->stack[w->sp - 1].blocked) w->state = W_RUN;
  }
  /* a barrier without a thread count waits for every live thread */
  hook_bar_released(b, id, bs->expected == 0);
  bs->arrived = 0;
  bs->expected = 0;
  bs->red_popc = 0;
  bs->red_and = 1;
  bs->red_or = 0;
}

static int complete(block *b, uint32_t id) {
  barrier_state *bs = &b->bar[id];
  if (bs->expected) return bs->arrived >= bs->expected;
  return bs->arrived > 0 && bs->arrived + b->exited_threads >= b->nthreads;
}

void barrier_check_all(block *b) {
  for (uint32_t id = 0; id < MAX_BARRIERS; id++)
    if (b->bar[id].arrived && complete(b, id)) release(b, id);
  for (int i = 0; i < sched_nwaits; i++)
    if (sched_waits_reg[i]->check) sched_waits_reg[i]->check(b->cl);
}

int barrier_arrive(warp *w, uint32_t id, uint32_t count, uint32_t lanes, uint32_t predmask, int wait) {
  block *b = w->blk;
  barrier_state *bs = &b->bar[id];
  bs->warps |= warp_bit(w);
  if (count) {
    if (bs->expected && bs->expected != count) {
      exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION, "barrier %u used with thread counts %u and %u at once",
                 id, bs->expected, count);
      return -1;
    }
    bs->expected = count;
  }
  bs->arrived += (uint32_t)__builtin_popcount(lanes);
  bs->red_popc += (uint32_t)__builtin_popcount(lanes & predmask);
  if ((lanes & ~predmask) != 0) bs->red_and = 0;
  if ((lanes & predmask) != 0) bs->red_or = 1;
  if (complete(b, id)) {
    release(b, id);
    return 1;
  }
  (void)wait;
  return 0;
}

/* ---- running ---- */
void warp_run(warp *w, uint64_t budget) {
  const insn *code = w->L->prog->code;
#ifdef SMEMU_HAVE_JIT
  const jit_code *J = w->L->jit;
#endif
  while (w->state == W_RUN && budget--) {
    simt_entry *t = &w->stack[w->sp - 1];
    uint32_t pc = t->pc;
    if (pc == t->rpc) {
      w->sp--;
      /* the entry below is where these lanes rejoin */
      if (w->sp == 0 || (w->nframes > 1 && w->sp <= w->frames[w->nframes - 1].stack_base)) simt_cleanup(w);
      continue;
    }
    if (t->blocked == MEET_BLOCKED) {
      /* parked at a .sync operation and nobody came: it runs alone */
      meet_alone(w, t);
      continue;
    }
    if (t->blocked) {
      w->state = W_BAR;
      return;
    }
#ifdef SMEMU_HAVE_JIT
    if (J && J->entry[pc]) {
      /* a compiled region: budget + 1 instructions are left with this one */
      uint32_t n = jit_enter(J, w, t, pc, budget + 1);
      if (n) {
        budget -= n - 1;
        continue;
      }
    }
#endif
    const insn *in = &code[pc];
    uint32_t m = t->mask;
    if (in->guard >= 0) m &= w->p[in->guard] ^ in->guard_xor;
    t->pc = pc + 1;
    w->pc = pc;
    /* two separate 8-byte updates: the compiled regions store the counters
     * one by one, and a 16-byte vector load of both right after (what the
     * compiler makes of the pair) waits for those stores to retire */
    uint64_t nt = w->nthread + (uint32_t)__builtin_popcount(t->mask);
    __asm__("" : "+r"(nt));
    w->ninsn++;
    w->nthread = nt;
    in->fn(w, in, m);
  }
}

/* The launch has run its instruction budget: stop it at a live warp. */
static void over_budget(block *b, uint64_t total) {
  warp *w = &b->warps[0];
  for (uint32_t i = 0; i < b->nwarps; i++)
    if (b->warps[i].state != W_DONE) {
      w = &b->warps[i];
      break;
    }
  exec_fault(
      w, -1, SMEMU_ERR_LIMIT,
      "the launch ran %llu warp instructions without finishing: an endless loop? (the budget is set by "
      "--max-insns / smemu_options.max_warp_instructions)",
      (unsigned long long)total);
}

/* Every warp waits and no barrier can complete: report each barrier
 * instruction threads wait at (how many, which barrier, its count), then
 * stop the block with a deadlock error. */
static void deadlock(block *b) {
  launch *L = b->warps[0].L;
  warp *w0 = NULL;
  uint32_t waiting = 0, npcs = 0;
  struct waiter {
    uint32_t pc, id, threads;
  } at[8];
  char held_lines[800] = ""; /* the lines of warps a family holds */
  size_t held_k = 0;
  const sched_waits *alone = NULL;
  for (uint32_t i = 0; i < b->nwarps; i++) {
    warp *w = &b->warps[i];
    if (w->state != W_BAR) continue;
    if (!w0) w0 = w;
    for (uint32_t k = 0; k < w->sp; k++) {
      simt_entry *e = &w->stack[k];
      if (!e->blocked || e->blocked == MEET_BLOCKED) continue; /* (the warp's own lanes, not a barrier) */
      uint32_t n = (uint32_t)__builtin_popcount(e->mask), pc = e->pc - 1, j;
      waiting += n;
      const sched_waits *f = e->blocked > MAX_BARRIERS ? waits_of(e->blocked) : NULL;
      if (f) { /* held by a family (a collective of several warps) */
        if (w == w0) w->pc = pc;
        if (!alone) alone = f;
        if (held_k < sizeof held_lines) {
          char where[512], what[160];
          exec_where(L->prog, pc, where, sizeof where);
          f->blocked_text(b, w, what, sizeof what);
          held_k += (size_t)snprintf(held_lines + held_k, sizeof held_lines - held_k,
                                     "\n    warp %u at %s at %s", w->index, what, where);
        }
        continue;
      }
      for (j = 0; j < npcs && at[j].pc != pc; j++) {
      }
      if (j == npcs && npcs < 8) at[npcs++] = (struct waiter){pc, e->blocked - 1, 0};
      if (j < npcs) at[j].threads += n;
    }
  }
  if (!w0) return;
  char lines[1200];
  size_t k = 0;
  for (uint32_t j = 0; j < npcs && k < sizeof lines; j++) {
    char where[512];
    const barrier_state *bs = &b->bar[at[j].id];
    exec_where(L->prog, at[j].pc, where, sizeof where);
    k += (size_t)snprintf(lines + k, sizeof lines - k,
                          "\n    %u thread(s) at barrier %u (%u of %u arrived) at %s", at[j].threads,
                          at[j].id, bs->arrived, bs->expected ? bs->expected : b->nthreads, where);
  }
  if (npcs) w0->pc = at[0].pc;
  if (!npcs && held_k && alone->blocked_alone) {
    /* only warps a family holds wait: its report */
    alone->blocked_alone(w0, held_lines);
    return;
  }
  if (k < sizeof lines) snprintf(lines + k, sizeof lines - k, "%s", held_lines);
  exec_fault(
      w0, -1, SMEMU_ERR_DEADLOCK,
      "deadlock: %u thread(s) wait at barriers that can never complete (%u of the block's %u threads have "
      "exited, the rest wait):%s",
      waiting, b->exited_threads, b->nthreads, lines);
}

#define QUANTUM 65536
/* a cooperative launch's rounds are shorter: its blocks share the cores
 * round by round (see the yield below) */
#define QUANTUM_COOP 256

/* A worker adds its instructions to the launch's live counters (the
 * budget, the watchdog's and the progress report's figures) once it has
 * SCHED_FLUSH of them, and every round once the launch is within
 * SCHED_NEAR of its budget, so that the budget stops it where it did when
 * every round added them. */
#define SCHED_FLUSH 65536
#define SCHED_NEAR (1ull << 24)

static int near_budget(const cluster *c, const launch *L) {
  return c->known_w + c->pend_w + SCHED_NEAR >= L->max_warp_insns;
}

void sched_flush(cluster *c) {
  launch *L = c->blocks[0].warps[0].L;
  c->known_w = atomic_fetch_add_explicit(&L->live_warp, c->pend_w, memory_order_relaxed) + c->pend_w;
  if (c->pend_t) atomic_fetch_add_explicit(&L->live_thread, c->pend_t, memory_order_relaxed);
  c->pend_w = c->pend_t = 0;
}

static uint64_t xorshift(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

/* The fixed order: warps 0, 1, 2, ... each runs until it waits, exits or
 * has run QUANTUM instructions (so a warp spinning on a flag another warp
 * sets lets that warp run), round after round. The random order (--schedule random:SEED): each round
 * visits the warps in a random permutation and runs each for a random
 * 1..64 instructions, from a generator seeded by the seed and the block.
 * After each round the block's instructions count against the launch's
 * budget, the launch may have been stopped (a fault elsewhere, the
 * watchdog), and a block that has run long is checked for a hang.
 * The blocks of a cluster run together: each round visits every block's
 * warps in rank order, and the checks above look at the whole cluster. */
void cluster_run(cluster *c) {
  block *b0 = &c->blocks[0];
  launch *L = b0->warps[0].L;
  uint32_t order[MAX_CLUSTER][32];
  uint64_t rng = (L->seed ^ 0x9e3779b97f4a7c15ull) * (b0->linear + 1) | 1;
  uint64_t seen_w = 0, seen_t = 0, rounds = 0;
  hang_state hs;
  hang_init(&hs);
  for (uint32_t bi = 0; bi < c->n; bi++)
    for (uint32_t i = 0; i < b0->nwarps; i++) order[bi][i] = i;
  uint64_t idle = 0; /* rounds in which only spinning waits ran, without a change */
  for (;;) {
    int ran = 0, alive = 0, spin = 0, busy = 0;
    uint64_t progress = 0;
    for (uint32_t bi = 0; bi < c->n; bi++) progress += c->blocks[bi].async_progress;
    for (uint32_t bi = 0; bi < c->n; bi++) {
      block *b = &c->blocks[bi];
      uint32_t *ord = order[bi];
      if (L->schedule_random)
        for (uint32_t i = b->nwarps; i > 1; i--) {
          uint32_t j = (uint32_t)(xorshift(&rng) % i), t = ord[i - 1];
          ord[i - 1] = ord[j];
          ord[j] = t;
        }
      uint64_t quantum = L->cooperative ? QUANTUM_COOP : QUANTUM,
               used = near_budget(c, L) ? atomic_load_explicit(&L->live_warp, memory_order_relaxed)
                                        : c->known_w + c->pend_w;
      uint64_t left = used < L->max_warp_insns ? L->max_warp_insns - used : 0;
      if (left < quantum) quantum = left + 1;
      for (uint32_t k = 0; k < b->nwarps; k++) {
        warp *w = &b->warps[ord[k]];
        if (w->state == W_SPIN || w->state == W_YIELD) w->state = W_RUN;
        if (w->state == W_RUN) {
          uint64_t q = L->schedule_random ? 1 + xorshift(&rng) % 64 : quantum;
          warp_run(w, q < quantum ? q : quantum);
          ran = 1;
          if (w->state == W_SPIN)
            spin = 1;
          else
            busy = 1;
        }
        if (b->fault || atomic_load_explicit(&L->abort, memory_order_relaxed)) goto out;
        if (w->state != W_DONE) alive = 1;
      }
    }
    uint64_t sw = 0, st = 0, now = 0;
    for (uint32_t bi = 0; bi < c->n; bi++) {
      block *b = &c->blocks[bi];
      now += b->async_progress;
      for (uint32_t i = 0; i < b->nwarps; i++) {
        sw += b->warps[i].ninsn;
        st += b->warps[i].nthread;
      }
    }
    c->pend_w += sw - seen_w;
    c->pend_t += st - seen_t;
    seen_w = sw;
    seen_t = st;
    if (c->pend_w >= SCHED_FLUSH || near_budget(c, L)) sched_flush(c);
    uint64_t total = c->known_w + c->pend_w;
    if (!alive) goto out;
    if (total > L->max_warp_insns) {
      over_budget(b0, total);
      goto out;
    }
    if (spin && !busy && now == progress) {
      if (++idle > SCHED_SPIN_ROUNDS) {
        /* reported at the first block with a spinning warp */
        block *sb = NULL;
        for (uint32_t bi = 0; bi < c->n && !sb; bi++)
          for (uint32_t i = 0; i < c->blocks[bi].nwarps && !sb; i++)
            if (c->blocks[bi].warps[i].state == W_SPIN || c->blocks[bi].warps[i].state == W_RUN)
              sb = &c->blocks[bi];
        if (!sb) sb = b0;
        for (int f = 0; f < sched_nwaits; f++)
          if (sched_waits_reg[f]->spin_deadlock) sched_waits_reg[f]->spin_deadlock(sb);
        goto out;
      }
    } else {
      idle = 0;
    }
    if (!ran) {
      int told = 0;
      for (int f = 0; f < sched_nwaits && !told; f++)
        if (sched_waits_reg[f]->deadlock) told = sched_waits_reg[f]->deadlock(c);
      if (!told)
        for (uint32_t bi = 0; bi < c->n; bi++) {
          block *b = &c->blocks[bi];
          for (uint32_t i = 0; i < b->nwarps; i++)
            if (b->warps[i].state == W_BAR) {
              deadlock(b);
              goto out;
            }
        }
      goto out;
    }
    rounds++;
    if (!L->schedule_random && sw >= HANG_ARM) {
      /* the hang check hashes the whole cluster; it reports at a block
       * that still has live warps */
      block *hb = b0;
      for (uint32_t bi = 0; bi < c->n; bi++) {
        int live = 0;
        for (uint32_t i = 0; i < c->blocks[bi].nwarps; i++) live |= c->blocks[bi].warps[i].state != W_DONE;
        if (live) {
          hb = &c->blocks[bi];
          break;
        }
      }
      if (hang_round(hb, &hs, sw, rounds)) goto out;
    }
    /* a cooperative launch has a worker thread per block, more than the
     * cores: a block that may be spinning at grid.sync() hands its core
     * to the others after every round */
    if (L->gate) coop_yield(L->gate);
  }
out:
  hang_leave(b0, &hs);
}
