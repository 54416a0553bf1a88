/* meet.c: two paths of a warp meeting at one .sync warp operation. On
 * sm_70+ lanes of a warp in different branches (if / else) that reach a
 * shfl/vote/match/redux.sync whose membermask names them all execute it
 * together: an H100 gives every lane of both halves one ballot, shfl reads
 * across them, one redux (tests/hw/warp_sync_branches). smemu runs one
 * path at a time, so the first path to arrive parks there (MEET_BLOCKED)
 * while its sibling path runs; when the sibling reaches an operation of
 * the same kind whose membermask covers the parked lanes, both run as one:
 * every lane with its own instruction's operands and destination. A path
 * that nobody joins runs its operation alone (meet_alone). */
#include "exec/meet.h"
#include "exec/sched.h"

/* The operands an operation reads and writes, by kind: registers (r),
 * predicates (p). */
typedef struct opnds {
  uint32_t r[5], nr; /* source registers: a, b, c, membermask */
  uint32_t p[2], np; /* source predicates */
  uint32_t dr, dp[2], ndp;
} opnds;

static void operands(const insn *in, opnds *o) {
  o->nr = o->np = o->ndp = 0;
  o->dr = ~0u;
  o->r[o->nr++] = in->v[0];
  switch (in->op) {
  case OP_SHFL:
    o->r[o->nr++] = in->a;
    o->r[o->nr++] = in->b;
    o->r[o->nr++] = in->c;
    o->dr = in->d;
    if (in->d2 != ~0u) o->dp[o->ndp++] = in->d2;
    break;
  case OP_VOTE:
    o->p[o->np++] = in->a;
    if (in->mode == 3) /* ballot: a register */
      o->dr = in->d;
    else
      o->dp[o->ndp++] = in->d;
    break;
  default: /* match, redux */
    o->r[o->nr++] = in->a;
    o->dr = in->d;
    if (in->d2 != ~0u) o->dp[o->ndp++] = in->d2;
    break;
  }
}

static int meets(const insn *in) {
  return in->op == OP_SHFL || in->op == OP_VOTE || in->op == OP_MATCH || in->op == OP_REDUX;
}

/* The same operation (kind, mode, type, negation) at both instructions. */
static int same_kind(const insn *a, const insn *b) {
  return a->fn == b->fn && a->op == b->op && a->mode == b->mode && a->type == b->type &&
         ((a->flags ^ b->flags) & IF_NEGC) == 0 && (a->d2 == ~0u) == (b->d2 == ~0u);
}

/* Runs in1 for lanes m1 and in2 for m2 as one operation: in1's operands
 * are moved into in2's slots for lanes m1, in2's handler runs for both,
 * its results for m1 go to in1's destinations and in2's slots get their
 * m1 values back. */
static void run_together(warp *w, const insn *in1, uint32_t m1, const insn *in2, uint32_t m2) {
  opnds o1 = {{0}, 0, {0}, 0, 0, {0}, 0}, o2 = o1;
  operands(in1, &o1);
  operands(in2, &o2);
  uint64_t save_r[6][32], val_r[5][32], res_r[32];
  uint32_t save_p[5], val_p[2], res_p[2];
  uint32_t neg = (in1->flags & IF_NEGC) ? FULL_MASK : 0; /* both the same (same_kind) */
  /* what in2's slots hold for m1 now, and in1's operand values for m1 */
  for (uint32_t i = 0; i < o2.nr; i++) LANES(m1, save_r[i][l] = w->r[o2.r[i]][l]);
  if (o2.dr != ~0u) LANES(m1, save_r[5][l] = w->r[o2.dr][l]);
  for (uint32_t i = 0; i < o2.np; i++) save_p[i] = w->p[o2.p[i]];
  for (uint32_t i = 0; i < o2.ndp; i++) save_p[2 + i] = w->p[o2.dp[i]];
  for (uint32_t i = 0; i < o1.nr; i++) LANES(m1, val_r[i][l] = w->r[o1.r[i]][l]);
  for (uint32_t i = 0; i < o1.np; i++) val_p[i] = w->p[o1.p[i]] ^ neg;
  for (uint32_t i = 0; i < o2.nr; i++) LANES(m1, w->r[o2.r[i]][l] = val_r[i][l]);
  for (uint32_t i = 0; i < o2.np; i++) w->p[o2.p[i]] = (w->p[o2.p[i]] & ~m1) | ((val_p[i] ^ neg) & m1);
  in2->fn(w, in2, m1 | m2);
  if (o2.dr != ~0u) LANES(m1, res_r[l] = w->r[o2.dr][l]);
  for (uint32_t i = 0; i < o2.ndp; i++) res_p[i] = w->p[o2.dp[i]];
  /* in2's slots back for m1 (the destination first: a source may share it) */
  if (o2.dr != ~0u) LANES(m1, w->r[o2.dr][l] = save_r[5][l]);
  for (uint32_t i = 0; i < o2.ndp; i++) w->p[o2.dp[i]] = (w->p[o2.dp[i]] & ~m1) | (save_p[2 + i] & m1);
  for (uint32_t i = o2.nr; i-- > 0;) LANES(m1, w->r[o2.r[i]][l] = save_r[i][l]);
  for (uint32_t i = o2.np; i-- > 0;) w->p[o2.p[i]] = (w->p[o2.p[i]] & ~m1) | (save_p[i] & m1);
  /* in1's results for m1 */
  if (o1.dr != ~0u) LANES(m1, w->r[o1.dr][l] = res_r[l]);
  for (uint32_t i = 0; i < o1.ndp; i++) w->p[o1.dp[i]] = (w->p[o1.dp[i]] & ~m1) | (res_p[i] & m1);
}

int warp_meet(warp *w, const insn *in, uint32_t m) {
  if (!m || w->meet_alone == w->pc + 1) {
    w->meet_alone = 0;
    return 0;
  }
  simt_entry *t = &w->stack[w->sp - 1];
  if (m != t->mask) return 0; /* a guarded operation: only its lanes */
  uint32_t want = 0;
  const uint64_t *M = w->r[in->v[0]];
  LANES(m, want |= (uint32_t)M[l]);
  want &= w->valid & ~w->exited & ~m;
  if (!want) return 0;
  const program *P = w->L->prog;
  uint32_t base = w->frames[w->nframes - 1].stack_base;
  /* a path parked at an operation of this kind whose lanes we name */
  for (uint32_t k = w->sp - 1; k-- > base;) {
    simt_entry *e = &w->stack[k];
    if (e->blocked != MEET_BLOCKED || !e->mask || (e->mask & ~want)) continue;
    const insn *other = &P->code[e->pc - 1];
    if (!meets(other) || !same_kind(other, in)) continue;
    run_together(w, other, e->mask, in, m);
    e->blocked = 0;
    return 1;
  }
  /* a sibling path (same join) holding lanes we name: park, let it run */
  for (uint32_t k = w->sp - 1; k-- > base;) {
    simt_entry *e = &w->stack[k];
    if (e->pc == t->rpc) break;
    if (e->rpc == t->rpc && !e->blocked && (e->mask & want)) {
      simt_entry tmp = *e;
      t->blocked = MEET_BLOCKED;
      *e = *t;
      *t = tmp;
      return 1;
    }
  }
  return 0;
}

void meet_alone(warp *w, simt_entry *t) {
  t->blocked = 0;
  t->pc--;
  w->meet_alone = t->pc + 1;
}
