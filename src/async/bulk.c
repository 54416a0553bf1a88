/* bulk.c: the non-tensor bulk copies of sm_90 (cp.async.bulk):
 *   global -> shared, completing transaction bytes on an mbarrier
 *     cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
 *       [dst], [src], size, [mbar]
 *   shared -> global in a bulk group
 *     cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size
 *   cp.async.bulk.commit_group, cp.async.bulk.wait_group(.read) N
 * smemu copies when the instruction executes (one of the orders the
 * asynchronous proxy allows) and then completes the bytes on the barrier,
 * so a consumer still has to wait on the mbarrier phase to see them
 * complete. The race checks see the copied bytes as accessed by the issuing
 * thread and, for a copy into shared memory, released at its completion: a
 * thread that reads them without a completed mbarrier wait is reported.
 * Size and addresses must be multiples of 16.
 *
 * Clusters: the destination is a shared::cluster address, so it may be in
 * another block of the cluster (an address from mapa); the mbarrier must
 * then be in that same block. With .multicast::cluster and a 16-bit
 * ctaMask, the bytes land at the destination's CTA-relative offset in
 * every block whose rank the mask names, and each completes them on the
 * mbarrier at the barrier's CTA-relative offset in that block. A rank past
 * the cluster or a block that has exited is reported as a remote access
 * (the rank and offset named, as memcheck does). */
#include "async/async.h"
#include "exec/cluster.h"
#include "exec/hooks.h"
#include "ir/decode.h"
#include "smemu.h"

enum { BULK_G2S, BULK_S2G, BULK_NOP };
/* insn.type2 bits; v[2]: the ctaMask register of a multicast */
enum { BF_MCAST = 1 };

/* Lane l's load of n bytes from global src into shared::cluster address
 * dst, completing on the barrier at shared::cluster address mbar (or, with
 * multicast, into and on those CTA-relative offsets of each block of the
 * mask). Returns 0, or -1 after a fault. */
static int bulk_load(warp *w, const insn *in, int l, uint64_t dst, uint64_t src, uint32_t n, uint64_t mbar) {
  /* not a shared::cluster address at all: the shared check reports it */
  if (dst >> 32) return exec_addr(w, l, PTX_SPACE_SHARED, dst, 16, 1) ? 0 : -1;
  if (mbar >> 32) return mbar_complete_tx(w, l, mbar, n);
  uint64_t doff, moff;
  uint32_t dr = cluster_rank(w, dst, &doff), mr = cluster_rank(w, mbar, &moff), mask;
  if (in->type2 & BF_MCAST) {
    mask = (uint32_t)w->r[in->v[2]][l] & 0xffff;
  } else {
    if (dr != mr) {
      exec_fault(
          w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
          "cp.async.bulk into block rank %u of the cluster completing on an mbarrier of block rank %u: the "
          "mbarrier must be in the same block as the destination",
          dr, mr);
      return -1;
    }
    if (dr >= MAX_CLUSTER) {
      /* a rank past the cluster: reported as the remote access it is */
      uint64_t d = dst & 0xffffffffu;
      return exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, d, 16, 1) ? 0 : -1;
    }
    mask = 1u << dr;
  }
  /* every destination is checked before any byte lands */
  for (uint32_t r = 0; r < MAX_CLUSTER; r++) {
    if (!(mask >> r & 1)) continue;
    uint64_t d = cluster_addr(w, r, doff);
    if (!exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, d, 16, 1) ||
        !exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, d + n - 16, 16, 1))
      return -1;
  }
  for (uint32_t r = 0; r < MAX_CLUSTER; r++) {
    if (!(mask >> r & 1)) continue;
    uint64_t d = cluster_addr(w, r, doff);
    /* checked and copied 16 bytes at a time: exec_addr wants natural alignment */
    for (uint32_t o = 0; o < n; o += 16) {
      uint8_t *dp = exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, d + o, 16, 1);
      if (!dp) return -1;
      const uint8_t *sp = exec_addr(w, l, PTX_SPACE_GLOBAL, src + o, 16, 0);
      if (!sp) return -1;
      memmove(dp, sp, 16);
    }
    /* the race checks (the bytes are written in block r, released at
     * their completion on its barrier) and the pipeline statistics */
    hook_async_copy(w, in, l, d, n, ASYNC_TO_SHARED, PIPE_BULK_LOAD);
    if (mbar_complete_tx(w, l, cluster_addr(w, r, moff), n) < 0) return -1;
  }
  return 0;
}

static void h_bulk(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  LANES(m, {
    uint64_t dst = A[l] + (uint64_t)(int64_t)(int32_t)in->v[0];
    uint64_t src = B[l] + (uint64_t)(int64_t)(int32_t)in->v[1];
    uint32_t n = (uint32_t)C[l];
    if (n % 16 || dst % 16 || src % 16) {
      exec_fault(
          w, l, SMEMU_ERR_MISALIGNED,
          "cp.async.bulk of %u bytes from 0x%llx to 0x%llx: size and addresses must be multiples of 16", n,
          (unsigned long long)src, (unsigned long long)dst);
      return;
    }
    if (!n) continue;
    if (in->mode == BULK_G2S) {
      if (bulk_load(w, in, l, dst, src, n, w->r[in->d][l] + (uint64_t)in->imm) < 0) return;
      continue;
    }
    /* checked and copied 16 bytes at a time: exec_addr wants natural alignment */
    for (uint32_t o = 0; o < n; o += 16) {
      uint8_t *dp = exec_addr(w, l, PTX_SPACE_GLOBAL, dst + o, 16, 1);
      if (!dp) return;
      const uint8_t *sp = exec_addr(w, l, PTX_SPACE_SHARED, src + o, 16, 0);
      if (!sp) return;
      memmove(dp, sp, 16);
    }
    /* the race checks and the pipeline statistics (hooks.h) */
    hook_async_copy(w, in, l, src, n, ASYNC_FROM_SHARED, PIPE_BULK_STORE);
  });
}

static void h_nop(warp *w, const insn *in, uint32_t m) {
  (void)w;
  (void)in;
  (void)m;
}
/* copies complete when issued: commit and wait only feed the statistics */
static void h_commit(warp *w, const insn *in, uint32_t m) {
  (void)in;
  hook_bulk_commit(w, m);
}
static void h_wait_group(warp *w, const insn *in, uint32_t m) { hook_bulk_wait(w, m, (uint32_t)in->imm); }

/* fence.proxy.async: the checks' business only (the copies are done) */
void async_proxy_fence(warp *w, const insn *in, uint32_t m) {
  (void)in;
  hook_proxy_fence(w, m);
}

int dec_bulk(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "commit_group")) {
    in->fn = h_commit;
    return dec_nops(D, S, 0);
  }
  if (dec_take(S, "wait_group")) {
    dec_take(S, "read");
    in->fn = h_wait_group;
    if (dec_nops(D, S, 1) < 0) return -1;
    if (S->st->ops[0].kind != PTX_OPD_INT || S->st->ops[0].ival < 0 || S->st->ops[0].ival > 63)
      return dec_error(D, S, 0, "cp.async.bulk.wait_group takes a constant 0 to 63");
    in->imm = S->st->ops[0].ival;
    return 0;
  }
  if (dec_take(S, "prefetch")) {
    if (dec_take(S, "tensor")) return dec_tma(D, S, in, 1, 0);
    /* cp.async.bulk.prefetch.L2.global [addr], size: no effect here */
    dec_take(S, "L2");
    dec_take(S, "global");
    dec_take(S, "L2::cache_hint");
    in->fn = h_nop;
    return 0;
  }
  if (dec_take(S, "tensor")) return dec_tma(D, S, in, 0, 0);
  int g2s = 0;
  /* the destination space comes first: cp.async.bulk.DST.SRC */
  const char *first = S->st->nmods > 2 ? S->st->mods[2] : "";
  if (!strcmp(first, "global") && dec_take(S, "global")) { /* cp.async.bulk.global.shared::cta.bulk_group */
    if (!dec_take(S, "shared::cta") || !dec_take(S, "bulk_group"))
      return dec_error(D, S, -1, "cp.async.bulk.global copies from .shared::cta in a .bulk_group");
  } else if (dec_take(S, "shared::cluster") || dec_take(S, "shared::cta")) {
    if (!dec_take(S, "global"))
      return dec_error(D, S, -1, "cp.async.bulk to shared memory: only from .global is supported");
    if (!dec_take(S, "mbarrier::complete_tx::bytes"))
      return dec_error(
          D, S, -1,
          "cp.async.bulk to shared memory completes on an mbarrier (.mbarrier::complete_tx::bytes)");
    if (dec_take(S, "multicast::cluster")) in->type2 |= BF_MCAST;
    g2s = 1;
  } else {
    return dec_error(D, S, -1, "unsupported cp.async.bulk form");
  }
  dec_take(S, "L2::cache_hint");
  int n = S->st->nops;
  int mc = in->type2 & BF_MCAST;
  if (n < (g2s ? 4 + mc : 3))
    return dec_error(D, S, -1, "cp.async.bulk takes [dst], [src], size%s",
                     g2s ? mc ? ", [mbar], ctaMask" : ", [mbar]" : "");
  int space = g2s ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL;
  int64_t off;
  uint8_t fl = 0;
  if (dec_addr(D, S, 0, &in->a, &off, &space, &fl) < 0) return -1;
  in->v[0] = (uint32_t)(int32_t)off;
  space = g2s ? PTX_SPACE_GLOBAL : PTX_SPACE_SHARED;
  if (dec_addr(D, S, 1, &in->b, &off, &space, &fl) < 0) return -1;
  in->v[1] = (uint32_t)(int32_t)off;
  if (dec_src(D, S, 2, PTX_T_U32, &in->c) < 0) return -1;
  if (g2s) {
    space = PTX_SPACE_SHARED;
    if (dec_addr(D, S, 3, &in->d, &in->imm, &space, &fl) < 0) return -1;
    if (mc && dec_src(D, S, 4, PTX_T_U16, &in->v[2]) < 0) return -1;
  }
  if (fl & IF_FRAME) return dec_error(D, S, -1, "cp.async.bulk does not take local addresses");
  in->mode = g2s ? BULK_G2S : BULK_S2G;
  in->fn = h_bulk;
  return 0;
}
