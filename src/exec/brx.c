/* brx.c: brx.idx{.uni} index, tlist; the indirect branch to the index-th
 * label of a .branchtargets list (switch tables). The targets go to
 * program.xslots (insn.target: the first, insn.c: how many), where the
 * control-flow analysis (ir/cfg.c) finds them for the reconvergence point.
 * Lanes that pick different targets diverge as they do at bra: one path
 * per target, all rejoining at the branch's reconvergence point. An index
 * past the list is a fault (the GPU's behaviour is undefined). */
#include "exec/exec.h"
#include "exec/sched.h"
#include "ir/decode.h"
#include <stdlib.h>
#include <string.h>

int dec_brx(dctx *D, dstmt *S, insn *in);

static void h_brx(warp *w, const insn *in, uint32_t m) {
  simt_entry *t = &w->stack[w->sp - 1];
  uint32_t active = t->mask, taken = m & active;
  if (!taken) return;
  const program *P = w->L->prog;
  const uint32_t *tl = P->xslots + in->target;
  const uint64_t *A = w->r[in->a];
  uint32_t tgt[32];
  for (uint32_t mm = taken; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    uint32_t idx = (uint32_t)A[l];
    if (idx >= in->c) {
      exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION, "brx.idx with index %u: the target list has %u labels",
                 idx, in->c);
      return;
    }
    tgt[l] = tl[idx];
  }
  int first = __builtin_ctz(taken);
  uint32_t same = 0;
  LANES(taken, if (tgt[l] == tgt[first]) same |= 1u << l);
  if (same == active) {
    t->pc = tgt[first];
    return;
  }
  uint32_t fallpc = t->pc, fall = active & ~taken, rpc = simt_diverge(w, t, in);
  if (fall && fallpc != rpc && simt_push(w, fallpc, rpc, fall) < 0) return;
  /* one path per target, the highest lanes' first so the lowest run first */
  uint32_t left = taken;
  uint32_t groups[32], gpc[32], ng = 0;
  while (left) {
    uint32_t g = 0, pc = tgt[__builtin_ctz(left)];
    LANES(left, if (tgt[l] == pc) g |= 1u << l);
    groups[ng] = g;
    gpc[ng++] = pc;
    left &= ~g;
  }
  while (ng--)
    if (gpc[ng] != rpc && simt_push(w, gpc[ng], rpc, groups[ng]) < 0) return;
  if (w->sp == 0 || w->stack[w->sp - 1].mask == 0) simt_cleanup(w);
}

int dec_brx(dctx *D, dstmt *S, insn *in) {
  if (!dec_take(S, "idx")) return dec_error(D, S, -1, "brx needs .idx");
  if (dec_take(S, "uni")) in->flags |= IF_UNI;
  if (dec_nops(D, S, 2) < 0 || dec_src(D, S, 0, PTX_T_U32, &in->a) < 0) return -1;
  const ptx_operand *tl = &S->st->ops[1];
  if (tl->kind != PTX_OPD_SYM) return dec_error(D, S, 1, "brx.idx takes the label of a .branchtargets list");
  const ptx_func *f = dec_cur_func(D);
  const ptx_stmt *list = NULL;
  for (int s = 0; f && s < f->nbody && !list; s++) {
    const ptx_stmt *st = &f->body[s];
    if (!st->label && st->opcode && !strcmp(st->opcode, ".branchtargets") && st->nops > 0 &&
        st->ops[0].name && !strcmp(st->ops[0].name, tl->name))
      list = st;
  }
  if (!list) return dec_error(D, S, 1, "'%s' is no .branchtargets list of this function", tl->name);
  uint32_t n = (uint32_t)list->nops - 1, *pcs = calloc(n + 1, sizeof *pcs);
  if (!pcs) return -1;
  if (!n) {
    free(pcs);
    return dec_error(D, S, 1, "the .branchtargets list '%s' is empty", tl->name);
  }
  dstmt L = {.st = list};
  for (uint32_t k = 0; k < n; k++)
    if (dec_label(D, &L, (int)k + 1, &pcs[k]) < 0) {
      free(pcs);
      return -1;
    }
  int64_t x;
  int rc = dec_xslots(D, pcs, n, &x);
  free(pcs);
  if (rc < 0) return -1;
  in->target = (uint32_t)x;
  in->c = n;
  in->fn = h_brx;
  return 0;
}
