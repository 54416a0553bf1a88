/* hang.h: finding blocks in which no warp can make progress (hang.c). After
 * a block has run a while, the scheduler hashes its whole state (every
 * warp's SIMT stack, frames, registers, predicates and local memory, the
 * block's shared memory and barriers) after each round and looks for a
 * cycle (Brent's method). A block whose state repeats can only be freed by
 * memory another block or the host changes; when every worker of the
 * launch is in such a block, nothing can, and the launch is a hang. */
#ifndef SMEMU_HANG_H
#define SMEMU_HANG_H
#include "exec/exec.h"

/* Warp instructions a block runs before its rounds are hashed. */
#define HANG_ARM (1ull << 21)

typedef struct hang_state {
  uint32_t stride;   /* hash every stride-th round (0: not yet chosen) */
  uint32_t count;    /* rounds since the last hash */
  uint64_t saved;    /* Brent: the hash the later ones are compared with */
  uint32_t power;    /* rounds until `saved` moves on */
  uint32_t lam;      /* rounds since `saved` was taken */
  int stuck;         /* a cycle was found (counted in launch.nstuck) */
  uint64_t cyc_hash; /* a state of the cycle */
  uint32_t cyc_len;  /* its length in rounds */
  uint32_t cyc_pos;  /* rounds since cyc_hash was last seen */
  double all_since;  /* when every worker was first seen stuck, 0: not so */
} hang_state;

void hang_init(hang_state *h);
/* After round `rounds` of block b (fixed schedule, armed; the block has
 * run `insns` warp instructions): returns 1 when the launch is a hang,
 * which has then been reported (SMEMU_ERR_HANG). Rounds are hashed at a
 * fixed stride chosen so that hashing costs little next to running: a
 * block whose rounds are short (barriers) is hashed less often. */
int hang_round(block *b, hang_state *h, uint64_t insns, uint64_t rounds);
/* Block b leaves the worker (done, faulted or stopped). */
void hang_leave(block *b, hang_state *h);

#endif
