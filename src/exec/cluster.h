/* cluster.h: thread-block clusters and distributed shared memory (sm_90):
 * barrier.cluster, mapa, getctarank (cluster.c); shared::cluster
 * addresses are the executor's (addr.h). */
#ifndef SMEMU_CLUSTER_H
#define SMEMU_CLUSTER_H
#include "exec/addr.h"
#include "exec/exec.h"
#include "ir/decode.h"

#define CLUSTER_BAR MAX_BARRIERS /* simt_entry.blocked - 1 of barrier.cluster.wait */

/* The decoder of barrier.cluster (dec_bar passes it on). */
int dec_barrier_cluster(dctx *D, dstmt *S, insn *in);

/* isspacep.shared::cta / .shared::cluster of generic address a for w. */
int cluster_isspacep(const warp *w, uint64_t a, int cluster_space);

#endif
