/* sched.h: what the scheduler offers instruction handlers: the SIMT stack,
 * barriers, call frames and source positions. */
#ifndef SMEMU_SCHED_H
#define SMEMU_SCHED_H
#include "exec/exec.h"

/* Remove lanes from every stack entry from index `from` up. */
void simt_remove(warp *w, uint32_t lanes, uint32_t from);
/* Pop empty entries and finished frames; marks the warp done when empty. */
void simt_cleanup(warp *w);
/* Push a path (pc, reconvergence pc, lanes) on w's SIMT stack; -1 after
 * a fault (ctrl.c). */
int simt_push(warp *w, uint32_t pc, uint32_t rpc, uint32_t mask);
/* Arrive at barrier id with `lanes` (count 0: all threads of the block).
 * predmask holds the lanes whose bar.red predicate is true. Returns 1 when
 * this arrival completed the barrier, 0 when it must wait, -1 on a fault. */
int barrier_arrive(warp *w, uint32_t id, uint32_t count, uint32_t lanes, uint32_t predmask, int wait);
/* Complete barriers that exits may have satisfied. */
void barrier_check_all(block *b);
/* Let a sibling path of the warp run while the top one waits at a
 * barrier; 0 when there is none (ctrl.c). */
int simt_run_sibling(warp *w);
/* Return from the current call frame to the caller. */
void ctrl_return(warp *w);
/* The handler of call instructions (decoded in ir/decode.c). */
void ctrl_call_handler(warp *w, const insn *in, uint32_t m);
/* The handler of indirect calls (icall.c), and the call_info a return
 * from function `func` to the call at call_pc uses. */
void ctrl_icall_handler(warp *w, const insn *in, uint32_t m);
int64_t ctrl_call_info(const program *P, uint32_t call_pc, uint32_t func);
/* Fill a frame's special registers and constants. */
void exec_fill_specials(warp *w, uint64_t (*r)[32], const func_info *f);
/* Run warp w until it waits, exits or has run `budget` instructions. */
void warp_run(warp *w, uint64_t budget);
/* Run a cluster's blocks (one without cluster dimensions) to completion
 * (or fault / deadlock / hang / stop): cluster_run in exec/cluster.h. */
/* "file:line:col (PTX line N)" of instruction pc. */
void exec_where(const program *P, uint32_t pc, char *buf, size_t n);

#endif
