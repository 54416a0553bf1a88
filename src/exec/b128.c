/* b128.c: 128-bit registers (.reg .b128, PTX 8.3+): a .b128 register is two
 * consecutive 64-bit register slots (the low half first; decode.c declares
 * them), so that
 *   ld/st/ldu .b128 are the 16-byte vector access of two .b64 halves
 *     (mem.c turns them into that form: b128_halves),
 *   mov.b128 d, {a, b} (two .b64 or four .b32 pieces), mov.b128 {a, b}, d,
 *     mov.b128 d, s and mov.b128 d, constant move pieces here (mov128),
 *   atom{.space}.cas.b128 / atom{.space}.exch.b128 (sm_90) replace 16
 *     bytes atomically here (dec_atom_b128).
 * 128-bit atomics serialize on one lock: they are atomic against each
 * other, not against narrower atomics on the same bytes from other worker
 * threads at the same time. */
#include "exec/b128.h"
#include "exec/atom.h"
#include "exec/exec.h"
#include "exec/hooks.h"
#include "ir/decode.h"
#include "smemu.h"
#include <pthread.h>

int b128_halves(dctx *D, const ptx_operand *o, int dst, uint32_t h[2]) {
  if (o->kind != PTX_OPD_REG) return 1;
  int r = dst ? dec_dst_opd(D, o, &h[0]) : dec_src_opd(D, o, PTX_T_B128, &h[0]);
  if (r) return r;
  if (!dec_is_b128(D, o->name)) return 1;
  h[1] = h[0] + 1;
  return 0;
}

/* mov pieces: program.xslots at insn.target holds insn.c destination slots
 * of insn.mode bits each, then insn.vec source slots of insn.type2 bits
 * (pieces of 32 or 64 bits, low first). */
static void mov128(warp *w, const insn *in, uint32_t m) {
  const uint32_t *x = w->L->prog->xslots + in->target;
  int nd = (int)in->c, ns = in->vec, db = in->mode, sb = in->type2;
  LANES(m, {
    uint64_t v[2] = {0, 0};
    for (int k = 0; k < ns; k++) {
      uint64_t p = w->r[x[nd + k]][l];
      if (sb == 32)
        v[k / 2] |= (p & 0xffffffffu) << (32 * (k % 2));
      else
        v[k] = p;
    }
    for (int k = 0; k < nd; k++) {
      if (x[k] == SLOT_SINK) continue;
      w->r[x[k]][l] = db == 32 ? (v[k / 2] >> (32 * (k % 2))) & 0xffffffffu : v[k];
    }
  });
}

/* One side of a mov.b128: a .b128 register (two 64-bit pieces) or a vector
 * of two .b64 / four .b32 registers. */
static int mov_side(dctx *D, dstmt *S, int i, int dst, uint32_t *slots, int *n, int *bits) {
  const ptx_operand *o = &S->st->ops[i];
  if (o->kind == PTX_OPD_VEC) {
    if (o->nelems != 2 && o->nelems != 4)
      return dec_error(D, S, i, "mov.b128 takes a vector of two .b64 or four .b32 registers");
    *bits = o->nelems == 2 ? 64 : 32;
    for (int k = 0; k < o->nelems; k++) {
      int r = dst ? dec_dst_opd(D, &o->elems[k], &slots[k])
                  : dec_src_opd(D, &o->elems[k], *bits == 64 ? PTX_T_B64 : PTX_T_B32, &slots[k]);
      if (r) return r < 0 ? -1 : dec_error(D, S, i, "bad vector element");
    }
    *n = o->nelems;
    return 0;
  }
  if (!dst && o->kind == PTX_OPD_INT) {
    /* an integer constant: sign-extended to 128 bits */
    ptx_operand hi = *o;
    hi.ival = o->ival < 0 ? -1 : 0;
    if (dec_src_opd(D, o, PTX_T_B64, &slots[0]) || dec_src_opd(D, &hi, PTX_T_B64, &slots[1]))
      return dec_error(D, S, i, "bad constant");
    *n = 2;
    *bits = 64;
    return 0;
  }
  int r = b128_halves(D, o, dst, slots);
  if (r) return r < 0 ? -1 : dec_error(D, S, i, "mov.b128 needs a .b128 register or a vector here");
  *n = 2;
  *bits = 64;
  return 0;
}

int dec_mov_b128(dctx *D, dstmt *S, insn *in) {
  uint32_t slots[8];
  int nd, ns, db, sb;
  if (mov_side(D, S, 0, 1, slots, &nd, &db) < 0 || mov_side(D, S, 1, 0, slots + nd, &ns, &sb) < 0) return -1;
  if (S->st->ops[0].kind == PTX_OPD_VEC && S->st->ops[1].kind == PTX_OPD_VEC)
    return dec_error(D, S, -1, "mov.b128 moves to or from a .b128 register");
  int64_t x;
  if (dec_xslots(D, slots, (uint32_t)(nd + ns), &x) < 0) return -1;
  in->target = (uint32_t)x;
  in->c = (uint32_t)nd;
  in->vec = (uint8_t)ns;
  in->mode = (uint8_t)db;
  in->type2 = (uint8_t)sb;
  in->d = SLOT_SINK;
  in->fn = mov128;
  return 0;
}

static pthread_mutex_t lock128 = PTHREAD_MUTEX_INITIALIZER;

/* atom.cas.b128 / atom.exch.b128: program.xslots at insn.target holds the
 * destination halves, then b's, then (cas) c's. */
static void atom128(warp *w, const insn *in, uint32_t m) {
  const uint32_t *x = w->L->prog->xslots + in->target;
  const uint64_t *A = w->r[in->a];
  int cas = in->mode == A_CAS;
  uint64_t addr[32];
  uint32_t bad = 0;
  LANES(m, {
    addr[l] = A[l] + (uint64_t)in->imm;
    if (!exec_addr(w, l, in->space, addr[l], 16, 1)) {
      if (!w->L->fault_all) return;
      bad |= 1u << l;
    }
  });
  if (bad && !(m &= ~bad)) return;
  if (w->L->hooks) hook_atom(w, in, m, addr, 16);
  LANES(m, {
    uint8_t *p = exec_addr(w, l, in->space, addr[l], 16, 1);
    uint64_t old[2], b[2] = {w->r[x[2]][l], w->r[x[3]][l]};
    uint64_t c[2] = {cas ? w->r[x[4]][l] : 0, cas ? w->r[x[5]][l] : 0};
    pthread_mutex_lock(&lock128);
    memcpy(old, p, 16);
    if (!cas)
      memcpy(p, b, 16);
    else if (old[0] == b[0] && old[1] == b[1])
      memcpy(p, c, 16);
    pthread_mutex_unlock(&lock128);
    for (int k = 0; k < 2; k++)
      if (x[k] != SLOT_SINK) w->r[x[k]][l] = old[k];
  });
}

int dec_atom_b128(dctx *D, dstmt *S, insn *in, int red, int space, int op) {
  if (red || (op != A_CAS && op != A_EXCH))
    return dec_error(D, S, -1, ".b128 atomics are atom.cas and atom.exch");
  int n = op == A_CAS ? 4 : 3;
  if (dec_nops(D, S, n) < 0) return -1;
  uint32_t slots[6];
  for (int i = 0; i < n; i++) {
    if (i == 1) continue;
    int r = b128_halves(D, &S->st->ops[i], i == 0, slots + 2 * (i ? i - 1 : 0));
    if (r) return r < 0 ? -1 : dec_error(D, S, i, "atom .b128 operands are .b128 registers");
  }
  int64_t x;
  if (dec_xslots(D, slots, (uint32_t)(2 * (n - 1)), &x) < 0) return -1;
  if (dec_addr(D, S, 1, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  if ((space != PTX_SPACE_GLOBAL && space != PTX_SPACE_SHARED && space != PTX_SPACE_GENERIC) ||
      (in->flags & IF_FRAME))
    return dec_error(D, S, 1, "atom .b128 works on .global, .shared or generic memory");
  in->space = (uint8_t)space;
  in->target = (uint32_t)x;
  in->mode = (uint8_t)op;
  in->type = PTX_T_B128;
  in->vec = 16;
  in->d = SLOT_SINK;
  in->b = SLOT_SINK;
  in->fn = atom128;
  return 0;
}
