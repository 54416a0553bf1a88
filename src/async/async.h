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
#include "ir/decode.h"

/* Complete `bytes` transaction bytes on the barrier at shared::cluster
 * address `a` (a shared::cta offset names the own block's) for lane l of w
 * (a bulk copy finished). Returns 0, or -1 after a fault. */
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

/* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] (from
 * dec_cp, after "cp.async.mbarrier"). */
int dec_cp_mbarrier(dctx *D, dstmt *S, insn *in);

/* ---- the async pipeline (pipeline.c) ---- */
enum { ASYNC_TO_SHARED, ASYNC_FROM_SHARED };
/* Kinds of copy for the pipeline statistics. */
enum { PIPE_BULK_LOAD, PIPE_BULK_STORE, PIPE_TENSOR_LOAD, PIPE_TENSOR_STORE, PIPE_REDUCE, PIPE_KINDS };

/* Lane l of w's asynchronous copy (instruction in) wrote (ASYNC_TO_SHARED)
 * or read (ASYNC_FROM_SHARED) shared bytes [sh, sh+bytes): the race
 * checks see it (a write released at its completion on the mbarrier; a
 * read that needs fence.proxy.async after generic writes), and the
 * pipeline statistics count it as a copy of `kind`. */
void async_copy_done(warp *w, const insn *in, int l, uint64_t sh, uint32_t bytes, int dir, int kind);
/* Its two halves: the statistics of a copy of `bytes`, and the race
 * checks' view of shared bytes [sh, sh+bytes) of it (a copy whose shared
 * bytes are not contiguous calls this per piece). */
void async_count(warp *w, uint32_t bytes, int dir, int kind);
void async_race(warp *w, const insn *in, int l, uint64_t sh, uint32_t bytes, int dir);
/* (For a copy into shared memory, sh may be a shared::cluster address of
 * another block of the cluster: the bytes are then the issuing thread's
 * write into that block, checked by the cluster's race check, and released
 * as for the own block.) */
/* A copy's bytes completed on the mbarrier at shared offset a (before
 * mbar_complete_tx), and a barrier's phase completed / it was initialised /
 * a wait on it failed (spun) or succeeded: the pipeline statistics. */
void pipe_tx(warp *w, uint64_t a, uint32_t bytes);
void pipe_phase(warp *w, uint64_t a);
void pipe_init(warp *w, uint64_t a, uint32_t count);
void pipe_wait(warp *w, uint64_t a, int done);
/* cp.async.bulk.commit_group / wait_group N by lanes m of w. */
void pipe_commit(warp *w, uint32_t m);
void pipe_wait_group(warp *w, uint32_t m, uint32_t n);

/* The pipeline statistics of one launch (analysis.pipe), merged from the
 * workers' and written by smemu_write_pipeline_report. */
#define PIPE_BARS 64
typedef struct pipe_bar {
  uint32_t addr;       /* shared offset of the mbarrier */
  uint32_t expected;   /* arrival count of its last init */
  uint64_t inits, phases, copies, bytes, waits, spins;
  uint32_t live_copies;/* copies landed in its current phase (per block) */
  uint64_t live_bytes;
} pipe_bar;
typedef struct pipe_stats {
  uint64_t copies[PIPE_KINDS], bytes[PIPE_KINDS];
  uint64_t commits, group_waits, fences;
  uint32_t max_copies;     /* most loads landed in phases not completed yet, one block */
  uint64_t max_bytes;      /* their bytes */
  uint32_t max_groups;     /* most bulk groups committed and not waited for, one block */
  uint32_t cur_copies, cur_groups, uncommitted; /* per block, live */
  uint64_t cur_bytes;
  uint32_t nbars, more_bars; /* barriers kept, and those beyond PIPE_BARS */
  pipe_bar bars[PIPE_BARS];
} pipe_stats;
void pipe_block_start(pipe_stats *p);
void pipe_merge(pipe_stats *into, const pipe_stats *from);

/* Decoders of the TMA family (tma.c), from dec_bulk / dec_cp / ops.def. */
int dec_tma(dctx *D, dstmt *S, insn *in, int prefetch, int reduce);
/* fence.proxy.async(.shared::cta|.global) (ctrl.c's dec_fence picks it). */
void async_proxy_fence(warp *w, const insn *in, uint32_t m);

#endif
