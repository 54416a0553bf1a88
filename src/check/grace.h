/* grace.h: the global-memory race check's shadow (grace.c). */
#ifndef SMEMU_GRACE_H
#define SMEMU_GRACE_H
#include "check/race.h"
#include <stdint.h>

/* ---- global memory (SMEMU_ANALYZE_GLOBAL_RACES) ---- */
/* An access to a global word or byte, with its block, as the check reads
 * it: gen 0 marks an empty record. A write's kind (write or atomic) is kept
 * in its word's flags, a read's is ACC_READ. Stored packed (grace.c): in 8
 * bytes, gen << 32 | blk << (pc bits + tid bits) | pc << tid bits | tid,
 * where the launch's block, pc and thread indices fit 32 bits together
 * (wide 0), else as this struct (wide 1). */
typedef struct grec {
  uint32_t blk; /* linear block index */
  uint32_t gen; /* that block's generation at the access; 0: none */
  uint32_t pc;  /* the instruction */
  uint32_t tid; /* linear thread index in the block */
} grec;

/* Records of n words (or bytes), each array allocated at its first store:
 * w the last write of each, r the last reads of two different threads
 * (2i and 2i+1); a missing array holds empty records. Memory that is only
 * read, or only written, costs one array. */
typedef struct grecs {
  void *w, *r;
} grecs;

#define GPAGE_WORDS 1024
/* Chunks of 16 words whose read records may be kept as two summaries
 * (grace.c, gchunk_read): GC_EMPTY no record yet, GC_SUM the summaries,
 * GC_WORDS the words' records in the page's array. */
#define GCHUNK 16
enum { GC_EMPTY, GC_SUM, GC_WORDS };
/* The shadow of 4 KB of global memory: records per word, and once one of
 * its words' bytes go separate ways, records per byte for all. */
typedef struct gpage {
  /* (what a read by half-warps touches first, in the first two cache lines) */
  pthread_mutex_t lock;
  grecs s;                                /* GPAGE_WORDS */
  uint8_t split;                          /* 1 once a word has split (GW_SPLIT) */
  uint8_t cst[GPAGE_WORDS / GCHUNK];      /* GC_* of each chunk */
  uint64_t csum[GPAGE_WORDS / GCHUNK][2]; /* GC_SUM: word j's reads are these + j */
  uint8_t flag[GPAGE_WORDS];              /* GW_* of each word */
  grecs bytes;                            /* 4 per word, once a word splits */
  uint8_t *bflag;                         /* GW_ATOMIC of each byte record, or NULL */
} gpage;

/* A release of a block: a gpu-scope fence by thread tid, then an atomic
 * on addr (the seq-th atomic of the launch). Each block keeps its last
 * GREL_KEEP: at grid.sync() a block may release the next barrier before
 * the others have acquired its previous one. */
#define GREL_KEEP 4
typedef struct grel {
  uint64_t addr, seq;
  uint32_t gen, bar; /* fence_gen - 1 and fence_bar of that thread */
  uint16_t tid;
  uint8_t valid;
} grel;

/* The launch-wide shadow of global memory: a three-level map from a page
 * number (address >> 12) to its page, directory nodes mapped lazily. */
#define GDIR_BITS 18
typedef struct global_shadow {
  _Atomic(void *) *top; /* 2^16 second-level nodes */
  pthread_mutex_t rel_lock;
  grel *rel; /* GREL_KEEP per block (a ring), allocated at the first release */
  uint64_t nrel;
  _Atomic uint64_t seq; /* atomics on global memory so far */
  uint8_t *pcf;         /* per pc: the GP_* semantics written on it */
  uint32_t npc;
  uint8_t wide;        /* records of 16 bytes, not 8 */
  uint8_t tidb, blksh; /* packed records: tid bits, blk shift (pc bits + tid bits) */
  uint32_t pcmask;     /* packed records: (1 << pc bits) - 1 */
} global_shadow;

/* The shadow of a launch of P with nblocks blocks of nthreads threads;
 * NULL when out of memory. */
global_shadow *gshadow_new(const program *P, uint64_t nblocks, uint32_t nthreads);
void gshadow_free(global_shadow *g);
/* Lanes m of warp w executed a gpu- or system-scope fence. */
void race_fence(warp *w, uint32_t m);
/* Global accesses of a warp instruction (lanes m, size bytes each). */
void race_global(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind);

/* The shared-memory check's helpers it uses (race.c). */
int race_ordered(const race_state *r, const acc_rec *a, uint32_t t);
hazard_rec *race_find_pair(race_state *r, uint32_t pc1, int kind1, uint32_t pc2, int kind2);
void race_add_hazard(race_state *r, block *b, int type, const acc_rec *first, uint32_t pc, uint16_t tid,
                     int kind, uint64_t addr, uint64_t v1, uint64_t v2, uint32_t n);

#endif
