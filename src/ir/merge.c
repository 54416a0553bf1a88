/* merge.c: which shared-memory accesses ptxas merges into one wider one.
 * Nsight Compute counts SASS requests: where a thread makes 2 or 4 scalar
 * ld.shared (or st.shared) of 4 bytes at base+o, base+o+4, ... in one
 * basic block and ptxas can prove base+o aligned to 8 or 16 bytes, the GPU
 * runs one LDS.64 / LDS.128 (measured on an H200: the tiled matrix
 * product's row reads; tests/hw/banks merge_* kernels). The bank model
 * counts such a group once, as the wide access, at its lowest address.
 *
 * Alignment is a flow-insensitive lower bound per register: the smallest
 * power of two every definition of the register is known to be a multiple
 * of (constants, symbol addresses, shifts, masks, products and sums of
 * known values); anything else is 1.
 *
 * Accesses addressed by a shared symbol ([a], [arr+8]) form one group
 * whatever the symbol: their addresses are known (the decoder's layout,
 * declaration order with each variable's alignment, is the one ptxas uses:
 * tests/hw/model run.txt, kernels lay_*), so neighbouring __shared__
 * scalars merge as ptxas merges them (measured on an
 * H200): six u32 stored by one thread -> STS.128 + STS.64 and loaded ->
 * LDS.128 + LDS.64 (lay_six_u32, _rev), an array's tail and the next
 * scalar (lay_arr_scalar), u32/f32/s32 alike (lay_mixed, lay_four_f32);
 * three u32 at a 16-byte aligned address load as one LDS.128 that reads
 * the fourth word too (lay_three_u32); four u16 stores -> STS.64 but u16
 * loads and u8 accesses stay apart (lay_u16x4, lay_u8x8), two u16 stores
 * -> STS (lay_two_u16), two u64 -> STS.128 (lay_two_u64), five u32 ->
 * STS.128 + STS (lay_five_u32).
 * Loads and stores of other state spaces (global, local, param, const)
 * cannot touch shared memory and do not end a group (ptxas moves the
 * shared accesses past them: lay_six_u32 interleaves ld.global). */
#include "ir/merge.h"
#include <stdlib.h>
#include <string.h>

#define TOP 65536u
#define SYM_BASE (-2) /* group base of symbol-addressed accesses */

static uint32_t lowbit(uint64_t v) {
  if (!v) return TOP;
  uint64_t b = v & (~v + 1);
  return b > TOP ? TOP : (uint32_t)b;
}

static uint32_t mul_al(uint32_t a, uint32_t b) {
  uint64_t p = (uint64_t)a * b;
  return p > TOP ? TOP : (uint32_t)p;
}

static uint32_t min_al(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* The alignment of operand o; reg_al holds the registers' (by slot). */
static uint32_t opd_al(const merge_ctx *C, const ptx_operand *o) {
  switch (o->kind) {
  case PTX_OPD_INT:
    return lowbit((uint64_t)o->ival);
  case PTX_OPD_SYM: {
    uint64_t a;
    if (C->symbol_addr(C->user, o->name, &a)) return lowbit(a + (uint64_t)o->ival);
    return 1;
  }
  case PTX_OPD_REG: {
    int32_t s = C->reg_slot(C->user, o->name);
    return s >= 0 ? C->al[s] : 1;
  }
  default:
    return 1;
  }
}

static int has_mod(const ptx_stmt *st, const char *m) {
  for (int i = 0; i < st->nmods; i++)
    if (!strcmp(st->mods[i], m)) return 1;
  return 0;
}

/* The alignment a statement gives its destination, or 0 when it writes no
 * register of interest. */
static uint32_t def_al(const merge_ctx *C, const ptx_stmt *st) {
  const char *op = st->opcode;
  const ptx_operand *o = st->ops;
  int n = st->nops;
  if (n < 2 || o[0].kind != PTX_OPD_REG) return 0;
  if (!strcmp(op, "mov") && n == 2) return opd_al(C, &o[1]);
  if ((!strcmp(op, "cvt") || !strcmp(op, "cvta")) && n == 2) return opd_al(C, &o[1]);
  if ((!strcmp(op, "add") || !strcmp(op, "sub")) && n == 3 && !has_mod(st, "f32") && !has_mod(st, "f64"))
    return min_al(opd_al(C, &o[1]), opd_al(C, &o[2]));
  if (!strcmp(op, "shl") && n == 3 && o[2].kind == PTX_OPD_INT && o[2].ival >= 0 && o[2].ival < 17)
    return mul_al(opd_al(C, &o[1]), 1u << o[2].ival);
  if (!strcmp(op, "and") && n == 3) {
    uint32_t a = opd_al(C, &o[1]), b = opd_al(C, &o[2]);
    return a > b ? a : b;
  }
  if (!strcmp(op, "mul") && n == 3 && (has_mod(st, "lo") || has_mod(st, "wide")))
    return mul_al(opd_al(C, &o[1]), opd_al(C, &o[2]));
  if (!strcmp(op, "mad") && n == 4 && (has_mod(st, "lo") || has_mod(st, "wide")))
    return min_al(mul_al(opd_al(C, &o[1]), opd_al(C, &o[2])), opd_al(C, &o[3]));
  return 1;
}

/* Registers a statement writes (the first operand, or a vector's elements). */
static void each_def(merge_ctx *C, const ptx_stmt *st, void (*fn)(merge_ctx *, int32_t, void *), void *arg) {
  if (!st->opcode || !st->nops) return;
  if (!strcmp(st->opcode, "st") || !strcmp(st->opcode, "red") || !strcmp(st->opcode, "bar") ||
      !strcmp(st->opcode, "barrier") || !strcmp(st->opcode, "bra") || !strcmp(st->opcode, "call"))
    return;
  const ptx_operand *d = &st->ops[0];
  if (d->kind == PTX_OPD_REG) fn(C, C->reg_slot(C->user, d->name), arg);
  if (d->kind == PTX_OPD_VEC)
    for (int i = 0; i < d->nelems; i++)
      if (d->elems[i].kind == PTX_OPD_REG) fn(C, C->reg_slot(C->user, d->elems[i].name), arg);
}

static void lower(merge_ctx *C, int32_t slot, void *arg) {
  uint32_t v = *(uint32_t *)arg;
  if (slot >= 0 && v < C->al[slot]) {
    C->al[slot] = v;
    C->changed = 1;
  }
}

/* A scalar 4- or 8-byte ld/st.shared (or a 2-byte st.shared) with a
 * register or shared-symbol base: its kind (1 load, 2 store), base slot
 * (SYM_BASE for a symbol, the offset then being the address) and offset;
 * 0 otherwise. */
static int shared_access(const merge_ctx *C, const ptx_stmt *st, int32_t *base, int64_t *off, int *size) {
  int ld = !strcmp(st->opcode, "ld"), stt = !strcmp(st->opcode, "st");
  if (!(ld || stt) || !has_mod(st, "shared") || has_mod(st, "v2") || has_mod(st, "v4") ||
      has_mod(st, "volatile") || st->nops != 2)
    return 0;
  int sz = has_mod(st, "u32") || has_mod(st, "s32") || has_mod(st, "b32") || has_mod(st, "f32")   ? 4
           : has_mod(st, "u64") || has_mod(st, "s64") || has_mod(st, "b64") || has_mod(st, "f64") ? 8
           : stt && (has_mod(st, "u16") || has_mod(st, "s16") || has_mod(st, "b16") || has_mod(st, "f16"))
               ? 2
               : 0;
  const ptx_operand *a = &st->ops[ld ? 1 : 0];
  if (!sz || a->kind != PTX_OPD_ADDR || !a->name) return 0;
  *base = C->reg_slot(C->user, a->name);
  *off = a->ival;
  if (*base < 0) {
    uint64_t sa;
    if (!C->symbol_addr(C->user, a->name, &sa)) return 0;
    *base = SYM_BASE;
    *off += (int64_t)sa;
  }
  *size = sz;
  return ld ? 1 : 2;
}

/* A load or store that cannot reach shared memory. */
static int other_space(const ptx_stmt *st) {
  return has_mod(st, "global") || has_mod(st, "local") || has_mod(st, "param") || has_mod(st, "const");
}

/* Ends a group: merge its aligned runs. */
static void close_group(merge_ctx *C, merge_group *g) {
  /* lowest address first, as ptxas picks them: six scalars stored in
   * reverse order still give STS.128 at the first (lay_six_u32_rev) */
  int order[MERGE_MAX];
  for (int i = 0; i < g->n; i++) {
    int j = i;
    while (j > 0 && g->off[order[j - 1]] > g->off[i]) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
  for (int oi = 0; oi < g->n; oi++) {
    int i = order[oi];
    if (g->used[i]) continue;
    int64_t o = g->off[i];
    uint32_t al = min_al(g->base == SYM_BASE ? TOP : C->al[g->base], lowbit((uint64_t)o));
    int want[2] = {g->size <= 4 ? 4 : 2, 2}, wide = 0, idx[4], found = 0;
    for (int t = 0; t < 2 && !wide; t++) {
      int k = want[t];
      if (!k || g->size * k > 16 || al < (uint32_t)(g->size * k)) continue;
      found = 0;
      for (int j = 0; j < k; j++) {
        idx[j] = -1;
        for (int m = 0; m < g->n; m++)
          if (!g->used[m] && g->off[m] == o + (int64_t)j * g->size) {
            idx[j] = m;
            break;
          }
        if (idx[j] >= 0) found++;
      }
      /* symbol loads: three words of an aligned quad are one LDS.128 */
      if (found == k ||
          (k == 4 && found == 3 && idx[3] < 0 && g->kind == 1 && g->base == SYM_BASE && g->size == 4))
        wide = k;
    }
    if (!wide) continue;
    for (int j = 0; j < wide; j++) {
      if (idx[j] < 0) continue;
      g->used[idx[j]] = 1;
      C->mark(C->user, g->pc[idx[j]], j == 0 ? (uint8_t)wide : MERGE_FOLLOW);
    }
  }
  g->n = 0;
}

static void close_all(merge_ctx *C) {
  for (int i = 0; i < C->ngroups; i++) close_group(C, &C->groups[i]);
  C->ngroups = 0;
}

void merge_pass(merge_ctx *C, const ptx_func *f, uint32_t first_pc) {
  /* alignment of every register, to a fixpoint */
  for (uint32_t i = 0; i < C->nslots; i++) C->al[i] = TOP;
  do {
    C->changed = 0;
    for (int s = 0; s < f->nbody; s++) {
      const ptx_stmt *st = &f->body[s];
      if (st->label || !st->opcode) continue;
      uint32_t a = def_al(C, st);
      if (!a) a = 1;
      each_def(C, st, lower, &a);
    }
  } while (C->changed);
  /* groups in straight-line code */
  uint32_t pc = first_pc;
  C->ngroups = 0;
  for (int s = 0; s < f->nbody; s++) {
    const ptx_stmt *st = &f->body[s];
    if (st->label) {
      close_all(C);
      continue;
    }
    if (!st->opcode) {
      pc++;
      continue;
    }
    int32_t base;
    int64_t off;
    int size, kind = shared_access(C, st, &base, &off, &size);
    const char *op = st->opcode;
    if (kind) {
      merge_group *g = NULL;
      for (int i = 0; i < C->ngroups; i++) {
        merge_group *h = &C->groups[i];
        if (h->base == base && h->kind == kind && h->size == size && h->guard == st->guard &&
            h->n < MERGE_MAX)
          g = h;
      }
      /* a store ends the load groups, any access ends the store groups */
      for (int i = 0; i < C->ngroups; i++) {
        merge_group *h = &C->groups[i];
        if (h != g && (kind == 2 || h->kind == 2)) close_group(C, h);
      }
      if (!g && C->ngroups < MERGE_GROUPS) {
        g = &C->groups[C->ngroups++];
        memset(g, 0, sizeof *g);
        g->base = base;
        g->kind = kind;
        g->size = size;
        g->guard = st->guard;
      }
      if (g) {
        g->pc[g->n] = pc;
        g->off[g->n] = off;
        g->used[g->n] = 0;
        g->n++;
      }
    } else if (!strcmp(op, "bra") || !strcmp(op, "call") || !strcmp(op, "ret") || !strcmp(op, "exit") ||
               !strcmp(op, "bar") || !strcmp(op, "barrier") || !strcmp(op, "membar") ||
               !strcmp(op, "fence") || !strcmp(op, "atom") || !strcmp(op, "red") ||
               ((!strcmp(op, "st") || !strcmp(op, "ld")) && !other_space(st)) || !strcmp(op, "cp") ||
               st->guard) {
      close_all(C);
    }
    /* a redefined base ends its groups */
    if (st->opcode && st->nops && st->ops[0].kind == PTX_OPD_REG) {
      int32_t d = C->reg_slot(C->user, st->ops[0].name);
      for (int i = 0; i < C->ngroups; i++)
        if (C->groups[i].base == d) close_group(C, &C->groups[i]);
    }
    pc++;
  }
  close_all(C);
}
