/* contention.c: does a kernel's code contend for shared memory across
 * warps? A loop (the pcs from a backward branch's target to the branch)
 * that holds a shared CAS or exchange (a retry loop, a lock) or a load
 * that polls shared memory (ld.volatile, .relaxed or .acquire: a flag another
 * warp sets) runs on the GPU while the block's other warps run: how often
 * it goes round depends on what they do meanwhile. smemu then ends a
 * warp's turn at each iteration of such a loop (its backward bra gets
 * BRA_CONTENDED; exec/contend.c), so that the other warps run in between;
 * other loops keep the long quantum. */
#include "ir/cfg.h"
#include <string.h>

/* A shared (or generic) access that takes part in contention: a CAS or an
 * exchange (retry loops, locks; an add or a min never retries), or a
 * polling load. */
static int contends(const program *p, uint32_t pc) {
  const insn *in = &p->code[pc];
  if (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_GENERIC) return 0;
  if ((in->op != OP_ATOM && in->op != OP_LD) || pc >= p->nlines || !p->lines[pc].text) return 0;
  const char *t = p->lines[pc].text;
  if (in->op == OP_ATOM) return strstr(t, ".cas") || strstr(t, ".exch");
  return strstr(t, ".volatile") || strstr(t, ".relaxed") || strstr(t, ".acquire");
}

void cfg_mark_contention(program *p) {
  p->contended = 0;
  for (uint32_t b = 0; b < p->ncode; b++) {
    insn *in = &p->code[b];
    if (in->op != OP_BRA || in->target > b) continue;
    in->mode &= (uint8_t)~BRA_CONTENDED;
    for (uint32_t pc = in->target; pc <= b; pc++)
      if (contends(p, pc)) {
        in->mode |= BRA_CONTENDED;
        p->contended = 1;
        break;
      }
  }
}
