/* half2cmp.c: set and setp on packed half pairs (.f16x2, .bf16x2). Each
 * half is compared on its own; setp writes the lower half's result to the
 * first predicate and the upper half's to the second (p|q), set writes
 * 1.0 (in the pair's own format) or all ones (.u32/.s32) per half. A
 * boolean operation (.and/.or/.xor) combines each half's result with the
 * predicate operand c. dec_setp (float.c) hands these types here. */
#include "exec/exec.h"
#include "ir/decode.h"
#include "model/fpsem.h"

int dec_setp_half2(dctx *D, dstmt *S, insn *in, int fpcmp, int is_set);

/* The two halves' results as bit l (lower half) and bit l of the second
 * mask (upper half). */
static void cmp_pairs(warp *w, const insn *in, uint32_t m, uint32_t *lo, uint32_t *hi) {
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  int bf = in->type == PTX_T_BF16X2, ftz = in->flags & IF_FTZ, cmp = in->type2;
  uint32_t c = 0;
  if (in->mode) c = w->p[in->c] ^ ((in->flags & IF_NEGC) ? FULL_MASK : 0);
  uint32_t r0 = 0, r1 = 0;
  LANES(m, {
    for (int h = 0; h < 2; h++) {
      uint16_t a = (uint16_t)(A[l] >> (16 * h)), b = (uint16_t)(B[l] >> (16 * h));
      if (ftz && !bf) {
        a = fp_ftz16(a);
        b = fp_ftz16(b);
      }
      uint32_t t = (uint32_t)(bf ? fp_cmpbf16(a, b, cmp) : fp_cmp16(a, b, cmp));
      uint32_t cl = c >> l & 1;
      switch (in->mode) {
      case 1:
        t &= cl;
        break;
      case 2:
        t |= cl;
        break;
      case 3:
        t ^= cl;
        break;
      }
      if (h)
        r1 |= t << l;
      else
        r0 |= t << l;
    }
  });
  *lo = r0;
  *hi = r1;
}

static void setp_half2_h(warp *w, const insn *in, uint32_t m) {
  uint32_t lo, hi;
  cmp_pairs(w, in, m, &lo, &hi);
  uint32_t *p = w->p;
  p[in->d] = (p[in->d] & ~m) | (lo & m);
  if (in->d2 != ~0u) p[in->d2] = (p[in->d2] & ~m) | (hi & m);
}

static void set_half2_h(warp *w, const insn *in, uint32_t m) {
  uint32_t lo, hi;
  cmp_pairs(w, in, m, &lo, &hi);
  uint64_t *Dd = w->r[in->d];
  uint32_t one = in->v[0] == PTX_T_F16X2 ? 0x3c00u : in->v[0] == PTX_T_BF16X2 ? 0x3f80u : 0xffffu;
  LANES(m, Dd[l] = ((hi >> l & 1) ? one << 16 : 0) | ((lo >> l & 1) ? one : 0));
}

/* The operands, the boolean operation (in->mode) and the type are decoded
 * by dec_setp; this checks the result type and picks the handler. */
int dec_setp_half2(dctx *D, dstmt *S, insn *in, int fpcmp, int is_set) {
  if (fpcmp < 0)
    return dec_error(D, S, -1, "packed half comparisons are floating-point (.eq, .ltu, .nan, ...)");
  if ((in->flags & IF_FTZ) && in->type == PTX_T_BF16X2)
    return dec_error(D, S, -1, "'.ftz' does not apply to .bf16x2");
  in->type2 = (uint8_t)fpcmp;
  if (is_set) {
    int dt = (int)in->v[0];
    if (dt != PTX_T_U32 && dt != PTX_T_S32 && dt != in->type)
      return dec_error(D, S, -1, "set on .%s gives .u32, .s32 or .%s", ptx_type_name(in->type),
                       ptx_type_name(in->type));
    in->fn = set_half2_h;
  } else {
    in->fn = setp_half2_h;
  }
  return 0;
}
