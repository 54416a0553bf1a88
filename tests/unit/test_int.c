/* test_int.c: unit tests of smemu's integer and logic instructions. Every
 * test runs one instruction (or a short group) on one lane per input vector
 * and compares each lane with a C model of the PTX ISA's stated semantics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxrun.h"

/* ---- the lane harness ----------------------------------------------------
 * ptx_lanes3 (ptxrun.h): each lane loads a, b, c into %a16/%a32/%a64 etc.;
 * the instruction text computes %dN (and %eN for a second result). */

typedef struct vec {
  uint64_t a, b, c;    /* inputs */
  uint64_t want, want2; /* expected %d and %e (low `bits` bits compared) */
} vec;

typedef uint64_t (*ref_fn)(uint64_t a, uint64_t b, uint64_t c);

static uint64_t mask_of(int bits) {
  return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static void check_vecs(const char *insn, int bits, int two, const vec *v, int n) {
  uint64_t *in = calloc((size_t)n * 3, 8), *out = calloc((size_t)n * 4, 8);
  char err[1024];
  int bad = 0;
  assert_true(in && out && n <= 1024);
  for (int i = 0; i < n; i++) {
    in[3 * i] = v[i].a;
    in[3 * i + 1] = v[i].b;
    in[3 * i + 2] = v[i].c;
  }
  PTX_OK(ptx_lanes3(insn, bits, (uint32_t)n, in, out, err, sizeof err), err);
  for (int i = 0; i < n; i++) {
    uint64_t m = mask_of(bits);
    uint64_t d = out[4 * i] & m, e = out[4 * i + 1] & m;
    if (d != (v[i].want & m) || (two && e != (v[i].want2 & m))) {
      if (bad < 16)
        print_error("  %s  lane %d: a=%#llx b=%#llx c=%#llx -> got %#llx/%#llx, "
                    "want %#llx/%#llx\n",
                    insn, i, (unsigned long long)v[i].a, (unsigned long long)v[i].b,
                    (unsigned long long)v[i].c, (unsigned long long)d,
                    (unsigned long long)e, (unsigned long long)(v[i].want & m),
                    (unsigned long long)(two ? v[i].want2 & m : 0));
      bad++;
    }
  }
  free(in);
  free(out);
  if (bad) fail_msg("%s: %d of %d lanes wrong", insn, bad, n);
}

/* Every pair of `vals` as (a, b), with c fixed; returns the count. */
static int cross(const uint64_t *vals, int nv, uint64_t c, vec *v) {
  int n = 0;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < nv; j++) {
      v[n].a = vals[i];
      v[n].b = vals[j];
      v[n].c = c;
      v[n].want = v[n].want2 = 0;
      n++;
    }
  return n;
}

/* Runs insn on every pair of vals (c = c0, then c1 when c1 != c0) against ref. */
static void check_ref(const char *insn, int bits, const uint64_t *vals, int nv,
                      ref_fn ref) {
  vec *v = calloc((size_t)nv * nv, sizeof *v);
  int n;
  assert_non_null(v);
  n = cross(vals, nv, 0, v);
  for (int i = 0; i < n; i++) v[i].want = ref(v[i].a, v[i].b, v[i].c);
  check_vecs(insn, bits, 0, v, n);
  free(v);
}

/* The same with explicit triples. */
static void check_ref3(const char *insn, int bits, const uint64_t (*t)[3], int n,
                       ref_fn ref) {
  vec *v = calloc((size_t)n, sizeof *v);
  assert_non_null(v);
  for (int i = 0; i < n; i++) {
    v[i].a = t[i][0];
    v[i].b = t[i][1];
    v[i].c = t[i][2];
    v[i].want = ref(v[i].a, v[i].b, v[i].c);
  }
  check_vecs(insn, bits, 0, v, n);
  free(v);
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Boundary inputs (negative numbers are written as their two's complement). */
static const uint64_t V16[] = {0, 1, 2, 3, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe,
                               0x1234, 100, 0xff9c /* -100 */, 0x00ff, 0x0100};
static const uint64_t V32[] = {0,          1,          2,          3,
                               0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
                               0xfffffffe, 0x12345678, 0xdeadbeef, 100,
                               0xffffff9c, 0x00010000, 0x0000ffff, 7};
static const uint64_t V64[] = {0,
                               1,
                               2,
                               7,
                               0x7fffffffffffffffull,
                               0x8000000000000000ull,
                               0x8000000000000001ull,
                               0xffffffffffffffffull,
                               0xfffffffffffffffeull,
                               0x123456789abcdef0ull,
                               0x00000000ffffffffull,
                               0x0000000100000000ull,
                               0xffffffffffffff9cull /* -100 */,
                               100};

static int32_t s32(uint64_t x) { return (int32_t)(uint32_t)x; }
static int16_t s16(uint64_t x) { return (int16_t)(uint16_t)x; }
static int64_t s64(uint64_t x) { return (int64_t)x; }

/* ---- add / sub -------------------------------------------------------- */

static uint64_t r_add(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a + b; }
static uint64_t r_sub(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a - b; }

static void test_add_sub_32(void **state) {
  (void)state;
  /* Two's complement wrap: 0x7fffffff + 1 = 0x80000000, 0xffffffff + 1 = 0. */
  check_ref("add.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_add);
  check_ref("add.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_add);
  check_ref("sub.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_sub);
  check_ref("sub.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_sub);
}

static uint64_t sat32(int64_t x) {
  if (x > INT32_MAX) x = INT32_MAX;
  if (x < INT32_MIN) x = INT32_MIN;
  return (uint32_t)(int32_t)x;
}
static uint64_t r_add_sat(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return sat32((int64_t)s32(a) + s32(b));
}
static uint64_t r_sub_sat(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return sat32((int64_t)s32(a) - s32(b));
}

static void test_add_sub_sat(void **state) {
  (void)state;
  /* .sat clamps to INT_MIN..INT_MAX: 0x7fffffff + 1 = 0x7fffffff. */
  check_ref("add.sat.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_add_sat);
  check_ref("sub.sat.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_sub_sat);
}

static void test_add_sub_16_64(void **state) {
  (void)state;
  check_ref("add.u16 %d16, %a16, %b16;", 16, V16, N(V16), r_add);
  check_ref("add.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_add);
  check_ref("sub.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_sub);
  check_ref("add.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_add);
  check_ref("add.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_add);
  check_ref("sub.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_sub);
  check_ref("sub.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_sub);
}

static uint64_t r_add_m5(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  return a - 5;
}
static uint64_t r_sub_hex(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  return 0x10u - a;
}

static void test_add_immediates(void **state) {
  (void)state;
  /* Immediate operands: a negative decimal and a hexadecimal literal. */
  check_ref("add.s32 %d32, %a32, -5;", 32, V32, N(V32), r_add_m5);
  check_ref("sub.s32 %d32, 0x10, %a32;", 32, V32, N(V32), r_sub_hex);
  check_ref("add.s64 %d64, %a64, -5;", 64, V64, N(V64), r_add_m5);
}

/* ---- mul / mad -------------------------------------------------------- */

static uint64_t r_mul_lo(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a * b; }
static uint64_t r_mul_hi_u32(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return ((uint64_t)(uint32_t)a * (uint32_t)b) >> 32;
}
static uint64_t r_mul_hi_s32(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return (uint64_t)((int64_t)s32(a) * s32(b)) >> 32;
}
static uint64_t r_mul_wide_u32(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return (uint64_t)(uint32_t)a * (uint32_t)b;
}
static uint64_t r_mul_wide_s32(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return (uint64_t)((int64_t)s32(a) * s32(b));
}
static uint64_t r_mul_wide_u16(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return (uint64_t)((uint32_t)(uint16_t)a * (uint16_t)b);
}
static uint64_t r_mul_wide_s16(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return (uint32_t)((int32_t)s16(a) * s16(b));
}
static uint64_t r_mul_hi_u16(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return ((uint32_t)(uint16_t)a * (uint16_t)b) >> 16;
}
static uint64_t r_mul_hi_s16(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return (uint32_t)((int32_t)s16(a) * s16(b)) >> 16;
}
static uint64_t r_mul_hi_u64(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static uint64_t r_mul_hi_s64(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  __int128 p = (__int128)s64(a) * s64(b);
  return (uint64_t)((unsigned __int128)p >> 64);
}

static void test_mul_32(void **state) {
  (void)state;
  check_ref("mul.lo.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_mul_lo);
  check_ref("mul.lo.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_mul_lo);
  check_ref("mul.hi.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_mul_hi_u32);
  check_ref("mul.hi.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_mul_hi_s32);
}

static void test_mul_wide(void **state) {
  (void)state;
  check_ref("mul.wide.u32 %d64, %a32, %b32;", 64, V32, N(V32), r_mul_wide_u32);
  check_ref("mul.wide.s32 %d64, %a32, %b32;", 64, V32, N(V32), r_mul_wide_s32);
  check_ref("mul.wide.u16 %d32, %a16, %b16;", 32, V16, N(V16), r_mul_wide_u16);
  check_ref("mul.wide.s16 %d32, %a16, %b16;", 32, V16, N(V16), r_mul_wide_s16);
}

static void test_mul_16_64(void **state) {
  (void)state;
  check_ref("mul.lo.u16 %d16, %a16, %b16;", 16, V16, N(V16), r_mul_lo);
  check_ref("mul.lo.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_mul_lo);
  check_ref("mul.hi.u16 %d16, %a16, %b16;", 16, V16, N(V16), r_mul_hi_u16);
  check_ref("mul.hi.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_mul_hi_s16);
  check_ref("mul.lo.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_mul_lo);
  check_ref("mul.lo.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_mul_lo);
  check_ref("mul.hi.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_mul_hi_u64);
  check_ref("mul.hi.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_mul_hi_s64);
}

static const uint64_t MAD3_32[][3] = {
    {3, 5, 7},
    {0xffffffff, 0xffffffff, 1},
    {0x80000000, 2, 0xffffffff},
    {0x7fffffff, 0x7fffffff, 0x7fffffff},
    {0x80000000, 0x80000000, 0x80000000},
    {0xffffff9c, 100, 0x12345678},
    {0x12345678, 0x9abcdef0, 0xdeadbeef},
    {0, 0xffffffff, 0xffffffff},
    {0x10000, 0x10000, 5},
    {0x7fffffff, 0x80000000, 0x80000000},
};

static uint64_t r_mad_lo(uint64_t a, uint64_t b, uint64_t c) { return a * b + c; }
static uint64_t r_mad_hi_u32(uint64_t a, uint64_t b, uint64_t c) {
  return r_mul_hi_u32(a, b, 0) + c;
}
static uint64_t r_mad_hi_s32(uint64_t a, uint64_t b, uint64_t c) {
  return r_mul_hi_s32(a, b, 0) + c;
}
static uint64_t r_mad_hi_sat_s32(uint64_t a, uint64_t b, uint64_t c) {
  /* .sat (s32, .hi only): the high half plus c, clamped. */
  int32_t hi = (int32_t)(uint32_t)r_mul_hi_s32(a, b, 0);
  return sat32((int64_t)hi + s32(c));
}
static uint64_t r_mad_wide_u32(uint64_t a, uint64_t b, uint64_t c) {
  return r_mul_wide_u32(a, b, 0) + c;
}
static uint64_t r_mad_wide_s32(uint64_t a, uint64_t b, uint64_t c) {
  return r_mul_wide_s32(a, b, 0) + c;
}
static uint64_t r_mad_hi_u64(uint64_t a, uint64_t b, uint64_t c) {
  return r_mul_hi_u64(a, b, 0) + c;
}

static void test_mad(void **state) {
  (void)state;
  check_ref3("mad.lo.u32 %d32, %a32, %b32, %c32;", 32, MAD3_32, N(MAD3_32), r_mad_lo);
  check_ref3("mad.lo.s32 %d32, %a32, %b32, %c32;", 32, MAD3_32, N(MAD3_32), r_mad_lo);
  check_ref3("mad.hi.u32 %d32, %a32, %b32, %c32;", 32, MAD3_32, N(MAD3_32), r_mad_hi_u32);
  check_ref3("mad.hi.s32 %d32, %a32, %b32, %c32;", 32, MAD3_32, N(MAD3_32), r_mad_hi_s32);
  check_ref3("mad.hi.sat.s32 %d32, %a32, %b32, %c32;", 32, MAD3_32, N(MAD3_32),
             r_mad_hi_sat_s32);
}

static void test_mad_wide_64(void **state) {
  (void)state;
  static const uint64_t t[][3] = {
      {0xffffffff, 0xffffffff, 0xffffffffffffffffull},
      {0x80000000, 0x80000000, 1},
      {0xffffff9c, 100, 0x8000000000000000ull},
      {3, 5, 7},
      {0x12345678, 0x9abcdef0, 0x0fedcba987654321ull},
  };
  static const uint64_t t64[][3] = {
      {0xffffffffffffffffull, 0xffffffffffffffffull, 1},
      {0x123456789abcdef0ull, 0x0fedcba987654321ull, 0xffffffffffffffffull},
      {0x8000000000000000ull, 2, 0x8000000000000000ull},
      {3, 5, 7},
  };
  check_ref3("mad.wide.u32 %d64, %a32, %b32, %c64;", 64, t, N(t), r_mad_wide_u32);
  check_ref3("mad.wide.s32 %d64, %a32, %b32, %c64;", 64, t, N(t), r_mad_wide_s32);
  check_ref3("mad.lo.u64 %d64, %a64, %b64, %c64;", 64, t64, N(t64), r_mad_lo);
  check_ref3("mad.lo.s64 %d64, %a64, %b64, %c64;", 64, t64, N(t64), r_mad_lo);
  check_ref3("mad.hi.u64 %d64, %a64, %b64, %c64;", 64, t64, N(t64), r_mad_hi_u64);
}

/* mul24: the product of the low 24 bits of each operand (sign-extended from
 * bit 23 for .s32); .lo gives bits 31..0 of the 48-bit product, .hi 47..16. */
static int64_t sx24(uint64_t x) {
  uint32_t v = (uint32_t)x & 0xffffff;
  return (v & 0x800000) ? (int64_t)v - 0x1000000 : (int64_t)v;
}
static uint64_t r_mul24_lo_u(uint64_t a, uint64_t b, uint64_t c) {
  return (uint32_t)((a & 0xffffff) * (b & 0xffffff)) + c;
}
static uint64_t r_mul24_hi_u(uint64_t a, uint64_t b, uint64_t c) {
  return (uint32_t)(((a & 0xffffff) * (b & 0xffffff)) >> 16) + c;
}
static uint64_t r_mul24_lo_s(uint64_t a, uint64_t b, uint64_t c) {
  return (uint32_t)(uint64_t)(sx24(a) * sx24(b)) + c;
}
static uint64_t r_mul24_hi_s(uint64_t a, uint64_t b, uint64_t c) {
  return (uint32_t)((uint64_t)(sx24(a) * sx24(b)) >> 16) + c;
}

static uint64_t r_mul24_lo_u_noc(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return r_mul24_lo_u(a, b, 0);
}
static uint64_t r_mul24_hi_u_noc(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return r_mul24_hi_u(a, b, 0);
}
static uint64_t r_mul24_lo_s_noc(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return r_mul24_lo_s(a, b, 0);
}
static uint64_t r_mul24_hi_s_noc(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  return r_mul24_hi_s(a, b, 0);
}

/* Unsigned operands with bits above 23 set: those bits are ignored. */
static const uint64_t MUL24_U[][3] = {
    {0xffffff, 0xffffff, 0},     {0xff000005, 3, 0},       {0x123456, 0x654321, 9},
    {0x800000, 0x800000, 0x10}, {0xabcdef12, 0x12345678, 0xffffffff},
    {0, 0xffffff, 1},
};
/* Signed operands in the 24-bit range (bits 31..24 copy bit 23). */
static const uint64_t MUL24_S[][3] = {
    {0xfffffffd /* -3 */, 5, 0}, {0xff800000 /* -2^23 */, 0xff800000, 0},
    {0x7fffff, 0x7fffff, 1},     {0xff800000, 0x7fffff, 0x80000000},
    {0xffffffff, 0xffffffff, 2}, {0x123456, 0xffedcbaa, 7},
};

static void test_mul24(void **state) {
  (void)state;
  /* Hand-computed: 0xffffff * 0xffffff = 0xfffffe000001; .hi = 0xfffffe00. */
  static const vec v[] = {{0xffffff, 0xffffff, 0, 0xfe000001, 0xfffffe00}};
  check_vecs("mul24.lo.u32 %d32, %a32, %b32; mul24.hi.u32 %e32, %a32, %b32;", 32, 1, v, 1);
  check_ref3("mul24.lo.u32 %d32, %a32, %b32;", 32, MUL24_U, N(MUL24_U), r_mul24_lo_u_noc);
  check_ref3("mul24.hi.u32 %d32, %a32, %b32;", 32, MUL24_U, N(MUL24_U), r_mul24_hi_u_noc);
  check_ref3("mul24.lo.s32 %d32, %a32, %b32;", 32, MUL24_S, N(MUL24_S), r_mul24_lo_s_noc);
  check_ref3("mul24.hi.s32 %d32, %a32, %b32;", 32, MUL24_S, N(MUL24_S), r_mul24_hi_s_noc);
}

static void test_mad24(void **state) {
  (void)state;
  check_ref3("mad24.lo.u32 %d32, %a32, %b32, %c32;", 32, MUL24_U, N(MUL24_U), r_mul24_lo_u);
  check_ref3("mad24.hi.u32 %d32, %a32, %b32, %c32;", 32, MUL24_U, N(MUL24_U), r_mul24_hi_u);
  check_ref3("mad24.lo.s32 %d32, %a32, %b32, %c32;", 32, MUL24_S, N(MUL24_S), r_mul24_lo_s);
  check_ref3("mad24.hi.s32 %d32, %a32, %b32, %c32;", 32, MUL24_S, N(MUL24_S), r_mul24_hi_s);
}

/* ---- div / rem -------------------------------------------------------- */
/* PTX leaves division by zero undefined; we expect what NVIDIA hardware
 * gives: a result with all bits set, for div and for rem alike (NVIDIA's
 * own description of its integer division, stackoverflow.com/q/12960005;
 * 32-bit unsigned is the documented case, the others are to be confirmed
 * on a GPU). */

static uint64_t r_divu(int bits, uint64_t a, uint64_t b) {
  uint64_t m = mask_of(bits);
  a &= m;
  b &= m;
  return b ? a / b : m;
}
static uint64_t r_remu(int bits, uint64_t a, uint64_t b) {
  uint64_t m = mask_of(bits);
  a &= m;
  b &= m;
  return b ? a % b : m;
}
/* Signed: x / 0 = -1 and x % 0 = -1 (all ones) -- to be confirmed on GPU.
 * MIN / -1 = MIN and MIN % -1 = 0 (no trap). */
static int64_t sext(int bits, uint64_t x) {
  if (bits == 64) return (int64_t)x;
  x &= mask_of(bits);
  if (x >> (bits - 1)) return (int64_t)(x | ~mask_of(bits));
  return (int64_t)x;
}
static uint64_t r_divs(int bits, uint64_t a, uint64_t b) {
  int64_t x = sext(bits, a), y = sext(bits, b);
  if (y == 0) return ~0ull;
  if (y == -1) return (uint64_t)0 - (uint64_t)x; /* wraps for MIN */
  return (uint64_t)(x / y);
}
static uint64_t r_rems(int bits, uint64_t a, uint64_t b) {
  int64_t x = sext(bits, a), y = sext(bits, b);
  if (y == 0) return ~0ull;
  if (y == -1) return 0;
  return (uint64_t)(x % y);
}

static uint64_t r_divu32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_divu(32, a, b); }
static uint64_t r_remu32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_remu(32, a, b); }
static uint64_t r_divs32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_divs(32, a, b); }
static uint64_t r_rems32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_rems(32, a, b); }
static uint64_t r_divu16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_divu(16, a, b); }
static uint64_t r_remu16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_remu(16, a, b); }
static uint64_t r_divs16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_divs(16, a, b); }
static uint64_t r_rems16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_rems(16, a, b); }
static uint64_t r_divu64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_divu(64, a, b); }
static uint64_t r_remu64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_remu(64, a, b); }
static uint64_t r_divs64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_divs(64, a, b); }
static uint64_t r_rems64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_rems(64, a, b); }

static void test_div_rem_unsigned(void **state) {
  (void)state;
  check_ref("div.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_divu32);
  check_ref("rem.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_remu32);
}

static void test_div_rem_signed(void **state) {
  (void)state;
  /* Includes INT_MIN / -1 (must not crash: INT_MIN) and x / 0. */
  check_ref("div.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_divs32);
  check_ref("rem.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_rems32);
}

static void test_div_rem_16_64(void **state) {
  (void)state;
  check_ref("div.u16 %d16, %a16, %b16;", 16, V16, N(V16), r_divu16);
  check_ref("rem.u16 %d16, %a16, %b16;", 16, V16, N(V16), r_remu16);
  check_ref("div.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_divs16);
  check_ref("rem.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_rems16);
  check_ref("div.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_divu64);
  check_ref("rem.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_remu64);
  check_ref("div.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_divs64);
  check_ref("rem.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_rems64);
}

static void test_div_literals(void **state) {
  (void)state;
  /* Hand-computed: -7 / 2 = -3 and -7 % 2 = -1 (truncation toward zero). */
  static const vec v[] = {
      {0xfffffff9, 2, 0, 0xfffffffd, 0xffffffff},
      {7, 0xfffffffe, 0, 0xfffffffd, 1},
      {0x80000000, 0xffffffff, 0, 0x80000000, 0},
      {100, 0, 0, 0xffffffff, 0xffffffff},
  };
  check_vecs("div.s32 %d32, %a32, %b32; rem.s32 %e32, %a32, %b32;", 32, 1, v, N(v));
}

/* ---- abs / neg / min / max ------------------------------------------- */

static uint64_t r_abs(int bits, uint64_t a) {
  int64_t x = sext(bits, a);
  return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}
static uint64_t r_abs16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return r_abs(16, a); }
static uint64_t r_abs32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return r_abs(32, a); }
static uint64_t r_abs64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return r_abs(64, a); }
static uint64_t r_neg(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)0 - a; }

static void test_abs_neg(void **state) {
  (void)state;
  /* abs(INT_MIN) = INT_MIN, neg(INT_MIN) = INT_MIN (wrap). */
  check_ref("abs.s16 %d16, %a16;", 16, V16, N(V16), r_abs16);
  check_ref("abs.s32 %d32, %a32;", 32, V32, N(V32), r_abs32);
  check_ref("abs.s64 %d64, %a64;", 64, V64, N(V64), r_abs64);
  check_ref("neg.s16 %d16, %a16;", 16, V16, N(V16), r_neg);
  check_ref("neg.s32 %d32, %a32;", 32, V32, N(V32), r_neg);
  check_ref("neg.s64 %d64, %a64;", 64, V64, N(V64), r_neg);
}

static uint64_t r_mins(int bits, uint64_t a, uint64_t b) {
  return sext(bits, a) < sext(bits, b) ? a : b;
}
static uint64_t r_maxs(int bits, uint64_t a, uint64_t b) {
  return sext(bits, a) > sext(bits, b) ? a : b;
}
static uint64_t r_minu(int bits, uint64_t a, uint64_t b) {
  return (a & mask_of(bits)) < (b & mask_of(bits)) ? a : b;
}
static uint64_t r_maxu(int bits, uint64_t a, uint64_t b) {
  return (a & mask_of(bits)) > (b & mask_of(bits)) ? a : b;
}
#define MINMAX_REFS(W)                                                                    \
  static uint64_t r_mins##W(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_mins(W, a, b); } \
  static uint64_t r_maxs##W(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_maxs(W, a, b); } \
  static uint64_t r_minu##W(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_minu(W, a, b); } \
  static uint64_t r_maxu##W(uint64_t a, uint64_t b, uint64_t c) { (void)c; return r_maxu(W, a, b); }
MINMAX_REFS(16)
MINMAX_REFS(32)
MINMAX_REFS(64)

static void test_min_max(void **state) {
  (void)state;
  /* Signed and unsigned order differ for values with the top bit set. */
  check_ref("min.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_mins32);
  check_ref("max.s32 %d32, %a32, %b32;", 32, V32, N(V32), r_maxs32);
  check_ref("min.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_minu32);
  check_ref("max.u32 %d32, %a32, %b32;", 32, V32, N(V32), r_maxu32);
  check_ref("min.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_mins16);
  check_ref("max.s16 %d16, %a16, %b16;", 16, V16, N(V16), r_maxs16);
  check_ref("min.u16 %d16, %a16, %b16;", 16, V16, N(V16), r_minu16);
  check_ref("max.u16 %d16, %a16, %b16;", 16, V16, N(V16), r_maxu16);
  check_ref("min.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_mins64);
  check_ref("max.s64 %d64, %a64, %b64;", 64, V64, N(V64), r_maxs64);
  check_ref("min.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_minu64);
  check_ref("max.u64 %d64, %a64, %b64;", 64, V64, N(V64), r_maxu64);
}

/* ---- shifts ------------------------------------------------------------ */
/* Shift amounts are .u32; amounts larger than the width are clamped to it:
 * shl gives 0, shr.u/.b gives 0, shr.s gives the sign fill. */

static const uint64_t SHIFTS32[] = {0, 1, 4, 31, 32, 33, 255, 256, 0x80000000, 0xffffffff};
static const uint64_t SHIFTS64[] = {0, 1, 31, 32, 63, 64, 65, 255, 0x100, 0xffffffff};

static uint64_t shl_w(int bits, uint64_t a, uint64_t n) {
  n &= 0xffffffff;
  return n >= (uint64_t)bits ? 0 : (a << n) & mask_of(bits);
}
static uint64_t shr_u(int bits, uint64_t a, uint64_t n) {
  n &= 0xffffffff;
  return n >= (uint64_t)bits ? 0 : (a & mask_of(bits)) >> n;
}
static uint64_t shr_s(int bits, uint64_t a, uint64_t n) {
  int64_t x = sext(bits, a);
  n &= 0xffffffff;
  if (n >= (uint64_t)bits) return x < 0 ? ~0ull : 0;
  /* arithmetic shift without relying on implementation-defined >> */
  return x < 0 ? ~(~(uint64_t)x >> n) : (uint64_t)x >> n;
}

static void check_shift(const char *insn, int bits, const uint64_t *vals, int nv,
                        const uint64_t *sh, int ns,
                        uint64_t (*f)(int, uint64_t, uint64_t)) {
  vec v[256];
  int n = 0;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < ns; j++) {
      v[n].a = vals[i];
      v[n].b = sh[j];
      v[n].c = 0;
      v[n].want = f(bits, vals[i], sh[j]);
      v[n].want2 = 0;
      n++;
    }
  check_vecs(insn, bits, 0, v, n);
}

static void test_shl_shr_32(void **state) {
  (void)state;
  static const uint64_t a[] = {0x80000001, 0xffffffff, 0x12345678, 1, 0x7fffffff, 0};
  check_shift("shl.b32 %d32, %a32, %b32;", 32, a, N(a), SHIFTS32, N(SHIFTS32), shl_w);
  check_shift("shr.u32 %d32, %a32, %b32;", 32, a, N(a), SHIFTS32, N(SHIFTS32), shr_u);
  check_shift("shr.b32 %d32, %a32, %b32;", 32, a, N(a), SHIFTS32, N(SHIFTS32), shr_u);
  check_shift("shr.s32 %d32, %a32, %b32;", 32, a, N(a), SHIFTS32, N(SHIFTS32), shr_s);
}

static void test_shl_shr_64(void **state) {
  (void)state;
  static const uint64_t a[] = {0x8000000000000001ull, 0xffffffffffffffffull,
                               0x123456789abcdef0ull, 1, 0x7fffffffffffffffull};
  check_shift("shl.b64 %d64, %a64, %b32;", 64, a, N(a), SHIFTS64, N(SHIFTS64), shl_w);
  check_shift("shr.u64 %d64, %a64, %b32;", 64, a, N(a), SHIFTS64, N(SHIFTS64), shr_u);
  check_shift("shr.b64 %d64, %a64, %b32;", 64, a, N(a), SHIFTS64, N(SHIFTS64), shr_u);
  check_shift("shr.s64 %d64, %a64, %b32;", 64, a, N(a), SHIFTS64, N(SHIFTS64), shr_s);
}

static void test_shl_shr_16(void **state) {
  (void)state;
  static const uint64_t a[] = {0x8001, 0xffff, 0x1234, 1, 0x7fff};
  static const uint64_t sh[] = {0, 1, 15, 16, 17, 255, 0x10000};
  check_shift("shl.b16 %d16, %a16, %b32;", 16, a, N(a), sh, N(sh), shl_w);
  check_shift("shr.u16 %d16, %a16, %b32;", 16, a, N(a), sh, N(sh), shr_u);
  check_shift("shr.s16 %d16, %a16, %b32;", 16, a, N(a), sh, N(sh), shr_s);
}

static uint64_t r_shl33(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return shl_w(32, a, 33); }
static uint64_t r_shrs40(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return shr_s(32, a, 40); }
static uint64_t r_shl3(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return shl_w(32, a, 3); }

static void test_shift_immediates(void **state) {
  (void)state;
  check_ref("shl.b32 %d32, %a32, 33;", 32, V32, N(V32), r_shl33);
  check_ref("shr.s32 %d32, %a32, 40;", 32, V32, N(V32), r_shrs40);
  check_ref("shl.b32 %d32, %a32, 3;", 32, V32, N(V32), r_shl3);
}

/* ---- logic -------------------------------------------------------------- */

static uint64_t r_and(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a & b; }
static uint64_t r_or(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a | b; }
static uint64_t r_xor(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a ^ b; }
static uint64_t r_not(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return ~a; }
static uint64_t r_cnot16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (a & 0xffff) == 0; }
static uint64_t r_cnot32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (a & 0xffffffff) == 0; }
static uint64_t r_cnot64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return a == 0; }

static void test_logic(void **state) {
  (void)state;
  check_ref("and.b32 %d32, %a32, %b32;", 32, V32, N(V32), r_and);
  check_ref("or.b32 %d32, %a32, %b32;", 32, V32, N(V32), r_or);
  check_ref("xor.b32 %d32, %a32, %b32;", 32, V32, N(V32), r_xor);
  check_ref("not.b32 %d32, %a32;", 32, V32, N(V32), r_not);
  check_ref("cnot.b32 %d32, %a32;", 32, V32, N(V32), r_cnot32);
  check_ref("and.b16 %d16, %a16, %b16;", 16, V16, N(V16), r_and);
  check_ref("or.b16 %d16, %a16, %b16;", 16, V16, N(V16), r_or);
  check_ref("xor.b16 %d16, %a16, %b16;", 16, V16, N(V16), r_xor);
  check_ref("not.b16 %d16, %a16;", 16, V16, N(V16), r_not);
  check_ref("cnot.b16 %d16, %a16;", 16, V16, N(V16), r_cnot16);
  check_ref("and.b64 %d64, %a64, %b64;", 64, V64, N(V64), r_and);
  check_ref("or.b64 %d64, %a64, %b64;", 64, V64, N(V64), r_or);
  check_ref("xor.b64 %d64, %a64, %b64;", 64, V64, N(V64), r_xor);
  check_ref("not.b64 %d64, %a64;", 64, V64, N(V64), r_not);
  check_ref("cnot.b64 %d64, %a64;", 64, V64, N(V64), r_cnot64);
}

static uint64_t r_pred_logic(uint64_t a, uint64_t b, uint64_t c) {
  (void)c;
  int p = a != 0, q = b != 0;
  return (uint64_t)(p & q) | (uint64_t)(p | q) << 1 | (uint64_t)(p ^ q) << 2 |
         (uint64_t)(!p) << 3;
}

static void test_logic_pred(void **state) {
  (void)state;
  static const uint64_t v[] = {0, 1, 0x80000000};
  /* and/or/xor/not on predicates; the four results packed into bits 0..3. */
  check_ref("setp.ne.u32 %p, %a32, 0;\n"
            "  setp.ne.u32 %q, %b32, 0;\n"
            "  and.pred %pk, %p, %q;  selp.u32 %r0, 1, 0, %pk;\n"
            "  or.pred %pk, %p, %q;   selp.u32 %r1, 2, 0, %pk;\n"
            "  xor.pred %pk, %p, %q;  selp.u32 %r2, 4, 0, %pk;\n"
            "  not.pred %pk, %p;      selp.u32 %r3, 8, 0, %pk;\n"
            "  or.b32 %d32, %r0, %r1;\n"
            "  or.b32 %d32, %d32, %r2;\n"
            "  or.b32 %d32, %d32, %r3;",
            32, v, N(v), r_pred_logic);
}

/* ---- bit fields ------------------------------------------------------- */

/* bfe per the ISA pseudo-code: pos = b & 0xff, len = c & 0xff. */
static uint64_t bfe_ref(int bits, int sgn, uint64_t a, uint64_t b, uint64_t c) {
  unsigned msb = (unsigned)bits - 1, pos = b & 0xff, len = c & 0xff;
  uint64_t sbit = 0, d = 0;
  if (sgn && len) {
    unsigned i = pos + len - 1;
    if (i > msb) i = msb;
    sbit = (a >> i) & 1;
  }
  for (unsigned i = 0; i <= msb; i++) {
    uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}
static uint64_t r_bfe_u32(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(32, 0, a, b, c); }
static uint64_t r_bfe_s32(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(32, 1, a, b, c); }
static uint64_t r_bfe_u64(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(64, 0, a, b, c); }
static uint64_t r_bfe_s64(uint64_t a, uint64_t b, uint64_t c) { return bfe_ref(64, 1, a, b, c); }

static void check_field(const char *insn, int bits, const uint64_t *vals, int nv,
                        ref_fn ref) {
  /* (pos, len) pairs: len 0, pos + len beyond the width, pos beyond msb, and
   * values above 255 whose low 8 bits are used. */
  static const uint64_t pl[][2] = {
      {0, 0},  {0, 1},  {0, 8},  {4, 8},   {28, 4},  {28, 8},  {31, 1},   {31, 2},
      {0, 32}, {0, 33}, {1, 32}, {32, 1},  {40, 4},  {60, 4},  {60, 8},   {63, 1},
      {0, 64}, {8, 64}, {64, 1}, {200, 3}, {255, 255}, {0x104, 0x203}, {7, 0x100}, {3, 5},
  };
  vec v[512];
  int n = 0;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < N(pl); j++) {
      v[n].a = vals[i];
      v[n].b = pl[j][0];
      v[n].c = pl[j][1];
      v[n].want = ref(vals[i], pl[j][0], pl[j][1]);
      v[n].want2 = 0;
      n++;
    }
  check_vecs(insn, bits, 0, v, n);
}

static void test_bfe_32(void **state) {
  (void)state;
  static const uint64_t a[] = {0xf0f0a5c3, 0x80000000, 0x7fffffff, 0xffffffff, 0x12345678};
  check_field("bfe.u32 %d32, %a32, %b32, %c32;", 32, a, N(a), r_bfe_u32);
  check_field("bfe.s32 %d32, %a32, %b32, %c32;", 32, a, N(a), r_bfe_s32);
}

static void test_bfe_64(void **state) {
  (void)state;
  static const uint64_t a[] = {0xf0f0a5c30f0f5a3cull, 0x8000000000000000ull,
                               0x7fffffffffffffffull, 0x123456789abcdef0ull};
  check_field("bfe.u64 %d64, %a64, %b32, %c32;", 64, a, N(a), r_bfe_u64);
  check_field("bfe.s64 %d64, %a64, %b32, %c32;", 64, a, N(a), r_bfe_s64);
}

static void test_bfe_literals(void **state) {
  (void)state;
  /* Hand-computed: field 0xa5 at bit 8 of 0xf0f0a5c3; signed it is -91. */
  static const vec v[] = {
      {0xf0f0a5c3, 8, 8, 0x000000a5, 0xffffffa5},
      {0xf0f0a5c3, 8, 0, 0, 0},
      {0xf0f0a5c3, 28, 8, 0x0000000f, 0xffffffff},
      {0x0000a5c3, 40, 4, 0, 0},
      {0x80000000, 40, 4, 0, 0xffffffff},
  };
  check_vecs("bfe.u32 %d32, %a32, %b32, %c32; bfe.s32 %e32, %a32, %b32, %c32;", 32, 1,
             v, N(v));
}

static uint64_t bfi_ref(int bits, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  unsigned msb = (unsigned)bits - 1, pos = c & 0xff, len = d & 0xff;
  uint64_t f = b;
  for (unsigned i = 0; i < len && pos + i <= msb; i++) {
    f &= ~(1ull << (pos + i));
    f |= ((a >> i) & 1) << (pos + i);
  }
  return f;
}

static void check_bfi(int bits) {
  static const uint64_t pl[][2] = {
      {0, 0},  {0, 4},  {4, 8},  {28, 8},  {31, 1},  {0, 32}, {8, 40},   {32, 4},
      {60, 8}, {63, 2}, {0, 64}, {64, 1},  {200, 1}, {0x104, 0x108}, {5, 0x100}, {16, 16},
  };
  static const uint64_t ab[][2] = {
      {0xffffffffffffffffull, 0}, {0, 0xffffffffffffffffull},
      {0x123456789abcdef5ull, 0xa5a5a5a5a5a5a5a5ull},
  };
  char insn[128];
  vec v[64];
  int n = 0;
  /* bfi f, a, b, c, d: a in %a, b in %b, pos c and len d packed into %c64. */
  snprintf(insn, sizeof insn,
           "mov.b64 {%%r0, %%r1}, %%c64;\n  bfi.b%d %%d%d, %%a%d, %%b%d, %%r0, %%r1;",
           bits, bits, bits, bits);
  for (int i = 0; i < N(ab); i++)
    for (int j = 0; j < N(pl); j++) {
      v[n].a = ab[i][0];
      v[n].b = ab[i][1];
      v[n].c = pl[j][0] | pl[j][1] << 32;
      v[n].want = bfi_ref(bits, ab[i][0], ab[i][1] & mask_of(bits), pl[j][0], pl[j][1]);
      v[n].want2 = 0;
      n++;
    }
  check_vecs(insn, bits, 0, v, n);
}

static void test_bfi(void **state) {
  (void)state;
  check_bfi(32);
  check_bfi(64);
}

static void test_bfi_literal(void **state) {
  (void)state;
  /* Hand-computed: insert 0xab into bits 8..15 of 0x11223344. */
  static const vec v[] = {{0xab, 0x11223344, 0, 0x1122ab44, 0}};
  check_vecs("bfi.b32 %d32, %a32, %b32, 8, 8;", 32, 0, v, 1);
}

static uint64_t r_brev32(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  uint64_t d = 0;
  for (int i = 0; i < 32; i++) d |= ((a >> i) & 1) << (31 - i);
  return d;
}
static uint64_t r_brev64(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  uint64_t d = 0;
  for (int i = 0; i < 64; i++) d |= ((a >> i) & 1) << (63 - i);
  return d;
}
static uint64_t r_popc32(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  return (uint64_t)__builtin_popcount((uint32_t)a);
}
static uint64_t r_popc64(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  return (uint64_t)__builtin_popcountll(a);
}
static uint64_t r_clz32(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  return (uint32_t)a ? (uint64_t)__builtin_clz((uint32_t)a) : 32;
}
static uint64_t r_clz64(uint64_t a, uint64_t b, uint64_t c) {
  (void)b; (void)c;
  return a ? (uint64_t)__builtin_clzll(a) : 64;
}

static void test_brev_popc_clz(void **state) {
  (void)state;
  check_ref("brev.b32 %d32, %a32;", 32, V32, N(V32), r_brev32);
  check_ref("brev.b64 %d64, %a64;", 64, V64, N(V64), r_brev64);
  /* popc and clz always produce a .u32 result, also for .b64 sources. */
  check_ref("popc.b32 %d32, %a32;", 32, V32, N(V32), r_popc32);
  check_ref("popc.b64 %d32, %a64;", 32, V64, N(V64), r_popc64);
  check_ref("clz.b32 %d32, %a32;", 32, V32, N(V32), r_clz32);
  check_ref("clz.b64 %d32, %a64;", 32, V64, N(V64), r_clz64);
}

/* bfind per the ISA: the most significant non-sign bit, 0xffffffff if none;
 * .shiftamt gives msb - position. */
static uint64_t bfind_ref(int bits, int sgn, int shiftamt, uint64_t a) {
  unsigned msb = (unsigned)bits - 1;
  uint64_t d = 0xffffffff;
  a &= mask_of(bits);
  if (sgn && ((a >> msb) & 1)) a = ~a & mask_of(bits);
  for (int i = (int)msb; i >= 0; i--)
    if ((a >> i) & 1) {
      d = (uint64_t)i;
      break;
    }
  if (shiftamt && d != 0xffffffff) d = msb - d;
  return d;
}
static uint64_t r_bfind_u32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(32, 0, 0, a); }
static uint64_t r_bfind_s32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(32, 1, 0, a); }
static uint64_t r_bfind_u64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(64, 0, 0, a); }
static uint64_t r_bfind_s64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(64, 1, 0, a); }
static uint64_t r_bfind_sa_u32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(32, 0, 1, a); }
static uint64_t r_bfind_sa_s32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(32, 1, 1, a); }
static uint64_t r_bfind_sa_u64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(64, 0, 1, a); }
static uint64_t r_bfind_sa_s64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return bfind_ref(64, 1, 1, a); }

static void test_bfind(void **state) {
  (void)state;
  check_ref("bfind.u32 %d32, %a32;", 32, V32, N(V32), r_bfind_u32);
  check_ref("bfind.s32 %d32, %a32;", 32, V32, N(V32), r_bfind_s32);
  check_ref("bfind.u64 %d32, %a64;", 32, V64, N(V64), r_bfind_u64);
  check_ref("bfind.s64 %d32, %a64;", 32, V64, N(V64), r_bfind_s64);
  check_ref("bfind.shiftamt.u32 %d32, %a32;", 32, V32, N(V32), r_bfind_sa_u32);
  check_ref("bfind.shiftamt.s32 %d32, %a32;", 32, V32, N(V32), r_bfind_sa_s32);
  check_ref("bfind.shiftamt.u64 %d32, %a64;", 32, V64, N(V64), r_bfind_sa_u64);
  check_ref("bfind.shiftamt.s64 %d32, %a64;", 32, V64, N(V64), r_bfind_sa_s64);
}

static void test_bfind_literals(void **state) {
  (void)state;
  /* Hand-computed: bfind.u32(0x00010000) = 16 (shiftamt 15); bfind.s32(-1) =
   * 0xffffffff (no non-sign bit); bfind.s32(0xfffffff0) = 3 (msb zero). */
  static const vec v[] = {
      {0x00010000, 0, 0, 16, 16},
      {0xffffffff, 0, 0, 31, 0xffffffff},
      {0xfffffff0, 0, 0, 31, 3},
      {0, 0, 0, 0xffffffff, 0xffffffff},
  };
  check_vecs("bfind.u32 %d32, %a32; bfind.s32 %e32, %a32;", 32, 1, v, N(v));
}

/* ---- prmt -------------------------------------------------------------- */

enum { PRMT_IDX, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };

/* The ISA's table of source bytes for d.b0..d.b3 by mode and c[1:0]. */
static const uint8_t PRMT_TAB[7][4][4] = {
    {{0}},
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, /* f4e */
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, /* b4e */
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, /* rc8 */
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, /* ecl */
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, /* ecr */
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, /* rc16 */
};

static uint32_t prmt_ref(int mode, uint32_t a, uint32_t b, uint32_t c) {
  uint64_t t = (uint64_t)b << 32 | a;
  uint32_t d = 0;
  for (int i = 0; i < 4; i++) {
    unsigned sel, byte;
    if (mode == PRMT_IDX) {
      sel = (c >> (4 * i)) & 0xf;
      byte = (unsigned)(t >> (8 * (sel & 7))) & 0xff;
      if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
    } else {
      sel = PRMT_TAB[mode][c & 3][i];
      byte = (unsigned)(t >> (8 * sel)) & 0xff;
    }
    d |= (uint32_t)byte << (8 * i);
  }
  return d;
}

static void check_prmt(int mode, const char *name) {
  static const uint64_t ctl_idx[] = {0x3210, 0x7654, 0x0123, 0x4444, 0x8888, 0xf9b1,
                                     0xc0de, 0x5140, 0xffff3210, 0x0000};
  static const uint64_t ctl_mode[] = {0, 1, 2, 3, 0xfffffffc, 0x12345677};
  static const uint64_t ab[][2] = {{0x83828180, 0x07f6f504}, {0x44332211, 0x88776655}};
  const uint64_t *ctl = mode == PRMT_IDX ? ctl_idx : ctl_mode;
  int nc = mode == PRMT_IDX ? N(ctl_idx) : N(ctl_mode);
  char insn[96];
  vec v[32];
  int n = 0;
  snprintf(insn, sizeof insn, "prmt.b32%s %%d32, %%a32, %%b32, %%c32;", name);
  for (int i = 0; i < N(ab); i++)
    for (int j = 0; j < nc; j++) {
      v[n].a = ab[i][0];
      v[n].b = ab[i][1];
      v[n].c = ctl[j];
      v[n].want = prmt_ref(mode, (uint32_t)ab[i][0], (uint32_t)ab[i][1], (uint32_t)ctl[j]);
      v[n].want2 = 0;
      n++;
    }
  check_vecs(insn, 32, 0, v, n);
}

static void test_prmt_default(void **state) {
  (void)state;
  /* Hand-computed: selector 0x5140 on a=0x44332211, b=0x88776655 picks bytes
   * 0 (0x11), 4 (0x55), 1 (0x22), 5 (0x66). Selector 0x8888 on
   * a=0x83828180 replicates the sign of byte 0 (0x80) into every byte. */
  static const vec v[] = {{0x44332211, 0x88776655, 0x5140, 0x66225511, 0},
                          {0x83828180, 0, 0x8888, 0xffffffff, 0},
                          {0x83828180, 0, 0x0123, 0x80818283, 0}};
  check_vecs("prmt.b32 %d32, %a32, %b32, %c32;", 32, 0, v, N(v));
  check_prmt(PRMT_IDX, "");
}

static void test_prmt_modes(void **state) {
  (void)state;
  /* Hand-computed: f4e with c=1 on a=0x44332211, b=0x88776655 is bytes 4321. */
  static const vec v[] = {{0x44332211, 0x88776655, 1, 0x55443322, 0}};
  check_vecs("prmt.b32.f4e %d32, %a32, %b32, %c32;", 32, 0, v, 1);
  check_prmt(PRMT_F4E, ".f4e");
  check_prmt(PRMT_B4E, ".b4e");
  check_prmt(PRMT_RC8, ".rc8");
  check_prmt(PRMT_ECL, ".ecl");
  check_prmt(PRMT_ECR, ".ecr");
  check_prmt(PRMT_RC16, ".rc16");
}

/* ---- shf / lop3 ------------------------------------------------------- */

static uint32_t shf_ref(int left, int clamp, uint32_t a, uint32_t b, uint32_t c) {
  uint64_t x = (uint64_t)b << 32 | a;
  uint32_t n = clamp ? (c > 32 ? 32 : c) : (c & 0x1f);
  return left ? (uint32_t)((x << n) >> 32) : (uint32_t)(x >> n);
}

static void check_shf(int left, int clamp) {
  static const uint64_t cs[] = {0, 1, 5, 31, 32, 33, 40, 63, 64, 0xffffffff};
  static const uint64_t ab[][2] = {{0x89abcdef, 0x01234567}, {0xffffffff, 0}, {0, 0x80000001}};
  char insn[96];
  vec v[32];
  int n = 0;
  snprintf(insn, sizeof insn, "shf.%s.%s.b32 %%d32, %%a32, %%b32, %%c32;",
           left ? "l" : "r", clamp ? "clamp" : "wrap");
  for (int i = 0; i < N(ab); i++)
    for (int j = 0; j < N(cs); j++) {
      v[n].a = ab[i][0];
      v[n].b = ab[i][1];
      v[n].c = cs[j];
      v[n].want = shf_ref(left, clamp, (uint32_t)ab[i][0], (uint32_t)ab[i][1], (uint32_t)cs[j]);
      v[n].want2 = 0;
      n++;
    }
  check_vecs(insn, 32, 0, v, n);
}

static void test_shf(void **state) {
  (void)state;
  /* Hand-computed: shf.l.wrap by 8 of {b=0x01234567, a=0x89abcdef} is
   * 0x23456789; shf.r.clamp by 40 (clamped to 32) gives b. */
  static const vec v[] = {{0x89abcdef, 0x01234567, 8, 0x23456789, 0x6789abcd},
                          {0x89abcdef, 0x01234567, 40, 0x89abcdef, 0x01234567}};
  check_vecs("shf.l.wrap.b32 %d32, %a32, %b32, %c32; shf.r.clamp.b32 %e32, %a32, %b32, %c32;",
             32, 1, v + 0, 1);
  check_vecs("shf.l.clamp.b32 %d32, %a32, %b32, %c32; shf.r.clamp.b32 %e32, %a32, %b32, %c32;",
             32, 1, v + 1, 1);
  check_shf(1, 0);
  check_shf(1, 1);
  check_shf(0, 0);
  check_shf(0, 1);
}

static uint32_t lop3_ref(uint32_t a, uint32_t b, uint32_t c, unsigned lut) {
  uint32_t d = 0;
  for (int i = 0; i < 32; i++) {
    unsigned idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
    d |= (uint32_t)((lut >> idx) & 1) << i;
  }
  return d;
}

/* bmsk: b bits from bit a; worked by hand from the ISA's semantics:
 * wrap(1,2) = 0b110; a and b are taken mod 32 for .wrap; a + b >= 32 runs
 * the mask to the top bit; .clamp gives 0 for a >= 32 and the top run for
 * b >= 32; b == 0 gives 0. */
static void test_bmsk(void **state) {
  (void)state;
  static const vec w[] = {{1, 2, 0, 0x6, 0},        {33, 4, 0, 0x1e, 0},
                          {28, 8, 0, 0xf0000000, 0}, {5, 0, 0, 0, 0},
                          {0, 31, 0, 0x7fffffff, 0}, {4, 36, 0, 0xf0, 0}};
  static const vec c[] = {{1, 2, 0, 0x6, 0},         {33, 4, 0, 0, 0},
                          {0, 32, 0, 0xffffffff, 0}, {8, 40, 0, 0xffffff00, 0},
                          {5, 0, 0, 0, 0},           {31, 1, 0, 0x80000000, 0}};
  check_vecs("bmsk.wrap.b32 %d32, %a32, %b32;", 32, 0, w, N(w));
  check_vecs("bmsk.clamp.b32 %d32, %a32, %b32;", 32, 0, c, N(c));
}

static void test_lop3(void **state) {
  (void)state;
  /* LUT = F(0xF0, 0xCC, 0xAA): 0x96 is a^b^c, 0xE8 majority, 0x80 a&b&c,
   * 0xFE a|b|c, 0x1E a^(b|c), 0xF0 a, 0xCC b, 0xAA c, 0x00, 0xFF. */
  static const unsigned luts[] = {0x96, 0xE8, 0x80, 0xFE, 0x1E, 0xF0, 0xCC, 0xAA, 0x00,
                                  0xFF, 0x6A, 0xCA};
  static const uint64_t abc[][3] = {{0xf0f0f0f0, 0xcccccccc, 0xaaaaaaaa},
                                    {0x12345678, 0x9abcdef0, 0x0fedcba9}};
  for (int l = 0; l < N(luts); l++) {
    char insn[96];
    vec v[2];
    snprintf(insn, sizeof insn, "lop3.b32 %%d32, %%a32, %%b32, %%c32, 0x%02x;", luts[l]);
    for (int i = 0; i < 2; i++) {
      v[i].a = abc[i][0];
      v[i].b = abc[i][1];
      v[i].c = abc[i][2];
      v[i].want = lop3_ref((uint32_t)abc[i][0], (uint32_t)abc[i][1], (uint32_t)abc[i][2],
                           luts[l]);
      v[i].want2 = 0;
    }
    /* For the canonical inputs F(0xF0, 0xCC, 0xAA) the result is the LUT in
     * every byte. */
    assert_int_equal(v[0].want, luts[l] * 0x01010101u);
    check_vecs(insn, 32, 0, v, 2);
  }
}

/* ---- carry chains ---------------------------------------------------- */

static void test_addc_subc(void **state) {
  (void)state;
  static const uint64_t pairs[][2] = {
      {0xffffffffffffffffull, 1},
      {0x00000000ffffffffull, 1},
      {0xffffffff00000000ull, 0x0000000100000000ull},
      {0x123456789abcdef0ull, 0x0fedcba987654321ull},
      {0, 0},
      {0, 1},
      {0x8000000000000000ull, 0x8000000000000000ull},
      {5, 0xffffffffffffffffull},
  };
  vec v[16];
  int n = 0;
  /* 64-bit add from 32-bit halves; %e is the carry out of the top half. */
  for (int i = 0; i < N(pairs); i++) {
    uint64_t a = pairs[i][0], b = pairs[i][1];
    v[n].a = a;
    v[n].b = b;
    v[n].c = 0;
    v[n].want = a + b;
    v[n].want2 = (a + b) < a;
    n++;
  }
  check_vecs("mov.b64 {%r0, %r1}, %a64;\n"
             "  mov.b64 {%r2, %r3}, %b64;\n"
             "  add.cc.u32 %r4, %r0, %r2;\n"
             "  addc.cc.u32 %r5, %r1, %r3;\n"
             "  addc.u32 %r6, 0, 0;\n"
             "  mov.b64 %d64, {%r4, %r5};\n"
             "  cvt.u64.u32 %e64, %r6;",
             64, 1, v, n);
  /* 64-bit subtract; subc.u32 0, 0 leaves 0 - borrow (all ones on borrow). */
  for (int i = 0; i < n; i++) {
    v[i].want = v[i].a - v[i].b;
    v[i].want2 = v[i].a < v[i].b ? 0xffffffffull : 0;
  }
  check_vecs("mov.b64 {%r0, %r1}, %a64;\n"
             "  mov.b64 {%r2, %r3}, %b64;\n"
             "  sub.cc.u32 %r4, %r0, %r2;\n"
             "  subc.cc.u32 %r5, %r1, %r3;\n"
             "  subc.u32 %r6, 0, 0;\n"
             "  mov.b64 %d64, {%r4, %r5};\n"
             "  cvt.u64.u32 %e64, %r6;",
             64, 1, v, n);
}

static void test_addc_64(void **state) {
  (void)state;
  /* 128-bit add from 64-bit halves: a + b with a = {a, c}, b = {b, c}. */
  static const vec v[] = {
      {0xffffffffffffffffull, 1, 0, 0, 1},
      {0x8000000000000000ull, 0x8000000000000000ull, 5, 0, 11},
      {1, 2, 0xffffffffffffffffull, 3, 0xfffffffffffffffeull},
  };
  check_vecs("add.cc.u64 %d64, %a64, %b64;\n  addc.u64 %e64, %c64, %c64;", 64, 1, v, N(v));
}

static void test_madc(void **state) {
  (void)state;
  /* mad.lo.cc / madc.hi: {lo, hi} = a * b + c as a 64-bit value. */
  static const uint64_t t[][3] = {
      {0xffffffff, 0xffffffff, 0xffffffff}, {0x80000000, 2, 0x80000000},
      {0x12345678, 0x9abcdef0, 0xdeadbeef}, {0, 0, 0xffffffff}, {3, 5, 7},
  };
  vec v[8];
  for (int i = 0; i < N(t); i++) {
    v[i].a = t[i][0];
    v[i].b = t[i][1];
    v[i].c = t[i][2];
    v[i].want = t[i][0] * t[i][1] + t[i][2];
    v[i].want2 = 0;
  }
  check_vecs("mad.lo.cc.u32 %r0, %a32, %b32, %c32;\n"
             "  madc.hi.u32 %r1, %a32, %b32, 0;\n"
             "  mov.b64 %d64, {%r0, %r1};",
             64, 0, v, N(t));
}

/* ---- sad ---------------------------------------------------------------- */

static uint64_t r_sad_u32(uint64_t a, uint64_t b, uint64_t c) {
  uint32_t x = (uint32_t)a, y = (uint32_t)b;
  return (uint32_t)c + (x < y ? y - x : x - y);
}
static uint64_t r_sad_s32(uint64_t a, uint64_t b, uint64_t c) {
  int32_t x = s32(a), y = s32(b);
  return (uint32_t)c + (x < y ? (uint32_t)y - (uint32_t)x : (uint32_t)x - (uint32_t)y);
}

static void test_sad(void **state) {
  (void)state;
  static const uint64_t t[][3] = {
      {10, 3, 100},        {3, 10, 100},           {0xffffffff, 1, 0},
      {0x80000000, 0x7fffffff, 0},  {0xfffffffb, 5, 1}, {0, 0, 0xffffffff},
      {0x7fffffff, 0x80000000, 1},
  };
  /* -5 vs 5: unsigned |0xfffffffb - 5| = 0xfffffff6, signed |-5 - 5| = 10. */
  check_ref3("sad.u32 %d32, %a32, %b32, %c32;", 32, t, N(t), r_sad_u32);
  check_ref3("sad.s32 %d32, %a32, %b32, %c32;", 32, t, N(t), r_sad_s32);
}

/* ---- setp / selp / slct / set ------------------------------------------ */

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS };
static const char *const CMP_NAME[] = {"eq", "ne", "lt", "le", "gt", "ge",
                                       "lo", "ls", "hi", "hs"};

static int cmp_ref(int op, int bits, int sgn, uint64_t a, uint64_t b) {
  int lt, eq;
  a &= mask_of(bits);
  b &= mask_of(bits);
  eq = a == b;
  lt = sgn ? sext(bits, a) < sext(bits, b) : a < b;
  switch (op) {
  case C_EQ: return eq;
  case C_NE: return !eq;
  case C_LT: case C_LO: return lt;
  case C_LE: case C_LS: return lt || eq;
  case C_GT: case C_HI: return !lt && !eq;
  default: return !lt;
  }
}

static void check_setp(int op, int bits, const char *ty, int sgn, const uint64_t *vals,
                       int nv) {
  char insn[160];
  vec *v = calloc((size_t)nv * nv, sizeof *v);
  int n;
  assert_non_null(v);
  n = cross(vals, nv, 0, v);
  /* p|q: p = cmp, q = !cmp. */
  snprintf(insn, sizeof insn,
           "setp.%s.%s %%p|%%q, %%a%d, %%b%d;\n"
           "  selp.u32 %%d32, 1, 0, %%p;\n  selp.u32 %%e32, 1, 0, %%q;",
           CMP_NAME[op], ty, bits, bits);
  for (int i = 0; i < n; i++) {
    v[i].want = (uint64_t)cmp_ref(op, bits, sgn, v[i].a, v[i].b);
    v[i].want2 = !v[i].want;
  }
  check_vecs(insn, 32, 1, v, n);
  free(v);
}

static void test_setp_signed(void **state) {
  (void)state;
  for (int op = C_EQ; op <= C_GE; op++) check_setp(op, 32, "s32", 1, V32, N(V32));
}

static void test_setp_unsigned(void **state) {
  (void)state;
  /* lt/le/gt/ge on .u32 compare unsigned too; lo/ls/hi/hs are the names of
   * the unsigned comparisons. */
  for (int op = C_EQ; op <= C_GE; op++) check_setp(op, 32, "u32", 0, V32, N(V32));
  for (int op = C_LO; op <= C_HS; op++) check_setp(op, 32, "u32", 0, V32, N(V32));
  for (int op = C_EQ; op <= C_NE; op++) check_setp(op, 32, "b32", 0, V32, N(V32));
}

static void test_setp_16_64(void **state) {
  (void)state;
  for (int op = C_EQ; op <= C_GE; op++) check_setp(op, 16, "s16", 1, V16, N(V16));
  for (int op = C_LO; op <= C_HS; op++) check_setp(op, 16, "u16", 0, V16, N(V16));
  for (int op = C_EQ; op <= C_GE; op++) check_setp(op, 64, "s64", 1, V64, N(V64));
  for (int op = C_LO; op <= C_HS; op++) check_setp(op, 64, "u64", 0, V64, N(V64));
}

static void test_setp_combine(void **state) {
  (void)state;
  static const char *const comb[] = {"and", "or", "xor"};
  static const uint64_t vals[] = {0, 5, 0xffffffff};
  for (int k = 0; k < 3; k++) {
    char insn[256];
    vec v[32];
    int n = 0;
    /* c != 0 sets %pk; the combination uses !%pk:
     * p = (a < b) OP !pc, q = !(a < b) OP !pc. */
    snprintf(insn, sizeof insn,
             "setp.ne.u32 %%pk, %%c32, 0;\n"
             "  setp.lt.%s.s32 %%p|%%q, %%a32, %%b32, !%%pk;\n"
             "  selp.u32 %%d32, 1, 0, %%p;\n  selp.u32 %%e32, 1, 0, %%q;",
             comb[k]);
    for (int i = 0; i < N(vals); i++)
      for (int j = 0; j < N(vals); j++)
        for (int c = 0; c < 2; c++) {
          int t = s32(vals[i]) < s32(vals[j]), np = !c;
          v[n].a = vals[i];
          v[n].b = vals[j];
          v[n].c = (uint64_t)c;
          v[n].want = (uint64_t)(k == 0 ? (t && np) : k == 1 ? (t || np) : (t ^ np));
          v[n].want2 = (uint64_t)(k == 0 ? (!t && np) : k == 1 ? (!t || np) : (!t ^ np));
          n++;
        }
    check_vecs(insn, 32, 1, v, n);
  }
}

static void test_selp(void **state) {
  (void)state;
  static const vec v[] = {
      {0x11111111, 0x22222222, 1, 0x11111111, 0},
      {0x11111111, 0x22222222, 0, 0x22222222, 0},
      {0xffffffffffffffffull, 0x8000000000000000ull, 0x100000000ull, 0x8000000000000000ull, 0},
  };
  /* p = (c32 != 0): the third lane has c = 2^32, so its low word is 0. */
  check_vecs("setp.ne.u32 %p, %c32, 0;\n  selp.b32 %d32, %a32, %b32, %p;", 32, 0, v, N(v));
  check_vecs("setp.ne.u32 %p, %c32, 0;\n  selp.b64 %d64, %a64, %b64, %p;", 64, 0, v, N(v));
  check_vecs("setp.ne.u32 %p, %c32, 0;\n  selp.u16 %d16, %a16, %b16, %p;", 16, 0, v, N(v));
  static const vec w[] = {{0, 0, 1, 7, 0}, {0, 0, 0, 0xfffffff9, 0}};
  check_vecs("setp.ne.u32 %p, %c32, 0;\n  selp.s32 %d32, 7, -7, %p;", 32, 0, w, N(w));
}

static void test_slct(void **state) {
  (void)state;
  /* slct d, a, b, c: d = (c >= 0) ? a : b. */
  static const vec vs[] = {
      {1, 2, 0, 1, 0},           {1, 2, 5, 1, 0},          {1, 2, 0xffffffff, 2, 0},
      {1, 2, 0x80000000, 2, 0},  {1, 2, 0x7fffffff, 1, 0},
  };
  check_vecs("slct.u32.s32 %d32, %a32, %b32, %c32;", 32, 0, vs, N(vs));
  check_vecs("slct.b64.s32 %d64, %a64, %b64, %c32;", 64, 0, vs, N(vs));
  /* f32 selector: -0.0 >= 0 holds; a negative subnormal is < 0 unless
   * .ftz flushes it to -0.0. */
  static const vec vf[] = {
      {1, 2, 0x80000000 /* -0.0 */, 1, 1},
      {1, 2, 0x3f800000 /* 1.0 */, 1, 1},
      {1, 2, 0xbf800000 /* -1.0 */, 2, 2},
      {1, 2, 0x80000001 /* -denorm */, 2, 1},
      {1, 2, 0xff800000 /* -inf */, 2, 2},
      {1, 2, 0x00000001 /* +denorm */, 1, 1},
  };
  check_vecs("slct.u32.f32 %d32, %a32, %b32, %c32;\n"
             "  slct.ftz.u32.f32 %e32, %a32, %b32, %c32;",
             32, 1, vf, N(vf));
}

static void test_set(void **state) {
  (void)state;
  /* set.CmpOp.dtype.stype: all ones (integer) or 1.0f (f32) when true. */
  static const vec v[] = {
      {1, 2, 0, 0xffffffff, 0x3f800000},
      {2, 1, 0, 0, 0},
      {0xffffffff, 1, 0, 0xffffffff, 0x3f800000},
  };
  check_vecs("set.lt.u32.s32 %d32, %a32, %b32;\n  set.lt.f32.s32 %e32, %a32, %b32;", 32,
             1, v, N(v));
  /* With a predicate combination: d = (a < b) AND !pc. */
  static const vec w[] = {
      {1, 2, 0, 0xffffffff, 0},
      {1, 2, 1, 0, 0},
      {2, 1, 0, 0, 0},
  };
  check_vecs("setp.ne.u32 %pk, %c32, 0;\n  set.lt.and.u32.s32 %d32, %a32, %b32, !%pk;", 32, 0,
             w, N(w));
  static const vec x[] = {
      {1, 2, 0, 0xffffffff, 0},
      {0xffffffff, 1, 0, 0, 0},
  };
  check_vecs("set.lo.u32.u32 %d32, %a32, %b32;", 32, 0, x, N(x));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add_sub_32),
      cmocka_unit_test(test_add_sub_sat),
      cmocka_unit_test(test_add_sub_16_64),
      cmocka_unit_test(test_add_immediates),
      cmocka_unit_test(test_mul_32),
      cmocka_unit_test(test_mul_wide),
      cmocka_unit_test(test_mul_16_64),
      cmocka_unit_test(test_mad),
      cmocka_unit_test(test_mad_wide_64),
      cmocka_unit_test(test_mul24),
      cmocka_unit_test(test_mad24),
      cmocka_unit_test(test_div_rem_unsigned),
      cmocka_unit_test(test_div_rem_signed),
      cmocka_unit_test(test_div_rem_16_64),
      cmocka_unit_test(test_div_literals),
      cmocka_unit_test(test_abs_neg),
      cmocka_unit_test(test_min_max),
      cmocka_unit_test(test_shl_shr_32),
      cmocka_unit_test(test_shl_shr_64),
      cmocka_unit_test(test_shl_shr_16),
      cmocka_unit_test(test_shift_immediates),
      cmocka_unit_test(test_logic),
      cmocka_unit_test(test_logic_pred),
      cmocka_unit_test(test_bfe_32),
      cmocka_unit_test(test_bfe_64),
      cmocka_unit_test(test_bfe_literals),
      cmocka_unit_test(test_bfi),
      cmocka_unit_test(test_bfi_literal),
      cmocka_unit_test(test_brev_popc_clz),
      cmocka_unit_test(test_bfind),
      cmocka_unit_test(test_bfind_literals),
      cmocka_unit_test(test_prmt_default),
      cmocka_unit_test(test_prmt_modes),
      cmocka_unit_test(test_shf),
      cmocka_unit_test(test_lop3),
      cmocka_unit_test(test_bmsk),
      cmocka_unit_test(test_addc_subc),
      cmocka_unit_test(test_addc_64),
      cmocka_unit_test(test_madc),
      cmocka_unit_test(test_sad),
      cmocka_unit_test(test_setp_signed),
      cmocka_unit_test(test_setp_unsigned),
      cmocka_unit_test(test_setp_16_64),
      cmocka_unit_test(test_setp_combine),
      cmocka_unit_test(test_selp),
      cmocka_unit_test(test_slct),
      cmocka_unit_test(test_set),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
