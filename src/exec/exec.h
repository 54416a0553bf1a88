/* exec.h: the SIMT executor's state (launch, block, warp) and the helpers
 * instruction handlers use. Handlers are warp-wide: one call per warp
 * instruction, looping over the lanes of `mask`. */
#ifndef SMEMU_EXEC_H
#define SMEMU_EXEC_H

#include "ir/program.h"
#include "mem/mem.h"
#include "smemu.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#define FULL_MASK 0xffffffffu
#define MAX_BARRIERS 16
#define MAX_CALL_DEPTH 256

/* Generic-address windows: host pointers are global addresses; shared and
 * local addresses live in two non-canonical x86-64 ranges no host pointer
 * can take. */
#define SHARED_WINDOW 0xffff800000000000ull
#define LOCAL_WINDOW 0xffff900000000000ull
/* cvta.param of a kernel parameter (its offset in the parameter buffer):
 * read-only, as a __grid_constant__ parameter's address is */
#define PARAM_WINDOW 0xffffa00000000000ull
#define WINDOW_SIZE 0x0000000100000000ull

/* Loop over the lanes of mask m, with a straight loop when all are set. */
#define LANES(m, ...)                                                                                        \
  do {                                                                                                       \
    if ((m) == FULL_MASK) {                                                                                  \
      for (int l = 0; l < 32; l++) {                                                                         \
        __VA_ARGS__;                                                                                         \
      }                                                                                                      \
    } else {                                                                                                 \
      for (uint32_t mm_ = (m); mm_; mm_ &= mm_ - 1) {                                                        \
        int l = __builtin_ctz(mm_);                                                                          \
        __VA_ARGS__;                                                                                         \
      }                                                                                                      \
    }                                                                                                        \
  } while (0)

/* One entry of the reconvergence stack. */
typedef struct simt_entry {
  uint32_t pc;       /* next instruction of this path */
  uint32_t rpc;      /* where the path rejoins the entry below, or NO_RPC */
  uint32_t mask;     /* lanes on this path */
  uint32_t blocked;  /* barrier id + 1 while the path waits, else 0 */
  uint32_t red_dst;  /* bar.red destination (register or predicate), or ~0u */
  uint32_t red_mask; /* lanes that get the bar.red result */
  uint8_t red_kind;  /* 0 popc, 1 and, 2 or */
  uint8_t red_pred;  /* 1: red_dst is a predicate */
} simt_entry;

/* One call frame of a warp. */
typedef struct frame {
  uint32_t func;       /* index in program.funcs */
  uint32_t reg_base;   /* first slot in warp.regstack */
  uint32_t pred_base;  /* first predicate in warp.predstack */
  uint32_t local_base; /* frame's offset in each thread's local memory */
  uint32_t ret_pc;     /* caller's pc after the call */
  uint32_t call_pc;    /* the call instruction */
  uint32_t stack_base; /* SIMT stack depth below this frame's entries */
} frame;

/* W_SPIN: the warp's mbarrier wait failed; it yields until the next round
 * of the scheduler (src/async/mbarrier.c). W_YIELD: the warp ended its
 * turn after a shared-memory atomic, so that the block's other warps run
 * before its next access, as they do on the GPU (exec/contend.c); it runs
 * again in the next round. */
enum { W_RUN, W_BAR, W_DONE, W_FAULT, W_SPIN, W_YIELD };

struct launch;
struct block;
struct cluster;

typedef struct warp {
  uint64_t (*r)[32];   /* registers of the current frame */
  uint32_t *p;         /* predicates of the current frame */
  uint8_t *local;      /* local memory, lane-major: local + lane * local_size */
  uint32_t local_size; /* bytes of local memory per thread */
  uint32_t local_base; /* current frame's local offset */
  struct block *blk;   /* owning block */
  struct launch *L;    /* the launch */
  simt_entry *stack;   /* reconvergence stack */
  uint32_t sp;         /* entries on it */
  frame *frames;       /* call frames, [0] the kernel's */
  uint32_t nframes;
  uint64_t (*regstack)[32]; /* register slots of all frames */
  uint32_t reg_cap;         /* slots in regstack */
  uint32_t *predstack;      /* predicates of all frames */
  uint32_t pred_cap;
  uint32_t valid;                     /* lanes that exist in this warp */
  uint32_t exited;                    /* lanes that have exited */
  int state;                          /* W_RUN, W_BAR, W_DONE, W_FAULT */
  uint32_t bar_id;                    /* barrier waited on (W_BAR) */
  uint32_t bar_pc;                    /* the barrier instruction waited at */
  uint32_t bar_dst;                   /* bar.red destination register (or ~0u) */
  uint32_t index;                     /* warp index in the block */
  uint64_t ninsn;                     /* warp instructions executed */
  uint64_t nthread;                   /* thread instructions executed */
  uint32_t pc;                        /* pc of the instruction being executed */
  const struct alloc *gcache;         /* last global allocation hit */
  const struct alloc *gcache2;        /* the one before it: kernels alternate between two arrays */
  uint32_t arrive_mask[MAX_BARRIERS]; /* lanes that did bar.arrive on each barrier this round */
  uint32_t spin_pc;                   /* the mbarrier wait it last failed (W_SPIN) */
  uint32_t spin_addr;                 /* that barrier's shared offset */
  uint16_t nreg_count;                /* setmaxnreg instructions executed (sm90ctl.c) */
  uint16_t nreg_last;                 /* the last one: 0x8000 for .inc | the count */
  uint32_t alloca_low;                /* lowest local offset alloca gave any lane, or 0 (stack.c) */
  uint32_t alloca_used[32];           /* per lane: local bytes alloca holds, from the top down */
  uint32_t meet_alone;                /* pc + 1 of a .sync operation to run without waiting (meet.c) */
  uint32_t polls;                     /* iterations of polling loops so far (exec/contend.c) */
  uint32_t cas_lost;                  /* shared CAS lost in a row (exec/contend.c) */
  uint32_t deferred;                  /* pc + 1 of a CAS whose turn it ended before (exec/contend.c) */
} warp;

typedef struct barrier_state {
  uint32_t arrived;  /* threads arrived */
  uint32_t expected; /* thread count of the barrier, 0 for all threads */
  uint32_t red_popc; /* bar.red accumulators */
  uint32_t red_and, red_or;
  uint64_t warps; /* warps that arrived this phase, bit i for warp i (past 64 warps release visits all) */
} barrier_state;

typedef struct block {
  uint32_t ctaid[3]; /* block index */
  uint32_t linear;   /* linear block index */
  uint8_t *smem;     /* shared memory, smem_size bytes */
  uint32_t smem_size;
  warp *warps;
  uint32_t nwarps;
  uint32_t nthreads;
  uint32_t exited_threads;
  barrier_state bar[MAX_BARRIERS];
  int fault;               /* set when a warp faulted */
  struct analysis *an;     /* this block's analysis state, or NULL */
  uint64_t async_progress; /* mbarrier state changes: spinning warps wait for one */
  struct wg_block *wg;     /* wgmma state (wgmma.c), NULL until the first wgmma */
  struct cluster *cl;      /* the cluster it belongs to (one block without cluster dims) */
  uint32_t rank;           /* %cluster_ctarank */
  uint32_t cctaid[3];      /* %cluster_ctaid */
  uint32_t *c_arr;         /* per thread: barrier.cluster arrivals so far */
  uint32_t *c_wait;        /* per thread: barrier.cluster waits completed */
} block;
typedef struct wg_block wg_block;

/* A thread-block cluster: its blocks run together on one worker, so that
 * barrier.cluster and remote shared-memory accesses see them all. */
typedef struct cluster {
  block *blocks;     /* by rank */
  uint32_t n;        /* blocks in it */
  uint32_t nthreads; /* threads in it */
  uint32_t cid[3];   /* %clusterid */
  uint32_t phase;    /* barrier.cluster phases completed */
  uint32_t arrived;  /* threads arrived in the current phase */
  uint64_t seq;      /* release events so far (race checks, cluster.c) */
  /* the worker's instructions not yet added to the launch's live counters
   * (sched.c adds them in batches: two workers adding every round fight
   * over the counters' cache line), and live_warp as it last saw it */
  uint64_t pend_w, pend_t, known_w;
} cluster;

/* The first fault of a launch, for reports in compute-sanitizer's shape. */
typedef struct fault_info {
  uint32_t pc;                   /* the instruction */
  uint32_t block[3];             /* block index */
  uint32_t linear;               /* linear block index (for ordering records) */
  uint32_t tid;                  /* linear thread in the block (the warp's first lane
                                    for a fault of the warp) */
  uint8_t has_thread;            /* 0: the fault is the warp's */
  uint8_t access;                /* 1: a bad address (fields below are set) */
  uint8_t write;                 /* the access was a write */
  uint8_t misaligned;            /* misaligned, else out of bounds */
  const char *space;             /* "global", "shared", "local", "param", "constant" */
  uint64_t addr;                 /* the address */
  uint32_t size;                 /* bytes of the access */
  uint64_t near_base, near_size; /* nearest allocation (global), size 0: none */
  int remote_cta;                /* "remote_shared": the block rank accessed, else -1 */
} fault_info;

typedef struct launch {
  const program *prog;
  struct mem_table *mem; /* global allocations */
  uint32_t grid[3], block[3];
  uint32_t cdim[3];       /* cluster dimensions in blocks ((1,1,1) without clusters) */
  uint32_t csize;         /* blocks per cluster */
  int cluster_explicit;   /* launched with cluster dimensions (%is_explicit_cluster) */
  int cooperative;        /* cudaLaunchCooperativeKernel: every block resident at once */
  uint64_t grid_ws;       /* its grid workspace (%envreg1: high word, %envreg2: low), else 0 */
  struct coop_gate *gate; /* its worker threads' turns at the cores (coop.h) */
  uint32_t nthreads_block;
  uint32_t dyn_smem;
  uint32_t smem_size;    /* reserved + static + dynamic */
  uint32_t smem_aggr;    /* the same without padding after the last byte (%aggr_smem_size) */
  const uint8_t *params; /* kernel parameter buffer */
  struct dev_heap *heap; /* device malloc/free (heap.h), or NULL */
  uint32_t local_size;   /* local bytes per thread */
  uint64_t nblocks;
  atomic_int abort;     /* set on the first error */
  pthread_mutex_t lock; /* guards status/msg and printing */
  int status;           /* smemu_status of the first error */
  char msg[2048];
  uint64_t max_warp_insns; /* the launch's instruction budget; 0: unlimited */
  atomic_uint_fast64_t warp_insns, thread_insns;
  /* watchdog, progress and hang detection (watch.c, hang.c) */
  double timeout;                                   /* wall-clock limit in seconds, 0: none */
  void (*progress)(const smemu_progress *, void *); /* status callback or NULL */
  void *progress_user;
  atomic_uint_fast64_t live_warp, live_thread; /* instructions so far, per round */
  atomic_int nactive;                          /* workers still taking blocks */
  atomic_int nstuck;                           /* of them, those whose block repeats its state */
  uint32_t nsm;                                /* %nsmid */
  int hooks;                                   /* any analysis on: memory handlers call hooks.h */
  int want_banks;                              /* bank model on */
  int want_races;                              /* shared-memory hazards */
  int racecheck_compat;                        /* ... remembering one access per byte (race.c) */
  int want_sync;                               /* barrier misuse */
  int want_init;                               /* uninitialised shared reads */
  int want_global_races;                       /* hazards on global memory */
  int want_pipeline;                           /* async pipeline statistics (src/check/pipe.c) */
  struct global_shadow *gshadow;               /* their launch-wide shadow */
  struct ginit *ginit;                         /* global initialisation shadow (init check), or NULL */
  int schedule_random;                         /* seeded random warp order */
  uint64_t seed;
  const struct arch_profile *arch; /* architecture profile */
  int bank_mode;                   /* 4 or 8 bytes */
  struct analysis *result;         /* merged analysis of all workers */
  fault_info fault;                /* the first error's details (valid when status != 0) */
  int fault_all;                   /* SMEMU_ANALYZE_MEMCHECK: bad addresses end their lanes only */
  fault_info *faults;              /* then every one (under lock; at most MAX_FAULT_RECORDS) */
  uint32_t nfaults, capfaults;
  uint64_t faults_total;      /* all of them, kept or not */
  const struct jit_code *jit; /* compiled regions (src/jit), or NULL: interpret */
  smemu_devcall_fn devcall;   /* the device runtime's host side (devcall.c), or NULL */
  void *devcall_user;
  struct smemu_kernel *kernel; /* the launched kernel, for devcall */
  /* the counters the workers write block by block, on cache lines of their
   * own: on a line with fields the warps read, every write would take that
   * line from the other cores */
  char hot_pad0_[64];
  atomic_uint_fast64_t next_block; /* the next cluster to hand out */
  atomic_uint_fast64_t blocks_done;
  atomic_uint_fast64_t contention; /* shared CAS requests no lane won (exec/contend.c) */
  char hot_pad1_[64];
} launch;
#define MAX_FAULT_RECORDS 4096

/* Report a fault of lane `lane` (or -1 for the warp) at the current
 * instruction: records the first error of the launch and stops the warp. */
void exec_fault(warp *w, int lane, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* exec_fault of a bad address described by fi (addr.c): memcheck's way
 * (SMEMU_ANALYZE_MEMCHECK) keeps its record and ends only the lane. */
void exec_fault_access(warp *w, int lane, const fault_info *fi, int status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The .sync warp operations' membermasks (register slot mask_slot) of the
 * executing lanes m: grp[l] = lane l's mask limited to m. A lane outside its
 * own mask is reported to the sync check and faults the warp (as sm_90
 * does); returns -1 then. `what` names the instruction. (warpops.c) */
int warp_groups(warp *w, uint32_t mask_slot, uint32_t m, uint32_t grp[32], const char *what);

/* Lane l's bytes at offset off of its local frame area (ctrl.c). */
uint8_t *ctrl_lane_local(warp *w, int l, uint32_t off);
/* A call of a device runtime function (BUILTIN_DEVRT*) by lanes m
 * (devcall.c): 0, or -1 after a fault. */
int devcall_builtin(warp *w, uint32_t m, const func_info *g, const call_info *ci);

/* Run a launch to completion on `nworkers` threads. Returns smemu_status. */
int exec_launch(launch *L, int nworkers);

/* Memory access of `size` bytes at address `addr` in `space` for lane l:
 * returns a host pointer or NULL after reporting a fault. */
uint8_t *exec_addr(warp *w, int l, int space, uint64_t addr, uint32_t size, int write);

/* Read a value of PTX type t from a register slot as double / int64. */
static inline uint64_t mask_bits(int bytes) { return bytes >= 8 ? ~0ull : ((1ull << (bytes * 8)) - 1); }

#endif
