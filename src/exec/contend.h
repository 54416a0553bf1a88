/* contend.h: how the warps of a block take turns around shared-memory
 * atomics (contend.c). */
#ifndef SMEMU_EXEC_CONTEND_H
#define SMEMU_EXEC_CONTEND_H
#include "exec/exec.h"

/* Called by a shared or generic atomic of w (lanes m at addr) before it
 * runs, in a block of several warps: ends the warp's turn after it when a
 * lane reaches shared memory. */
void contend_atom(warp *w, const insn *in, uint32_t m, const uint64_t addr[32]);

/* A shared CAS in a loop that re-reads its word (program.reread): 1 when w
 * ends its turn before it (it runs it at its next turn), 0 when it runs
 * it now. */
int contend_defer(warp *w, const insn *in, uint32_t m, const uint64_t addr[32]);

/* A CAS of w ran (lanes `swapped` of m swapped): on shared memory, one in
 * which no lane swapped is counted as contention (launch.contention,
 * smemu_launch_stats), and a warp that has lost many in a row goes on at
 * once (contend.c). */
void contend_cas_done(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t swapped);

/* The backward branch of a loop that contends (BRA_CONTENDED, ir/contention.c)
 * with lanes `taken` of `active` taking it: ends w's turn where the warp
 * lets the other warps run (contend.c). */
void contend_branch(warp *w, const insn *in, uint32_t taken, uint32_t active);

/* Warp w ran a shared atomic that ptxas builds as an LDS + ATOMS.CAST.SPIN
 * loop (lanes sm at shared offsets sh) which alone takes `alone` rounds:
 * the rounds that the other warps of the block, in the same loop on the
 * same word, add to what has been counted so far (each round one LDS and
 * one CAST.SPIN no lane of the warp won; counted as contention). */
uint32_t contend_loop(warp *w, uint32_t sm, const uint32_t sh[32], uint32_t alone);

/* A block starts on this thread: forget the loops of the one before. */
void contend_loop_reset(void);

#endif
