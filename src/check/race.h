/* race.h: the race, barrier and initialisation checker's state, kept per
 * worker (one block at a time) and merged per launch. A hazard is a pair of
 * accesses to one byte by two threads, at least one a write, with no
 * barrier both threads passed between them; the shadow of each shared byte
 * keeps its last write and up to four reads since it (see race.c for
 * which reads are kept). */
#ifndef SMEMU_RACE_H
#define SMEMU_RACE_H
#include "exec/exec.h"
#include <stdint.h>

/* Kinds of access. */
enum { ACC_READ, ACC_WRITE, ACC_ATOMIC };
enum { HZ_RAW, HZ_WAR, HZ_WAW };

/* One access remembered in the shadow. */
typedef struct acc_rec {
  uint32_t gen; /* block synchronisation generation when it happened */
  uint32_t pc;  /* the instruction */
  uint16_t tid; /* linear thread index in the block */
  uint8_t kind; /* ACC_* */
  uint8_t valid;
} acc_rec;

/* Shadow of one shared byte (or of a word whose bytes share a history):
 * the last write and the last reads of two different threads, kept hot. */
typedef struct shadow {
  acc_rec w;        /* last write (or atomic) */
  acc_rec r[2];     /* the last reads of two different threads */
  uint32_t spilled; /* 1: `extra` (the matching shadow_x) holds reads too */
} shadow;

/* Reads of other pcs or warps pushed out of shadow.r since the last write,
 * kept apart (cold) because most shadows never need them (race.c). */
typedef struct shadow_x {
  acc_rec r[2];
} shadow_x;

/* The readers of 16 consecutive words w0.. kept as one: word w0 + j's
 * r[0..1], spilled and shadow_x are these with j added to each tid (its w
 * stays in wsh). Only reads of whole half-warps on consecutive words make
 * and update one (race.c), so every tid here is 0 or 16 mod 32 and adding
 * j < 16 changes no warp: the 16 words' histories are one history. */
typedef struct wrun {
  uint32_t w0;
  uint32_t mask; /* bit j: word w0 + j is still in the run */
  shadow s;
  shadow_x x;
} wrun;

/* An aggregated hazard (racecheck's analysis record) with one instance. */
typedef struct hazard_rec {
  uint8_t type, error, global, first_kind, second_kind;
  uint8_t cluster;                 /* between threads of two blocks of a cluster: block is
                                      the cluster's first (rank 0), address the H100's
                                      shared::cluster address (rank << 24 | offset) */
  uint8_t first_rank, second_rank; /* their blocks' ranks (cluster hazards) */
  uint32_t first_pc, second_pc;
  uint64_t count;
  uint64_t address; /* instance */
  uint32_t block[3];
  uint16_t first_tid, second_tid;
  uint64_t first_value, second_value;
} hazard_rec;

/* An aggregated barrier error. */
typedef struct sync_rec {
  uint8_t kind; /* SYNC_* */
  uint32_t pc;
  uint64_t count;
  uint32_t block[3];
  uint16_t tid;
  uint32_t lanes[32]; /* per warp of the block: the lanes named (all blocks) */
} sync_rec;
enum {
  SYNC_DIVERGENT_WARP,
  SYNC_DIVERGENT_BLOCK,
  SYNC_WARP_MASK,
  SYNC_BAR_COUNT,
  SYNC_UNINIT,
  SYNC_WGMMA_EARLY
};

typedef struct race_state {
  /* (first: what every shared access tests, on few cache lines) */
  uint8_t compat;         /* SMEMU_ANALYZE_RACECHECK_COMPAT: one access per byte */
  uint32_t npcp, cappcp;  /* cp.async copies in flight (pcp, below) */
  struct aread_block *ar; /* wgmma.mma_async reads in flight (race_async.c), NULL until the first */
  shadow *wsh;            /* one per 4-byte word: the history of all its bytes
                             while they share one (split[word] == 0) */
  uint8_t *split;         /* 1: the word's bytes differ; sh holds them */
  uint32_t nsplit;        /* words split now (0: every word uses wsh) */
  uint32_t wgen1;         /* gen + 1 of the newest write record set (0: none):
                             at most all_gen, no write can be a RAW's first */
  uint32_t rgen1;         /* the same for read records: with both at most
                             all_gen, every record is ordered before what comes */
  uint32_t *runof;        /* per word: 1 + the run (wrun) holding its readers, 0: none */
  wrun *runs;             /* capruns of them, nrunused handed out, free ones stacked */
  uint32_t *runfree;
  uint32_t nruns, nrunused, nrunfree, capruns;
  struct pend_shape { /* whole-warp shape reads whose readers are not kept yet */
    uint32_t w0, w1, pc, gen;
    uint16_t tb;
    uint8_t n;
    uint8_t st; /* 1: a store of 16 words from each of w0, w1 not recorded yet
                   (race_shape.c: deferred_store) */
  } * plog;     /* PLOG of them, nplog used (race.c: pattern_reads) */
  uint32_t nplog;
  uint8_t st_ok;        /* stores may wait in plog: no racecheck compat, no cp (async proxy reads
                           look at write records of any age) */
  uint8_t st_only;      /* every write record not older than all_gen is a store waiting in plog */
  shadow *sh;           /* one per shared byte, used for split words */
  shadow_x *wshx, *shx; /* their spilled reads, index for index */
  uint32_t sh_size;
  uint8_t *init;                        /* 1 per shared byte written (init check) */
  uint32_t init_lo;                     /* the user's shared bytes from here on (below: the reserved
                                           area, seldom written) */
  uint32_t init_unset;                  /* of those, the bytes still 0 (sinit_mark): none, every read
                                           from init_lo on is of written bytes */
  uint32_t gen;                         /* block generation: +1 per barrier completion / warp sync */
  uint32_t all_gen;                     /* generation of the last barrier every live thread passed:
                                           accesses older than it are ordered for everyone */
  uint32_t *block_gen;                  /* per thread: generation of its last block barrier */
  uint32_t *warp_gen;                   /* per thread: generation of its last warp sync */
  uint32_t bar_pc[MAX_BARRIERS];        /* pc of the first arrival of each barrier's round, +1 */
  uint8_t bar_reported[MAX_BARRIERS];   /* a divergence of this round was reported */
  uint32_t bar_lanes[MAX_BARRIERS][32]; /* per warp: the lanes arrived at that pc */
  uint8_t sync_stopped;                 /* sm_70+: synccheck stopped the kernel at a barrier error */
  uint8_t dv_any;                       /* some warp has a divergent arrival pending (sync.c) */
  uint32_t dv_lanes[32];                /* per warp: live lanes that skipped that barrier */
  uint32_t dv_m[32];                    /* per warp: the lanes that arrived at it */
  uint32_t dv_pc[32];                   /* per warp: its pc */
  hazard_rec *hz;
  uint32_t nhz, caphz;
  sync_rec *sy;
  uint32_t nsy, capsy;
  /* global memory: fences and atomics that order accesses between blocks */
  uint32_t *fence_gen; /* per thread: generation of its last gpu-scope fence, +1 */
  uint32_t *fence_bar; /* per thread: its block_gen at that fence */
  struct gacq {        /* this block's atomics (acquires), the last GACQ */
    uint64_t addr, seq;
    uint32_t gen;
    uint16_t tid;
  } acq[8];
  uint32_t nacq;
  /* the async proxy (TMA and bulk copies, src/async) */
  uint32_t *proxy_gen; /* per thread: r->gen just after its last fence.proxy.async, 0: none */
  uint32_t *groups;    /* per thread: bulk groups committed */
  struct pend_read {   /* async reads of shared memory not yet waited for */
    uint64_t a;
    uint32_t n, pc, group;
    uint16_t tid;
  } * pend;
  uint32_t npend, cappend;
  /* cp.async (non-bulk) copies into shared memory still in flight: their
   * bytes were written (recorded) at issue and complete at the issuing
   * thread's cp.async.wait_group / wait_all or cp.async.mbarrier.arrive */
  uint32_t *cp_groups; /* per thread: cp.async groups committed */
  uint32_t *cp_npend;  /* per thread: its copies in pcp */
  struct pend_cp {
    uint32_t a, pc, gen, group;
    uint16_t tid;
    uint8_t n;
  } * pcp;
} race_state;
#define GACQ 8
#define PLOG 512

int race_init(race_state *r, const launch *L);
void race_free(race_state *r);
void race_block_start(race_state *r, block *b);
void race_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind);
/* Lane `lane` of warp w writes shared byte `at` while an asynchronous read
 * (wgmma.mma_async at read_pc, issued by thread read_tid) is in flight. */
void race_async_war(warp *w, int lane, uint64_t at, uint32_t read_pc, uint16_t read_tid);
/* Threads `lanes` of warp w passed a completed block barrier. */
void race_barrier(block *b, warp *w, uint32_t lanes);
/* Lanes of warp w passed bar.warp.sync. */
void race_warpsync(warp *w, uint32_t lanes);
void race_sync_error(warp *w, int kind, uint32_t lanes);
/* Record lanes of warp wi at a barrier error (kind, pc) (race.c). */
void race_add_sync(race_state *r, block *b, int kind, uint32_t pc, uint32_t wi, uint32_t lanes);
/* Lanes m of warp w executed bar.warp.sync, lane l with mask mask[l]. */
void race_warpsync_masks(warp *w, uint32_t m, const uint64_t *mask);
/* A warp arrives at barrier id at instruction pc (divergence checks). */
void race_bar_arrive(warp *w, uint32_t id, uint32_t m);
void race_bar_released(block *b, uint32_t id, int all);
/* sync.c: a divergent barrier arrival waits for what the lanes that
 * skipped it do next: lanes m of w touched memory or met other lanes
 * (race_sync_effect), or the barrier completed (race_sync_released). */
void race_sync_effect(warp *w, uint32_t m);
void race_sync_released(block *b);
/* Lanes m of warp w did an atomic and.b32 of operand bits B[l] on the
 * words at addr[l]: on a reserved shared word it is cooperative groups'
 * release of a tile wider than a warp (README: reserved shared memory),
 * a barrier of the warps whose bits it clears when they are two or more. */
void race_rsv_release(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], const uint64_t *B);
void race_merge(race_state *into, const race_state *from);
/* A barrier.cluster phase completed: for the block's own checks it is a
 * barrier all of its live threads passed (accesses between a thread's
 * arrive and its wait count as before it: hazards there can be missed). */
void race_cluster_released(block *b);
/* n byte hazards between threads of two blocks (ranks) of a cluster at
 * shared::cluster address addr (check/crace.c); block0: the cluster's
 * rank-0 block. */
void race_add_cluster(race_state *r, int type, uint32_t pc1, int kind1, uint16_t tid1, uint32_t rank1,
                      uint32_t pc2, int kind2, uint16_t tid2, uint32_t rank2, const uint32_t block0[3],
                      uint64_t addr, uint32_t n);

/* ---- asynchronous accesses (race_async.c) ---- */
/* The events of the async proxy, cp.async, mbarriers and wgmma (hooks.h). */
struct hook_ev;
void race_async_event(const struct hook_ev *e);
/* A shared write of lanes m (size bytes at addr[l]): a WAR hazard when a
 * wgmma.mma_async that reads those bytes is still in flight (no
 * wgmma.wait_group has retired it). */
void race_async_write(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);
/* A new block: no read in flight; the state freed. */
void race_async_reset(race_state *r);
void race_async_free(race_state *r);
typedef struct aread_block aread_block;

/* ---- the async proxy (src/async) ---- */
/* Lanes m of warp w executed fence.proxy.async: their earlier generic
 * writes of shared memory are visible to the async proxy. */
void race_proxy_fence(warp *w, uint32_t m);
/* Lane l of warp w issued an async-proxy read (a TMA or bulk store) of
 * shared bytes [a, a+n): a byte last written by a generic store of a thread
 * that has not executed fence.proxy.async since is a hazard (RAW, error),
 * as is any unordered write; then the read is recorded. */
void race_proxy_read(warp *w, const insn *in, int l, uint64_t a, uint32_t n);
/* The read goes on until its bulk group is waited for: lanes m of w
 * committed a group, or waited (wait_group(.read) n) for all but their n
 * most recent groups, when their pending reads are checked again. */
void race_proxy_commit(warp *w, uint32_t m);
void race_proxy_wait(warp *w, uint32_t m, uint32_t n);

/* ---- cp.async (src/exec/mem.c) ----
 * Lanes m of warp w issued cp.async writing size shared bytes at dst[l]
 * (already recorded as their writes): the copies are in flight. */
void race_cp_issue(warp *w, uint32_t m, const uint64_t dst[32], uint32_t size);
/* cp.async.commit_group by lanes m. */
void race_cp_commit(warp *w, uint32_t m);
/* Lanes m complete their copies of all but the n most recent committed
 * groups (cp.async.wait_group n), or all of them with n == RACE_CP_ALL
 * (cp.async.wait_all, cp.async.mbarrier.arrive): an access by another
 * thread to a byte while its copy was in flight is a hazard, and the copy's
 * write counts from now on for the ordering of later accesses. */
#define RACE_CP_ALL UINT32_MAX
void race_cp_wait(warp *w, uint32_t m, uint32_t n);

#include "check/grace.h"

#endif
