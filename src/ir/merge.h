/* merge.h: the decoder's pass that marks the shared-memory accesses ptxas
 * merges into wider ones (see merge.c), so that the bank model counts
 * requests as Nsight Compute does. */
#ifndef SMEMU_MERGE_H
#define SMEMU_MERGE_H
#include "ptx/ptx.h"
#include <stdint.h>

#define MERGE_FOLLOW 0xff /* insn.merge of an access counted with its group's first */
#define MERGE_MAX 16      /* accesses in one group */
#define MERGE_GROUPS 16   /* groups open at once */

/* Accesses of one base register in one basic block. */
typedef struct merge_group {
  int32_t base;      /* register slot of the address */
  int kind;          /* 1 loads, 2 stores */
  int size;          /* bytes of each access */
  const char *guard; /* their predicate, or NULL */
  int n;
  uint32_t pc[MERGE_MAX];
  int64_t off[MERGE_MAX];
  uint8_t used[MERGE_MAX];
} merge_group;

typedef struct merge_ctx {
  void *user;                                        /* the decoder's context, for the callbacks */
  int32_t (*reg_slot)(void *user, const char *name); /* slot or -1 */
  int (*symbol_addr)(void *user, const char *name, uint64_t *addr); /* 1 if known */
  void (*mark)(void *user, uint32_t pc, uint8_t merge);             /* set insn.merge */
  uint32_t *al;                                                     /* alignment per register slot */
  uint32_t nslots;
  int changed;
  merge_group groups[MERGE_GROUPS];
  int ngroups;
} merge_ctx;

/* Mark the merged accesses of function f, whose first instruction is at
 * first_pc (one instruction per non-label statement). */
void merge_pass(merge_ctx *C, const ptx_func *f, uint32_t first_pc);

#endif
