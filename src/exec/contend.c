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

void contend_cas_lost(warp *w, const insn *in, uint32_t m, const uint64_t addr[32]) {
  if (m && on_shared(in, m, addr)) atomic_fetch_add_explicit(&w->L->contention, 1, memory_order_relaxed);
}

void contend_turn(warp *w) {
  if (w->state == W_RUN) w->state = W_YIELD;
}
