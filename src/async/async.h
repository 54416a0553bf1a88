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
#include "exec/sched.h"
#include "ir/decode.h"

/* Complete `bytes` transaction bytes on the barrier at shared::cluster
 * address `a` (a shared::cta offset names the own block's) for lane l of w
 * (a bulk copy finished). Returns 0, or -1 after a fault. */
int mbar_complete_tx(warp *w, int l, uint64_t a, uint32_t bytes);

/* Rounds without any mbarrier change, while every live warp spins, before
 * the scheduler calls it a deadlock (mbarrier.c reports it): a bounded
 * wait loop (for the GPU's sake) of fewer iterations ends by itself. */
#define MBAR_SPIN_ROUNDS SCHED_SPIN_ROUNDS

/* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] (from
 * dec_cp, after "cp.async.mbarrier"). */
int dec_cp_mbarrier(dctx *D, dstmt *S, insn *in);

/* st.async and red.async (stasync.c), from dec_st / dec_red
 * (exec/dispatch.c). */
int dec_st_async(dctx *D, dstmt *S, insn *in);
int dec_red_async(dctx *D, dstmt *S, insn *in);

/* Decoders of the TMA family (tma.c), from dec_bulk / dec_cp / ops.def. */
int dec_tma(dctx *D, dstmt *S, insn *in, int prefetch, int reduce);
int dec_tensormap(dctx *D, dstmt *S, insn *in); /* tensormap.replace (dec_tensormap_op) */
/* fence.proxy.async(.shared::cta|.global) (exec/dispatch.c's dec_fence picks it):
 * the handler (bulk.c). */
void async_proxy_fence(warp *w, const insn *in, uint32_t m);

#endif
