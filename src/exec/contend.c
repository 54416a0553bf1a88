/* contend.c: the warps of a block around shared-memory atomics. On the GPU
 * the warps of a block run at once, so between a warp's read of a word and
 * its atomicCAS on it the other warps' atomics land, and its CAS fails;
 * smemu's scheduler runs one warp at a time for a long quantum (sched.c),
 * where a warp's CAS loop would hardly ever fail. A warp therefore ends
 * its turn after each shared CAS or exchange (W_YIELD): the other warps
 * run up to their next one before it goes on. In kernels whose loops
 * retry such atomics or poll shared memory (program.contended,
 * ir/contention.c) a warp also ends its turn at each loop iteration, so
 * that a poll sees the other warps' progress in between. */
#include "exec/contend.h"
#include "exec/addr.h"
#include "exec/atom.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Does a lane of m reach shared memory? */
static int on_shared(const insn *in, uint32_t m, const uint64_t addr[32]) {
  int shared = in->space == PTX_SPACE_SHARED;
  if (!shared && in->space == PTX_SPACE_GENERIC) LANES(m, shared |= addr[l] - SHARED_WINDOW < WINDOW_SIZE);
  return shared;
}

void contend_atom(warp *w, const insn *in, uint32_t m, const uint64_t addr[32]) {
  /* an add, min, inc ... never retries: its counts do not depend on the
   * order, and histograms run at full speed */
  if ((in->mode == A_CAS || in->mode == A_EXCH) && w->state == W_RUN && on_shared(in, m, addr))
    w->state = W_YIELD;
}

/* A loop that reads the word and then CASes it (the shape of ptxas's
 * CAST.SPIN loop, written in the source): on the GPU the other warps'
 * CAS land between a warp's read and its CAS, so the warp ends its turn
 * there, once per execution of the CAS. */
int contend_defer(warp *w, const insn *in, uint32_t m, const uint64_t addr[32]) {
  if (w->state != W_RUN || !on_shared(in, m, addr)) return 0;
  if (w->deferred == w->pc + 1) {
    w->deferred = 0;
    return 0;
  }
  simt_entry *t = &w->stack[w->sp - 1];
  w->deferred = w->pc + 1;
  w->state = W_YIELD;
  t->pc = w->pc;
  w->ninsn--; /* it runs at the next turn */
  w->nthread -= (uint32_t)__builtin_popcount(t->mask);
  return 1;
}

/* The winner of a CAS loop keeps winning (it holds the fresh value when
 * the others do not), but on the GPU the others take over now and then: a
 * warp that has lost CAS_LOST_MAX shared CAS in a row gets the next turn,
 * with the fresh value its last CAS returned, and takes over. The bound is
 * fitted to the H200's requests (tests/hw/contention, cas_fadd and
 * stddev_cas of 2-32 warps): with 2 warps nobody loses that often (96
 * requests, as in every launch on the GPU); 4, 8 and 32 warps give 328,
 * 1223 and 18594 requests (GPU 322, 1214-1264, 18310-21094; without the
 * bound 317, 1131, 16431); sweep.cu's 3-24 warps were not used to fit it. */
#define CAS_LOST_MAX 37

void contend_cas_done(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t swapped) {
  if (!m || !on_shared(in, m, addr)) return;
  if (swapped) {
    w->cas_lost = 0;
    return;
  }
  atomic_fetch_add_explicit(&w->L->contention, 1, memory_order_relaxed);
  /* (a CAS after a re-read has let the others run before it: no bound) */
  const uint8_t *rr = w->L->prog->reread;
  if (rr && rr[w->pc]) return;
  if (++w->cas_lost >= CAS_LOST_MAX && w->state == W_YIELD) {
    w->cas_lost = 0;
    w->state = W_RUN;
  }
}

/* A retry loop ends the warp's turn at each iteration. A polling loop (a
 * flag another warp sets) ends it at every second poll and where the warp
 * leaves the loop: on the GPU a hand-over (the poll that sees the flag,
 * the way out of the loop, the store that passes it on, until the next
 * warp's poll sees that) lasts about two polls of the warps still waiting
 * (tests/hw/contention: a chain of 4 or 32 warps, where warp k polls
 * 1.75k to 2k times; warps waiting for one store poll twice), so the
 * warps still waiting poll twice in the turns a hand-over takes. */
void contend_branch(warp *w, const insn *in, uint32_t taken, uint32_t active) {
  if (w->state != W_RUN) return;
  if (!(in->mode & BRA_POLL)) {
    if (taken) w->state = W_YIELD;
    return;
  }
  if (!taken || ++w->polls % 2 == 0) w->state = W_YIELD;
}

/* ---- the LDS + ATOMS.CAST.SPIN loop under contention ----
 * A shared float add (and the other atomics ptxas builds as that loop,
 * model/atomsel.h ATOMSEL_CAS_LOOP) is one PTX instruction: smemu applies
 * its lanes at once and the bank model counts the loop of a warp alone
 * (one round per lane on the busiest word). On the GPU the warps of a
 * block run the loop together. Each round re-reads the word, so the wins
 * rotate between the warps (2 warps: 127 rounds for 64 wins, where the
 * source-level CAS loop, whose failed CAS returns the fresh value, lets one
 * warp keep winning: 96), and every win costs the rounds the other warps
 * spent on a value that changed between their LDS and their CAS: a(m) =
 * 1 + min(m/2, 0.35 m + 1.25) rounds per win with m warps in the loop.
 * m/2: a warp's LDS-to-CAS window is about half its round; from about 8
 * warps on the warps' LDS and CAST.SPIN (3 wavefronts a round) load the
 * shared pipe and each further warp adds less. Measured on an H200
 * (tests/hw/contention, sweep.cu and contend.cu: 1-32 warps, every lane or
 * 8 lanes of a warp on one word, or every lane on 4 words; the rounds
 * differ between the profiler's passes): every configuration inside the
 * recorded range, e.g. 2, 8, 16, 32 warps of 32 lanes 127, 1265, 3972,
 * 13594 rounds (GPU 127, 1212-1987, 2911-4153, 13125-14773).
 * The warps that meet are those whose k-th such atomic of the block is at
 * the same pc on the same busiest word (warps of a block run their loops
 * in step); the group's rounds are computed from the set of its warps, so
 * the order in which smemu runs them does not change the figure. */
#define LOOP_GROUPS 1024

typedef struct loop_group {
  uint32_t gen; /* the table's generation it belongs to (else a free slot) */
  const block *b;
  uint32_t pc, word; /* the atomic and its busiest word (byte offset / 4) */
  uint32_t seq;      /* the warps' k-th loop atomic */
  uint16_t cnt[33];  /* warps by rounds alone (1..32) */
  uint32_t extra20;  /* the rounds beyond the warps' own, in 1/20 */
} loop_group;

typedef struct loop_table {
  uint32_t gen;                  /* the current block's generation (from 1) */
  uint32_t used;                 /* groups in use (0: nothing to clear) */
  uint32_t seq[MAX_CLUSTER][32]; /* per block rank and warp: loop atomics so far */
  loop_group g[LOOP_GROUPS];
} loop_table;

/* A table per worker thread, freed when the thread ends. */
static _Thread_local loop_table *loops;
static pthread_key_t loops_key;
static pthread_once_t loops_once = PTHREAD_ONCE_INIT;

static void loops_make_key(void) { (void)pthread_key_create(&loops_key, free); }

static loop_table *loops_get(void) {
  if (loops) return loops;
  pthread_once(&loops_once, loops_make_key);
  if (!(loops = calloc(1, sizeof *loops))) return NULL;
  loops->gen = 1;
  (void)pthread_setspecific(loops_key, loops);
  return loops;
}

/* A new block: a new generation frees every group at once. */
void contend_loop_reset(void) {
  if (!loops || !loops->used) return;
  loops->used = 0;
  memset(loops->seq, 0, sizeof loops->seq);
  if (++loops->gen == 0) {
    memset(loops->g, 0, sizeof loops->g);
    loops->gen = 1;
  }
}

/* The rounds a win costs with m warps in the loop, in 1/20: 1 + min(m/2,
 * 0.35 m + 1.25). */
static uint32_t win20(uint32_t m) { return m <= 1 ? 20 : 20 + (10 * m < 7 * m + 25 ? 10 * m : 7 * m + 25); }

/* The group's rounds beyond the warps' own, in 1/20: the wins rotate, so a
 * warp that needs fewer rounds leaves the loop first; in the round where
 * warps leave, each leaving one lowers m for the wins after it. */
static uint32_t group_extra20(const loop_group *g) {
  uint32_t above = 0, total = 0, own = 0;
  for (uint32_t r = 1; r <= 32; r++) own += 20u * r * g->cnt[r];
  for (uint32_t r = 32; r >= 1; r--) {
    above += g->cnt[r]; /* warps that still need round r */
    uint32_t leave = g->cnt[r];
    for (uint32_t j = 0; j < leave; j++) total += win20(above - j);
    total += (above - leave) * win20(above - leave);
  }
  return total > own ? total - own : 0;
}

uint32_t contend_loop(warp *w, uint32_t sm, const uint32_t sh[32], uint32_t alone) {
  block *b = w->blk;
  if (b->nwarps < 2 || !sm || !alone) return 0;
  if (!loops_get()) return 0;
  /* the busiest word: the most lanes, the lowest offset among equals */
  uint32_t word = 0, most = 0;
  for (uint32_t a = sm; a; a &= a - 1) {
    uint32_t n = 0, x = sh[__builtin_ctz(a)] >> 2;
    for (uint32_t c = sm; c; c &= c - 1) n += sh[__builtin_ctz(c)] >> 2 == x;
    if (n > most || (n == most && x < word)) {
      most = n;
      word = x;
    }
  }
  uint32_t rank = b->rank < MAX_CLUSTER ? b->rank : 0, wi = w->index & 31;
  uint32_t seq = loops->seq[rank][wi]++, pc = w->pc;
  uint32_t h = (pc * 2654435761u ^ word * 40503u ^ seq * 97u ^ rank) % LOOP_GROUPS;
  loop_group *g = NULL;
  for (uint32_t k = 0; k < LOOP_GROUPS; k++) {
    loop_group *e = &loops->g[(h + k) % LOOP_GROUPS];
    if (e->gen != loops->gen) {
      if (loops->used + 1 >= LOOP_GROUPS) return 0; /* full: counted as alone */
      loops->used++;
      *e = (loop_group){.gen = loops->gen, .b = b, .pc = pc, .word = word, .seq = seq};
      g = e;
      break;
    }
    if (e->b == b && e->pc == pc && e->word == word && e->seq == seq) {
      g = e;
      break;
    }
  }
  if (!g) return 0;
  uint32_t old = g->extra20;
  g->cnt[alone < 32 ? alone : 32]++;
  g->extra20 = group_extra20(g);
  uint32_t add = g->extra20 / 20 - old / 20;
  if (add) atomic_fetch_add_explicit(&w->L->contention, add, memory_order_relaxed);
  return add;
}
