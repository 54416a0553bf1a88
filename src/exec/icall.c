/* icall.c: calls through a function pointer (call (r), %rd, (a), proto;).
 * A function's address is FUNC_ADDR_BASE + its index in the module
 * (program.h); the decoder made one call_info for each function of the
 * kernel with the call's number of parameters and results, and listed
 * them in program.xslots as (program index, module index) pairs. The
 * lanes of a warp must call the same function: the interpreter runs one
 * call per warp instruction, and a divergent pointer faults (smemu's
 * limit, named as such). */
#include "exec/exec.h"
#include "exec/sched.h"

/* Position of function pointer v among the call's candidates, or -1. */
static int candidate(const program *P, const insn *in, uint64_t v) {
  if (v < FUNC_ADDR_BASE || v - FUNC_ADDR_BASE > 0xffffffffu) return -1;
  uint32_t mod = (uint32_t)(v - FUNC_ADDR_BASE);
  for (uint32_t j = 0; j < in->c; j++)
    if (P->xslots[in->target + 2 * j + 1] == mod) return (int)j;
  return -1;
}

void ctrl_icall_handler(warp *w, const insn *in, uint32_t m) {
  if (!m) return;
  const program *P = w->L->prog;
  const uint64_t *A = w->r[in->a];
  int first = __builtin_ctz(m);
  uint64_t v = A[first];
  uint32_t other = 0;
  LANES(m, if (A[l] != v) other |= 1u << l);
  if (other) {
    exec_fault(w, __builtin_ctz(other), SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "lanes of warp %u call through different function pointers (0x%llx and 0x%llx): smemu runs an "
               "indirect call for a whole warp at once",
               w->index, (unsigned long long)v, (unsigned long long)A[__builtin_ctz(other)]);
    return;
  }
  int j = candidate(P, in, v);
  if (j < 0) {
    exec_fault(w, first, SMEMU_ERR_ILLEGAL_ADDRESS,
               "indirect call through 0x%llx, which is no function of this kernel with the call's parameters",
               (unsigned long long)v);
    return;
  }
  insn direct = *in;
  direct.target = P->xslots[in->target + 2 * (uint32_t)j];
  direct.imm = in->imm + j;
  ctrl_call_handler(w, &direct, m);
}

int64_t ctrl_call_info(const program *P, uint32_t call_pc, uint32_t func) {
  const insn *in = &P->code[call_pc];
  if (in->fn != ctrl_icall_handler) return in->imm;
  for (uint32_t j = 0; j < in->c; j++)
    if (P->xslots[in->target + 2 * j] == func) return in->imm + j;
  return in->imm;
}
