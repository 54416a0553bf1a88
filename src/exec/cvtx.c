/* cvtx.c: the cvt forms of the tensor-core era that the plain float <-> int
 * table of mov.c does not hold: f32 to tf32 (.rn/.rz/.rna, .relu,
 * .satfinite), the packed f32 pairs to .f16x2/.bf16x2 and a single f32 to
 * .f16/.bf16 with .relu and .satfinite, and bf16 to f32 with a rounding
 * modifier. dec_cvt (mov.c) asks dec_cvt_ext first. */
#include "exec/exec.h"
#include "ir/decode.h"
#include "model/fpsem.h"
#include <string.h>

int dec_cvt_ext(dctx *D, dstmt *S, insn *in, int *rc);

enum { X_RELU = 1, X_SATF = 2 };

/* f32 -> tf32: an f32 bit pattern whose low 13 mantissa bits are zero,
 * rounded on the magnitude bits (a carry walks into the exponent, up to
 * infinity); .relu makes negatives +0. As an H200 gives them
 * (tests/hw/ptx_forms): .rn/.rz turn every NaN into 0x7fffe000; .rna
 * truncates a NaN's bits (0x7f800001 becomes infinity), and .satfinite
 * then takes one tf32 step off any result with the exponent all ones
 * (infinity gives the largest finite value, a NaN a smaller NaN). */
static uint32_t to_tf32(uint32_t u, int rm, int x) {
  uint32_t drop = u & 0x1fffu, r = u & ~0x1fffu;
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    if (rm != -2) return 0x7fffe000u;
  } else {
    if ((x & X_RELU) && (u & 0x80000000u)) return 0;
    if (rm == FP_RN) {
      if (drop > 0x1000u || (drop == 0x1000u && (r & 0x2000u))) r += 0x2000u;
    } else if (rm == -2 /* rna */) {
      if (drop >= 0x1000u && (r & 0x7fffffffu) != 0x7f800000u) r += 0x2000u;
    }
  }
  if ((x & X_SATF) && (r & 0x7f800000u) == 0x7f800000u) r -= 0x2000u;
  return r;
}

static void cvt_tf32_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a];
  int rm = in->mode == 0xff ? -2 : in->mode, x = in->vec;
  LANES(m, Dd[l] = to_tf32((uint32_t)A[l], rm, x));
}

/* One half of a packed conversion: round, then .satfinite clamps an
 * infinite or overflowed result to the largest finite value of its sign,
 * and .relu makes negatives +0 (NaN stays NaN). */
static uint16_t pack_half(float v, int bf, int rm, int x) {
  uint16_t h = bf ? fp_f32_to_bf16(v, rm) : fp_f32_to_f16(v, rm);
  uint16_t inf = bf ? 0x7f80 : 0x7c00, mx = bf ? 0x7f7f : 0x7bff;
  int nan = (h & 0x7fff) > inf;
  if ((x & X_SATF) && (h & 0x7fff) == inf) h = (uint16_t)((h & 0x8000) | mx);
  if ((x & X_RELU) && !nan && (h & 0x8000)) h = 0;
  return h;
}

/* cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a goes to the
 * upper half, b to the lower. */
static void cvt_pack2x_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  int bf = in->type == PTX_T_BF16X2, rm = in->mode, x = in->vec;
  LANES(m, {
    uint32_t hi = pack_half(fp_from_bits32((uint32_t)A[l]), bf, rm, x);
    uint32_t lo = pack_half(fp_from_bits32((uint32_t)B[l]), bf, rm, x);
    Dd[l] = hi << 16 | lo;
  });
}

/* cvt.frnd{.relu}{.satfinite}.{f16,bf16}.f32 d, a: one half, as a pair's. */
static void cvt_half_x_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a];
  int bf = in->type == PTX_T_BF16, rm = in->mode, x = in->vec;
  LANES(m, Dd[l] = pack_half(fp_from_bits32((uint32_t)A[l]), bf, rm, x));
}

/* cvt.frnd.f32.bf16 d, a: every bf16 is exact in f32 and the GPU moves the
 * bits up unchanged, NaN payloads too (an H200, tests/hw/ptx_forms). */
static void cvt_bf16_f32_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a];
  LANES(m, Dd[l] = (uint32_t)(A[l] & 0xffff) << 16);
}

static int has_mod(const dstmt *S, const char *m) {
  for (int i = 0; i < S->st->nmods; i++)
    if (!strcmp(S->st->mods[i], m)) return 1;
  return 0;
}

/* cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c: a and b saturated
 * to insn.mode bits (IF_SIGNED: signed), packed below c: d = c << 2n |
 * a' << n | b'. cvt.pack.sat.{u16,s16}.s32 d, a, b has no c: at n = 16 it
 * is shifted out (the decoder names a for it). */
static void cvt_pack_sat_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *D = w->r[in->d];
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  int n = in->mode, sg = (in->flags & IF_SIGNED) != 0;
  int64_t lo = sg ? -(1ll << (n - 1)) : 0, hi = sg ? (1ll << (n - 1)) - 1 : (1ll << n) - 1;
  uint32_t mask = (1u << n) - 1;
  LANES(m, {
    int64_t a = (int32_t)A[l], b = (int32_t)B[l];
    a = a < lo ? lo : a > hi ? hi : a;
    b = b < lo ? lo : b > hi ? hi : b;
    D[l] = (uint32_t)(((uint64_t)(uint32_t)C[l] << (2 * n)) | (((uint32_t)a & mask) << n) |
                      ((uint32_t)b & mask));
  });
}

static int dec_cvt_pack(dctx *D, dstmt *S, insn *in) {
  dec_take(S, "pack");
  if (!dec_take(S, "sat")) return dec_error(D, S, -1, "cvt.pack needs .sat");
  if (S->ntypes == 2 && (S->types[0] == PTX_T_U16 || S->types[0] == PTX_T_S16)) {
    if (S->types[1] != PTX_T_S32) return dec_error(D, S, -1, "cvt.pack.sat to .u16/.s16 converts .s32 pairs");
    if (dec_nops(D, S, 3) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_S32, &in->a) < 0 ||
        dec_src(D, S, 2, PTX_T_S32, &in->b) < 0)
      return -1;
    in->c = in->a;
    in->type = PTX_T_B32;
    in->mode = 16;
    if (S->types[0] == PTX_T_S16) in->flags |= IF_SIGNED;
    in->fn = cvt_pack_sat_h;
    return 0;
  }
  static const char *const narrow[] = {"u4", "s4", "u2", "s2", NULL};
  int k = dec_take_any(S, narrow), t0 = S->ntypes == 3 ? S->types[0] : -1;
  int n = k >= 0 ? (k < 2 ? 4 : 2) : 8, sg = k >= 0 ? k & 1 : t0 == PTX_T_S8;
  int rest = k >= 0 ? 0 : 1;
  if ((k < 0 && t0 != PTX_T_U8 && t0 != PTX_T_S8) || S->ntypes != rest + 2 || S->types[rest] != PTX_T_S32 ||
      S->types[rest + 1] != PTX_T_B32)
    return dec_error(
        D, S, -1, "cvt.pack.sat converts .s32 pairs to .u16/.s16, or to .u8/.s8/.u4/.s4/.u2/.s2 over a .b32");
  if (dec_nops(D, S, 4) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_S32, &in->a) < 0 ||
      dec_src(D, S, 2, PTX_T_S32, &in->b) < 0 || dec_src(D, S, 3, PTX_T_B32, &in->c) < 0)
    return -1;
  in->type = PTX_T_B32;
  in->mode = (uint8_t)n;
  if (sg) in->flags |= IF_SIGNED;
  in->fn = cvt_pack_sat_h;
  return 0;
}

/* 1 when the cvt is one of this file's forms (decoded, or an error
 * reported: *rc), 0 to leave it to the general decoder. */
int dec_cvt_ext(dctx *D, dstmt *S, insn *in, int *rc) {
  if (has_mod(S, "pack")) {
    *rc = dec_cvt_pack(D, S, in);
    return 1;
  }
  int tf32 = has_mod(S, "tf32");
  int x2 = S->ntypes == 2 && (S->types[0] == PTX_T_F16X2 || S->types[0] == PTX_T_BF16X2);
  int x1 =
      S->ntypes == 2 && (S->types[0] == PTX_T_F16 || S->types[0] == PTX_T_BF16) && S->types[1] == PTX_T_F32;
  int packed = (x1 || x2) && (has_mod(S, "relu") || has_mod(S, "satfinite"));
  int bfup = S->ntypes == 2 && S->types[0] == PTX_T_F32 && S->types[1] == PTX_T_BF16 && !has_mod(S, "ftz") &&
             (has_mod(S, "rn") || has_mod(S, "rz") || has_mod(S, "rm") || has_mod(S, "rp"));
  if (bfup) {
    *rc = -1;
    dec_round(S, 0);
    if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_BF16, &in->a) < 0)
      return 1;
    in->type = PTX_T_F32;
    in->fn = cvt_bf16_f32_h;
    *rc = 0;
    return 1;
  }
  if (!tf32 && !packed) return 0;
  *rc = -1;
  int x = (dec_take(S, "relu") ? X_RELU : 0) | (dec_take(S, "satfinite") ? X_SATF : 0);
  int rna = dec_take(S, "rna"), rm = dec_round(S, 0);
  in->vec = (uint8_t)x;
  if (tf32) {
    dec_take(S, "tf32");
    if (S->ntypes != 1 || S->types[0] != PTX_T_F32)
      return dec_error(D, S, -1, "cvt to .tf32 converts from .f32"), 1;
    if (rna) {
      if (x & X_RELU) return dec_error(D, S, -1, "cvt.rna.tf32.f32 takes no .relu"), 1;
      in->mode = 0xff;
    } else if (rm == FP_RN || rm == FP_RZ) {
      in->mode = (uint8_t)rm;
    } else {
      return dec_error(D, S, -1, "cvt to .tf32 needs .rn, .rz or .rna"), 1;
    }
    if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_B32, &in->a) < 0)
      return 1;
    in->type = PTX_T_B32;
    in->fn = cvt_tf32_h;
    *rc = 0;
    return 1;
  }
  if (S->types[1] != PTX_T_F32) return dec_error(D, S, -1, "cvt to .f16x2/.bf16x2 takes two .f32 sources"), 1;
  if (rna || (rm != FP_RN && rm != FP_RZ))
    return dec_error(D, S, -1, "cvt to a half with .relu or .satfinite needs .rn or .rz"), 1;
  in->type = (uint8_t)S->types[0];
  in->type2 = PTX_T_F32;
  in->mode = (uint8_t)rm;
  if (x1) {
    if (dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_F32, &in->a) < 0)
      return 1;
    in->fn = cvt_half_x_h;
    *rc = 0;
    return 1;
  }
  if (dec_nops(D, S, 3) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_F32, &in->a) < 0 ||
      dec_src(D, S, 2, PTX_T_F32, &in->b) < 0)
    return 1;
  in->fn = cvt_pack2x_h;
  *rc = 0;
  return 1;
}
