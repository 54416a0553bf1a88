/* atom.c: atom and red on shared, global and generic memory: add (integer,
 * f32, f64, f16, bf16, f16x2, bf16x2), min, max, inc, dec, cas, exch, and, or, xor. Lanes
 * are served in lane order; host atomics make global ones safe across the
 * worker threads that run other blocks at the same time. */
#include "exec/atom.h"
#include "exec/addr.h"
#include "exec/b128.h"
#include "exec/contend.h"
#include "exec/exec.h"
#include "exec/hooks.h"
#include "exec/memfast.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include "smemu.h"
#include <string.h>

_Static_assert(A_CAS == ATOM_MODE_CAS, "hooks.h names atom.cas's mode");
_Static_assert(A_MIN == ATOM_MODE_MIN && A_MAX == ATOM_MODE_MAX, "hooks.h names min and max");
static const char *const aops[] = {"add",  "min", "max", "inc", "dec", "cas",
                                   "exch", "and", "or",  "xor", NULL};

uint64_t atom_apply(int op, int t, uint64_t o, uint64_t b, uint64_t c, int bytes) {
  uint64_t mk = mask_bits(bytes);
  int sh = 64 - 8 * bytes;
  switch (op) {
  case A_ADD:
    if (t == PTX_T_F32) return fp_bits32(fp_from_bits32((uint32_t)o) + fp_from_bits32((uint32_t)b));
    if (t == PTX_T_F64) return fp_bits64(fp_from_bits64(o) + fp_from_bits64(b));
    if (t == PTX_T_F16) return fp_add16((uint16_t)o, (uint16_t)b, FP_RN);
    if (t == PTX_T_BF16) return fp_addbf16((uint16_t)o, (uint16_t)b, FP_RN);
    if (t == PTX_T_F16X2)
      return (uint64_t)fp_add16((uint16_t)o, (uint16_t)b, FP_RN) |
             (uint64_t)fp_add16((uint16_t)(o >> 16), (uint16_t)(b >> 16), FP_RN) << 16;
    if (t == PTX_T_BF16X2) /* atomicAdd(__nv_bfloat162 *): each half on its own */
      return (uint64_t)fp_addbf16((uint16_t)o, (uint16_t)b, FP_RN) |
             (uint64_t)fp_addbf16((uint16_t)(o >> 16), (uint16_t)(b >> 16), FP_RN) << 16;
    return (o + b) & mk;
  case A_MIN:
  case A_MAX: {
    int lt;
    if (t == PTX_T_S32 || t == PTX_T_S64)
      lt = (int64_t)(o << sh) < (int64_t)(b << sh);
    else if (t == PTX_T_F32) {
      float x = fp_from_bits32((uint32_t)o), y = fp_from_bits32((uint32_t)b);
      return fp_bits32(op == A_MIN ? fp_min32(x, y) : fp_max32(x, y));
    } else if (t == PTX_T_F64) {
      double x = fp_from_bits64(o), y = fp_from_bits64(b);
      return fp_bits64(op == A_MIN ? fp_min64(x, y) : fp_max64(x, y));
    } else
      lt = (o & mk) < (b & mk);
    return (op == A_MIN) == lt ? o : b;
  }
  case A_INC:
    return (o & mk) >= (b & mk) ? 0 : (o + 1) & mk;
  case A_DEC:
    return ((o & mk) == 0 || (o & mk) > (b & mk)) ? b & mk : (o - 1) & mk;
  case A_CAS:
    return (o & mk) == (b & mk) ? c & mk : o;
  case A_EXCH:
    return b & mk;
  case A_AND:
    return o & b & mk;
  case A_OR:
    return (o | b) & mk;
  default:
    return (o ^ b) & mk;
  }
}

/* Atomically replace *p (bytes wide) by apply(old); returns old. */
static uint64_t rmw(uint8_t *p, int bytes, int op, int t, uint64_t b, uint64_t c) {
  switch (bytes) {
  case 2: {
    /* 16-bit: CAS on the enclosing aligned 32-bit word */
    uint32_t *wp = (uint32_t *)(uintptr_t)((uintptr_t)p & ~(uintptr_t)3);
    int shift = (int)(((uintptr_t)p & 2) * 8);
    uint32_t old = __atomic_load_n(wp, __ATOMIC_RELAXED), nw;
    do {
      uint16_t o = (uint16_t)(old >> shift);
      uint16_t n = (uint16_t)atom_apply(op, t, o, b, c, 2);
      nw = (old & ~(0xffffu << shift)) | ((uint32_t)n << shift);
    } while (!__atomic_compare_exchange_n(wp, &old, nw, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return (uint16_t)(old >> shift);
  }
  case 4: {
    uint32_t *q = (uint32_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, (uint32_t)atom_apply(op, t, old, b, c, 4), 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return old;
  }
  default: {
    uint64_t *q = (uint64_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(q, &old, atom_apply(op, t, old, b, c, 8), 0, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED)) {
    }
    return old;
  }
  }
}

/* Replace *p (bytes wide) by apply(old) with plain loads and stores;
 * returns old. For memory no other worker thread reaches: a block's shared
 * memory (the blocks of a cluster run on one worker) and its threads'
 * local memory, where rmw's host atomics would only cost time. */
static uint64_t rmw_own(uint8_t *p, int bytes, int op, int t, uint64_t b, uint64_t c) {
  /* the width's own loads and stores (load_bytes, and a store of the same
   * size): a wider load of what a narrower store just wrote would wait for
   * the store to retire */
  uint64_t o = load_bytes(p, bytes, 0), n = atom_apply(op, t, o, b, c, bytes);
  if (bytes == 2) {
    uint16_t v = (uint16_t)n;
    memcpy(p, &v, 2);
  } else if (bytes == 4) {
    uint32_t v = (uint32_t)n;
    memcpy(p, &v, 4);
  } else {
    memcpy(p, &n, 8);
  }
  return o;
}

/* rmw_own of a 32-bit integer add (histograms' atomicAdd) */
static inline uint32_t add_own32(uint8_t *p, uint64_t b) {
  uint32_t o, n;
  memcpy(&o, p, 4);
  n = o + (uint32_t)b;
  memcpy(p, &n, 4);
  return o;
}

/* Is lane address a (in space sp) in memory only this worker reaches? */
static int own_memory(int sp, uint64_t a) {
  if (sp == PTX_SPACE_SHARED || sp == PTX_SPACE_SHARED_CLUSTER || sp == PTX_SPACE_LOCAL) return 1;
  return sp == PTX_SPACE_GENERIC && (a - SHARED_WINDOW < WINDOW_SIZE || a - LOCAL_WINDOW < WINDOW_SIZE);
}

static void atom_h(warp *w, const insn *in, uint32_t m) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  int bytes = in->vec, op = in->mode, t = in->type, sgn = in->flags & IF_SIGNED;
  int add32 = op == A_ADD && bytes == 4 && (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32);
  uint64_t addr[32];
  uint8_t *ptr[32];
  uint32_t bad = 0, own = 0;
  LANES(m, {
    addr[l] = A[l] + (uint64_t)in->imm + ((in->flags & IF_FRAME) ? w->local_base : 0);
    ptr[l] = in->space == PTX_SPACE_SHARED ? shared_at(w, addr[l], (uint32_t)bytes) : NULL;
    if (!ptr[l] && !(ptr[l] = exec_addr(w, l, in->space, addr[l], (uint32_t)bytes, 1))) {
      if (!w->L->fault_all) return;
      bad |= 1u << l; /* memcheck: that lane has ended, the others go on */
    }
    own |= (uint32_t)own_memory(in->space, addr[l]) << l;
  });
  if (bad && !(m &= ~bad)) return;
  if (w->L->prog->reread && w->L->prog->reread[w->pc] && w->blk->nwarps > 1 && contend_defer(w, in, m, addr))
    return;
  if (w->L->hooks) hook_atom(w, in, m, addr, (uint32_t)bytes);
  uint64_t *D = w->r[in->d];
  uint32_t swapped = 0;
  if (w->blk->nwarps > 1) contend_atom(w, in, m, addr);
  LANES(m, {
    uint64_t old = !(own >> l & 1) ? rmw(ptr[l], bytes, op, t, B[l], C[l])
                   : add32         ? add_own32(ptr[l], B[l])
                                   : rmw_own(ptr[l], bytes, op, t, B[l], C[l]);
    if (sgn && bytes < 8) old = (uint64_t)((int64_t)(old << (64 - 8 * bytes)) >> (64 - 8 * bytes));
    if (in->d != SLOT_SINK) D[l] = bytes == 8 ? old : old & mask_bits(bytes);
    if (op == A_CAS && (old & mask_bits(bytes)) == (B[l] & mask_bits(bytes))) swapped |= 1u << l;
  });
  if (op == A_CAS && w->blk->nwarps > 1) contend_cas_done(w, in, m, addr, swapped);
  /* cooperative groups' multi-warp barriers in the reserved shared memory */
  if (op == A_AND && bytes == 4 && w->L->prog->smem_lo < w->L->prog->smem_reserved)
    hook_rsv_release(w, in, m, addr, w->r[in->b]);
}

/* A vector atom/red (sm_90's .v2/.v4/.v8 on .global floats and halves):
 * one atomic per element, as the PTX ISA defines them; insn.c elements of
 * insn.vec bytes from the address;
 * program.xslots at insn.target holds the c destination slots (SLOT_SINK
 * for red) then the c source slots. Each lane reads all its sources before
 * it writes a destination (a register may be both). */
static void atom_vec_h(warp *w, const insn *in, uint32_t m) {
  const uint32_t *x = w->L->prog->xslots + in->target;
  const uint64_t *A = w->r[in->a];
  int n = (int)in->c, bytes = in->vec, op = in->mode;
  uint64_t addr[32];
  uint32_t bad = 0;
  LANES(m, {
    addr[l] = A[l] + (uint64_t)in->imm;
    if (!exec_addr(w, l, in->space, addr[l], (uint32_t)(bytes * n), 1)) {
      if (!w->L->fault_all) return;
      bad |= 1u << l;
    }
  });
  if (bad && !(m &= ~bad)) return;
  if (w->L->hooks) hook_atom(w, in, m, addr, (uint32_t)(bytes * n));
  LANES(m, {
    uint64_t src[8], old[8];
    uint8_t *p = exec_addr(w, l, in->space, addr[l], (uint32_t)(bytes * n), 1);
    for (int k = 0; k < n; k++) src[k] = w->r[x[n + k]][l];
    for (int k = 0; k < n; k++) old[k] = rmw(p + k * bytes, bytes, op, in->type, src[k], 0);
    for (int k = 0; k < n; k++)
      if (x[k] != SLOT_SINK) w->r[x[k]][l] = old[k] & mask_bits(bytes);
  });
}

static int dec_atom_vec(dctx *D, dstmt *S, insn *in, int red, int space, int op, int n) {
  if (op != A_ADD && op != A_MIN && op != A_MAX)
    return dec_error(D, S, -1, "vector atomics are .add, .min or .max");
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int t = S->types[0], bytes = ptx_type_size(t), first = red ? 0 : 1;
  if (t != PTX_T_F32 && t != PTX_T_F16 && t != PTX_T_BF16 && t != PTX_T_F16X2 && t != PTX_T_BF16X2)
    return dec_error(D, S, -1, "vector atomics take .f32, .f16, .bf16, .f16x2 or .bf16x2");
  if (dec_nops(D, S, first + 2) < 0) return -1;
  const ptx_operand *src = &S->st->ops[first + 1], *dst = red ? NULL : &S->st->ops[0];
  if (src->kind != PTX_OPD_VEC || src->nelems != n || (dst && (dst->kind != PTX_OPD_VEC || dst->nelems != n)))
    return dec_error(D, S, -1, "%s.v%d takes vectors of %d registers", S->st->opcode, n, n);
  uint32_t slots[16];
  for (int k = 0; k < n; k++) {
    slots[k] = SLOT_SINK;
    if (dst && dec_dst_opd(D, &dst->elems[k], &slots[k])) return dec_error(D, S, 0, "bad vector element");
    if (dec_src_opd(D, &src->elems[k], t, &slots[n + k]))
      return dec_error(D, S, first + 1, "bad vector element");
  }
  int64_t x;
  if (dec_xslots(D, slots, (uint32_t)(2 * n), &x) < 0) return -1;
  if (dec_addr(D, S, first, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  if (space != PTX_SPACE_GLOBAL || (in->flags & IF_FRAME))
    return dec_error(D, S, first, "vector atomics work on .global memory");
  in->space = (uint8_t)space;
  in->target = (uint32_t)x;
  in->c = (uint32_t)n;
  in->vec = (uint8_t)bytes;
  in->mode = (uint8_t)op;
  in->type = (uint8_t)t;
  in->d = SLOT_SINK;
  in->b = SLOT_SINK;
  in->fn = atom_vec_h;
  return 0;
}

int dec_cache_hint(dctx *D, dstmt *S, ptx_stmt *copy); /* sm90ctl.c */

/* atom, and red but red.async (async/stasync.c; dec_red, exec/dispatch.c) */
int dec_atom(dctx *D, dstmt *S, insn *in) {
  ptx_stmt nohint;
  if (dec_cache_hint(D, S, &nohint) < 0) return -1;
  int red = in->op == OP_RED;
  int sp = dec_space(S);
  dec_take(S, "noftz");
  dec_take(S, "ftz");
  int op = dec_take_any(S, aops);
  if (op < 0) return dec_error(D, S, -1, "%s needs an operation (.add, .cas, ...)", S->st->opcode);
  int n = dec_vec(S);
  if (n != 1) return dec_atom_vec(D, S, in, red, sp, op, n);
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int t = S->types[0], bytes = ptx_type_size(t);
  if (t == PTX_T_B128) return dec_atom_b128(D, S, in, red, sp, op); /* b128.c */
  if (bytes != 2 && bytes != 4 && bytes != 8)
    return dec_error(D, S, -1, "%s does not take .%s", S->st->opcode, ptx_type_name(t));
  int nsrc = op == A_CAS ? 2 : 1, first = red ? 0 : 1;
  if (dec_nops(D, S, first + 1 + nsrc) < 0) return -1;
  in->type = (uint8_t)t;
  in->mode = (uint8_t)op;
  in->vec = (uint8_t)bytes;
  if (t == PTX_T_S32 || t == PTX_T_S64) in->flags |= IF_SIGNED;
  in->d = SLOT_SINK;
  if (!red && dec_dst(D, S, 0, &in->d) < 0) return -1;
  int space = sp;
  if (dec_addr(D, S, first, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  if (space == PTX_SPACE_CONST || space == PTX_SPACE_PARAM)
    return dec_error(D, S, -1, "atomics need .global, .shared or generic memory");
  in->space = (uint8_t)space;
  if (dec_src(D, S, first + 1, t, &in->b) < 0) return -1;
  in->c = in->b;
  if (op == A_CAS && dec_src(D, S, first + 2, t, &in->c) < 0) return -1;
  in->fn = atom_h;
  return 0;
}
