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
#include <stdlib.h>
#include <string.h>

/* A shared (or generic) access that takes part in contention: 2 for a CAS
 * or an exchange (retry loops, locks; an add or a min never retries), 1
 * for a polling load. */
static int contends(const program *p, uint32_t pc) {
  const insn *in = &p->code[pc];
  if (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_GENERIC) return 0;
  if ((in->op != OP_ATOM && in->op != OP_LD) || pc >= p->nlines || !p->lines[pc].text) return 0;
  const char *t = p->lines[pc].text;
  if (in->op == OP_ATOM) return strstr(t, ".cas") || strstr(t, ".exch") ? 2 : 0;
  return strstr(t, ".volatile") || strstr(t, ".relaxed") || strstr(t, ".acquire");
}

void cfg_mark_contention(program *p) {
  p->contended = 0;
  free(p->reread);
  p->reread = NULL;
  for (uint32_t b = 0; b < p->ncode; b++) {
    insn *in = &p->code[b];
    if (in->op != OP_BRA || in->target > b) continue;
    in->mode &= (uint8_t) ~(BRA_CONTENDED | BRA_POLL);
    int cas = 0, poll = 0;
    for (uint32_t pc = in->target; pc <= b; pc++) {
      int k = contends(p, pc);
      cas |= k == 2;
      poll |= k == 1;
    }
    if (!cas && !poll) continue;
    /* a loop that only polls lets the others run at every second poll
     * and where it is left; a CAS in a loop that also re-reads lets them
     * run before it (exec/contend.c) */
    in->mode |= (uint8_t)(cas ? BRA_CONTENDED : BRA_CONTENDED | BRA_POLL);
    p->contended = 1;
    if (!cas || !poll || (!p->reread && !(p->reread = calloc(p->ncode, 1)))) continue;
    for (uint32_t pc = in->target; pc <= b; pc++)
      if (contends(p, pc) == 2) p->reread[pc] = 1;
  }
}
