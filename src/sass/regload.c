/* regload.c: two rules of the SASS mapping (map.c) for loads whose value
 * ptxas keeps in a register or reads with another load (regload.h).
 *
 * Learnt from ptxas 13.0 for sm_90 on small kernels (tests/sass/regload)
 * and seen in CUB's block scans (tests/corpus: the select sweep and
 * scan-by-key kernels read the warps' totals as ld.shared.v4 with a
 * used_bytes_mask pragma between scalar and v2 loads of the same words):
 *  - a vector load with 3 or 4 used words stays one LDS.128; a scalar load
 *    of a word it uses reads nothing (the register is reused), one of a
 *    word it does not use is an LDS of its own;
 *  - a vector load with 1 or 2 used words is read as those words, and
 *    loads that together read 3 or 4 words of one aligned 16-byte window
 *    are one LDS.128 (words 1-3 as well as 0-2, a v2 and a scalar alike);
 *    2 words that are not an aligned pair stay apart.
 * A lane of a vector load is used when some instruction of the function
 * reads its register (NVVM writes the pragma from the same fact). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/merge.h"
#include "sass/regload.h"

/* The function of P that holds pc, or NULL. */
static const func_info *func_at(const program *P, uint32_t pc) {
  for (uint32_t f = 0; f < P->nfuncs; f++)
    if (pc >= P->funcs[f].entry && pc < P->funcs[f].end) return &P->funcs[f];
  return NULL;
}

/* Whether e writes register r. */
static int writes(const insn *e, uint32_t r) {
  if (e->d == r || e->d2 == r) return 1;
  if (e->op == OP_LD)
    for (int k = 0; k < 4; k++)
      if (e->v[k] == r) return 1;
  return 0;
}

/* Whether e reads register r (its loads' destinations aside). */
static int reads(const insn *e, uint32_t r) {
  if (e->a == r || e->b == r || e->c == r) return 1;
  if (e->op != OP_LD)
    for (int k = 0; k < 4; k++)
      if (e->v[k] == r) return 1;
  return 0;
}

void sass_canon_base(const program *P, uint32_t lo, uint32_t hi, uint32_t *base, int64_t *off) {
  const func_info *fi = func_at(P, lo);
  if (!fi) return;
  uint32_t cbase = fi->nregs - fi->nconsts;
  for (int depth = 0; depth < 4; depth++) {
    uint32_t r = *base, def = ~0u;
    if (r < SLOT_FIRST || r >= cbase) return;
    int n = 0;
    for (uint32_t pc = lo; pc < hi && n < 2; pc++)
      if (writes(&P->code[pc], r)) {
        n++;
        def = pc;
      }
    if (n != 1) return;
    const insn *e = &P->code[def];
    if (e->op != OP_ADD || e->guard >= 0 || e->d != r) return;
    uint32_t x, k;
    if (e->b >= cbase && e->b < fi->nregs && e->a < cbase)
      x = e->a, k = e->b;
    else if (e->a >= cbase && e->a < fi->nregs && e->b < cbase)
      x = e->b, k = e->a;
    else
      return;
    /* the register added to must hold one value for the function */
    if (x >= SLOT_FIRST) {
      int nx = 0;
      for (uint32_t pc = lo; pc < hi && nx < 2; pc++) nx += writes(&P->code[pc], x);
      if (nx > 1) return;
    } else if (x == SLOT_SINK)
      return;
    int bytes = ptx_type_size(e->type);
    uint64_t v = fi->consts[k - cbase];
    int64_t sv = bytes == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
    *base = x;
    *off += sv;
  }
}

int sass_straight(const program *P, uint32_t lo, uint32_t p, uint32_t q, const uint8_t *targets) {
  for (uint32_t pc = p + 1; pc <= q; pc++) {
    if (targets[pc - lo]) return 0;
    if (pc == q) break;
    const insn *e = &P->code[pc];
    uint32_t f = op_flags[e->op];
    if (f & (OPF_BRANCH | OPF_CALL | OPF_RET | OPF_EXIT | OPF_BARRIER | OPF_FENCE)) return 0;
    if ((f & (OPF_WRITE | OPF_ATOMIC)) && e->space != PTX_SPACE_GLOBAL && e->space != PTX_SPACE_LOCAL &&
        e->space != PTX_SPACE_PARAM)
      return 0;
  }
  return 1;
}

/* The words (bits 0-3) of its aligned 16-byte window that load x reads
 * and uses; 0 when it is no plain load of whole words inside one window. */
static unsigned used_words(const program *P, uint32_t lo, uint32_t hi, const acc *x) {
  const insn *in = &P->code[x->pc];
  int64_t o = x->off & 15;
  if (x->off < 0 || x->size < 4 || x->size % 4 || o % 4 || o + x->size > 16) return 0;
  if (in->guard >= 0 || strstr(P->lines[x->pc].text ? P->lines[x->pc].text : "", "volatile")) return 0;
  int n = in->vec > 1 ? in->vec : 1, es = x->size / n;
  if (es < 4) return 0;
  unsigned m = 0;
  for (int k = 0; k < n; k++) {
    uint32_t r = in->v[k];
    int used = r != SLOT_SINK;
    if (used && n > 1) {
      used = 0;
      for (uint32_t pc = lo; pc < hi && !used; pc++) used = pc != x->pc && reads(&P->code[pc], r);
    }
    if (used) m |= ((1u << (es / 4)) - 1) << ((unsigned)o / 4 + (unsigned)(k * es) / 4);
  }
  return m;
}

static void mark(program *P, sass_map *M, uint32_t pc, uint8_t merge, const char *op) {
  P->code[pc].merge = merge;
  M->status[pc] = SASS_MAP_SET;
  snprintf(M->op[pc], sizeof M->op[pc], "%s", op);
}

int sass_window_loads(program *P, sass_map *M, uint32_t lo, uint32_t hi, const uint8_t *targets, acc *a,
                      int *na, int *w, int *nw) {
  enum { MAXL = 64 };
  int removed = 0;
  uint8_t *gone = calloc((size_t)*na + 1, 1);
  if (!gone) return 0;
  /* the absolute loads in program order (a is sorted by base, then offset) */
  int idx[MAXL], n = 0;
  for (int i = 0; i < *na && n < MAXL; i++)
    if (a[i].base == SR_ZERO && P->code[a[i].pc].op == OP_LD) idx[n++] = i;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && a[idx[j]].pc < a[idx[j - 1]].pc; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  unsigned words[MAXL];
  for (int i = 0; i < n; i++) words[i] = used_words(P, lo, hi, &a[idx[i]]);
  /* stretches of straight-line code, then windows inside each */
  for (int s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && sass_straight(P, lo, a[idx[e - 1]].pc, a[idx[e]].pc, targets); e++) {
    }
    uint8_t done[MAXL] = {0};
    for (int i = s; i < e; i++) {
      if (done[i] || !words[i]) continue;
      int64_t win = a[idx[i]].off >> 4;
      int mem[MAXL], nm = 0;
      unsigned kept = 0, uni = 0;
      for (int j = s; j < e; j++)
        if (!done[j] && words[j] && a[idx[j]].off >> 4 == win) {
          done[j] = 1;
          mem[nm++] = j;
          if (a[idx[j]].size == 16 && __builtin_popcount(words[j]) >= 3) kept |= words[j];
        }
      /* loads of words a kept vector uses: its registers */
      for (int t = 0; t < nm; t++) {
        int j = mem[t];
        if (a[idx[j]].size == 16 && __builtin_popcount(words[j]) >= 3) continue;
        if (kept && !(words[j] & ~kept)) {
          mark(P, M, a[idx[j]].pc, MERGE_FOLLOW, "(register)");
          gone[idx[j]] = 1;
          removed++;
          mem[t] = -1;
        } else if (!(a[idx[j]].size == 16 && __builtin_popcount(words[j]) >= 3))
          uni |= words[j];
      }
      /* the rest: one LDS.128 when they read 3 or 4 of the words */
      int lead = -1, cnt = 0;
      for (int t = 0; t < nm; t++) {
        int j = mem[t];
        if (j < 0 || (a[idx[j]].size == 16 && __builtin_popcount(words[j]) >= 3)) continue;
        cnt++;
        if (lead < 0 || a[idx[j]].off < a[idx[lead]].off) lead = j;
      }
      if (cnt < 2 || __builtin_popcount(uni) < 3) continue;
      int wi = -1;
      for (int t = 0; t < *nw && wi < 0; t++)
        if (w[t] == 16) wi = t;
      if (wi < 0) continue;
      w[wi] = w[--*nw];
      for (int t = 0; t < nm; t++) {
        int j = mem[t];
        if (j < 0 || (a[idx[j]].size == 16 && __builtin_popcount(words[j]) >= 3)) continue;
        int sz = a[idx[j]].size;
        mark(P, M, a[idx[j]].pc, j == lead ? (uint8_t)(sz == 16 ? 0 : 16 / sz) : MERGE_FOLLOW, "LDS.128");
        gone[idx[j]] = 1;
        removed++;
      }
    }
  }
  int k = 0;
  for (int i = 0; i < *na; i++)
    if (!gone[i]) a[k++] = a[i];
  *na = k;
  free(gone);
  return removed;
}
