/* stasync.c: st.async and red.async, the sm_90 stores and reductions into
 * another block's shared memory that complete on an mbarrier there:
 *
 *   st.async{.weak}{.shared::cluster}.mbarrier::complete_tx::bytes{.v2,.v4}.T [a], b, [mbar];
 *   red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.OP.T [a], b, [mbar];
 *
 * The data is written at once; the bytes written then complete as
 * transaction bytes on the mbarrier at shared::cluster address mbar, which
 * must be in the same block as a (async/mbarrier.c). A waiting thread sees
 * the data once the phase completes, which is what the GPU promises. The
 * race checks see the write as an asynchronous copy into shared memory. */
#include "async/async.h"
#include "exec/atom.h"
#include "exec/cluster.h"
#include "exec/exec.h"
#include "exec/hooks.h"
#include "ir/decode.h"
#include <string.h>

enum { RA_ADD, RA_MIN, RA_MAX, RA_INC, RA_DEC, RA_AND, RA_OR, RA_XOR };

/* The mbarrier must be in the destination's block (as the GPU requires). */
static int same_block(warp *w, int l, uint64_t a, uint64_t mbar, const char *what) {
  uint64_t o1, o2;
  uint32_t r1 = cluster_rank(w, a, &o1), r2 = cluster_rank(w, mbar, &o2);
  if (r1 == r2) return 1;
  exec_fault(
      w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
      "%s into block rank %u of the cluster completing on an mbarrier of block rank %u: the mbarrier must "
      "be in the same block as the destination",
      what, r1, r2);
  return 0;
}

static void h_st_async(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *M = w->r[in->b];
  uint32_t es = (uint32_t)ptx_type_size(in->type), n = es * in->vec;
  LANES(m, {
    uint64_t a = (A[l] + (uint64_t)in->imm) & 0xffffffffu, mb = M[l] & 0xffffffffu;
    if (!same_block(w, l, a, mb, "st.async")) return;
    uint8_t *p = exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, a, n, 1);
    if (!p) return;
    for (uint32_t k = 0; k < in->vec; k++) {
      uint64_t v = w->r[in->v[k]][l];
      memcpy(p + k * es, &v, es);
    }
    hook_async_race(w, in, l, a, n, ASYNC_TO_SHARED);
    if (mbar_complete_tx(w, l, mb, n) < 0) return;
  });
}

static void h_red_async(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->c], *M = w->r[in->b];
  uint32_t es = (uint32_t)ptx_type_size(in->type);
  /* signed min/max for .s32 only */
  int t = in->type == PTX_T_S32 ? PTX_T_S32 : PTX_T_U64;
  static const int aop[] = {A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR}; /* by RA_* */
  LANES(m, {
    uint64_t a = (A[l] + (uint64_t)in->imm) & 0xffffffffu, mb = M[l] & 0xffffffffu;
    if (!same_block(w, l, a, mb, "red.async")) return;
    uint8_t *p = exec_addr(w, l, PTX_SPACE_SHARED_CLUSTER, a, es, 1);
    if (!p) return;
    uint64_t o = 0, r;
    memcpy(&o, p, es);
    r = atom_apply(aop[in->mode], t, o, B[l], 0, (int)es);
    memcpy(p, &r, es);
    hook_async_race(w, in, l, a, es, ASYNC_TO_SHARED);
    if (mbar_complete_tx(w, l, mb, es) < 0) return;
  });
}

/* The modifiers both share; 0 or -1. */
static int common(dctx *D, dstmt *S) {
  dec_take(S, "shared::cluster");
  if (!dec_take(S, "mbarrier::complete_tx::bytes"))
    return dec_error(D, S, -1, "%s.async needs .mbarrier::complete_tx::bytes", S->st->opcode);
  return 0;
}

/* [a], b, [mbar]: the destination's base register and offset (in->a,
 * in->imm) and the mbarrier's (in->b; its offset must be 0 or folded). */
static int addresses(dctx *D, dstmt *S, insn *in) {
  uint8_t fl = 0;
  int space = PTX_SPACE_SHARED_CLUSTER;
  int64_t moff = 0;
  if (dec_nops(D, S, 3) < 0 || dec_addr(D, S, 0, &in->a, &in->imm, &space, &fl) < 0) return -1;
  space = PTX_SPACE_SHARED_CLUSTER;
  if (dec_addr(D, S, 2, &in->b, &moff, &space, &fl) < 0) return -1;
  if (moff) return dec_error(D, S, 2, "the mbarrier operand takes a register without an offset");
  if (fl & IF_FRAME) return dec_error(D, S, 0, "%s.async addresses shared memory", S->st->opcode);
  return 0;
}

int dec_st_async(dctx *D, dstmt *S, insn *in) {
  dec_take(S, "weak");
  if (common(D, S) < 0) return -1;
  int vec = dec_vec(S);
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int t = S->types[0], es = ptx_type_size(t);
  if (t != PTX_T_B32 && t != PTX_T_B64 && t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_F32 &&
      t != PTX_T_F64)
    return dec_error(D, S, -1, "st.async stores .b32, .b64, .u32, .s32, .f32 or .f64");
  if (vec > 4 || (vec == 4 && es == 8))
    return dec_error(D, S, -1, "st.async stores .v2 or .v4 of 32 bits, .v2 of 64");
  if (addresses(D, S, in) < 0) return -1;
  const ptx_operand *v = &S->st->ops[1];
  if (vec > 1) {
    if (v->kind != PTX_OPD_VEC || v->nelems != vec)
      return dec_error(D, S, 1, "expected a vector of %d registers", vec);
    for (int k = 0; k < vec; k++)
      if (dec_src_opd(D, &v->elems[k], t, &in->v[k])) return dec_error(D, S, 1, "bad vector element");
  } else if (dec_src(D, S, 1, t, &in->v[0]) < 0) {
    return -1;
  }
  in->type = (uint8_t)t;
  in->vec = (uint8_t)vec;
  in->space = PTX_SPACE_SHARED_CLUSTER;
  in->fn = h_st_async;
  return 0;
}

int dec_red_async(dctx *D, dstmt *S, insn *in) {
  static const char *const ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", NULL};
  dec_take(S, "relaxed");
  dec_take(S, "cluster");
  if (common(D, S) < 0) return -1;
  int op = dec_take_any(S, ops);
  if (op < 0)
    return dec_error(D, S, -1,
                     "red.async needs an operation (.add, .min, .max, .inc, .dec, .and, .or, .xor)");
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int t = S->types[0];
  int ok = (op == RA_ADD && (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64)) ||
           ((op == RA_MIN || op == RA_MAX) && (t == PTX_T_U32 || t == PTX_T_S32)) ||
           ((op == RA_INC || op == RA_DEC) && t == PTX_T_U32) ||
           (op >= RA_AND && (t == PTX_T_B32 || t == PTX_T_B64));
  if (!ok) return dec_error(D, S, -1, "red.async.%s does not take .%s", ops[op], ptx_type_name(t));
  if (addresses(D, S, in) < 0 || dec_src(D, S, 1, t, &in->c) < 0) return -1;
  in->type = (uint8_t)t;
  in->mode = (uint8_t)op;
  in->space = PTX_SPACE_SHARED_CLUSTER;
  in->fn = h_red_async;
  return 0;
}
