/* sched.h: what the scheduler offers instruction handlers: the SIMT stack
 * (simt.c), barriers, call frames and source positions (sched.c), and the
 * registration of what the families that make warps wait report
 * (sched_waits: the scheduler names no family). */
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
/* A branch of entry t (the stack's top) diverges: its reconvergence pc (the
 * instruction's, else t's) is returned, and t is popped when it already
 * reconverges there, else continues there. */
uint32_t simt_diverge(warp *w, simt_entry *t, const insn *in);
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
/* The handler of call instructions (decoded in exec/dispatch.c). */
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
 * (or fault / deadlock / hang / stop). */
void cluster_run(cluster *c);
/* Add c's pending instruction counts to the launch's live counters. */
void sched_flush(cluster *c);
/* "file:line:col (PTX line N)" of instruction pc. */
void exec_where(const program *P, uint32_t pc, char *buf, size_t n);

/* What an instruction family that makes warps wait tells the scheduler
 * (sched_register, from the family's file): the scheduler knows no family,
 * it asks each registered one. Any member may be 0 / NULL. */
typedef struct sched_waits {
  /* simt_entry.blocked of the warps the family holds (beyond the block
   * barriers' 1..MAX_BARRIERS), and what warp w waits for there, for the
   * deadlock report */
  uint32_t blocked;
  int (*blocked_text)(const block *b, const warp *w, char *buf, size_t n);
  /* only such warps wait (the rest of the block exited or went past):
   * report the fault, `lines` the blocked_text lines */
  void (*blocked_alone)(warp *w0, const char *lines);
  /* after arrivals and exits: complete what can complete (barrier_check_all) */
  void (*check)(cluster *c);
  /* every live warp of c waits: report the family's deadlock (1), else 0 */
  int (*deadlock)(cluster *c);
  /* every live warp spins (W_SPIN) with no progress for SCHED_SPIN_ROUNDS
   * rounds: report the deadlock of block b */
  void (*spin_deadlock)(block *b);
} sched_waits;
/* Register f (at start-up, before any launch; f stays valid). */
void sched_register(const sched_waits *f);
/* Register a family's waits when the program starts. */
#define SCHED_REGISTER(f)                                                                                    \
  __attribute__((constructor)) static void sched_register_##f(void) { sched_register(&f); }

/* Rounds without any progress of asynchronous state (block.async_progress),
 * while every live warp spins, before the scheduler calls it a deadlock: a
 * bounded wait loop (for the GPU's sake) of fewer iterations ends by
 * itself. */
#define SCHED_SPIN_ROUNDS 65536

#endif
