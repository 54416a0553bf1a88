/* regload.c: rules of the SASS mapping (map.c) for accesses whose SASS
 * is not one instruction per PTX access (regload.h): addresses through
 * copies of a base register, loads ptxas reads with their neighbours or
 * takes from a vector's registers, and loads it sinks past an exit.
 *
 * The window rule, learnt from ptxas 13.0 for sm_90 on small kernels
 * (tests/sass/regload.ptx) and seen in CUB's block scans (tests/corpus:
 * the select sweep and scan-by-key kernels read the warps' totals as
 * ld.shared.v4 with a used_bytes_mask pragma between scalar and v2 loads
 * of the same words):
 *  - a vector load with 3 or 4 used words stays one LDS.128; a scalar load
 *    of a word it uses reads nothing (the register is reused), one of a
 *    word it does not use is an LDS of its own;
 *  - a vector load with 1 or 2 used words is read as those words, and
 *    loads that together read 3 or 4 words of one aligned 16-byte window
 *    are one LDS.128 (words 1-3 as well as 0-2, a v2 and a scalar alike);
 *    2 words that are not an aligned pair stay apart.
 * A lane of a vector load is used when some instruction of the function
 * reads its register (NVVM writes the pragma from the same fact).
 *
 * The sink rule: a load whose value only the code between `@p bra T` and
 * T reads, T ending the thread, is moved by ptxas past the `@P EXIT` the
 * branch becomes (CUB's radix sort writing its tile's last item); no warp
 * whose lanes all leave runs it. Applied only where the SASS has such an
 * LDS (sass_insn.after_exit). */
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

/* Whether e is a store: its d, if set, is a value it reads. */
static int is_store(const insn *e) {
  uint32_t f = op_flags[e->op];
  return (f & OPF_MEM) && (f & OPF_WRITE) && !(f & (OPF_READ | OPF_ATOMIC));
}

/* Whether e writes register r (a setp's d and any d2 are predicates). */
static int writes(const insn *e, uint32_t r) {
  if (e->d == r && e->op != OP_SETP && !is_store(e)) return 1;
  if (e->op == OP_LD)
    for (int k = 0; k < 4; k++)
      if (e->v[k] == r) return 1;
  return 0;
}

/* Whether e reads register r (its loads' destinations aside). */
static int reads(const insn *e, uint32_t r) {
  if (e->a == r || e->b == r || e->c == r || (e->d == r && is_store(e))) return 1;
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
  if (es < 4 || n > 4) return 0;
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
    if (a[i].base == SR_ZERO && P->code[a[i].pc].op == OP_LD && P->code[a[i].pc].space == PTX_SPACE_SHARED)
      idx[n++] = i;
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

/* ---- loads sunk past a conditional exit ---- */

/* The pc of the only instruction of [lo, hi) that writes register r, or
 * ~0u (none or several). */
static uint32_t only_def(const program *P, uint32_t lo, uint32_t hi, uint32_t r) {
  uint32_t def = ~0u;
  for (uint32_t pc = lo; pc < hi; pc++)
    if (writes(&P->code[pc], r)) {
      if (def != ~0u) return ~0u;
      def = pc;
    }
  return def;
}

/* Whether slot r holds its value for the rest of the function at pc: a
 * special register or a constant, or a register written once, before pc. */
static int ready_at(const program *P, const func_info *fi, uint32_t lo, uint32_t hi, uint32_t r,
                    uint32_t pc) {
  if (r == SLOT_SINK || r >= fi->nregs) return 0;
  if (r < SLOT_FIRST || r >= fi->nregs - fi->nconsts) return 1;
  uint32_t def = only_def(P, lo, hi, r);
  return def != ~0u && def < pc;
}

/* The comparison of an integer setp from its text ("setp.ge.u32"): SINK_*,
 * *sgn; -1 for anything else (a float type, a combining predicate). */
static int setp_cmp(const char *text, int *sgn) {
  static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
  if (!text || strncmp(text, "setp.", 5)) return -1;
  const char *c = text + 5, *dot = strchr(c, '.');
  if (!dot) return -1;
  const char *t = dot + 1;
  if (strchr(t, '.')) return -1; /* .and/.or/.xor or .ftz */
  if (t[0] != 's' && t[0] != 'u' && t[0] != 'b') return -1;
  for (int k = 0; k < 10; k++)
    if ((size_t)(dot - c) == strlen(names[k]) && !strncmp(c, names[k], strlen(names[k]))) {
      *sgn = k < 6 && t[0] == 's';
      return k < 6 ? k : k - 4; /* lo, ls, hi, hs: unsigned lt, le, gt, ge */
    }
  return -1;
}

/* Whether pcs (l, b) are straight or forward-branching code ptxas may sink
 * a load across: no barrier, fence, call, exit or shared write, branches
 * only to (their pc, b], and nothing outside (l, b) branching into (l, b]. */
static int sinkable_stretch(const program *P, uint32_t lo, uint32_t hi, uint32_t l, uint32_t b) {
  for (uint32_t pc = lo; pc < hi; pc++) {
    const insn *e = &P->code[pc];
    uint32_t f = op_flags[e->op];
    int inside = pc > l && pc < b;
    if ((f & OPF_BRANCH) && e->target > l && e->target <= b && !inside) return 0;
    if (!inside) continue;
    if (f & (OPF_CALL | OPF_RET | OPF_EXIT | OPF_BARRIER | OPF_FENCE)) return 0;
    if ((f & OPF_BRANCH) && (e->target <= pc || e->target > b)) return 0;
    if ((f & (OPF_WRITE | OPF_ATOMIC)) && e->space != PTX_SPACE_GLOBAL && e->space != PTX_SPACE_LOCAL &&
        e->space != PTX_SPACE_PARAM)
      return 0;
  }
  return 1;
}

/* An operand of the exit's condition as a register known at load pc plus
 * a constant: through adds (sass_canon_base) and one integer widening cvt
 * (*w, *sg: the width and signedness it extends from). 0 when it is not. */
static int cond_operand(const program *P, const func_info *fi, uint32_t lo, uint32_t hi, uint32_t pc,
                        uint32_t *r, int64_t *off, uint8_t *w, uint8_t *sg) {
  if (*r >= SLOT_FIRST && *r < fi->nregs - fi->nconsts) {
    uint32_t def = only_def(P, lo, hi, *r);
    const insn *c = def != ~0u ? &P->code[def] : NULL;
    if (c && c->op == OP_CVT && c->guard < 0 && !(c->flags & IF_SAT) && ptx_type_size(c->type) == 8 &&
        ptx_type_size(c->type2) == 4 && strchr("sub", ptx_type_name(c->type)[0]) &&
        strchr("sub", ptx_type_name(c->type2)[0])) {
      *r = c->a;
      *w = 4;
      *sg = ptx_type_name(c->type2)[0] == 's';
    }
  }
  sass_canon_base(P, lo, hi, r, off);
  return ready_at(P, fi, lo, hi, *r, pc);
}

/* The sink record of load pc of the kernel [lo, hi) when it has one: its
 * value is read only between a branch `@p bra T` after it and T, T ends
 * the thread, p comes from an integer setp whose operands are known at the
 * load, and nothing between the load and the branch keeps ptxas from
 * moving the load down. */
/* Per register slot of a function: its writers (0, 1 or 2 for several),
 * the one writer, the first and last pc that reads it (~0u, 0: none). */
typedef struct reg_use {
  uint8_t ndef;
  uint32_t def, first, last;
} reg_use;

static int sink_of(const program *P, const func_info *fi, const reg_use *ru, uint32_t lo, uint32_t hi,
                   uint32_t pc, load_sink *out) {
  const insn *L = &P->code[pc];
  if (L->op != OP_LD || L->space != PTX_SPACE_SHARED || L->guard >= 0) return 0;
  if (P->lines[pc].text && strstr(P->lines[pc].text, "volatile")) return 0;
  int n = L->vec > 1 ? L->vec : 1;
  uint32_t u0 = ~0u, u1 = 0;
  if (n > 4) return 0;
  for (int k = 0; k < n; k++) {
    uint32_t r = L->v[k];
    if (r == SLOT_SINK) continue;
    if (r >= fi->nregs || ru[r].ndef != 1 || ru[r].def != pc) return 0;
    if (ru[r].first < u0) u0 = ru[r].first;
    if (ru[r].first != ~0u && ru[r].last > u1) u1 = ru[r].last;
  }
  if (u0 == ~0u || u0 <= pc) return 0;
  /* the branch that leaves: the last one before the first use */
  uint32_t b = u0;
  while (b > pc + 1 && !(op_flags[P->code[b - 1].op] & OPF_BRANCH)) b--;
  b--;
  const insn *B = &P->code[b];
  if (b <= pc || !(op_flags[B->op] & OPF_BRANCH) || B->guard < 0 || B->target <= u1 || B->target >= hi)
    return 0;
  const insn *T = &P->code[B->target];
  if (!(op_flags[T->op] & (OPF_RET | OPF_EXIT)) || T->guard >= 0) return 0;
  /* the region after the branch is entered only from it and runs straight */
  for (uint32_t q = lo; q < hi; q++) {
    const insn *e = &P->code[q];
    if ((op_flags[e->op] & OPF_BRANCH) && q != b && e->target > b && e->target < B->target) return 0;
    if (q > b && q < B->target && (op_flags[e->op] & (OPF_BRANCH | OPF_CALL | OPF_BARRIER))) return 0;
  }
  if (!sinkable_stretch(P, lo, hi, pc, b)) return 0;
  /* the setp of the branch's predicate, the last writer before it */
  uint32_t p = (uint32_t)B->guard, s = b;
  while (s > pc + 1) {
    const insn *e = &P->code[--s];
    if (e->d == p || e->d2 == p) break;
  }
  const insn *S = &P->code[s];
  if (s <= pc || S->op != OP_SETP || (S->d != p && S->d2 != p) || S->mode) return 0;
  int sgn, cmp = setp_cmp(P->lines[s].text, &sgn), bytes = ptx_type_size(S->type);
  if (cmp < 0 || (bytes != 2 && bytes != 4 && bytes != 8)) return 0;
  load_sink k = {pc,
                 S->a,
                 S->b,
                 0,
                 0,
                 (uint8_t)bytes,
                 (uint8_t)bytes,
                 (uint8_t)sgn,
                 (uint8_t)sgn,
                 (uint8_t)cmp,
                 (uint8_t)sgn,
                 (uint8_t)bytes,
                 0};
  if (!cond_operand(P, fi, lo, hi, pc, &k.ra, &k.oa, &k.wa, &k.sa) ||
      !cond_operand(P, fi, lo, hi, pc, &k.rb, &k.ob, &k.wb, &k.sb))
    return 0;
  /* the branch is taken (the lanes leave) when p is true, or false for
   * @!p; p is the comparison, or its negation when it is the second
   * destination */
  k.leave = (uint8_t)(1 ^ (S->d2 == p && S->d != p) ^ (B->guard_xor != 0));
  *out = k;
  return 1;
}

int sass_sink_loads(program *P, const sass_func *F) {
  free(P->sinks);
  P->sinks = NULL;
  P->nsinks = 0;
  if (!P->nfuncs) return 0;
  const func_info *fi = &P->funcs[0];
  int after = 0;
  for (int i = 0; i < F->n; i++)
    after += F->ins[i].after_exit && F->ins[i].cls == SASS_LD && !F->ins[i].gen && F->ins[i].variant != 1;
  if (!after) return 0;
  reg_use *ru = malloc((fi->nregs + 1) * sizeof *ru);
  if (!ru) return -1;
  for (uint32_t r = 0; r < fi->nregs; r++) ru[r] = (reg_use){0, ~0u, ~0u, 0};
  for (uint32_t pc = fi->entry; pc < fi->end; pc++) {
    const insn *e = &P->code[pc];
    uint32_t regs[9] = {e->a, e->b, e->c, e->d, e->v[0], e->v[1], e->v[2], e->v[3], e->d2};
    for (int i = 0; i < 9; i++) {
      uint32_t r = regs[i];
      if (r >= fi->nregs || (i && r == regs[i - 1])) continue;
      if (writes(e, r) && ru[r].def != pc) {
        ru[r].ndef += ru[r].ndef < 2;
        ru[r].def = pc;
      }
      if (reads(e, r)) {
        if (ru[r].first == ~0u) ru[r].first = pc;
        ru[r].last = pc;
      }
    }
  }
  load_sink *ks = NULL;
  uint32_t nk = 0;
  for (uint32_t pc = fi->entry; pc < fi->end; pc++) {
    load_sink k;
    if (!sink_of(P, fi, ru, fi->entry, fi->end, pc, &k)) continue;
    load_sink *x = realloc(ks, (nk + 1) * sizeof *x);
    if (!x) {
      free(ks);
      free(ru);
      return -1;
    }
    ks = x;
    ks[nk++] = k;
  }
  free(ru);
  /* as many sunk loads in the SASS as there are candidates, at least */
  if (nk && nk <= (uint32_t)after) {
    P->sinks = ks;
    P->nsinks = nk;
  } else
    free(ks);
  return 0;
}
