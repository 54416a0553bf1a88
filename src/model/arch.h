/* arch.h: architecture profiles, one table for every compute capability smemu
 * models (1.x to 9.0). The bank model, the launch checks and the runtime's
 * cudaGetDeviceProperties all read these figures; nothing else keeps its own
 * copy. Sources are cited per row in arch.c. */
#ifndef SMEMU_MODEL_ARCH_H
#define SMEMU_MODEL_ARCH_H

#include <stdint.h>
#include <stdio.h>

/* How a generation's shared memory serves a warp request (see banks.c). */
typedef enum arch_bank_rules {
  BANK_RULES_CC1, /* 16 banks, half-warp requests, one broadcast word per pass */
  BANK_RULES_CC2, /* 32 banks x 4 B, multicast, 64-bit by half-warp, 128-bit by quarter */
  BANK_RULES_CC3, /* 32 banks x 8 B wide; 4-byte or 8-byte addressing mode */
  BANK_RULES_CC5  /* 32 banks x 4 B, multicast; 5.x to 9.x */
} arch_bank_rules;

#define ARCH_MAX_CARVEOUTS 12

typedef struct arch_profile {
  const char *name;   /* "sm_90" */
  const char *family; /* "Hopper" */
  int major, minor;   /* compute capability */

  /* shared-memory banks */
  arch_bank_rules bank_rules; /* which rule set banks.c applies */
  int banks;                  /* 16 on 1.x, 32 after */
  int bank_bytes;             /* default bank width (address interleave) in bytes */
  int bank8_selectable;       /* 1: cudaDeviceSetSharedMemConfig can pick 8-byte banks */
  int request_lanes;          /* lanes per shared request: 16 (half-warp) on 1.x, 32 after */

  /* shared-memory capacity, bytes */
  uint32_t smem_per_sm;                     /* sharedMemPerMultiprocessor (largest carveout) */
  uint32_t smem_per_block;                  /* sharedMemPerBlock: without opt-in (48 KB from 2.x) */
  uint32_t smem_per_block_optin;            /* sharedMemPerBlockOptin: with cudaFuncSetAttribute */
  uint32_t smem_reserved_per_block;         /* reservedSharedMemPerBlock: system use (1 KB from 8.0) */
  int ncarveouts;                           /* entries in carveout_kb */
  uint16_t carveout_kb[ARCH_MAX_CARVEOUTS]; /* shared sizes the L1/shared split can take, KB */

  /* threads and blocks */
  int warp_size; /* 32 */
  int max_threads_per_block;
  int max_block_dim[3];     /* x, y, z */
  uint32_t max_grid_dim[3]; /* x, y, z */
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int max_warps_per_sm;

  /* registers (32-bit) */
  uint32_t regs_per_sm;
  uint32_t regs_per_block;
  int regs_per_thread;

  /* a representative part */
  int sm_count;     /* multiprocessors of that part */
  const char *part; /* its name */
} arch_profile;

/* The profile for a name: "sm_90", "sm90", "90", "9.0", "compute_90",
 * "sm_90a" (a/f suffixes ignored), case-insensitive. NULL when unknown. */
const arch_profile *arch_find(const char *name);
/* sm_90, the profile used when none is named. */
const arch_profile *arch_default(void);
/* Iteration in table order (oldest first): arch_at(i) for 0 <= i < arch_count(). */
int arch_count(void);
const arch_profile *arch_at(int i);
/* Prints every profile as a table (for `smemu archs`). Returns the number of
 * characters written, or a negative value on an output error. */
int arch_print_table(FILE *f);

#endif
