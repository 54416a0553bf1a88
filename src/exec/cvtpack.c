/* cvtpack.c: cvt.pack.sat, the integer narrowing pack of the sub-byte GEMM
 * epilogues (CUTLASS's s4/s8 outputs):
 *   cvt.pack.sat.{s16,u16}.s32 d, a, b
 *   cvt.pack.sat.{s8,u8,s4,u4,s2,u2}.s32.b32 d, a, b, c
 * a and b saturate to the narrow type; b lands in the low field, a in the
 * next, and (the 8/4/2-bit forms) the low bits of c fill the rest of d,
 * shifted up past the two fields (PTX ISA, "cvt.pack"). dec_cvt (mov.c)
 * asks dec_cvt_pack first. */
#include "exec/exec.h"
#include "ir/decode.h"
#include <string.h>

int dec_cvt_pack(dctx *D, dstmt *S, insn *in, int *rc);

/* mode: the narrow width in bits; vec: 1 when it is signed */
static uint32_t sat_field(int64_t v, int bits, int sgn) {
  int64_t lo = sgn ? -(1ll << (bits - 1)) : 0, hi = sgn ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
  v = v < lo ? lo : v > hi ? hi : v;
  return (uint32_t)v & (uint32_t)((1ull << bits) - 1);
}

static void cvt_pack_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  const uint64_t *C = in->mode < 16 ? w->r[in->c] : NULL;
  int bits = in->mode, sgn = in->vec;
  LANES(m, {
    uint32_t d = sat_field((int32_t)A[l], bits, sgn) << bits | sat_field((int32_t)B[l], bits, sgn);
    if (C) d |= (uint32_t)C[l] << (2 * bits);
    Dd[l] = d;
  });
}

/* The narrow types, their widths and signedness. */
static const struct {
  const char *name;
  int bits, sgn;
} narrow[] = {{"s16", 16, 1}, {"u16", 16, 0}, {"s8", 8, 1}, {"u8", 8, 0},
              {"s4", 4, 1},   {"u4", 4, 0},   {"s2", 2, 1}, {"u2", 2, 0}};

/* 1 when the cvt is a .pack (decoded, or an error reported: *rc), 0 to
 * leave it to the other cvt decoders. */
int dec_cvt_pack(dctx *D, dstmt *S, insn *in, int *rc) {
  if (!dec_take(S, "pack")) return 0;
  *rc = -1;
  if (!dec_take(S, "sat")) return dec_error(D, S, -1, "cvt.pack needs .sat"), 1;
  /* the modifiers after .sat, in order: the narrow type, .s32, (.b32) */
  const char *mods[3];
  int n = 0;
  for (int i = 0; i < S->st->nmods; i++) {
    const char *md = S->st->mods[i];
    if (strcmp(md, "pack") && strcmp(md, "sat")) {
      if (n == 3) return dec_error(D, S, -1, "cvt.pack.sat takes two or three types"), 1;
      mods[n++] = md;
    }
  }
  int k = -1;
  for (int i = 0; n >= 2 && i < (int)(sizeof narrow / sizeof narrow[0]); i++)
    if (!strcmp(mods[0], narrow[i].name)) k = i;
  if (k < 0 || strcmp(mods[1], "s32"))
    return dec_error(D, S, -1, "cvt.pack.sat converts .s32 pairs to .s16/.u16/.s8/.u8/.s4/.u4/.s2/.u2"), 1;
  int bits = narrow[k].bits;
  if ((bits == 16) != (n == 2) || (n == 3 && strcmp(mods[2], "b32")))
    return dec_error(D, S, -1,
                     bits == 16 ? "cvt.pack.sat.%s.s32 takes no third type"
                                : "cvt.pack.sat.%s.s32 needs .b32 for its third operand",
                     mods[0]),
           1;
  S->used = (S->st->nmods >= 64) ? ~0ull : (1ull << S->st->nmods) - 1;
  if (dec_nops(D, S, n + 1) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_S32, &in->a) < 0 ||
      dec_src(D, S, 2, PTX_T_S32, &in->b) < 0 || (n == 3 && dec_src(D, S, 3, PTX_T_B32, &in->c) < 0))
    return 1;
  in->type = PTX_T_B32;
  in->mode = (uint8_t)bits;
  in->vec = (uint8_t)narrow[k].sgn;
  in->fn = cvt_pack_h;
  *rc = 0;
  return 1;
}
