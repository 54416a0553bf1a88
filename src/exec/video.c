/* video.c: the scalar video instructions (vadd, vsub, vabsdiff, vmin, vmax,
 * vshl, vshr, vmad, vset) and szext. A video instruction picks a byte or
 * half of each source (%r.b0 .. .b3, .h0, .h1, or the whole word), sign-
 * or zero-extends it by the operand's type, computes at full width,
 * optionally saturates to the destination's range, and then either applies
 * a secondary operation with c (.add, .min, .max) or merges the result's
 * low byte/half into c at the destination's selector (%d.b1). */
#include "exec/exec.h"
#include "ir/decode.h"
#include <stdlib.h>
#include <string.h>

/* insn.imm bit fields of a video instruction */
#define VF_ASEL(x) ((int)((x)&15)) /* 0 word, 1..4 b0..b3, 5..6 h0..h1 */
#define VF_BSEL(x) ((int)((x) >> 4 & 15))
#define VF_DSEL(x) ((int)((x) >> 8 & 15))
#define VF_OP2(x) ((int)((x) >> 12 & 3)) /* 0 none, 1 add, 2 min, 3 max */
#define VF_SAT (1 << 14)
#define VF_CLAMP (1 << 15)                  /* vshl/vshr .clamp (else .wrap) */
#define VF_SCALE(x) ((int)((x) >> 16 & 31)) /* vmad .shr7 / .shr15: 7, 15 */
#define VF_PO (1 << 21)                     /* vmad .po */
#define VF_NEGAB (1 << 22)                  /* vmad: the product negated */
#define VF_NEGC (1 << 23)                   /* vmad: c negated */
#define VF_CMP(x) ((int)((x) >> 24 & 7))    /* vset: eq ne lt le gt ge */
/* insn.type2 bits: signedness of a, b, d */
#define VS_A 1
#define VS_B 2
#define VS_D 4

typedef __int128 i128;

/* The selected part of x, extended by its signedness. */
static int64_t part(uint32_t x, int sel, int sgn) {
  if (sel >= 1 && sel <= 4) {
    uint32_t v = x >> (8 * (sel - 1)) & 0xff;
    return sgn ? (int64_t)(int8_t)v : (int64_t)v;
  }
  if (sel >= 5) {
    uint32_t v = x >> (16 * (sel - 5)) & 0xffff;
    return sgn ? (int64_t)(int16_t)v : (int64_t)v;
  }
  return sgn ? (int64_t)(int32_t)x : (int64_t)x;
}

static i128 clamp(i128 v, i128 lo, i128 hi) { return v < lo ? lo : v > hi ? hi : v; }

/* .sat: clamp to the range of the destination (its selected part when
 * there is a merge), signed or unsigned by the destination type. An
 * unsigned 32-bit destination is clamped at 0 only: a sum above the
 * largest u32 wraps (as an H200 gives it, tests/hw/ptx_forms). */
static i128 saturate(i128 v, int dsel, int sgn) {
  int bits = dsel >= 5 ? 16 : dsel >= 1 ? 8 : 32;
  i128 one = 1;
  if (sgn) return clamp(v, -(one << (bits - 1)), (one << (bits - 1)) - 1);
  if (bits == 32) return v < 0 ? 0 : v;
  return clamp(v, 0, (one << bits) - 1);
}

/* The secondary operation with c, or the merge into c; 32 bits out. */
static uint32_t finish(i128 t, uint32_t c, uint64_t f, int dsgn) {
  int dsel = VF_DSEL(f);
  if (dsel == 6)
    return c & 0xffffu; /* .h1: the H200 leaves the upper half 0 (measured, tests/hw/ptx_forms) */
  if (dsel) {
    int sh = dsel >= 5 ? 16 * (dsel - 5) : 8 * (dsel - 1);
    uint32_t mk = (dsel >= 5 ? 0xffffu : 0xffu) << sh;
    return (c & ~mk) | (((uint32_t)t << sh) & mk);
  }
  i128 cc = dsgn ? (i128)(int32_t)c : (i128)c;
  switch (VF_OP2(f)) {
  case 1:
    return (uint32_t)(t + cc);
  case 2:
    return (uint32_t)(t < cc ? t : cc);
  case 3:
    return (uint32_t)(t > cc ? t : cc);
  }
  return (uint32_t)t;
}

static void video_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];
  uint64_t f = (uint64_t)in->imm;
  int sa = in->type2 & VS_A, sb = in->type2 & VS_B, sd = in->type2 & VS_D, op = in->op;
  LANES(m, {
    int64_t ta = part((uint32_t)A[l], VF_ASEL(f), sa);
    int64_t tb = part((uint32_t)B[l], VF_BSEL(f), sb);
    uint32_t c = (uint32_t)C[l];
    i128 t = 0;
    int sgn = sd;
    switch (op) {
    case OP_VADD:
      t = (i128)ta + tb;
      break;
    case OP_VSUB:
      t = (i128)ta - tb;
      break;
    case OP_VABSDIFF:
      t = ta > tb ? (i128)ta - tb : (i128)tb - ta;
      break;
    case OP_VMIN:
      t = ta < tb ? ta : tb;
      break;
    case OP_VMAX:
      t = ta > tb ? ta : tb;
      break;
    case OP_VSHL:
    case OP_VSHR: {
      uint64_t n = (uint64_t)tb;
      n = (f & VF_CLAMP) ? (n > 32 ? 32 : n) : (n & 31);
      t = op == OP_VSHL ? (i128)ta * ((i128)1 << n) : (i128)(ta >> n);
      /* the shifter is 34 bits wide: what .sat sees of a left shift is
       * its low 34 bits, signed (measured: 0x56 << 32 saturates to
       * INT32_MIN) */
      if (op == OP_VSHL) t = (i128)(int64_t)((uint64_t)t << 30) >> 30;
      break;
    }
    case OP_VSET: {
      int r;
      switch (VF_CMP(f)) {
      case 0:
        r = ta == tb;
        break;
      case 1:
        r = ta != tb;
        break;
      case 2:
        r = ta < tb;
        break;
      case 3:
        r = ta <= tb;
        break;
      case 4:
        r = ta > tb;
        break;
      default:
        r = ta >= tb;
        break;
      }
      t = r;
      sgn = 0; /* the comparison's result, d and c are unsigned */
      break;
    }
    case OP_VMAD: {
      /* the product is negated as ~p + 1, c as ~c + 1 (.po adds the 1 alone) */
      i128 p = (i128)ta * tb, cc;
      int sfinal = sa || sb || (f & (VF_NEGAB | VF_NEGC));
      i128 lsb = 0;
      cc = sfinal ? (i128)(int32_t)c : (i128)c;
      if (f & VF_PO)
        lsb = 1;
      else if (f & VF_NEGAB) {
        p = ~p;
        lsb = 1;
      } else if (f & VF_NEGC) {
        cc = (i128)(int32_t)~c;
        lsb = 1;
      }
      t = p + cc + lsb;
      if (VF_SCALE(f)) t >>= VF_SCALE(f);
      if (f & VF_SAT) {
        i128 one = 1;
        t = sfinal ? clamp(t, -(one << 31), (one << 31) - 1) : clamp(t, 0, (one << 32) - 1);
      }
      Dd[l] = (uint32_t)t;
      continue;
    }
    }
    if (f & VF_SAT) t = saturate(t, VF_DSEL(f), sgn);
    Dd[l] = finish(t, c, f, sgn);
  });
}

/* The selector of a register operand written %r.b1 / %r.h0 (0 when none);
 * *base gets the operand without it. */
static int selector(dctx *D, dstmt *S, int i, ptx_operand *base, char *buf, size_t n) {
  const ptx_operand *o = &S->st->ops[i];
  *base = *o;
  if (o->kind != PTX_OPD_REG) return 0;
  const char *dot = strchr(o->name, '.');
  if (!dot) return 0;
  static const char *const sels[] = {"b0", "b1", "b2", "b3", "h0", "h1"};
  for (int k = 0; k < 6; k++)
    if (!strcmp(dot + 1, sels[k])) {
      size_t len = (size_t)(dot - o->name);
      if (len >= n) break;
      memcpy(buf, o->name, len);
      buf[len] = 0;
      base->name = buf;
      return k + 1;
    }
  return dec_error(D, S, i, "'%s': the selectors are .b0, .b1, .b2, .b3, .h0 and .h1", o->name);
}

/* A source operand with its selector and, for vmad, a leading '-' (the
 * parser keeps it in the register's name). */
static int vsrc(dctx *D, dstmt *S, int i, uint32_t *slot, int *sel, int *neg) {
  char buf[128];
  ptx_operand o;
  int s = selector(D, S, i, &o, buf, sizeof buf);
  if (s < 0) return -1;
  *neg = 0;
  if (o.kind == PTX_OPD_REG && o.name[0] == '-') {
    o.name++;
    *neg = 1;
  }
  *sel = s;
  return dec_src_opd(D, &o, PTX_T_U32, slot) ? -1 : 0;
}

static int sign_of(dctx *D, dstmt *S, int t) {
  if (t == PTX_T_S32) return 1;
  if (t == PTX_T_U32) return 0;
  return dec_error(D, S, -1, "%s types are .u32 or .s32", S->st->opcode);
}

int dec_vscalar(dctx *D, dstmt *S, insn *in);
int dec_vscalar(dctx *D, dstmt *S, insn *in) {
  static const char *const op2s[] = {"add", "min", "max", NULL};
  static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", NULL};
  static const char *const scales[] = {"shr7", "shr15", NULL};
  int op = in->op, is_set = op == OP_VSET, is_mad = op == OP_VMAD, is_sh = op == OP_VSHL || op == OP_VSHR;
  uint64_t f = 0;
  if (dec_take(S, "sat")) {
    if (is_set) return dec_error(D, S, -1, "vset takes no .sat");
    f |= VF_SAT;
  }
  if (is_sh) {
    int cl = dec_take(S, "clamp"), wr = dec_take(S, "wrap");
    if (cl == wr) return dec_error(D, S, -1, "%s needs .clamp or .wrap", S->st->opcode);
    if (cl) f |= VF_CLAMP;
  }
  if (is_set) {
    int c = dec_take_any(S, cmps);
    if (c < 0) return dec_error(D, S, -1, "vset needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)");
    f |= (uint64_t)c << 24;
  }
  int op2 = is_mad ? -1 : dec_take_any(S, op2s);
  if (op2 >= 0) f |= (uint64_t)(op2 + 1) << 12;
  if (is_mad) {
    int sc = dec_take_any(S, scales);
    if (sc >= 0) f |= (uint64_t)(sc ? 15 : 7) << 16;
    if (dec_take(S, "po")) f |= VF_PO;
  }
  /* types: d, a, b (vset: a, b) */
  int nt = is_set ? 2 : 3;
  if (dec_ntypes(D, S, nt) < 0) return -1;
  int sd = is_set ? 0 : sign_of(D, S, S->types[0]);
  int sa = sign_of(D, S, S->types[nt - 2]), sb = sign_of(D, S, S->types[nt - 1]);
  if (sd < 0 || sa < 0 || sb < 0) return -1;
  if (is_sh && sb) return dec_error(D, S, -1, "%s shifts by a .u32 count", S->st->opcode);
  int nops = S->st->nops;
  int dsel = 0;
  {
    char buf[128];
    ptx_operand o;
    if (nops < 3) return dec_error(D, S, -1, "%s takes 3 or 4 operands", S->st->opcode);
    dsel = selector(D, S, 0, &o, buf, sizeof buf);
    if (dsel < 0 || dec_dst_opd(D, &o, &in->d)) return -1;
  }
  if (is_mad && (dsel || nops != 4))
    return dec_error(D, S, -1, "vmad takes d, a, b, c without a destination selector");
  if (!is_mad && (dsel || op2 >= 0) && nops != 4)
    return dec_error(D, S, -1, "%s with %s takes a c operand", S->st->opcode,
                     dsel ? "a destination selector" : "a secondary operation");
  if (!is_mad && !dsel && op2 < 0 && nops != 3)
    return dec_error(D, S, -1, "%s takes 3 operands", S->st->opcode);
  if (dsel && op2 >= 0)
    return dec_error(D, S, -1, "a destination selector and a secondary operation exclude each other");
  int asel, bsel, csel, na, nb, nc;
  if (vsrc(D, S, 1, &in->a, &asel, &na) < 0 || vsrc(D, S, 2, &in->b, &bsel, &nb) < 0) return -1;
  in->c = in->a;
  nc = 0;
  csel = 0;
  if (nops == 4 && vsrc(D, S, 3, &in->c, &csel, &nc) < 0) return -1;
  if (csel) return dec_error(D, S, 3, "c takes no selector");
  if ((na || nb || nc) && !is_mad) return dec_error(D, S, -1, "only vmad negates its operands");
  if (is_mad) {
    if ((f & VF_PO) && (na || nb || nc)) return dec_error(D, S, -1, "vmad.po takes no negated operand");
    if ((na ^ nb) && nc) return dec_error(D, S, -1, "vmad negates the product a*b or c, not both");
    if (na ^ nb) f |= VF_NEGAB;
    if (nc) f |= VF_NEGC;
  }
  f |= (uint64_t)asel | (uint64_t)bsel << 4 | (uint64_t)dsel << 8;
  in->imm = (int64_t)f;
  in->type = PTX_T_U32;
  in->type2 = (uint8_t)((sa ? VS_A : 0) | (sb ? VS_B : 0) | (sd ? VS_D : 0));
  in->fn = video_h;
  return 0;
}

/* szext.mode.type d, a, b: the low N bits of a, N = b clamped to 32
 * (.clamp) or b mod 32 (.wrap), sign- (.s32) or zero-extended (.u32). */
static void szext_h(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  const uint64_t *A = w->r[in->a], *B = w->r[in->b];
  int clampm = in->mode, sgn = in->type == PTX_T_S32;
  LANES(m, {
    uint32_t a = (uint32_t)A[l], n = (uint32_t)B[l];
    n = clampm ? (n > 32 ? 32 : n) : (n & 31);
    uint32_t r;
    if (n == 32)
      r = a;
    else if (n == 0)
      r = 0;
    else if (sgn)
      r = (uint32_t)((int32_t)(a << (32 - n)) >> (32 - n));
    else
      r = a & ((1u << n) - 1);
    Dd[l] = r;
  });
}

int dec_szext(dctx *D, dstmt *S, insn *in);
int dec_szext(dctx *D, dstmt *S, insn *in) {
  int cl = dec_take(S, "clamp"), wr = dec_take(S, "wrap");
  if (cl == wr) return dec_error(D, S, -1, "szext needs .clamp or .wrap");
  if (dec_ntypes(D, S, 1) < 0) return -1;
  if (S->types[0] != PTX_T_U32 && S->types[0] != PTX_T_S32)
    return dec_error(D, S, -1, "szext types are .u32 or .s32");
  if (dec_nops(D, S, 3) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, PTX_T_U32, &in->a) < 0 ||
      dec_src(D, S, 2, PTX_T_U32, &in->b) < 0)
    return -1;
  in->type = (uint8_t)S->types[0];
  in->mode = (uint8_t)cl;
  in->fn = szext_h;
  return 0;
}
