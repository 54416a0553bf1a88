/* cluster.h: thread-block clusters and distributed shared memory (sm_90):
 * shared::cluster addresses, barrier.cluster, mapa, getctarank, and the
 * race checks between the blocks of a cluster (cluster.c).
 *
 * shared::cluster addresses: the block's own shared::cta window
 * [0, CLUSTER_BASE) is valid in the cluster window and means the executing
 * block; byte o of the block of rank r is CLUSTER_BASE + r * CLUSTER_STRIDE
 * + o. Generic addresses of shared memory are SHARED_WINDOW plus a
 * shared::cluster address, so cvta between the two adds or subtracts the
 * window as for shared::cta. */
#ifndef SMEMU_CLUSTER_H
#define SMEMU_CLUSTER_H
#include "exec/exec.h"
#include "ir/decode.h"

#define CLUSTER_BASE 0x1000000u
#define CLUSTER_STRIDE 0x1000000u
#define MAX_CLUSTER 16          /* blocks per cluster (sm_90, non-portable) */
#define MAX_CLUSTER_PORTABLE 8
#define CLUSTER_BAR MAX_BARRIERS /* simt_entry.blocked - 1 of barrier.cluster.wait */

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

/* Complete the cluster barrier when every live thread has arrived (after
 * arrivals and exits). */
void cluster_check(cluster *c);

/* Run a cluster's blocks together to completion (sched.c). */
void cluster_run(cluster *c);

/* Every live warp of c waits: report the cluster barrier's deadlock when a
 * thread waits at barrier.cluster.wait (returns 1), else 0. */
int cluster_deadlock(cluster *c);

/* The decoder of barrier.cluster (dec_bar passes it on). */
int dec_barrier_cluster(dctx *D, dstmt *S, insn *in);

/* isspacep.shared::cta / .shared::cluster of generic address a for w. */
int cluster_isspacep(const warp *w, uint64_t a, int cluster_space);

/* ---- race checks across the blocks of a cluster ---- */
/* State of one block (block.crace); NULL when the cluster has one block or
 * the race check is off. */
struct cl_race *cl_race_new(const launch *L);
void cl_race_free(struct cl_race *r);
void cl_race_reset(block *b);
/* A shared access of lanes m (addresses as the instruction gives them). */
void cl_race_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind);
/* Lanes m passed a release and acquire point (fence at cluster scope or
 * wider, an mbarrier arrival or completed wait). */
void cl_race_sync(warp *w, uint32_t m, int fence);

#endif
