/* stack.c: alloca, stacksave and stackrestore, the per-thread stack PTX
 * lets a kernel grow at run time (C's alloca and variable-length arrays).
 * The memory is the thread's local memory: call frames grow from the bottom
 * (exec/ctrl.c), alloca takes bytes from the top down, and each side
 * faults when it would reach the other, as a stack overflow (the size is
 * the launch's stack size, cudaLimitStackSize). A pointer alloca returns is
 * a .local address; stacksave gives the current top, stackrestore sets it
 * back (and frees what was allocated after it). */
#include "exec/exec.h"
#include "ir/decode.h"

int dec_stack(dctx *D, dstmt *S, insn *in);

/* The lowest top of any lane, for the call frames' overflow check. */
static void update_low(warp *w) {
  uint32_t low = 0;
  for (int l = 0; l < 32; l++)
    if (w->alloca_used[l]) {
      uint32_t sp = w->local_size - w->alloca_used[l];
      if (!low || sp < low) low = sp;
    }
  w->alloca_low = low;
}

/* The end of the current call frame: alloca may not go below it. */
static uint32_t frame_end(const warp *w) {
  const frame *f = &w->frames[w->nframes - 1];
  return w->local_base + w->L->prog->funcs[f->func].frame_bytes;
}

static void h_alloca(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a];
  uint64_t align = (uint64_t)in->imm, end = frame_end(w);
  LANES(m, {
    uint64_t top = w->local_size - w->alloca_used[l],
             size = A[l] & (in->type == PTX_T_U32 ? 0xffffffffull : ~0ull);
    if (size > top || (top - size) / align * align < end) {
      exec_fault(
          w, l, SMEMU_ERR_ILLEGAL_ADDRESS,
          "stack overflow in alloca of %llu bytes: the thread has %llu bytes of stack left above its frames "
          "(raise the stack size, cudaLimitStackSize)",
          (unsigned long long)size, (unsigned long long)(top > end ? top - end : 0));
      return;
    }
    uint64_t sp = (top - size) / align * align;
    w->alloca_used[l] = w->local_size - (uint32_t)sp;
    Dd[l] = sp;
  });
  update_low(w);
}

static void h_stacksave(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  LANES(m, Dd[l] = w->local_size - w->alloca_used[l]);
}

static void h_stackrestore(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a];
  uint64_t end = frame_end(w);
  LANES(m, {
    uint64_t sp = A[l] & (in->type == PTX_T_U32 ? 0xffffffffull : ~0ull);
    if (sp > w->local_size || sp < end) {
      exec_fault(
          w, l, SMEMU_ERR_ILLEGAL_ADDRESS,
          "stackrestore to 0x%llx, which is no stack top stacksave gave (the stack lies in 0x%llx..0x%x)",
          (unsigned long long)sp, (unsigned long long)end, w->local_size);
      return;
    }
    w->alloca_used[l] = w->local_size - (uint32_t)sp;
  });
  update_low(w);
}

/* alloca.type ptr, size{, align}; stacksave.type d; stackrestore.type a;
 * type .u32 or .u64, the address size. */
int dec_stack(dctx *D, dstmt *S, insn *in) {
  const char *op = S->st->opcode;
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int t = S->types[0];
  if (t != PTX_T_U32 && t != PTX_T_U64) return dec_error(D, S, -1, "%s takes .u32 or .u64", op);
  in->type = (uint8_t)t;
  if (op[0] == 'a') {
    int n = S->st->nops;
    if (n != 2 && n != 3) return dec_error(D, S, -1, "alloca takes ptr, size{, alignment}");
    if (dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, t, &in->a) < 0) return -1;
    in->imm = 8;
    if (n == 3) {
      const ptx_operand *o = &S->st->ops[2];
      if (o->kind != PTX_OPD_INT || o->ival < 1 || o->ival > 1024 || (o->ival & (o->ival - 1)))
        return dec_error(D, S, 2, "alloca's alignment is an immediate power of two up to 1024");
      in->imm = o->ival;
    }
    in->fn = h_alloca;
    return 0;
  }
  if (dec_nops(D, S, 1) < 0) return -1;
  if (op[5] == 's') {
    if (dec_dst(D, S, 0, &in->d) < 0) return -1;
    in->fn = h_stacksave;
  } else {
    if (dec_src(D, S, 0, t, &in->a) < 0) return -1;
    in->fn = h_stackrestore;
  }
  return 0;
}
