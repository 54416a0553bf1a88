/* simt.c: the SIMT stack and call frames of a warp (exec.h: simt_entry,
 * frame): lanes leave entries, empty entries pop, and a frame whose
 * entries are all gone returns to its caller. */
#include "exec/exec.h"
#include "exec/sched.h"

/* ---- SIMT stack and frames ---- */

/* Drop empty entries from the top; return from frames whose entries are
 * all gone; the warp is done when nothing is left. */
void simt_cleanup(warp *w) {
  for (;;) {
    while (w->sp > 0 && w->stack[w->sp - 1].mask == 0) w->sp--;
    if (w->sp == 0) {
      w->state = W_DONE;
      return;
    }
    frame *f = &w->frames[w->nframes - 1];
    if (w->nframes > 1 && w->sp <= f->stack_base) {
      ctrl_return(w);
      continue;
    }
    return;
  }
}

void simt_remove(warp *w, uint32_t lanes, uint32_t from) {
  for (uint32_t i = from; i < w->sp; i++) w->stack[i].mask &= ~lanes;
}
