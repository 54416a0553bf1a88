/* addr.h: address translation (addr.c), the executor's core: exec_addr
 * (exec.h) and the shared::cluster window.
 *
 * shared::cluster addresses: the block's own shared::cta window
 * [0, CLUSTER_BASE) is valid in the cluster window and means the executing
 * block; byte o of the block of rank r is CLUSTER_BASE + r * CLUSTER_STRIDE
 * + o. Generic addresses of shared memory are SHARED_WINDOW plus a
 * shared::cluster address, so cvta between the two adds or subtracts the
 * window as for shared::cta. */
#ifndef SMEMU_ADDR_H
#define SMEMU_ADDR_H
#include "exec/exec.h"

#define CLUSTER_BASE 0x1000000u
#define CLUSTER_STRIDE 0x1000000u
#define MAX_CLUSTER 16 /* blocks per cluster (sm_90, non-portable) */
#define MAX_CLUSTER_PORTABLE 8

/* The block an address of the shared window (a shared::cluster address)
 * falls in and the offset in it; NULL when it names a rank the cluster
 * does not have. */
block *cluster_target(const warp *w, uint64_t a, uint64_t *off);

/* The block rank a shared::cluster address a names for w (the own rank
 * below CLUSTER_BASE; possibly past the cluster) and its CTA-relative
 * offset in *off; and the shared::cluster address of CTA-relative offset
 * off in the block of rank r (r < MAX_CLUSTER; the own block's: off). */
uint32_t cluster_rank(const warp *w, uint64_t a, uint64_t *off);
uint64_t cluster_addr(const warp *w, uint32_t r, uint64_t off);

/* The host byte of shared::cta offset a (size bytes) of w's block when the
 * access is aligned and in bounds, else NULL (exec_addr reports why). */
static inline uint8_t *shared_at(const warp *w, uint64_t a, uint32_t size) {
  const block *b = w->blk;
  if ((a & (size - 1)) || a < w->L->prog->smem_lo || a + size > b->smem_size) return NULL;
  return b->smem + a;
}

#endif
