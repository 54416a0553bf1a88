/* dispatch.c: the family dispatch of the decoder (dispatch.h). ops.def
 * names each opcode's family decoder; the families (src/exec, src/async)
 * define them on top of the IR helpers (ir/decode.h), and the IR floor
 * calls them only through the table built here. */
#include "exec/dispatch.h"
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

static const decode_families families = {op_decoders, wgmma_guard_pass};

int decode_kernel(const ptx_module *m, const ptx_func *k, const decode_env *env, program **out,
                  char *err, size_t errsize) {
  return ir_decode(m, k, env, &families, out, err, errsize);
}
