/* matrix.c: the warp-wide 8x8 matrix moves between shared memory and
 * registers: ldmatrix, stmatrix (.m8n8, .x1/.x2/.x4, .trans, .b16) and
 * movmatrix (.m8n8.trans.b16), with the fragment layout of the PTX ISA.
 *
 * Matrix i of an .xN form has its 8 rows at the addresses that lanes
 * 8i .. 8i+7 give (16 bytes a row, 16-byte aligned); register i of lane l
 * holds row l/4, columns 2(l%4) and 2(l%4)+1 of matrix i (low half first).
 * With .trans lane l holds column l/4, rows 2(l%4) and 2(l%4)+1 instead.
 * The other lanes' addresses are ignored, as the hardware ignores them.
 * The bank model and the race checks see each row as a 16-byte access of
 * the lane that gave its address (hooks.h). */
#include "exec/exec.h"
#include "exec/hooks.h"
#include "ir/decode.h"
#include "smemu.h"

/* insn fields: vec = matrices (1, 2, 4); mode = 1 for .trans;
 * v[0..3] the registers; a + imm the row address; space its state space. */

/* The warp's lanes that still run. ldmatrix and friends are .sync.aligned:
 * every one of them must execute the instruction together. */
static int whole_warp(warp *w, uint32_t m, int need_lanes, const char *what) {
  uint32_t live = w->valid & ~w->exited;
  uint32_t need = need_lanes >= 32 ? FULL_MASK : (1u << need_lanes) - 1;
  if (m != live) {
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "%s is .sync.aligned: all live lanes (0x%08x) must execute it together, "
               "but only lanes 0x%08x do",
               what, live, m);
    return 0;
  }
  if ((m & need) != need) {
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "%s needs lanes 0..%d to give row addresses, but the warp has lanes 0x%08x", what,
               need_lanes - 1, m);
    return 0;
  }
  return 1;
}

/* Row addresses of lanes 0 .. 8n-1, checked: host pointers in rp, the
 * addresses as given in addr (other lanes 0). Returns 0 after a fault. */
static int rows(warp *w, const insn *in, int write, uint64_t addr[32], uint8_t *rp[32]) {
  const uint64_t *A = w->r[in->a];
  int n = 8 * in->vec;
  for (int l = 0; l < 32; l++) addr[l] = 0;
  for (int l = 0; l < n; l++) {
    addr[l] = A[l] + (uint64_t)in->imm;
    if (!(rp[l] = exec_addr(w, l, in->space, addr[l], 16, write))) return 0;
  }
  return 1;
}

/* .sync: the warp's lanes meet here, as at __syncwarp, so the race checks
 * order their earlier accesses before the move (racecheck on an H100
 * reports no intra-warp hazard for it: tests/hw/modern san_racecheck_ldsm0). */
static void warp_sync(warp *w, uint32_t m) { hook_warpsync(w, m); }

static inline uint16_t rd16(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}

static void ldmatrix(warp *w, const insn *in, uint32_t m) {
  uint64_t addr[32];
  uint8_t *rp[32];
  int n = in->vec;
  if (!whole_warp(w, m, 8 * n, "ldmatrix") || !rows(w, in, 0, addr, rp)) return;
  warp_sync(w, m);
  if (w->L->hooks) hook_mem(w, in, (uint32_t)((1ull << (8 * n)) - 1), addr, 16);
  uint32_t out[4][32];
  for (int i = 0; i < n; i++)
    for (int l = 0; l < 32; l++) {
      int g = l >> 2, t = l & 3;
      if (in->mode) /* column g, rows 2t and 2t+1 */
        out[i][l] = rd16(rp[8 * i + 2 * t] + 2 * g) | (uint32_t)rd16(rp[8 * i + 2 * t + 1] + 2 * g) << 16;
      else
        memcpy(&out[i][l], rp[8 * i + g] + 4 * t, 4);
    }
  /* written after every read: a destination may also be the address register */
  for (int i = 0; i < n; i++)
    if (in->v[i] != SLOT_SINK) LANES(m, { w->r[in->v[i]][l] = out[i][l]; });
}

static void stmatrix(warp *w, const insn *in, uint32_t m) {
  uint64_t addr[32];
  uint8_t *rp[32];
  int n = in->vec;
  if (!whole_warp(w, m, 8 * n, "stmatrix") || !rows(w, in, 1, addr, rp)) return;
  warp_sync(w, m);
  if (w->L->hooks) hook_mem(w, in, (uint32_t)((1ull << (8 * n)) - 1), addr, 16);
  /* Where rows overlap, the H100 keeps the lowest row of a matrix and the
   * last matrix (tests/hw/modern, stsm_*_same): matrices in order, the
   * rows of each from the last to the first. */
  for (int i = 0; i < n; i++) {
    const uint64_t *V = w->r[in->v[i]];
    for (int l = 31; l >= 0; l--) {
      int g = l >> 2, t = l & 3;
      uint32_t v = (uint32_t)V[l];
      uint16_t lo = (uint16_t)v, hi = (uint16_t)(v >> 16);
      if (in->mode) {
        memcpy(rp[8 * i + 2 * t + 1] + 2 * g, &hi, 2);
        memcpy(rp[8 * i + 2 * t] + 2 * g, &lo, 2);
      } else {
        memcpy(rp[8 * i + g] + 4 * t, &v, 4);
      }
    }
  }
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the 8x8 matrix the warp holds
 * in a (lane l: row l/4, columns 2(l%4), 2(l%4)+1) transposed into d. */
static void movmatrix(warp *w, const insn *in, uint32_t m) {
  if (!whole_warp(w, m, 32, "movmatrix")) return;
  const uint64_t *A = w->r[in->a];
  uint32_t out[32];
  for (int l = 0; l < 32; l++) {
    int g = l >> 2, t = l & 3;
    uint32_t h[2];
    for (int j = 0; j < 2; j++) {
      int r = 2 * t + j, c = g; /* element (r, c) of the source */
      h[j] = (uint32_t)(A[r * 4 + c / 2] >> (16 * (c & 1))) & 0xffff;
    }
    out[l] = h[0] | h[1] << 16;
  }
  LANES(m, { w->r[in->d][l] = out[l]; });
}

int dec_matrix(dctx *D, dstmt *S, insn *in) {
  const char *name = S->st->opcode;
  if (!dec_take(S, "sync") || !dec_take(S, "aligned"))
    return dec_error(D, S, -1, "%s must be .sync.aligned", name);
  if (!dec_take(S, "m8n8")) {
    if (dec_take(S, "m16n16") || dec_take(S, "m8n16") || dec_take(S, "m16n8"))
      return dec_error(
          D, S, -1,
          "%s: the 8-bit shapes (.m16n16, .m8n16, .m16n8) are sm_100a features smemu does not run yet", name);
    return dec_error(D, S, -1, "%s needs the shape .m8n8", name);
  }
  if (S->ntypes != 1 || S->types[0] != PTX_T_B16)
    return dec_error(D, S, -1, "%s.m8n8 moves .b16 elements", name);
  if (in->op == OP_MOVMATRIX) {
    if (!dec_take(S, "trans")) return dec_error(D, S, -1, "movmatrix needs .trans");
    if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_B32, &in->a) < 0)
      return -1;
    in->fn = movmatrix;
    return 0;
  }
  int st = in->op == OP_STMATRIX;
  in->vec = dec_take(S, "x1") ? 1 : dec_take(S, "x2") ? 2 : dec_take(S, "x4") ? 4 : 0;
  if (!in->vec) return dec_error(D, S, -1, "%s needs .x1, .x2 or .x4", name);
  in->mode = (uint8_t)dec_take(S, "trans");
  int space = PTX_SPACE_GENERIC;
  if (dec_take(S, "shared") || dec_take(S, "shared::cta")) space = PTX_SPACE_SHARED;
  if (dec_nops(D, S, 2) < 0) return -1;
  if (dec_addr(D, S, st ? 0 : 1, &in->a, &in->imm, &space, &in->flags) < 0) return -1;
  if (in->flags & IF_FRAME) return dec_error(D, S, st ? 0 : 1, "%s takes a shared-memory address", name);
  in->space = (uint8_t)space;
  const ptx_operand *v = &S->st->ops[st ? 1 : 0];
  if (v->kind != PTX_OPD_VEC || v->nelems != in->vec)
    return dec_error(D, S, st ? 1 : 0, "%s.x%d takes a vector of %d registers", name, in->vec, in->vec);
  for (int k = 0; k < in->vec; k++) {
    int r = st ? dec_src_opd(D, &v->elems[k], PTX_T_B32, &in->v[k]) : dec_dst_opd(D, &v->elems[k], &in->v[k]);
    if (r) return r < 0 ? -1 : dec_error(D, S, st ? 1 : 0, "bad register in the vector");
  }
  in->type = PTX_T_B16;
  in->fn = st ? stmatrix : ldmatrix;
  return 0;
}
