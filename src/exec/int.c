/* int.c: integer and bit instructions: add/sub/mul/mad (lo, hi, wide, cc,
 * sat), mul24/mad24, sad, div/rem, abs/neg/min/max, logic, shifts, funnel
 * shifts, bfe/bfi/brev/popc/clz/bfind/prmt/lop3/dp4a/dp2a, selp/slct and
 * the predicate forms of and/or/xor/not. Handlers are generated per width
 * from one body; signed and unsigned share handlers where bits agree. */
#include "exec/exec.h"
#include "ir/decode.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

#define MASKOF(T) (~0ull >> (64 - 8 * sizeof(T)))
#define ZX(T, x) ((uint64_t)(T)(x)&MASKOF(T))
#define REGS3                                                                                                \
  uint64_t *D = w->r[in->d];                                                                                 \
  const uint64_t *A = w->r[in->a], *B = w->r[in->b], *C = w->r[in->c];                                       \
  (void)B;                                                                                                   \
  (void)C

/* Table slots: IT_U8 .. IT_S64 (decode.h). */
#define TAB(name) static const exec_fn name##_tab[8]

/* One handler: each lane reads a and b as T and writes expr zero-extended
 * from ZT. */
#define DEF_AB(fname, T, ZT, expr)                                                                           \
  static void fname(warp *w, const insn *in, uint32_t m) {                                                   \
    REGS3;                                                                                                   \
    LANES(m, {                                                                                               \
      T a = (T)A[l], b = (T)B[l];                                                                            \
      D[l] = ZX(ZT, expr);                                                                                   \
    });                                                                                                      \
  }
/* One handler whose lane result reads A[l], B[l] and C[l] itself. */
#define DEF_L(fname, expr)                                                                                   \
  static void fname(warp *w, const insn *in, uint32_t m) {                                                   \
    REGS3;                                                                                                   \
    LANES(m, D[l] = (expr));                                                                                 \
  }
#define DEF_U3(name, expr)                                                                                   \
  DEF_AB(name##_u16, uint16_t, uint16_t, expr)                                                               \
  DEF_AB(name##_u32, uint32_t, uint32_t, expr)                                                               \
  DEF_AB(name##_u64, uint64_t, uint64_t, expr)

/* ---- binary ops where signed and unsigned share bits ---- */
#define DEF_UBIN(name, expr)                                                                                 \
  DEF_U3(name, expr)                                                                                         \
  TAB(name) = {NULL, name##_u16, name##_u32, name##_u64, NULL, name##_u16, name##_u32, name##_u64};

DEF_UBIN(add, a + b)
DEF_UBIN(sub, a - b)
DEF_UBIN(mullo, a *b)
DEF_UBIN(and, a &b)
DEF_UBIN(or, a | b)
DEF_UBIN(xor, a ^ b)

/* ---- signed/unsigned distinct: uexpr for the unsigned types, sexpr for
 * the signed ones ---- */
#define DEF_SBIN(name, uexpr, sexpr)                                                                         \
  DEF_U3(name, uexpr)                                                                                        \
  DEF_AB(name##_s16, int16_t, uint16_t, sexpr)                                                               \
  DEF_AB(name##_s32, int32_t, uint32_t, sexpr)                                                               \
  DEF_AB(name##_s64, int64_t, uint64_t, sexpr)                                                               \
  TAB(name) = {NULL, name##_u16, name##_u32, name##_u64, NULL, name##_s16, name##_s32, name##_s64};

DEF_SBIN(min, a < b ? a : b, a < b ? a : b)
DEF_SBIN(max, a > b ? a : b, a > b ? a : b)

/* Division by zero gives all ones, quotient and remainder, signed or not,
 * and MIN / -1 wraps to MIN with remainder 0: measured on an H200
 * (tests/hw/arith_edges). The results are cut to the type's width. */
DEF_SBIN(div, b ? (uint64_t)(a / b) : ~0ull, b == 0 ? ~0ull : b == -1 ? 0 - (uint64_t)a : (uint64_t)(a / b))
DEF_SBIN(rem, b ? (uint64_t)(a % b) : ~0ull, b == 0 ? ~0ull : b == -1 ? 0 : (uint64_t)(a % b))

/* ---- mul.hi / mul.wide / mad ---- */
DEF_L(mulhi_u16, ((uint32_t)(uint16_t)A[l] * (uint16_t)B[l]) >> 16)
DEF_L(mulhi_u32, ((uint64_t)(uint32_t)A[l] * (uint32_t)B[l]) >> 32)
DEF_L(mulhi_u64, (uint64_t)(((u128)A[l] * B[l]) >> 64))
DEF_L(mulhi_s16, ZX(uint16_t, ((int32_t)(int16_t)A[l] * (int16_t)B[l]) >> 16))
DEF_L(mulhi_s32, ZX(uint32_t, ((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32))
DEF_L(mulhi_s64, (uint64_t)(((s128)(int64_t)A[l] * (int64_t)B[l]) >> 64))
TAB(mulhi) = {NULL, mulhi_u16, mulhi_u32, mulhi_u64, NULL, mulhi_s16, mulhi_s32, mulhi_s64};
DEF_L(mulwide_u16, (uint32_t)(uint16_t)A[l] * (uint16_t)B[l])
DEF_L(mulwide_u32, (uint64_t)(uint32_t)A[l] * (uint32_t)B[l])
DEF_L(mulwide_s16, ZX(uint32_t, (int32_t)(int16_t)A[l] * (int16_t)B[l]))
DEF_L(mulwide_s32, (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]))
TAB(mulwide) = {NULL, mulwide_u16, mulwide_u32, NULL, NULL, mulwide_s16, mulwide_s32, NULL};

DEF_L(madlo_16, ZX(uint16_t, A[l] * B[l] + C[l]))
DEF_L(madlo_32, ZX(uint32_t, A[l] * B[l] + C[l]))
DEF_L(madlo_64, A[l] * B[l] + C[l])
TAB(madlo) = {NULL, madlo_16, madlo_32, madlo_64, NULL, madlo_16, madlo_32, madlo_64};
DEF_L(madhi_u32, ZX(uint32_t, (((uint64_t)(uint32_t)A[l] * (uint32_t)B[l]) >> 32) + C[l]))
DEF_L(madhi_s32, ZX(uint32_t, (uint64_t)(((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32) + C[l]))
DEF_L(madhi_u64, (uint64_t)(((u128)A[l] * B[l]) >> 64) + C[l])
DEF_L(madhi_s64, (uint64_t)(((s128)(int64_t)A[l] * (int64_t)B[l]) >> 64) + C[l])
DEF_L(madhi_u16, ZX(uint16_t, (((uint32_t)(uint16_t)A[l] * (uint16_t)B[l]) >> 16) + C[l]))
DEF_L(madhi_s16, ZX(uint16_t, (uint32_t)(((int32_t)(int16_t)A[l] * (int16_t)B[l]) >> 16) + C[l]))
TAB(madhi) = {NULL, madhi_u16, madhi_u32, madhi_u64, NULL, madhi_s16, madhi_s32, madhi_s64};
static void madhisat_s32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES(m, {
    int64_t r = (((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32) + (int64_t)(int32_t)C[l];
    D[l] = ZX(uint32_t, r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
  });
}
DEF_L(madwide_u16, ZX(uint32_t, (uint32_t)(uint16_t)A[l] * (uint16_t)B[l] + C[l]))
DEF_L(madwide_u32, (uint64_t)(uint32_t)A[l] * (uint32_t)B[l] + C[l])
DEF_L(madwide_s16, ZX(uint32_t, (uint32_t)((int32_t)(int16_t)A[l] * (int16_t)B[l]) + C[l]))
DEF_L(madwide_s32, (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + C[l])
TAB(madwide) = {NULL, madwide_u16, madwide_u32, NULL, NULL, madwide_s16, madwide_s32, NULL};

/* 24-bit multiplies: operands are the low 24 bits (sign-extended for s32).
 * mad24.hi.sat.s32 clamps the sum of the product's bits 47..16 and c to
 * the s32 range. */
static inline int64_t lo24(uint64_t x, int sgn) {
  uint32_t v = (uint32_t)x & 0xffffff;
  return sgn ? (int64_t)((int32_t)(v << 8) >> 8) : (int64_t)v;
}
static void mul24(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int sgn = in->flags & IF_SIGNED, hi = in->mode & 1, mad = in->op == OP_MAD24, sat = in->flags & IF_SAT;
  LANES(m, {
    int64_t p = lo24(A[l], sgn) * lo24(B[l], sgn);
    uint32_t r = hi ? (uint32_t)((uint64_t)p >> 16) : (uint32_t)p;
    if (sat) {
      int64_t v = (int64_t)(int32_t)r + (int64_t)(int32_t)C[l];
      D[l] = (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
    } else {
      D[l] = (uint32_t)(r + (mad ? (uint32_t)C[l] : 0));
    }
  });
}

static void sad_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int sgn = in->flags & IF_SIGNED, bytes = ptx_type_size(in->type);
  uint64_t mk = mask_bits(bytes);
  int sh = 64 - 8 * bytes;
  LANES(m, {
    uint64_t a = A[l] & mk, b = B[l] & mk, d;
    if (sgn) {
      int64_t x = (int64_t)(a << sh) >> sh, y = (int64_t)(b << sh) >> sh;
      d = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    } else {
      d = a > b ? a - b : b - a;
    }
    D[l] = (d + C[l]) & mk;
  });
}

/* add.sat.s32 / sub.sat.s32 */
static void addsat(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int sub = in->op == OP_SUB;
  LANES(m, {
    int64_t r = (int64_t)(int32_t)A[l] + (sub ? -(int64_t)(int32_t)B[l] : (int64_t)(int32_t)B[l]);
    D[l] = ZX(uint32_t, r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
  });
}

/* Carry forms (add.cc, addc, sub.cc, subc, mad.cc, madc): the carry flag
 * is a lane mask kept in the predicate slot PRED_CARRY. */
static void carry_op(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int bytes = ptx_type_size(in->type), op = in->op, setcc = in->mode & 1, usecc = in->mode & 2;
  uint64_t mk = mask_bits(bytes);
  uint32_t cin = w->p[PRED_CARRY], cout = cin;
  LANES(m, {
    u128 a = A[l] & mk, b = B[l] & mk, c = (cin >> l) & 1, r;
    if (op == OP_SUB || op == OP_SUBC) {
      r = a - b - (usecc ? c : 0);
      /* borrow = carry clear */
      int borrow = (a < b + (usecc ? c : 0));
      cout = (cout & ~(1u << l)) | ((uint32_t)borrow << l);
    } else {
      if (op == OP_MAD || op == OP_MADC) {
        u128 p = a * b;
        a = (in->flags & IF_APPROX) ? (p >> (8 * bytes)) & mk : p & mk; /* IF_APPROX: .hi */
        b = C[l] & mk;
      }
      r = a + b + (usecc ? c : 0);
      cout = (cout & ~(1u << l)) | ((uint32_t)((r >> (8 * bytes)) & 1) << l);
    }
    D[l] = (uint64_t)r & mk;
  });
  if (setcc) w->p[PRED_CARRY] = cout;
}

/* ---- unary ---- */
#define DEF_UN(name, T, UT, expr)                                                                            \
  static void name(warp *w, const insn *in, uint32_t m) {                                                    \
    REGS3;                                                                                                   \
    LANES(m, {                                                                                               \
      T a = (T)A[l];                                                                                         \
      D[l] = ZX(UT, expr);                                                                                   \
    });                                                                                                      \
  }
DEF_UN(abs_s16, int16_t, uint16_t, a < 0 ? (uint16_t)(0 - (uint16_t)a) : (uint16_t)a)
DEF_UN(abs_s32, int32_t, uint32_t, a < 0 ? 0u - (uint32_t)a : (uint32_t)a)
DEF_UN(abs_s64, int64_t, uint64_t, a < 0 ? 0ull - (uint64_t)a : (uint64_t)a)
TAB(abs) = {NULL, NULL, NULL, NULL, NULL, abs_s16, abs_s32, abs_s64};
DEF_UN(neg_16, uint16_t, uint16_t, 0u - a)
DEF_UN(neg_32, uint32_t, uint32_t, 0u - a)
DEF_UN(neg_64, uint64_t, uint64_t, 0ull - a)
TAB(neg) = {NULL, neg_16, neg_32, neg_64, NULL, neg_16, neg_32, neg_64};
DEF_UN(not_16, uint16_t, uint16_t, ~a)
DEF_UN(not_32, uint32_t, uint32_t, ~a)
DEF_UN(not_64, uint64_t, uint64_t, ~a)
TAB(not ) = {NULL, not_16, not_32, not_64, NULL, not_16, not_32, not_64};
DEF_UN(cnot_16, uint16_t, uint16_t, a == 0)
DEF_UN(cnot_32, uint32_t, uint32_t, a == 0)
DEF_UN(cnot_64, uint64_t, uint64_t, a == 0)
TAB(cnot) = {NULL, cnot_16, cnot_32, cnot_64, NULL, cnot_16, cnot_32, cnot_64};
DEF_UN(popc_32, uint32_t, uint32_t, __builtin_popcount(a))
DEF_UN(popc_64, uint64_t, uint32_t, __builtin_popcountll(a))
DEF_UN(clz_32, uint32_t, uint32_t, a ? __builtin_clz(a) : 32)
DEF_UN(clz_64, uint64_t, uint32_t, a ? __builtin_clzll(a) : 64)

static uint32_t brev32(uint32_t x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
DEF_UN(brev_32, uint32_t, uint32_t, brev32(a))
DEF_UN(brev_64, uint64_t, uint64_t, ((uint64_t)brev32((uint32_t)a) << 32) | brev32((uint32_t)(a >> 32)))

static void bfind_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int bytes = ptx_type_size(in->type), sgn = in->flags & IF_SIGNED, shamt = in->mode;
  int bits = 8 * bytes;
  LANES(m, {
    uint64_t a = bytes == 8 ? A[l] : (uint32_t)A[l];
    if (sgn && (a >> (bits - 1)) & 1) a = ~a & mask_bits(bytes);
    uint32_t r;
    if (!a)
      r = 0xffffffffu;
    else {
      r = (uint32_t)(63 - __builtin_clzll(a));
      if (shamt) r = (uint32_t)(bits - 1) - r;
    }
    D[l] = r;
  });
}

/* ---- shifts ---- */
static void shl_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int bytes = ptx_type_size(in->type);
  uint64_t mk = mask_bits(bytes);
  uint32_t bits = 8u * (uint32_t)bytes;
  LANES(m, {
    uint32_t s = (uint32_t)B[l];
    D[l] = s >= bits ? 0 : (A[l] << s) & mk;
  });
}
static void shr_u(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int bytes = ptx_type_size(in->type);
  uint64_t mk = mask_bits(bytes);
  uint32_t bits = 8u * (uint32_t)bytes;
  LANES(m, {
    uint32_t s = (uint32_t)B[l];
    D[l] = s >= bits ? 0 : (A[l] & mk) >> s;
  });
}
static void shr_s(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int bytes = ptx_type_size(in->type);
  uint64_t mk = mask_bits(bytes);
  uint32_t bits = 8u * (uint32_t)bytes, up = 64 - bits;
  LANES(m, {
    uint32_t s = (uint32_t)B[l];
    int64_t a = (int64_t)(A[l] << up) >> up;
    D[l] = (uint64_t)(a >> (s >= bits ? bits - 1 : s)) & mk;
  });
}
static void shr_s32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES(m, {
    uint32_t s = (uint32_t)B[l];
    D[l] = (uint32_t)((int32_t)A[l] >> (s > 31 ? 31 : s));
  });
}
static void shl_32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES(m, {
    uint32_t s = (uint32_t)B[l];
    D[l] = s > 31 ? 0 : (uint32_t)((uint32_t)A[l] << s);
  });
}
static void shr_u32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES(m, {
    uint32_t s = (uint32_t)B[l];
    D[l] = s > 31 ? 0 : (uint32_t)A[l] >> s;
  });
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of b:a by c. */
static void shf_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int right = in->mode & 1, clamp = in->mode & 2;
  LANES(m, {
    uint32_t n = (uint32_t)C[l];
    n = clamp ? (n > 32 ? 32 : n) : (n & 31);
    uint64_t v = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
    D[l] = right ? (uint32_t)(v >> n) : (uint32_t)((v << n) >> 32);
  });
}

/* ---- bit fields ---- */
static void bfe_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int bytes = ptx_type_size(in->type), sgn = in->flags & IF_SIGNED;
  uint32_t msb = 8u * (uint32_t)bytes - 1;
  LANES(m, {
    uint64_t a = A[l] & mask_bits(bytes);
    uint32_t pos = (uint32_t)B[l] & 0xff, len = (uint32_t)C[l] & 0xff;
    uint64_t sbit = 0;
    if (sgn && len) sbit = (a >> (pos + len - 1 > msb ? msb : pos + len - 1)) & 1;
    uint64_t d = 0;
    for (uint32_t i = 0; i <= msb; i++) {
      uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
      d |= bit << i;
    }
    D[l] = d;
  });
}

static void bfi_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  const uint64_t *E = w->r[in->v[0]];
  int bytes = ptx_type_size(in->type);
  uint32_t msb = 8u * (uint32_t)bytes - 1;
  LANES(m, {
    uint64_t f = B[l] & mask_bits(bytes), a = A[l];
    uint32_t pos = (uint32_t)C[l] & 0xff, len = (uint32_t)E[l] & 0xff;
    for (uint32_t i = 0; i < len && pos + i <= msb; i++)
      f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
    D[l] = f;
  });
}

/* prmt: byte selection tables of the modes f4e, b4e, rc8, ecl, ecr, rc16
 * (result byte 0 first), from the PTX ISA's prmt table. */
static const uint8_t prmt_modes[6][4][4] = {{{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
                                            {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
                                            {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
                                            {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
                                            {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
                                            {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}};

static void prmt_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int mode = in->mode;
  LANES(m, {
    uint64_t src = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
    uint32_t c = (uint32_t)C[l], d = 0;
    for (int i = 0; i < 4; i++) {
      uint32_t byte;
      if (mode == 0) {
        uint32_t sel = (c >> (4 * i)) & 0xf;
        byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
      } else {
        byte = (uint32_t)(src >> (8 * prmt_modes[mode - 1][c & 3][i])) & 0xff;
      }
      d |= byte << (8 * i);
    }
    D[l] = d;
  });
}

static void lop3_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  uint32_t lut = (uint32_t)in->imm;
  LANES(m, {
    uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l], d = 0;
    for (int i = 0; i < 8; i++)
      if (lut >> i & 1) d |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    D[l] = d;
  });
}

/* lop3.or / lop3.and with a predicate output (d|p ..., q): p = (d != 0)
 * or / and q. */
static void lop3p_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  uint32_t lut = (uint32_t)in->imm, r = 0;
  uint32_t q = w->p[in->v[0]] ^ (in->flags & IF_NEGC ? FULL_MASK : 0);
  LANES(m, {
    uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], c = (uint32_t)C[l], d = 0;
    for (int i = 0; i < 8; i++)
      if (lut >> i & 1) d |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    D[l] = d;
    if (d) r |= 1u << l;
  });
  r = in->mode == 1 ? r | q : r & q;
  w->p[in->d2] = (w->p[in->d2] & ~m) | (r & m);
}

/* dp4a / dp2a: dot products of packed bytes / halves accumulated into c. */
static void dp_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int as = in->mode & 1, bs = in->mode & 2, two = in->op == OP_DP2A, hi = in->mode & 4;
  LANES(m, {
    uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l];
    int64_t acc = (int64_t)(int32_t)C[l];
    if ((in->flags & IF_SIGNED) == 0 && !as && !bs) acc = (int64_t)(uint32_t)C[l];
    if (!two) {
      for (int i = 0; i < 4; i++) {
        int64_t x = as ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
        int64_t y = bs ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));
        acc += x * y;
      }
    } else {
      for (int i = 0; i < 2; i++) {
        int64_t x = as ? (int16_t)(a >> (16 * i)) : (uint16_t)(a >> (16 * i));
        int bi = (hi ? 2 : 0) + i;
        int64_t y = bs ? (int8_t)(b >> (8 * bi)) : (uint8_t)(b >> (8 * bi));
        acc += x * y;
      }
    }
    D[l] = (uint32_t)acc;
  });
}

/* bmsk.{clamp,wrap}.b32 d, a, b: b bits set from bit a. The positions are
 * taken mod 32; .clamp makes a >= 32 an empty mask and b >= 32 a mask to the
 * top bit, as the PTX ISA's semantics say. */
static void bmsk_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int clamp = in->mode;
  LANES(m, {
    uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], a1 = a & 31, b1 = b & 31;
    uint32_t lo = ~0u << a1, hi;
    int over = a1 + b1 >= 32;
    if (clamp && a >= 32) lo = 0;
    if (clamp && b >= 32) over = 1;
    hi = over ? 0 : b1 == 0 ? ~0u : ~0u << (a1 + b1);
    D[l] = lo & ~hi;
  });
}

static int srcs(dctx *D, dstmt *S, insn *in, int n, int t);

/* fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of
 * mask from bit base upwards (offset > 0) or downwards (< 0); offset 0
 * tests bit base itself; 0xffffffff when there is none (PTX ISA). */
static void fns_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES(m, {
    uint32_t mask = (uint32_t)A[l], d = 0xffffffffu;
    int base = (int)((uint32_t)B[l] & 31), off = (int32_t)C[l];
    if (!off) {
      if (mask >> base & 1) d = (uint32_t)base;
    } else {
      int64_t count = (off > 0 ? (int64_t)off : -(int64_t)off) - 1;
      for (int pos = base; pos >= 0 && pos<32; pos += off> 0 ? 1 : -1)
        if (mask >> pos & 1) {
          if (count == 0) {
            d = (uint32_t)pos;
            break;
          }
          count--;
        }
    }
    D[l] = d;
  });
}

/* ---- packed integers ---- */

/* SIMD video instructions vadd4 ... vmax2, vset4/vset2: per byte (4) or
 * half (2) of a and b, signed or unsigned by their types, the result
 * saturated to the destination element's range with .sat (else truncated);
 * vset's result is 1 where the comparison holds, else 0 (unsigned). With
 * .add the elements' results are summed into c, without it they are packed
 * into d. Selectors and masks are not supported (the decoder says so). */
enum { V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX, V_EQ, V_NE, V_LT, V_LE, V_GT, V_GE };
static void video_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int n = in->vec, bits = 32 / n, op = in->mode, sat = in->flags & IF_SAT, add = in->flags & IF_APPROX;
  int as = in->type2 & 1, bs = in->type2 & 2, ds = in->type2 & 4;
  uint32_t emask = n == 4 ? 0xffu : 0xffffu;
  LANES(m, {
    uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], d = 0;
    int64_t sum = ds ? (int64_t)(int32_t)C[l] : (int64_t)(uint32_t)C[l];
    for (int i = 0; i < n; i++) {
      uint32_t ua = (a >> (bits * i)) & emask, ub = (b >> (bits * i)) & emask;
      int64_t x = as ? (int64_t)((int32_t)(ua << (32 - bits)) >> (32 - bits)) : (int64_t)ua;
      int64_t y = bs ? (int64_t)((int32_t)(ub << (32 - bits)) >> (32 - bits)) : (int64_t)ub;
      int64_t r = op == V_ADD       ? x + y
                  : op == V_SUB     ? x - y
                  : op == V_AVRG    ? (x + y + 1) >> 1
                  : op == V_ABSDIFF ? (x > y ? x - y : y - x)
                  : op == V_MIN     ? (x < y ? x : y)
                  : op == V_MAX     ? (x > y ? x : y)
                  : op == V_EQ      ? x == y
                  : op == V_NE      ? x != y
                  : op == V_LT      ? x < y
                  : op == V_LE      ? x <= y
                  : op == V_GT      ? x > y
                                    : x >= y;
      if (sat) {
        int64_t lo = ds ? -((int64_t)1 << (bits - 1)) : 0,
                hi = ds ? ((int64_t)1 << (bits - 1)) - 1 : (int64_t)emask;
        r = r < lo ? lo : r > hi ? hi : r;
      }
      if (add)
        sum += r;
      else
        d |= ((uint32_t)r & emask) << (bits * i);
    }
    D[l] = add ? (uint32_t)sum : d;
  });
}

int dec_video(dctx *D, dstmt *S, insn *in) {
  static const int ops[] = {V_ADD, V_SUB, V_AVRG, V_ABSDIFF, V_MIN, V_MAX};
  static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", NULL};
  int set = in->op == OP_VSET2 || in->op == OP_VSET4, nt = set ? 2 : 3;
  if (set) {
    int c = dec_take_any(S, cmps);
    if (c < 0)
      return dec_error(D, S, -1, "%s needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)", S->st->opcode);
    in->mode = (uint8_t)(V_EQ + c);
    in->vec = (uint8_t)(in->op == OP_VSET2 ? 2 : 4);
  } else {
    int k = in->op >= OP_VADD2 ? in->op - OP_VADD2 : in->op - OP_VADD4;
    in->mode = (uint8_t)ops[k];
    in->vec = (uint8_t)(in->op >= OP_VADD2 ? 2 : 4);
  }
  if (dec_take(S, "sat")) {
    if (set) return dec_error(D, S, -1, "%s takes no .sat", S->st->opcode);
    in->flags |= IF_SAT;
  }
  if (dec_take(S, "add")) in->flags |= IF_APPROX;
  if (dec_ntypes(D, S, nt) < 0) return -1;
  for (int i = 0; i < nt; i++) {
    int t = S->types[i];
    if (t != PTX_T_U32 && t != PTX_T_S32)
      return dec_error(D, S, -1, "%s types are .u32 or .s32", S->st->opcode);
  }
  /* vset's d and c are unsigned; its two types are a's and b's */
  in->type2 = (uint8_t)((S->types[nt - 2] == PTX_T_S32 ? 1 : 0) | (S->types[nt - 1] == PTX_T_S32 ? 2 : 0) |
                        (!set && S->types[0] == PTX_T_S32 ? 4 : 0));
  for (int i = 0; i < S->st->nmods; i++)
    if (S->st->mods[i][0] == 'b' && S->st->mods[i][1] >= '0' && S->st->mods[i][1] <= '9')
      return dec_error(D, S, -1, "%s with a byte mask or selector is not supported", S->st->opcode);
  if (dec_nops(D, S, 4) < 0) return -1;
  for (int i = 0; i < 4; i++)
    if (S->st->ops[i].kind == PTX_OPD_REG && strchr(S->st->ops[i].name, '.'))
      return dec_error(D, S, i, "%s with a byte mask or selector is not supported", S->st->opcode);
  if (srcs(D, S, in, 3, PTX_T_U32) < 0) return -1;
  in->fn = video_h;
  return 0;
}

/* add, sub, min, max on .u16x2 / .s16x2: each half on its own. */
static void simd16_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int sgn = in->type == PTX_T_S16X2, op = in->mode, sat = in->flags & IF_SAT;
  LANES(m, {
    uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], d = 0;
    for (int i = 0; i < 2; i++) {
      int32_t x = sgn ? (int16_t)(a >> (16 * i)) : (int32_t)(uint16_t)(a >> (16 * i));
      int32_t y = sgn ? (int16_t)(b >> (16 * i)) : (int32_t)(uint16_t)(b >> (16 * i));
      int32_t r = op == V_ADD ? x + y : op == V_SUB ? x - y : op == V_MIN ? (x < y ? x : y) : (x > y ? x : y);
      if (sat) r = sgn ? (r < -32768 ? -32768 : r > 32767 ? 32767 : r) : (r < 0 ? 0 : r > 65535 ? 65535 : r);
      d |= ((uint32_t)r & 0xffffu) << (16 * i);
    }
    D[l] = d;
  });
}

static int dec_simd16(dctx *D, dstmt *S, insn *in) {
  int op = in->op == OP_ADD   ? V_ADD
           : in->op == OP_SUB ? V_SUB
           : in->op == OP_MIN ? V_MIN
           : in->op == OP_MAX ? V_MAX
                              : -1;
  if (op < 0) return dec_error(D, S, -1, "'%s' does not take .%s", S->st->opcode, ptx_type_name(S->types[0]));
  if (dec_take(S, "sat")) in->flags |= IF_SAT;
  dec_take(S, "relu");
  in->type = (uint8_t)S->types[0];
  in->mode = (uint8_t)op;
  if (srcs(D, S, in, 2, PTX_T_U32) < 0) return -1;
  in->fn = simd16_h;
  return 0;
}

/* ---- selection ---- */
static void selp_h(warp *w, const insn *in, uint32_t m) {
  REGS3;
  uint32_t p = w->p[in->c];
  LANES(m, D[l] = (p >> l & 1) ? A[l] : B[l]);
}
static void slct_s32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  LANES(m, D[l] = (int32_t)C[l] >= 0 ? A[l] : B[l]);
}
static void slct_f32(warp *w, const insn *in, uint32_t m) {
  REGS3;
  int ftz = in->flags & IF_FTZ;
  LANES(m, {
    uint32_t c = (uint32_t)C[l];
    float f;
    if (ftz && (c & 0x7f800000) == 0) c = 0;
    memcpy(&f, &c, 4);
    D[l] = f >= 0.0f ? A[l] : B[l];
  });
}

/* ---- predicate logic ---- */
static void pand(warp *w, const insn *in, uint32_t m) {
  uint32_t *p = w->p;
  p[in->d] = (p[in->d] & ~m) | (p[in->a] & p[in->b] & m);
}
static void por(warp *w, const insn *in, uint32_t m) {
  uint32_t *p = w->p;
  p[in->d] = (p[in->d] & ~m) | ((p[in->a] | p[in->b]) & m);
}
static void pxor(warp *w, const insn *in, uint32_t m) {
  uint32_t *p = w->p;
  p[in->d] = (p[in->d] & ~m) | ((p[in->a] ^ p[in->b]) & m);
}
static void pnot(warp *w, const insn *in, uint32_t m) {
  uint32_t *p = w->p;
  p[in->d] = (p[in->d] & ~m) | (~p[in->a] & m);
}

/* ---- decoding ---- */
static int is_float(int t) {
  return t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 ||
         t == PTX_T_BF16X2;
}

static int pred_logic(dctx *D, dstmt *S, insn *in) {
  int neg = 0;
  exec_fn fns[] = {pand, por, pxor, pnot};
  int k = in->op == OP_AND ? 0 : in->op == OP_OR ? 1 : in->op == OP_XOR ? 2 : in->op == OP_NOT ? 3 : -1;
  if (k < 0) return dec_error(D, S, -1, "'%s' has no .pred form", S->st->opcode);
  if (dec_nops(D, S, k == 3 ? 2 : 3) < 0 || dec_pdst(D, S, 0, &in->d) < 0 ||
      dec_psrc(D, S, 1, &in->a, &neg) < 0)
    return -1;
  if (neg) return dec_error(D, S, 1, "negated predicate operand not allowed here");
  if (k != 3 && (dec_psrc(D, S, 2, &in->b, &neg) < 0 || neg))
    return neg ? dec_error(D, S, 2, "negated predicate operand not allowed here") : -1;
  in->fn = fns[k];
  return 0;
}

static int srcs(dctx *D, dstmt *S, insn *in, int n, int t) {
  if (dec_nops(D, S, n + 1) < 0 || dec_dst(D, S, 0, &in->d) < 0) return -1;
  uint32_t *r[] = {&in->a, &in->b, &in->c, &in->v[0]};
  for (int i = 0; i < n; i++)
    if (dec_src(D, S, i + 1, t, r[i]) < 0) return -1;
  return 0;
}

int dec_float_arith(dctx *D, dstmt *S, insn *in);
int dec_dp(dctx *D, dstmt *S, insn *in);

int dec_int(dctx *D, dstmt *S, insn *in) {
  int op = in->op;
  if (S->ntypes >= 1 && is_float(S->types[S->ntypes - 1]) && op != OP_SELP && op != OP_SLCT)
    return dec_float_arith(D, S, in);
  if (S->ntypes >= 1 && S->types[0] == PTX_T_PRED) return pred_logic(D, S, in);
  if (S->ntypes == 1 && (S->types[0] == PTX_T_U16X2 || S->types[0] == PTX_T_S16X2))
    return dec_simd16(D, S, in);
  if (op == OP_DP4A || op == OP_DP2A) return dec_dp(D, S, in);
  if (op == OP_SELP) {
    if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 4) < 0 || dec_dst(D, S, 0, &in->d) < 0 ||
        dec_src(D, S, 1, S->types[0], &in->a) < 0 || dec_src(D, S, 2, S->types[0], &in->b) < 0)
      return -1;
    int neg;
    if (dec_psrc(D, S, 3, &in->c, &neg) < 0) return -1;
    if (neg) return dec_error(D, S, 3, "negated predicate not allowed in selp");
    in->type = (uint8_t)S->types[0];
    in->fn = selp_h;
    return 0;
  }
  if (op == OP_SLCT) {
    if (dec_ntypes(D, S, 2) < 0 || srcs(D, S, in, 3, S->types[0]) < 0) return -1;
    in->type = (uint8_t)S->types[0];
    if (S->types[1] == PTX_T_S32) {
      in->fn = slct_s32;
      return 0;
    }
    if (S->types[1] == PTX_T_F32) {
      if (dec_take(S, "ftz")) in->flags |= IF_FTZ;
      in->fn = slct_f32;
      return 0;
    }
    return dec_error(D, S, -1, "slct needs .s32 or .f32 as its last type");
  }
  if (dec_ntypes(D, S, 1) < 0) return -1;
  int t = S->types[0], ic = int_class(t), bytes = ptx_type_size(t);
  in->type = (uint8_t)t;
  if (ic >= IT_S8) in->flags |= IF_SIGNED;
  if (ic == IT_NONE) return dec_error(D, S, -1, "'%s' does not take .%s", S->st->opcode, ptx_type_name(t));
  const exec_fn *tab = NULL;
  int nsrc = 2;
  switch (op) {
  case OP_ADD:
  case OP_SUB:
    if (dec_take(S, "cc")) {
      in->mode = 1;
      if (srcs(D, S, in, 2, t) < 0) return -1;
      in->fn = carry_op;
      return 0;
    }
    if (dec_take(S, "sat")) {
      if (t != PTX_T_S32) return dec_error(D, S, -1, ".sat needs .s32");
      if (srcs(D, S, in, 2, t) < 0) return -1;
      in->fn = addsat;
      return 0;
    }
    tab = op == OP_ADD ? add_tab : sub_tab;
    break;
  case OP_ADDC:
  case OP_SUBC:
    in->mode = 2 | (dec_take(S, "cc") ? 1 : 0);
    if (srcs(D, S, in, 2, t) < 0) return -1;
    in->fn = carry_op;
    return 0;
  case OP_MADC:
    in->mode = 2 | (dec_take(S, "cc") ? 1 : 0);
    if (dec_take(S, "hi"))
      in->flags |= IF_APPROX;
    else
      dec_take(S, "lo");
    if (srcs(D, S, in, 3, t) < 0) return -1;
    in->fn = carry_op;
    return 0;
  case OP_MUL:
    if (dec_take(S, "hi"))
      tab = mulhi_tab;
    else if (dec_take(S, "wide")) {
      if (srcs(D, S, in, 2, t) < 0) return -1;
      in->fn = mulwide_tab[ic];
      if (!in->fn) return dec_error(D, S, -1, "mul.wide needs a 16- or 32-bit type");
      return 0;
    } else {
      dec_take(S, "lo");
      tab = mullo_tab;
    }
    break;
  case OP_MAD: {
    int cc = dec_take(S, "cc");
    int hi = dec_take(S, "hi"), wide = !hi && dec_take(S, "wide"), sat = dec_take(S, "sat");
    if (!hi && !wide) dec_take(S, "lo");
    if (srcs(D, S, in, 3, t) < 0) return -1;
    if (wide) {
      /* the addend is twice as wide */
      if (dec_src(D, S, 3, bytes == 4 ? PTX_T_U64 : PTX_T_U32, &in->c) < 0) return -1;
      in->fn = madwide_tab[ic];
    } else if (cc) {
      in->mode = 1;
      if (hi) in->flags |= IF_APPROX;
      in->fn = carry_op;
    } else if (hi && sat) {
      if (t != PTX_T_S32) return dec_error(D, S, -1, "mad.hi.sat needs .s32");
      in->fn = madhisat_s32;
    } else {
      in->fn = (hi ? madhi_tab : madlo_tab)[ic];
    }
    if (!in->fn) return dec_error(D, S, -1, "unsupported type for mad");
    return 0;
  }
  case OP_MUL24:
  case OP_MAD24:
    if (t != PTX_T_U32 && t != PTX_T_S32) return dec_error(D, S, -1, "%s needs .u32 or .s32", S->st->opcode);
    if (dec_take(S, "hi"))
      in->mode = 1;
    else
      dec_take(S, "lo");
    if (dec_take(S, "sat")) {
      if (op != OP_MAD24 || in->mode != 1 || t != PTX_T_S32)
        return dec_error(D, S, -1, ".sat applies to mad24.hi.s32 only");
      in->flags |= IF_SAT;
    }
    if (srcs(D, S, in, op == OP_MAD24 ? 3 : 2, t) < 0) return -1;
    in->fn = mul24;
    return 0;
  case OP_SAD:
    if (srcs(D, S, in, 3, t) < 0) return -1;
    in->fn = sad_h;
    return 0;
  case OP_DIV:
    tab = div_tab;
    break;
  case OP_REM:
    tab = rem_tab;
    break;
  case OP_MIN:
    dec_take(S, "relu");
    tab = min_tab;
    break;
  case OP_MAX:
    dec_take(S, "relu");
    tab = max_tab;
    break;
  case OP_AND:
    tab = and_tab;
    break;
  case OP_OR:
    tab = or_tab;
    break;
  case OP_XOR:
    tab = xor_tab;
    break;
  case OP_ABS:
    tab = abs_tab;
    nsrc = 1;
    break;
  case OP_NEG:
    tab = neg_tab;
    nsrc = 1;
    break;
  case OP_NOT:
    tab = not_tab;
    nsrc = 1;
    break;
  case OP_CNOT:
    tab = cnot_tab;
    nsrc = 1;
    break;
  case OP_POPC:
  case OP_CLZ:
  case OP_BREV:
    if (bytes != 4 && bytes != 8) return dec_error(D, S, -1, "%s needs a 32- or 64-bit type", S->st->opcode);
    if (srcs(D, S, in, 1, t) < 0) return -1;
    in->fn = op == OP_POPC  ? (bytes == 4 ? popc_32 : popc_64)
             : op == OP_CLZ ? (bytes == 4 ? clz_32 : clz_64)
                            : (bytes == 4 ? brev_32 : brev_64);
    return 0;
  case OP_BFIND:
    in->mode = (uint8_t)dec_take(S, "shiftamt");
    if (srcs(D, S, in, 1, t) < 0) return -1;
    in->fn = bfind_h;
    return 0;
  case OP_SHL:
    if (srcs(D, S, in, 2, t) < 0 || dec_src(D, S, 2, PTX_T_U32, &in->b) < 0) return -1;
    in->fn = bytes == 4 ? shl_32 : shl_h;
    return 0;
  case OP_SHR:
    if (srcs(D, S, in, 2, t) < 0 || dec_src(D, S, 2, PTX_T_U32, &in->b) < 0) return -1;
    in->fn = ic >= IT_S8 ? (bytes == 4 ? shr_s32 : shr_s) : (bytes == 4 ? shr_u32 : shr_u);
    return 0;
  case OP_SHF:
    if (dec_take(S, "r"))
      in->mode |= 1;
    else if (!dec_take(S, "l"))
      return dec_error(D, S, -1, "shf needs .l or .r");
    if (dec_take(S, "clamp"))
      in->mode |= 2;
    else if (!dec_take(S, "wrap"))
      return dec_error(D, S, -1, "shf needs .wrap or .clamp");
    if (srcs(D, S, in, 3, PTX_T_U32) < 0) return -1;
    in->fn = shf_h;
    return 0;
  case OP_BFE:
    if (srcs(D, S, in, 3, t) < 0 || dec_src(D, S, 2, PTX_T_U32, &in->b) < 0 ||
        dec_src(D, S, 3, PTX_T_U32, &in->c) < 0)
      return -1;
    in->fn = bfe_h;
    return 0;
  case OP_BFI:
    if (srcs(D, S, in, 4, t) < 0 || dec_src(D, S, 3, PTX_T_U32, &in->c) < 0 ||
        dec_src(D, S, 4, PTX_T_U32, &in->v[0]) < 0)
      return -1;
    in->fn = bfi_h;
    return 0;
  case OP_PRMT: {
    static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL};
    int md = dec_take_any(S, modes);
    in->mode = (uint8_t)(md + 1);
    if (srcs(D, S, in, 3, PTX_T_U32) < 0) return -1;
    in->fn = prmt_h;
    return 0;
  }
  case OP_LOP3: {
    int bop = dec_take(S, "or") ? 1 : dec_take(S, "and") ? 2 : 0, neg = 0;
    if (dec_nops(D, S, bop ? 6 : 5) < 0 || dec_dst(D, S, 0, &in->d) < 0 || dec_src(D, S, 1, t, &in->a) < 0 ||
        dec_src(D, S, 2, t, &in->b) < 0 || dec_src(D, S, 3, t, &in->c) < 0)
      return -1;
    if (S->st->ops[4].kind != PTX_OPD_INT) return dec_error(D, S, 4, "lop3 needs an immediate lookup table");
    in->imm = S->st->ops[4].ival & 0xff;
    in->fn = lop3_h;
    if (!bop) return 0;
    /* lop3.or/.and: d|p, ..., q */
    if (!S->st->ops[0].pair) return dec_error(D, S, 0, "lop3.%s writes d|p", bop == 1 ? "or" : "and");
    if (dec_pair(D, S, 0, &in->d2) < 0 || dec_psrc(D, S, 5, &in->v[0], &neg) < 0) return -1;
    if (neg) in->flags |= IF_NEGC;
    in->mode = (uint8_t)bop;
    in->fn = lop3p_h;
    return 0;
  }
  case OP_DP4A:
  case OP_DP2A:
    return dec_error(D, S, -1, "%s takes two types", S->st->opcode);
  case OP_FNS:
    if (srcs(D, S, in, 3, PTX_T_U32) < 0) return -1;
    in->fn = fns_h;
    return 0;
  case OP_BMSK:
    if (dec_take(S, "clamp"))
      in->mode = 1;
    else if (!dec_take(S, "wrap"))
      return dec_error(D, S, -1, "bmsk needs .clamp or .wrap");
    if (srcs(D, S, in, 2, PTX_T_U32) < 0) return -1;
    in->fn = bmsk_h;
    return 0;
  default:
    return dec_error(D, S, -1, "'%s' is not an integer instruction", S->st->opcode);
  }
  if (srcs(D, S, in, nsrc, t) < 0) return -1;
  in->fn = tab[ic];
  if (!in->fn) return dec_error(D, S, -1, "'%s' does not take .%s", S->st->opcode, ptx_type_name(t));
  return 0;
}

/* dp4a/dp2a have two types: decoded apart from the one-type instructions. */
int dec_dp(dctx *D, dstmt *S, insn *in) {
  if (dec_ntypes(D, S, 2) < 0) return -1;
  if (S->types[0] == PTX_T_S32) in->mode |= 1;
  if (S->types[1] == PTX_T_S32) in->mode |= 2;
  if (in->op == OP_DP2A) {
    if (dec_take(S, "hi"))
      in->mode |= 4;
    else
      dec_take(S, "lo");
  }
  in->flags |= (in->mode & 3) ? IF_SIGNED : 0;
  if (srcs(D, S, in, 3, PTX_T_U32) < 0) return -1;
  in->fn = dp_h;
  return 0;
}
