/* checks.h: the table of checks. Each analysis is one row, defined in its
 * own file and listed once in checks.c: its name, its bit, whether a
 * launch wants it, the new / free / merge of its per-worker state (in
 * analysis.h), and what it does at a block's start and end, on a memory
 * access and on a synchronisation or asynchronous event (hooks.h). The
 * hooks walk the rows a launch enabled, in table order, so a new check is
 * one file and one row. */
#ifndef SMEMU_CHECKS_H
#define SMEMU_CHECKS_H
#include "exec/hooks.h"

enum {
  CHECK_BANKS = 1u << 0, /* the bank model's statistics per instruction (bankstat.c) */
  CHECK_RACE =
      1u << 1, /* shared-memory races, barrier errors, uninitialised shared reads (race*.c, sync.c) */
  CHECK_CLUSTER = 1u << 2,  /* races between the blocks of a cluster (crace.c) */
  CHECK_GLOBAL = 1u << 3,   /* global-memory races (grace.c) */
  CHECK_GINIT = 1u << 4,    /* uninitialised global reads (ginit.c) */
  CHECK_PIPELINE = 1u << 5, /* async pipeline statistics (pipe.c) */
};

typedef struct check_row {
  const char *name;
  uint32_t bit; /* CHECK_* */
  /* the launch asks for it */
  int (*wanted)(const launch *L);
  /* its state in a (0, or -1 out of memory: analysis_new frees a), freed
   * (also after a failed make), and merged from a worker's into the
   * launch's; any may be NULL */
  int (*make)(analysis *a, const launch *L);
  void (*drop)(analysis *a);
  void (*merge)(analysis *into, const analysis *from);
  /* block b starts / has run on this worker */
  void (*block_start)(block *b);
  void (*block_end)(block *b);
  /* lanes m of w accessed addr[l] (size bytes each) as kind (ACC_*);
   * not_shared: the check sees nothing of a .shared instruction (the
   * hooks skip it there) */
  void (*mem)(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind);
  int not_shared;
  /* the same of a full warp whose lanes are at a0 + (l%16)*stride and
   * a1 + (l%16)*stride (hook_mem_halves); NULL: mem */
  void (*mem_halves)(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                     uint64_t a1, uint32_t stride, int kind);
  /* cp.async (hook_copy): ld reads global src[l], st writes shared dst[l];
   * NULL: the check does not see copies */
  void (*copy)(warp *w, const insn *ld, const insn *st, uint32_t m, const uint64_t src[32],
               const uint64_t dst[32], uint32_t size);
  /* a synchronisation or asynchronous event (hooks.h) of one of the kinds
   * in `events` (bit 1 << HEV_*) */
  void (*event)(const hook_ev *e);
  uint32_t events;
} check_row;

/* The bit of an event kind in check_row.events. */
#define HEV_BIT(k) (1u << (k))

/* The rows, in the order the hooks run them (checks.c). */
extern const check_row *const check_table[];
extern const uint32_t check_count;

/* The rows (one per file). */
extern const check_row check_banks, check_race, check_cluster, check_global, check_ginit, check_pipeline;

#endif
