/* warpops.c: warp-level collectives: shfl.sync (up, down, bfly, idx with
 * segment clamps), vote.sync (all, any, uni, ballot), match.sync (any,
 * all), redux.sync, elect.sync and activemask. Each executing lane takes
 * part with the lanes of its own membermask that execute with it (the
 * converged ones, which the reconvergence stack gives); shfl reads any
 * lane. A lane whose membermask lacks itself stops the kernel with an
 * illegal instruction, as an H100 does (tests/hw/fidelity/, warpmask). */
#include "exec/atom.h"
#include "exec/exec.h"
#include "exec/hooks.h"
#include "exec/meet.h"
#include "ir/decode.h"
#include "smemu.h"

enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };

/* Each executing lane's group: its membermask (operand v[0]) limited to
 * the executing lanes. An executing lane outside its own mask is undefined
 * in the PTX ISA; measured on sm_90 every .sync warp operation then traps
 * (cudaErrorIllegalInstruction) and compute-sanitizer synccheck reports
 * "Invalid arguments" for every executing thread: `--check sync` reports
 * the same, then the kernel stops as on the GPU. */
int warp_groups(warp *w, uint32_t mask_slot, uint32_t m, uint32_t grp[32], const char *what) {
  const uint64_t *M = w->r[mask_slot];
  uint32_t bad = 0;
  LANES(m, {
    grp[l] = (uint32_t)M[l] & m;
    if (!((uint32_t)M[l] >> l & 1)) bad |= 1u << l;
  });
  if (!bad) return 0;
  hook_sync_error(w, SYNC_WARP_MASK, m);
  int l = __builtin_ctz(bad);
  exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION, "%s: the executing thread is not in its membermask 0x%08x",
             what, (uint32_t)M[l]);
  return -1;
}

static void shfl_h(warp *w, const insn *in, uint32_t m) {
  uint32_t grp[32];
  if (warp_meet(w, in, m)) return;
  if (!m || warp_groups(w, in->v[0], m, grp, "shfl.sync") < 0) return;
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  uint64_t src[32], *D = w->r[in->d];
  uint32_t pv = 0;
  for (int l = 0; l < 32; l++) src[l] = (uint32_t)A[l];
  LANES(m, {
    uint32_t b = (uint32_t)B[l] & 31, c = (uint32_t)C[l];
    uint32_t seg = (c >> 8) & 31, cv = c & 31;
    int maxl = (int)((l & seg) | (cv & ~seg)), minl = (int)(l & seg), j, ok;
    switch (in->mode) {
    case SH_UP:
      j = l - (int)b;
      ok = j >= maxl;
      break;
    case SH_DOWN:
      j = l + (int)b;
      ok = j <= maxl;
      break;
    case SH_BFLY:
      j = l ^ (int)b;
      ok = j <= maxl;
      break;
    default:
      j = minl | (int)(b & ~seg);
      ok = j <= maxl;
      break;
    }
    if (!ok) j = l;
    D[l] = src[j];
    pv |= (uint32_t)ok << l;
  });
  if (in->d2 != ~0u) w->p[in->d2] = (w->p[in->d2] & ~m) | (pv & m);
}

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };
static void vote_h(warp *w, const insn *in, uint32_t m) {
  uint32_t grp[32];
  if (warp_meet(w, in, m)) return;
  if (!m || warp_groups(w, in->v[0], m, grp, "vote.sync") < 0) return;
  uint32_t p = (w->p[in->a] ^ ((in->flags & IF_NEGC) ? FULL_MASK : 0)) & m;
  if (in->mode == V_BALLOT) {
    uint64_t *D = w->r[in->d];
    LANES(m, D[l] = p & grp[l]);
    return;
  }
  uint32_t r = 0;
  LANES(m, {
    uint32_t g = grp[l], q = p & g;
    int v = in->mode == V_ALL ? q == g : in->mode == V_ANY ? q != 0 : (q == g || q == 0);
    r |= (uint32_t)v << l;
  });
  w->p[in->d] = (w->p[in->d] & ~m) | r;
}

static void match_h(warp *w, const insn *in, uint32_t m) {
  uint32_t grp[32];
  if (warp_meet(w, in, m)) return;
  if (!m || warp_groups(w, in->v[0], m, grp, "match.sync") < 0) return;
  const uint64_t *A = w->r[in->a];
  uint64_t *D = w->r[in->d], mk = in->type == PTX_T_B64 ? ~0ull : 0xffffffffull;
  uint32_t eq[32], allp = 0;
  LANES(m, {
    uint32_t e = 0;
    for (int k = 0; k < 32; k++)
      if (grp[l] >> k & 1) e |= (uint32_t)((A[l] & mk) == (A[k] & mk)) << k;
    eq[l] = e;
    allp |= (uint32_t)(e == grp[l]) << l;
  });
  if (in->mode == 0)
    LANES(m, D[l] = eq[l]);
  else {
    LANES(m, D[l] = (allp >> l & 1) ? grp[l] : 0);
    if (in->d2 != ~0u) w->p[in->d2] = (w->p[in->d2] & ~m) | (allp & m);
  }
}

enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };
static uint32_t redux_of(const insn *in, const uint64_t *A, uint32_t part) {
  int sgn = in->type == PTX_T_S32, op = in->mode;
  uint32_t acc =
      op == R_AND ? ~0u : (op == R_MIN ? (sgn ? 0x7fffffffu : ~0u) : (op == R_MAX && sgn ? 0x80000000u : 0));
  static const int aop[] = {A_ADD, A_MIN, A_MAX, A_AND, A_OR, A_XOR}; /* by R_* */
  int t = sgn ? PTX_T_S32 : PTX_T_U32;
  LANES(part, acc = (uint32_t)atom_apply(aop[op], t, acc, A[l], 0, 4));
  return acc;
}

static void redux_h(warp *w, const insn *in, uint32_t m) {
  uint32_t grp[32];
  if (warp_meet(w, in, m)) return;
  if (!m || warp_groups(w, in->v[0], m, grp, "redux.sync") < 0) return;
  const uint64_t *A = w->r[in->a];
  uint64_t *D = w->r[in->d];
  /* one result per distinct group (usually one for the warp) */
  for (uint32_t left = m; left;) {
    uint32_t g = grp[__builtin_ctz(left)], acc = redux_of(in, A, g), same = 0;
    for (int k = 0; k < 32; k++)
      if ((left >> k & 1) && grp[k] == g) {
        same |= 1u << k;
        D[k] = acc;
      }
    left &= ~same;
  }
}

static void activemask_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *D = w->r[in->d];
  uint32_t act = w->stack[w->sp - 1].mask;
  LANES(m, D[l] = act);
}

/* elect.sync d|p, membermask: the lowest executing lane is the leader. */
static void elect_h(warp *w, const insn *in, uint32_t m) {
  uint32_t grp[32], leaders = 0;
  if (!m || warp_groups(w, in->v[0], m, grp, "elect.sync") < 0) return;
  uint64_t *D = w->r[in->d];
  LANES(m, {
    uint32_t leader = (uint32_t)__builtin_ctz(grp[l]);
    D[l] = leader;
    leaders |= 1u << leader;
  });
  if (in->d2 != ~0u) w->p[in->d2] = (w->p[in->d2] & ~m) | (leaders & m);
}

int dec_warp(dctx *D, dstmt *S, insn *in) {
  const ptx_stmt *st = S->st;
  int n = st->nops;
  in->d2 = ~0u;
  if (in->op == OP_ACTIVEMASK) {
    if (dec_nops(D, S, 1) < 0 || dec_dst(D, S, 0, &in->d) < 0) return -1;
    in->fn = activemask_h;
    return 0;
  }
  if (!dec_take(S, "sync")) return dec_error(D, S, -1, "only the .sync form of %s is supported", st->opcode);
  if (n < 2) return dec_error(D, S, -1, "too few operands");
  if (dec_src(D, S, n - 1, PTX_T_U32, &in->v[0]) < 0) return -1;
  /* destination, possibly with a |predicate */
  const ptx_operand *o0 = &st->ops[0];
  ptx_operand d0 = *o0;
  d0.pair = NULL;
  switch (in->op) {
  case OP_SHFL: {
    static const char *const modes[] = {"up", "down", "bfly", "idx", NULL};
    int md = dec_take_any(S, modes);
    if (md < 0) return dec_error(D, S, -1, "shfl needs .up, .down, .bfly or .idx");
    in->mode = (uint8_t)md;
    if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 5) < 0) return -1;
    if (dec_dst_opd(D, &d0, &in->d) < 0 || dec_pair(D, S, 0, &in->d2) < 0) return -1;
    if (dec_src(D, S, 1, PTX_T_B32, &in->a) < 0 || dec_src(D, S, 2, PTX_T_U32, &in->b) < 0 ||
        dec_src(D, S, 3, PTX_T_U32, &in->c) < 0)
      return -1;
    in->fn = shfl_h;
    return 0;
  }
  case OP_VOTE: {
    static const char *const modes[] = {"all", "any", "uni", "ballot", NULL};
    int md = dec_take_any(S, modes), neg;
    if (md < 0) return dec_error(D, S, -1, "vote needs .all, .any, .uni or .ballot");
    in->mode = (uint8_t)md;
    if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 3) < 0) return -1;
    if (md == V_BALLOT ? dec_dst(D, S, 0, &in->d) < 0 : dec_pdst(D, S, 0, &in->d) < 0) return -1;
    if (dec_psrc(D, S, 1, &in->a, &neg) < 0) return -1;
    if (neg) in->flags |= IF_NEGC;
    in->fn = vote_h;
    return 0;
  }
  case OP_MATCH: {
    static const char *const modes[] = {"any", "all", NULL};
    int md = dec_take_any(S, modes);
    if (md < 0) return dec_error(D, S, -1, "match needs .any or .all");
    in->mode = (uint8_t)md;
    if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 3) < 0) return -1;
    in->type = (uint8_t)S->types[0];
    if (dec_dst_opd(D, &d0, &in->d) < 0 || dec_src(D, S, 1, S->types[0], &in->a) < 0 ||
        dec_pair(D, S, 0, &in->d2) < 0)
      return -1;
    in->fn = match_h;
    return 0;
  }
  case OP_REDUX: {
    static const char *const modes[] = {"add", "min", "max", "and", "or", "xor", NULL};
    int md = dec_take_any(S, modes);
    if (md < 0) return dec_error(D, S, -1, "redux needs an operation");
    in->mode = (uint8_t)md;
    if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 3) < 0) return -1;
    in->type = (uint8_t)S->types[0];
    if (dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, S->types[0], &in->a) < 0) return -1;
    in->fn = redux_h;
    return 0;
  }
  case OP_ELECT:
    if (dec_nops(D, S, 2) < 0 || dec_dst_opd(D, &d0, &in->d) < 0 || dec_pair(D, S, 0, &in->d2) < 0) return -1;
    in->fn = elect_h;
    return 0;
  default:
    return dec_error(D, S, -1, "unexpected warp instruction");
  }
}
