/* dispatch.c: the family dispatch of the decoder (dispatch.h). ops.def
 * names each opcode's family decoder; the families (src/exec, src/async)
 * define them on top of the IR helpers (ir/decode.h), and the IR floor
 * calls them only through the table built here. */
#include "exec/dispatch.h"
#include "async/async.h"
#include "exec/sched.h"
#include "exec/wgmma.h"

static const dec_fn op_decoders[OP_COUNT] = {
#define OP(id, name, dec, flags) dec,
#include "ir/ops.def"
#undef OP
};

/* call: the call site's slots and callee from the IR helper, the
 * handler from the control family. */
int dec_call(dctx *D, dstmt *S, insn *in) {
  int r = dec_callsite(D, S, in);
  if (r < 0) return -1;
  in->fn = r ? ctrl_icall_handler : ctrl_call_handler;
  return 0;
}

/* cp: the async family takes cp.reduce.async.bulk, cp.async.bulk and
 * cp.async.mbarrier, the memory family the rest of cp.async. */
int dec_cp(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "reduce")) return dec_bulk_reduce(D, S, in);
  if (!dec_take(S, "async")) return dec_error(D, S, -1, "only cp.async is supported");
  if (dec_take(S, "bulk")) return dec_bulk(D, S, in);
  if (dec_take(S, "mbarrier")) return dec_cp_mbarrier(D, S, in);
  return dec_cp_async(D, S, in);
}

/* st and red: the async family takes st.async and red.async (they
 * complete on an mbarrier), the memory and atomic families the rest. */
int dec_st(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "async")) return dec_st_async(D, S, in);
  return dec_ldst(D, S, in);
}
int dec_red(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "async")) return dec_red_async(D, S, in);
  return dec_atom(D, S, in);
}

/* membar and fence: the control family decodes them; fence.proxy.async
 * (generic writes become visible to the async proxy) runs the async
 * family's handler. */
int dec_fence(dctx *D, dstmt *S, insn *in) {
  int r = dec_fence_form(D, S, in);
  if (r < 0) return -1;
  if (r) in->fn = async_proxy_fence;
  return 0;
}

/* tensormap: cp_fenceproxy here (exec/tmapcp.c), replace in the async
 * family. */
int dec_tensormap_cp(dctx *D, dstmt *S, insn *in);
int dec_tensormap_op(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "cp_fenceproxy")) return dec_tensormap_cp(D, S, in);
  return dec_tensormap(D, S, in);
}

static const decode_families families = {op_decoders, wgmma_guard_pass};

int decode_kernel(const ptx_module *m, const ptx_func *k, const decode_env *env, program **out, char *err,
                  size_t errsize) {
  return ir_decode(m, k, env, &families, out, err, errsize);
}
