/* tmapcp.c: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic
 * .release.SCOPE.sync.aligned [dst], [src], 128: copies a 128-byte tensor
 * map from the block's shared memory to global memory and releases it to
 * the tensormap proxy (CUTLASS's grouped and pointer-array GEMMs patch a
 * map in shared memory with tensormap.replace, then publish it this way).
 * smemu reads tensor maps from memory at each use, so the fence half has
 * nothing to flush. */
#include "exec/exec.h"
#include "ir/decode.h"
#include <string.h>

static void h_tmap_cp(warp *w, const insn *in, uint32_t m) {
  LANES(m, {
    uint64_t dst = w->r[in->a][l] + (uint64_t)in->imm, src = w->r[in->b][l] + (uint64_t)in->target;
    for (int k = 0; k < 16; k++) {
      uint8_t *s = exec_addr(w, l, in->type2, src + 8 * (uint64_t)k, 8, 0);
      if (!s) return;
      uint8_t *d = exec_addr(w, l, in->space, dst + 8 * (uint64_t)k, 8, 1);
      if (!d) return;
      memcpy(d, s, 8);
    }
  });
}

int dec_tensormap_cp(dctx *D, dstmt *S, insn *in);
int dec_tensormap_cp(dctx *D, dstmt *S, insn *in) {
  static const char *const scopes[] = {"cta", "cluster", "gpu", "sys", NULL};
  if (!dec_take(S, "global") || !dec_take(S, "shared::cta") || !dec_take(S, "tensormap::generic") ||
      !dec_take(S, "release") || dec_take_any(S, scopes) < 0 || !dec_take(S, "sync") ||
      !dec_take(S, "aligned"))
    return dec_error(
        D, S, -1,
        "tensormap.cp_fenceproxy is .global.shared::cta.tensormap::generic.release.SCOPE.sync.aligned");
  if (dec_nops(D, S, 3) < 0) return -1;
  if (S->st->ops[2].kind != PTX_OPD_INT || S->st->ops[2].ival != 128)
    return dec_error(D, S, 2, "tensormap.cp_fenceproxy copies 128 bytes");
  int dspace = PTX_SPACE_GLOBAL, sspace = PTX_SPACE_SHARED;
  int64_t soff;
  uint8_t dfl = 0, sfl = 0;
  if (dec_addr(D, S, 0, &in->a, &in->imm, &dspace, &dfl) < 0 ||
      dec_addr(D, S, 1, &in->b, &soff, &sspace, &sfl) < 0)
    return -1;
  if ((dfl | sfl) & IF_FRAME) return dec_error(D, S, -1, "a tensor map cannot be in local memory");
  if (soff < 0 || soff > UINT32_MAX) return dec_error(D, S, 1, "offset out of range");
  in->target = (uint32_t)soff;
  in->space = (uint8_t)dspace;
  in->type2 = (uint8_t)sspace;
  in->fn = h_tmap_cp;
  return 0;
}
