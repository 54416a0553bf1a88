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
 * Size and addresses must be multiples of 16. Clusters are not
 * modelled: shared::cluster addresses are the block's own. */
#include "async/async.h"
#include "check/race.h"
#include "exec/hooks.h"
#include "ir/decode.h"
#include "smemu.h"

enum { BULK_G2S, BULK_S2G, BULK_NOP };

static void h_bulk(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  LANES(m, {
    uint64_t dst = A[l] + (uint64_t)(int64_t)(int32_t)in->v[0];
    uint64_t src = B[l] + (uint64_t)(int64_t)(int32_t)in->v[1];
    uint32_t n = (uint32_t)C[l];
    if (n % 16 || dst % 16 || src % 16) {
      exec_fault(w, l, SMEMU_ERR_MISALIGNED,
                 "cp.async.bulk of %u bytes from 0x%llx to 0x%llx: size and addresses must be multiples of 16", n,
                 (unsigned long long)src, (unsigned long long)dst);
      return;
    }
    if (!n) continue;
    int to_shared = in->mode == BULK_G2S;
    /* checked and copied 16 bytes at a time: exec_addr wants natural alignment */
    for (uint32_t o = 0; o < n; o += 16) {
      uint8_t *dp = exec_addr(w, l, to_shared ? PTX_SPACE_SHARED : PTX_SPACE_GLOBAL, dst + o, 16, 1);
      if (!dp) return;
      const uint8_t *sp = exec_addr(w, l, to_shared ? PTX_SPACE_GLOBAL : PTX_SPACE_SHARED, src + o, 16, 0);
      if (!sp) return;
      memmove(dp, sp, 16);
    }
    /* the race checks and the pipeline statistics (pipeline.c) */
    async_copy_done(w, in, l, to_shared ? dst : src, n, to_shared ? ASYNC_TO_SHARED : ASYNC_FROM_SHARED,
                    to_shared ? PIPE_BULK_LOAD : PIPE_BULK_STORE);
    if (to_shared && mbar_complete_tx(w, l, w->r[in->d][l] + (uint64_t)in->imm, n) < 0) return;
  });
}

static void h_nop(warp *w, const insn *in, uint32_t m) { (void)w; (void)in; (void)m; }
/* copies complete when issued: commit and wait only feed the statistics */
static void h_commit(warp *w, const insn *in, uint32_t m) {
  (void)in;
  if (!w->L->hooks) return;
  pipe_commit(w, m);
  race_proxy_commit(w, m);
}
static void h_wait_group(warp *w, const insn *in, uint32_t m) {
  if (!w->L->hooks) return;
  pipe_wait_group(w, m, (uint32_t)in->imm);
  race_proxy_wait(w, m, (uint32_t)in->imm);
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
      return dec_error(D, S, -1, "cp.async.bulk to shared memory completes on an mbarrier (.mbarrier::complete_tx::bytes)");
    if (dec_take(S, "multicast::cluster")) return dec_error(D, S, -1, "multicast to a cluster is not supported");
    g2s = 1;
  } else {
    return dec_error(D, S, -1, "unsupported cp.async.bulk form");
  }
  dec_take(S, "L2::cache_hint");
  int n = S->st->nops;
  if (n < (g2s ? 4 : 3)) return dec_error(D, S, -1, "cp.async.bulk takes [dst], [src], size%s", g2s ? ", [mbar]" : "");
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
  }
  if (fl & IF_FRAME) return dec_error(D, S, -1, "cp.async.bulk does not take local addresses");
  in->mode = g2s ? BULK_G2S : BULK_S2G;
  in->fn = h_bulk;
  return 0;
}
