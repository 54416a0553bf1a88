/* meet.h: a .sync warp operation whose membermask names lanes waiting on
 * another path of the warp (meet.c). */
#ifndef SMEMU_EXEC_MEET_H
#define SMEMU_EXEC_MEET_H
#include "exec/exec.h"

/* simt_entry.blocked of a path parked at a .sync warp operation */
#define MEET_BLOCKED (MAX_BARRIERS + 8)

/* Called by shfl/vote/match/redux.sync (lanes m) before they run: 1 when
 * meet took the instruction over (it parked this path until the lanes of
 * another path reach a .sync operation of the same kind, or it ran this
 * one together with a path parked earlier), 0 when the handler runs it
 * with its lanes alone. */
int warp_meet(warp *w, const insn *in, uint32_t m);

/* warp_run found the top path parked at MEET_BLOCKED with nobody left to
 * meet: it runs the operation again, alone. */
void meet_alone(warp *w, simt_entry *t);

#endif
