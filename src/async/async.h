/* async.h: asynchronous shared-memory objects: mbarrier (mbarrier.c) and
 * the bulk copies that complete transactions on one (bulk.c).
 *
 * An mbarrier is 8 bytes of shared memory, and smemu keeps its whole state
 * in them, as the hardware does (a plain store over it corrupts it there
 * too). smemu's encoding:
 *
 *   bits  0..19  expected arrivals of each phase (1 .. 2^20-1)
 *   bits 20..39  arrivals still pending in the current phase
 *   bits 40..60  transaction bytes pending, 21-bit two's complement
 *   bit  61      parity of the current phase
 *   bit  62      invalidated (mbarrier.inval) since its last init
 *   bit  63      valid: initialised and not invalidated
 *
 * A phase completes when no arrival and no transaction byte is pending;
 * the next phase starts with the expected count and no bytes. */
#ifndef SMEMU_ASYNC_H
#define SMEMU_ASYNC_H
#include "exec/exec.h"

/* Complete `bytes` transaction bytes on the barrier at shared offset `a`
 * for lane l of w (a bulk copy finished). Returns 0, or -1 after a fault. */
int mbar_complete_tx(warp *w, int l, uint64_t a, uint32_t bytes);

/* For the race checks: lanes of w pass a synchronisation point (an mbarrier
 * arrival or completed wait, a bulk copy's completion): their earlier
 * accesses are ordered before those of threads that later complete a wait. */
void mbar_race_release(warp *w, uint32_t lanes);

/* The scheduler found every live warp of b spinning on mbarrier waits (or
 * at bar.sync) with no barrier changing for a long time: report the
 * deadlock with each barrier's state. */
void mbar_deadlock(block *b);

/* Rounds without any mbarrier change, while every live warp spins, before
 * the scheduler calls it a deadlock: a bounded wait loop (for the GPU's
 * sake) of fewer iterations ends by itself. */
#define MBAR_SPIN_ROUNDS 65536

#endif
