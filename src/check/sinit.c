/* sinit.c: the shared-memory init check (SMEMU_ANALYZE_INIT): one byte
 * per shared byte, set by a write; a read of a byte never written is an
 * uninitialised read (race_state.init, SYNC_UNINIT records). */
#include "check/race_int.h"
#include <string.h>

/* The init check of race_access's access (lanes m; ws its whole-warp
 * shape or NULL). */
void sinit_access(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind,
                  const wshape *ws) {
  race_state *r = &w->blk->an->race;
  block *b = w->blk;
  const int init = 1;
  uint64_t amax = UINT64_MAX;
  if (init && ws) {
    sinit_shape(w, r, b, ws, kind);
  } else if (init && m == FULL_MASK && in->space == PTX_SPACE_SHARED && size == 4) {
    amax = 0;
    for (int l = 0; l < 32; l++) amax = addr[l] > amax ? addr[l] : amax;
  }
  if (amax < r->sh_size && amax + 4 <= r->sh_size) {
    /* a whole warp in bounds: a word of init bytes per lane */
    const uint32_t ones = 0x01010101u;
    if (kind == ACC_READ) {
      uint32_t bad = 0;
      for (int l = 0; l < 32; l++) {
        uint32_t v;
        memcpy(&v, r->init + addr[l], 4);
        bad |= (uint32_t)(v != ones) << l;
      }
      for (; bad; bad &= bad - 1) race_add_sync(r, b, SYNC_UNINIT, w->pc, w->index, bad & -bad);
    } else {
      for (int l = 0; l < 32; l++) sinit_mark(r, addr[l], 4);
    }
  } else if (init && !ws) {
    LANES(m, {
      uint64_t a = shared_off(in, addr[l], size, r);
      if (a == ~0ull) continue;
      if (kind == ACC_READ) {
        /* init bytes are 0 or 1: a word of them is 0x01010101 when all written */
        uint32_t v;
        int all = size == 4 ? (memcpy(&v, r->init + a, 4), v == 0x01010101u) : !memchr(r->init + a, 0, size);
        if (!all) race_add_sync(r, b, SYNC_UNINIT, w->pc, w->index, 1u << l);
      } else {
        sinit_mark(r, a, size);
      }
    });
  }
}
