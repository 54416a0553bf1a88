/* hooks.c: the hooks of exec/hooks.h, dispatched over the table of checks
 * (checks.h): a launch's per-worker state is made, merged and freed row by
 * row, and every memory access and event goes to the rows the launch
 * enabled (analysis.mem, analysis.ev), in table order. */
#include "exec/hooks.h"
#include "check/checks.h"
#include "check/install.h"
#include <stdlib.h>

analysis *check_analysis_new(const launch *L) {
  analysis *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->ncode = L->prog->ncode;
  for (uint32_t i = 0; i < check_count; i++) {
    const check_row *c = check_table[i];
    if (!c->wanted(L)) continue;
    a->on |= c->bit;
    if (c->make && c->make(a, L) < 0) {
      check_analysis_free(a);
      return NULL;
    }
    if (c->mem) a->mem[a->nmem++] = c;
    if (c->mem && !c->not_shared) a->mem_sh[a->nmem_sh++] = c;
    if (c->event) a->ev[a->nev++] = c;
    if (c->event) a->evmask |= c->events;
  }
  const program *P = L->prog;
  a->shape_lo = a->has_race && !a->crace && (L->want_races || L->want_init)
                    ? (P->smem_lo < P->smem_reserved ? P->smem_reserved : 0)
                    : UINT32_MAX;
  for (uint32_t k = 0; k < HEV_COUNT; k++) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->nev; i++) n += a->ev[i]->events >> k & 1;
    for (uint32_t i = 0; i < a->nev && n == 1; i++)
      if (a->ev[i]->events >> k & 1) a->ev1[k] = a->ev[i];
  }
  return a;
}

void check_analysis_free(analysis *a) {
  if (!a) return;
  for (uint32_t i = 0; i < check_count; i++)
    if ((a->on & check_table[i]->bit) && check_table[i]->drop) check_table[i]->drop(a);
  free(a);
}

void check_analysis_merge(analysis *into, const analysis *from) {
  for (uint32_t i = 0; i < check_count; i++) {
    const check_row *c = check_table[i];
    if ((into->on & from->on & c->bit) && c->merge) c->merge(into, from);
  }
}

void check_block_start(block *b) {
  analysis *a = b->an;
  if (!a) return;
  for (uint32_t i = 0; i < check_count; i++)
    if ((a->on & check_table[i]->bit) && check_table[i]->block_start) check_table[i]->block_start(b);
}

void check_block_end(block *b) {
  analysis *a = b->an;
  if (!a) return;
  for (uint32_t i = 0; i < check_count; i++)
    if ((a->on & check_table[i]->bit) && check_table[i]->block_end) check_table[i]->block_end(b);
}

/* The rows that see instruction in's accesses, and their number. */
static inline const check_row *const *rows_for(const analysis *a, const insn *in, uint32_t *n) {
  int sh = in->space == PTX_SPACE_SHARED;
  *n = sh ? a->nmem_sh : a->nmem;
  return sh ? a->mem_sh : a->mem;
}

void check_mem(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  uint32_t n;
  const check_row *const *rows = rows_for(w->blk->an, in, &n);
  int kind = (op_flags[in->op] & OPF_WRITE) ? ACC_WRITE : ACC_READ;
  for (uint32_t i = 0; i < n; i++) rows[i]->mem(w, in, m, addr, size, kind);
}

void check_mem_halves(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                      uint64_t a1, uint32_t stride) {
  uint32_t n;
  const check_row *const *rows = rows_for(w->blk->an, in, &n);
  int kind = (op_flags[in->op] & OPF_WRITE) ? ACC_WRITE : ACC_READ;
  for (uint32_t i = 0; i < n; i++) {
    const check_row *c = rows[i];
    if (c->mem_halves)
      c->mem_halves(w, in, addr, size, a0, a1, stride, kind);
    else
      c->mem(w, in, FULL_MASK, addr, size, kind);
  }
}

void check_mem_pattern(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                       uint64_t a1, uint64_t stride) {
  if ((stride == 0 || stride == size) && check_mem_shape(w, in, a0, a1, stride ? 2 : 1, size)) return;
  check_mem_halves(w, in, addr, size, a0, a1, (uint32_t)stride);
}

void check_atom(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  uint32_t n;
  const check_row *const *rows = rows_for(w->blk->an, in, &n);
  for (uint32_t i = 0; i < n; i++) rows[i]->mem(w, in, m, addr, size, ACC_ATOMIC);
}

void check_copy(warp *w, const insn *in, uint32_t m, const uint64_t src[32], const uint64_t dst[32],
                uint32_t size) {
  const analysis *a = w->blk->an;
  insn ld = *in, st = *in;
  ld.space = PTX_SPACE_GLOBAL;
  st.space = PTX_SPACE_SHARED;
  for (uint32_t i = 0; i < a->nmem; i++)
    if (a->mem[i]->copy) a->mem[i]->copy(w, &ld, &st, m, src, dst, size);
}

void check_event(const hook_ev *e) {
  const analysis *a = e->b->an;
  const check_row *one = a->ev1[e->kind];
  if (one) {
    one->event(e);
    return;
  }
  for (uint32_t i = 0; i < a->nev; i++)
    if (a->ev[i]->events >> e->kind & 1) a->ev[i]->event(e);
}
