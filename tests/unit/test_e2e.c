/* test_e2e.c: runs every case of the e2e corpus (tests/e2e/e2e_cases.h) on
 * smemu from the checked-in PTX and, when nvcc is on PATH, from freshly
 * compiled PTX; compares each output word with a C reference written here
 * (never with the emulator's own output) and with a GPU recording in
 * tests/hw/e2e/e2e_<name>.bin when one exists.
 * Environment: SMEMU_ROOT (repository root), SMEMU_E2E_NO_NVCC=1 (skip nvcc),
 * SMEMU_E2E_ONLY=name (run one case). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smemu.h"
#include "../e2e/e2e_cases.h"

/* ---- where things are ---------------------------------------------------- */
static char g_root[512];    /* repository root */
static char g_nvcc_dir[256]; /* temporary folder of nvcc's PTX, "" when none */
static const char *g_argv0 = "";

static int root_ok(const char *dir)
{
  char p[1200];
  snprintf(p, sizeof p, "%s/tests/e2e/e2e_cases.h", dir);
  return ex_file_exists(p);
}

static int find_root(void)
{
  const char *env = getenv("SMEMU_ROOT");
  const char *cands[] = { ".", "..", "../..", "../../.." };
  size_t i;
  if (env && root_ok(env)) {
    snprintf(g_root, sizeof g_root, "%s", env);
    return 1;
  }
  for (i = 0; i < sizeof cands / sizeof cands[0]; i++)
    if (root_ok(cands[i])) {
      snprintf(g_root, sizeof g_root, "%s", cands[i]);
      return 1;
    }
  { /* BUILD/tests/test_e2e: the root is two folders above the binary's */
    const char *slash = strrchr(g_argv0, '/');
    if (slash) {
      char p[512];
      int dirlen = (int)(slash - g_argv0);
      if (dirlen > 400) return 0;
      snprintf(p, sizeof p, "%.*s/../..", dirlen, g_argv0);
      if (root_ok(p)) {
        snprintf(g_root, sizeof g_root, "%s", p);
        return 1;
      }
    }
  }
  return 0;
}

/* ---- expected words and how to compare them ---------------------------- */
enum { R_EXACT, R_F32, R_F32_ABS, R_F64, R_F64_HI };

typedef struct expect {
  uint32_t n;
  uint32_t *w;    /* expected word */
  uint8_t *rule;  /* R_* */
  uint32_t *tol;  /* ulps (R_F32, R_F64) or a float's bits (R_F32_ABS) */
} expect;

static void expect_init(expect *e, uint32_t n)
{
  e->n = n;
  e->w = (uint32_t *)calloc(n, 4);
  e->rule = (uint8_t *)calloc(n, 1);
  e->tol = (uint32_t *)calloc(n, 4);
  assert_non_null(e->w);
  assert_non_null(e->rule);
  assert_non_null(e->tol);
}

static void expect_free(expect *e)
{
  free(e->w);
  free(e->rule);
  free(e->tol);
}

static uint32_t fbits(float f) { return ex_f32_bits(f); }

static float bitsf(uint32_t u)
{
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static void x_u32(expect *e, uint32_t i, uint32_t v)
{
  assert_true(i < e->n);
  e->w[i] = v;
  e->rule[i] = R_EXACT;
  e->tol[i] = 0;
}

/* A float result: bit-exact when ulps is 0 (any NaN matches a NaN). */
static void x_f32(expect *e, uint32_t i, float f, uint32_t ulps)
{
  x_u32(e, i, fbits(f));
  e->rule[i] = R_F32;
  e->tol[i] = ulps;
}

static void x_f32_abs(expect *e, uint32_t i, float f, float abs_tol)
{
  x_u32(e, i, fbits(f));
  e->rule[i] = R_F32_ABS;
  e->tol[i] = fbits(abs_tol);
}

static void x_f64(expect *e, uint32_t i, double d, uint32_t ulps)
{
  uint64_t u = ex_f64_bits(d);
  x_u32(e, i, (uint32_t)u);
  x_u32(e, i + 1, (uint32_t)(u >> 32));
  e->rule[i] = R_F64;
  e->rule[i + 1] = R_F64_HI;
  e->tol[i] = ulps;
}

/* First word of `got` that `e` does not accept, or -1; msg says why. */
static long compare_words(const uint32_t *got, const expect *e, char *msg, size_t len)
{
  uint32_t i;
  for (i = 0; i < e->n; i++) {
    int ok;
    switch (e->rule[i]) {
    case R_F32:
      ok = ex_f32_close(bitsf(got[i]), bitsf(e->w[i]), e->tol[i], 0.0f);
      break;
    case R_F32_ABS: {
      float g = bitsf(got[i]), w = bitsf(e->w[i]);
      ok = got[i] == e->w[i] || (g != g && w != w) || fabsf(g - w) <= bitsf(e->tol[i]);
      break;
    }
    case R_F64: {
      double g, w;
      uint64_t gu = (uint64_t)got[i] | (uint64_t)got[i + 1] << 32;
      uint64_t wu = (uint64_t)e->w[i] | (uint64_t)e->w[i + 1] << 32;
      memcpy(&g, &gu, 8);
      memcpy(&w, &wu, 8);
      ok = ex_f64_close(g, w, e->tol[i], 0.0);
      if (!ok) {
        snprintf(msg, len, "word %u (double): got %.17g (0x%016llx), want %.17g (0x%016llx), tolerance %u ulp",
                 i, g, (unsigned long long)gu, w, (unsigned long long)wu, e->tol[i]);
        return (long)i;
      }
      break;
    }
    case R_F64_HI:
      ok = 1; /* checked with its low word */
      break;
    default:
      ok = got[i] == e->w[i];
      break;
    }
    if (!ok) {
      if (e->rule[i] == R_EXACT)
        snprintf(msg, len, "word %u: got 0x%08x (%d), want 0x%08x (%d)", i, got[i], (int)got[i],
                 e->w[i], (int)e->w[i]);
      else
        snprintf(msg, len, "word %u (float): got %.9g (0x%08x), want %.9g (0x%08x), tolerance %s%g",
                 i, (double)bitsf(got[i]), got[i], (double)bitsf(e->w[i]), e->w[i],
                 e->rule[i] == R_F32_ABS ? "abs " : "ulp ",
                 e->rule[i] == R_F32_ABS ? (double)bitsf(e->tol[i]) : (double)e->tol[i]);
      return (long)i;
    }
  }
  return -1;
}

/* ---- conversion helpers of the references -------------------------------- */
static int32_t sat_i32(double r)
{
  if (r != r) return 0;
  if (r >= 2147483648.0) return INT32_MAX;
  if (r < -2147483648.0) return INT32_MIN;
  return (int32_t)r;
}

static uint32_t sat_u32(double r)
{
  if (r != r || r <= 0.0) return 0;
  if (r >= 4294967296.0) return UINT32_MAX;
  return (uint32_t)r;
}

static int64_t sat_i64(double r)
{
  if (r != r) return 0;
  if (r >= 9223372036854775808.0) return INT64_MAX;
  if (r < -9223372036854775808.0) return INT64_MIN;
  return (int64_t)r;
}

static uint64_t sat_u64(double r)
{
  if (r != r || r <= 0.0) return 0;
  if (r >= 18446744073709551616.0) return UINT64_MAX;
  return (uint64_t)r;
}

/* Rounds a double to float toward zero / down / up. */
static float d2f_rz(double d)
{
  float f = (float)d;
  if (d == d && fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);
  return f;
}

static float d2f_rd(double d)
{
  float f = (float)d;
  if (d == d && (double)f > d) f = nextafterf(f, -INFINITY);
  return f;
}

static float d2f_ru(double d)
{
  float f = (float)d;
  if (d == d && (double)f < d) f = nextafterf(f, INFINITY);
  return f;
}

/* ---- half precision, exactly -------------------------------------------- */
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

/* The half nearest (or toward zero) to (-1)^neg * mag * 2^e. */
static uint16_t half_round(int neg, u128 mag, int e, int rz)
{
  uint16_t sign = neg ? 0x8000u : 0u;
  int p = 127, E, q, shift;
  uint64_t r;
  if (mag == 0) return sign;
  while (!((mag >> p) & 1u)) p--;
  E = p + e; /* the value is in [2^E, 2^(E+1)) */
  if (E > 15) return (uint16_t)(sign | (rz ? 0x7bffu : 0x7c00u));
  q = E - 10 < -24 ? -24 : E - 10; /* the quantum: 2^q */
  shift = q - e;
  if (shift <= 0) {
    r = (uint64_t)(mag << -shift);
  } else {
    u128 keep = mag >> shift, rem = mag - (keep << shift), half = (u128)1 << (shift - 1);
    r = (uint64_t)keep;
    if (!rz && (rem > half || (rem == half && (keep & 1u)))) r++;
  }
  if (q == -24) return (uint16_t)(sign | r); /* subnormals and the first binade */
  return (uint16_t)(sign | (((uint32_t)(E + 15) << 10) + (uint32_t)(r - 1024)));
}

static uint16_t f2h(float f, int rz)
{
  uint32_t u = fbits(f), ex = (u >> 23) & 0xffu, fr = u & 0x7fffffu;
  int neg = (int)(u >> 31);
  if (ex == 0xffu) return fr ? 0x7fffu : (uint16_t)(neg ? 0xfc00u : 0x7c00u);
  if (ex == 0) return half_round(neg, fr, -149, rz);
  return half_round(neg, fr | 0x800000u, (int)ex - 150, rz);
}

/* A finite half as sign, integer magnitude and exponent. */
static void h_parts(uint16_t h, int *neg, uint64_t *mag, int *e)
{
  uint32_t ex = (h >> 10) & 31u, fr = h & 0x3ffu;
  *neg = h >> 15;
  if (ex == 0) {
    *mag = fr;
    *e = -24;
  } else {
    *mag = fr | 0x400u;
    *e = (int)ex - 25;
  }
}

static float h2f(uint16_t h)
{
  int neg, e;
  uint64_t m;
  if (((h >> 10) & 31u) == 31u) return (h & 0x3ffu) ? NAN : (h >> 15) ? -INFINITY : INFINITY;
  h_parts(h, &neg, &m, &e);
  return (neg ? -1.0f : 1.0f) * ldexpf((float)m, e);
}

/* Value in units of 2^-48, exactly. */
static i128 h_scaled48(uint16_t h)
{
  int neg, e;
  uint64_t m;
  h_parts(h, &neg, &m, &e);
  return (neg ? -1 : 1) * ((i128)m << (e + 48));
}

static uint16_t h_from_scaled48(i128 v, int neg_zero)
{
  if (v == 0) return neg_zero ? 0x8000u : 0u;
  return half_round(v < 0, (u128)(v < 0 ? -v : v), -48, 0);
}

static uint16_t h_add(uint16_t a, uint16_t b)
{
  return h_from_scaled48(h_scaled48(a) + h_scaled48(b), (a & b) >> 15);
}

static uint16_t h_sub(uint16_t a, uint16_t b) { return h_add(a, (uint16_t)(b ^ 0x8000u)); }

static uint16_t h_mul(uint16_t a, uint16_t b)
{
  int na, nb, ea, eb;
  uint64_t ma, mb;
  h_parts(a, &na, &ma, &ea);
  h_parts(b, &nb, &mb, &eb);
  return half_round(na ^ nb, (u128)ma * mb, ea + eb, 0);
}

static uint16_t h_fma(uint16_t a, uint16_t b, uint16_t c)
{
  int na, nb, ea, eb;
  uint64_t ma, mb;
  i128 prod, sum;
  h_parts(a, &na, &ma, &ea);
  h_parts(b, &nb, &mb, &eb);
  prod = (i128)((u128)ma * mb << (ea + eb + 48)); /* units of 2^-48 */
  if (na ^ nb) prod = -prod;
  sum = prod + h_scaled48(c);
  return h_from_scaled48(sum, (na ^ nb) && (c >> 15));
}

/* ---- references ---------------------------------------------------------- */
typedef void (*ref_fn)(const e2e_case *c, const uint32_t *in, expect *e);

static void ref_int_arith(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t t;
  for (t = 0; t < 256; t++) {
    uint32_t a = in[2 * t], b = in[2 * t + 1], *o = e->w + t * 32, k;
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    if (sa == INT32_MIN) sa = 7;
    int32_t sd = (sb >> (a & 15)) | 1;
    uint32_t ud = (b >> (a & 31)) | 1u;
    int32_t m24a = (int32_t)(a << 8) >> 8, m24b = (int32_t)(b << 8) >> 8;
    o[0] = a + b;
    o[1] = a - b;
    o[2] = a * b;
    o[3] = (uint32_t)(((uint64_t)a * b) >> 32);
    o[4] = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
    o[5] = (uint32_t)(sa / sd);
    o[6] = (uint32_t)(sa % sd);
    o[7] = a / ud;
    o[8] = a % ud;
    o[9] = (uint32_t)((int32_t)a >> (b & 31));
    o[10] = a >> (b & 31);
    o[11] = a << (b & 31);
    o[12] = (uint32_t)((int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b);
    o[13] = a > b ? a : b;
    o[14] = (uint32_t)(sa < 0 ? -sa : sa);
    o[15] = (uint32_t)((int64_t)m24a * m24b) + (uint32_t)((uint64_t)(a & 0xffffffu) * (b & 0xffffffu));

    uint64_t x = ((uint64_t)a << 32) | b;
    int64_t sx = (int64_t)x;
    int64_t sdiv = (int64_t)((uint64_t)(int64_t)sb << (a & 7)) | 1;
    if (sx == INT64_MIN) sx = 5;
    uint64_t y = x * 0x9E3779B97F4A7C15ull + (x >> 13);
    o[16] = (uint32_t)y;
    o[17] = (uint32_t)(y >> 32);
    o[18] = (uint32_t)(uint64_t)(sx / sdiv);
    o[19] = (uint32_t)(sx % sdiv);
    o[20] = (uint32_t)(x / ((uint64_t)b | 1u));
    o[21] = (uint32_t)((int64_t)sa * (int64_t)sb >> 17);
    o[22] = (uint32_t)((((uint64_t)a * b) >> 32) ^ ((uint64_t)a * b));
    o[23] = (uint32_t)(uint64_t)(sx >> (b & 63));

    int8_t c1 = (int8_t)a, c2 = (int8_t)(a >> 8);
    uint8_t u1 = (uint8_t)b, u2 = (uint8_t)(b >> 8);
    int16_t h1 = (int16_t)(a >> 16), h2 = (int16_t)b;
    uint16_t w1 = (uint16_t)(b >> 16), w2 = (uint16_t)a;
    o[24] = (uint32_t)(int32_t)(int8_t)(c1 + c2);
    o[25] = (uint32_t)(int32_t)(int16_t)(h1 * h2);
    o[26] = (uint32_t)(u1 * u2);
    o[27] = (uint32_t)(w1 + w2) ^ (uint32_t)(uint16_t)(w1 - w2) << 16;
    o[28] = (uint32_t)(c1 / (c2 | 1)) ^ ((uint32_t)(h1 % (h2 | 1)) << 8);
    o[29] = (uint32_t)(int32_t)(int16_t)(h1 >> 3) + (uint32_t)(w1 >> 3);
    o[30] = (uint32_t)((int64_t)c1 * (int64_t)w1 - (int64_t)h2 * u2);
    o[31] = (uint32_t)(int8_t)(u1 ^ (uint8_t)c2) + (uint32_t)(uint16_t)(h1 + u2);
    for (k = 0; k < 32; k++) e->rule[t * 32 + k] = R_EXACT;
  }
  (void)c;
}

static void ref_convert(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t t;
  for (t = 0; t < 256; t++) {
    uint32_t base = t * 24;
    float x = bitsf(in[t]);
    switch (t) {
    case 0: x = bitsf(0x7fc00000u); break;
    case 1: x = INFINITY; break;
    case 2: x = -INFINITY; break;
    case 3: x = -0.0f; break;
    case 4: x = 2.5f; break;
    case 5: x = -3.5f; break;
    case 6: x = 2147483648.0f; break;
    case 7: x = 1.0e-40f; break;
    default: break;
    }
    float big = x * 1048576.0f;
    int32_t xi = (int32_t)fbits(x);
    x_u32(e, base + 0, (uint32_t)sat_i32(nearbyint(x)));
    x_u32(e, base + 1, (uint32_t)sat_i32(trunc(x)));
    x_u32(e, base + 2, (uint32_t)sat_i32(floor(x)));
    x_u32(e, base + 3, (uint32_t)sat_i32(ceil(big)));
    x_u32(e, base + 4, sat_u32(nearbyint(big)));
    x_u32(e, base + 5, sat_u32(trunc(big)));
    x_u32(e, base + 6, (uint32_t)sat_i32(trunc(big)));
    if (t < 3) {
      x_u32(e, base + 7, 0);
      x_u32(e, base + 8, 0);
      x_u32(e, base + 9, 0);
      x_u32(e, base + 10, 0);
    } else {
      int64_t ll = sat_i64(nearbyint((double)(big * 4096.0f)));
      uint64_t ull = sat_u64(trunc((double)(big * 65536.0f)));
      x_u32(e, base + 7, (uint32_t)ll);
      x_u32(e, base + 8, (uint32_t)((uint64_t)ll >> 32));
      x_u32(e, base + 9, (uint32_t)ull);
      x_u32(e, base + 10, (uint32_t)(ull >> 32));
    }
    x_f32(e, base + 11, (float)xi, 0);
    x_f32(e, base + 12, d2f_rz((double)xi), 0);
    x_f32(e, base + 13, d2f_rd((double)(uint32_t)xi), 0);
    x_f32(e, base + 14, d2f_ru((double)(uint32_t)xi), 0);
    double d = fma((double)x, 1.0e30, (double)xi);
    x_f32(e, base + 15, (float)d, 0);
    x_f32(e, base + 16, d2f_rz(d), 0);
    double ed = (double)xi * 3.0;
    x_u32(e, base + 17, (uint32_t)sat_i32(nearbyint(ed * 0.125)));
    int64_t q = (int64_t)xi * 1000003LL;
    x_f32(e, base + 18, (float)q, 0);
    uint64_t dq = ex_f64_bits((double)(q * 1024));
    x_u32(e, base + 19, (uint32_t)dq);
    x_u32(e, base + 20, (uint32_t)(dq >> 32));
    x_u32(e, base + 21, (uint32_t)(int32_t)(int8_t)(uint8_t)(uint32_t)sat_i32(trunc(x * 16.0f)));
    x_u32(e, base + 22, (uint32_t)(uint16_t)sat_u32(trunc(x * 300.0f)));
    x_f32(e, base + 23, (float)(uint8_t)xi + (float)(int16_t)(xi >> 8), 0);
  }
  (void)c;
}

static void ref_fp32_math(const e2e_case *c, const uint32_t *in, expect *e)
{
  const float abs_sin = ldexpf(1.0f, -21) + ldexpf(1.0f, -24);
  uint32_t t;
  for (t = 0; t < 256; t++) {
    uint32_t b = t * 18;
    float x = bitsf(in[2 * t]), y = bitsf(in[2 * t + 1]);
    x_f32(e, b + 0, x + y, 0);
    x_f32(e, b + 1, x * y, 0);
    x_f32(e, b + 2, fmaf(x, y, x - y), 0);
    x_f32(e, b + 3, x / y, 0);
    x_f32(e, b + 4, sqrtf(fabsf(x)), 0);
    x_f32(e, b + 5, (float)(1.0 / sqrt((double)(fabsf(x) + 1.0f))), 4); /* rsqrt.approx */
    x_f32(e, b + 6, (float)exp((double)x), 3);            /* expf: 2 ulp + reference */
    x_f32(e, b + 7, (float)sin((double)(x * 4.0f)), 3);   /* sinf: 2 ulp + reference */
    x_f32(e, b + 8, x / y, 3);                            /* __fdividef: 2 ulp */
    x_f32(e, b + 9, (float)exp((double)x), 3 + (uint32_t)floorf(1.16f * fabsf(x))); /* __expf */
    x_f32_abs(e, b + 10, (float)sin((double)(x * 0.375f)), abs_sin); /* __sinf: 2^-21.41 abs */
    x_f32(e, b + 11, fminf(x, y) + fmaxf(x, y) * 0.5f, 0);
    x_f32(e, b + 12, copysignf(floorf(x), y) - truncf(y), 0);
    x_f32(e, b + 13, x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x, 0);
    x_f32(e, b + 14, x * 1.0e-38f, 0);
    x_f32(e, b + 15, d2f_rz((double)x * (double)y), 0); /* the double product is exact */
    /* the double sum is exact here; an exact zero rounds down to -0 */
    x_f32(e, b + 16, (double)x + (double)y == 0.0 && !(fbits(x) == 0 && fbits(y) == 0)
                         ? -0.0f : d2f_rd((double)x + (double)y), 0);
    {
      /* x / y rounded up: q = RN(x/y), r = x - q*y exactly; round up when the
       * true quotient is above q */
      float q = x / y, r = fmaf(-q, y, x);
      if (isfinite(q) && r != 0.0f && ((r > 0.0f) == (y > 0.0f))) q = nextafterf(q, INFINITY);
      x_f32(e, b + 17, q, 0);
    }
  }
  (void)c;
}

static void ref_fp64_math(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t t;
  for (t = 0; t < 128; t++) {
    uint32_t b = t * 24;
    double x, y;
    memcpy(&x, in + 4 * t, 8);
    memcpy(&y, in + 4 * t + 2, 8);
    x_f64(e, b + 0, x + y, 0);
    x_f64(e, b + 2, x * y, 0);
    x_f64(e, b + 4, fma(x, y, x - y), 0);
    x_f64(e, b + 6, x / y, 0);
    x_f64(e, b + 8, sqrt(fabs(x)), 0);
    x_f64(e, b + 10, (double)(1.0L / sqrtl((long double)(fabs(x) + 1.0))), 2);
    x_f64(e, b + 12, (double)expl((long double)x), 2);
    x_f64(e, b + 14, (double)sinl((long double)(x * 4.0)), 2);
    x_f64(e, b + 16, (double)logl((long double)(fabs(x) + 1.0)), 2);
    x_f64(e, b + 18, (double)(float)(x * 1.0e30), 0);
    {
      /* x + y toward zero: s = RN(x + y), err = exact rest (TwoSum) */
      double s = x + y, bb = s - x, err = (x - (s - bb)) + (y - bb);
      if (err != 0.0 && (err > 0.0) != (s > 0.0)) s = nextafter(s, 0.0);
      x_f64(e, b + 20, s, 0);
    }
    {
      /* x * y upward: p = RN(x * y), err = fma(x, y, -p) exactly */
      double p = x * y, err = fma(x, y, -p);
      if (err > 0.0) p = nextafter(p, INFINITY);
      x_f64(e, b + 22, p, 0);
    }
  }
  (void)c;
}

static void ref_half_math(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t t;
  for (t = 0; t < 256; t++) {
    uint32_t b = t * 16;
    float x = bitsf(in[2 * t]), y = bitsf(in[2 * t + 1]);
    uint16_t ha = f2h(x, 0), hb = f2h(y, 0);
    uint16_t sa = f2h(x * 0.015625f, 0), sb = f2h(y * 0.0078125f, 0);
    float fa = h2f(ha), fb = h2f(hb);
    x_u32(e, b + 0, ha);
    x_u32(e, b + 1, hb);
    x_u32(e, b + 2, h_add(ha, hb));
    x_u32(e, b + 3, h_sub(ha, hb));
    x_u32(e, b + 4, h_mul(ha, hb));
    x_u32(e, b + 5, h_fma(sa, sb, ha));
    x_u32(e, b + 6, (uint32_t)(fa < fb) | (uint32_t)(fa == fa) << 1 | (uint32_t)(fb >= fa) << 2);
    x_u32(e, b + 7, (uint32_t)(fa > fb ? ha : hb) | (uint32_t)(fa < fb ? ha : hb) << 16);
    x_u32(e, b + 8, (uint32_t)(ha ^ 0x8000u) | (uint32_t)(hb & 0x7fffu) << 16);
    x_f32(e, b + 9, fa * fb, 0);
    x_u32(e, b + 10, f2h(x * 100.0f, 0));
    x_u32(e, b + 11, f2h(y * 1.0e-7f, 0));
    x_u32(e, b + 12, f2h(x * 3.0f, 1));
    x_u32(e, b + 13, (uint32_t)h_add(ha, hb) | (uint32_t)h_add(sa, sb) << 16);
    x_u32(e, b + 14, (uint32_t)h_mul(ha, hb) | (uint32_t)h_mul(sa, sb) << 16);
    x_u32(e, b + 15, (uint32_t)(int32_t)nearbyintf(fa) ^ ((uint32_t)(int32_t)truncf(fb) << 16));
  }
  (void)c;
}

static uint32_t brev32(uint32_t v)
{
  uint32_t r = 0;
  int i;
  for (i = 0; i < 32; i++) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}

static int clz64(uint64_t v)
{
  int n = 0;
  if (!v) return 64;
  while (!(v & 0x8000000000000000ull)) {
    v <<= 1;
    n++;
  }
  return n;
}

static int ffs64(uint64_t v)
{
  int i;
  for (i = 0; i < 64; i++)
    if ((v >> i) & 1u) return i + 1;
  return 0;
}

static int popc64(uint64_t v)
{
  int n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

/* prmt.b32 default mode: selector nibble n picks byte s & 7 of {b, a}
 * (a is bytes 0-3); with bit 3 set the byte becomes its sign, replicated. */
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t s)
{
  uint64_t v = ((uint64_t)b << 32) | a;
  uint32_t r = 0;
  int n;
  for (n = 0; n < 4; n++) {
    uint32_t sel = (s >> (4 * n)) & 15u;
    uint32_t byte = (uint32_t)(v >> (8 * (sel & 7u))) & 0xffu;
    if (sel & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
    r |= byte << (8 * n);
  }
  return r;
}

static void ref_bitops(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t t;
  for (t = 0; t < 256; t++) {
    uint32_t a = in[2 * t], b = in[2 * t + 1], *o = e->w + t * 24, k, sh;
    if (t == 0) a = 0;
    if (t == 1) b = 0xffffffffu;
    uint64_t ab = ((uint64_t)a << 32) | b, brev;
    o[0] = (uint32_t)popc64(a);
    o[1] = (uint32_t)popc64(ab);
    o[2] = (uint32_t)clz64(a) - 32u;
    o[3] = (uint32_t)clz64(ab >> (b & 63));
    o[4] = (uint32_t)ffs64(a);
    o[5] = (uint32_t)ffs64(ab << (a & 63));
    o[6] = brev32(a);
    brev = ((uint64_t)brev32(b) << 32) | brev32(a);
    o[7] = (uint32_t)brev;
    o[8] = (uint32_t)(brev >> 32);
    o[9] = prmt(a, b, b & 0x7777u);
    o[10] = prmt(a, b, (b >> 16) & 0xffffu);
    sh = (b >> 27) & 31u;
    o[11] = (uint32_t)((((uint64_t)b << 32 | a) << sh) >> 32);
    sh = (b >> 26) & 31u;
    o[12] = (uint32_t)(((uint64_t)b << 32 | a) >> sh);
    sh = (b >> 26) > 32u ? 32u : (b >> 26);
    o[13] = (uint32_t)((((uint64_t)b << 32 | a) << sh) >> 32);
    sh = (a >> 26) > 32u ? 32u : (a >> 26);
    o[14] = (uint32_t)(((uint64_t)b << 32 | a) >> sh);
    o[15] = (a >> (b & 15)) & 0x3ffu;
    {
      /* bfe.s32: len bits from pos, sign-extended from the field's top bit */
      uint32_t pos = b & 31u, len = (b >> 8) & 31u, r = 0, i, top;
      if (len) {
        top = pos + len - 1 > 31u ? 31u : pos + len - 1;
        for (i = 0; i < 32; i++) {
          uint32_t bit = (i < len && pos + i <= 31u) ? (a >> (pos + i)) & 1u : (a >> top) & 1u;
          r |= bit << i;
        }
      }
      o[16] = r;
    }
    {
      /* bfi.b32: the low len bits of a into b at pos */
      uint32_t pos = (a >> 8) & 31u, len = (a >> 16) & 31u, r = b, i;
      for (i = 0; i < len && pos + i <= 31u; i++)
        r = (r & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
      o[17] = r;
    }
    o[18] = (uint32_t)(int32_t)(((int64_t)(int32_t)a + (int32_t)b) >> 1);
    o[19] = (uint32_t)(int32_t)(((int64_t)(int32_t)a + (int32_t)b + 1) >> 1);
    o[20] = (uint32_t)(((uint64_t)a + b) >> 1) ^ (uint32_t)(((uint64_t)a + b + 1) >> 1);
    {
      uint32_t ud = a > b ? a - b : b - a;
      int64_t sd = (int64_t)(int32_t)a - (int32_t)b;
      o[21] = ud + 7u + (uint32_t)(sd < 0 ? -sd : sd);
    }
    {
      uint32_t v = a >> (b & 31);
      o[22] = v ? 31u - (uint32_t)(clz64(v) - 32) : 0xffffffffu;
    }
    o[23] = (a & ~b) | ((~a & b & 0x0f0f0f0fu) ^ (a | b));
    for (k = 0; k < 24; k++) e->rule[t * 24 + k] = R_EXACT;
  }
  (void)c;
}

static void ref_atomics_shared(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t blk, t, n = c->block[0];
  for (blk = 0; blk < c->grid[0]; blk++) {
    const uint32_t *v = in + blk * n;
    uint32_t *o = e->w + blk * 48;
    int32_t sum = 0, imin = INT32_MAX, imax = INT32_MIN;
    uint32_t umin = UINT32_MAX, umax = 0, and_ = UINT32_MAX, or_ = 0, xor_ = 0, inc = 0, dec = 10;
    double fsum = 0.0, dsum = 0.0;
    uint64_t u64 = 0, prod = 1, dbits;
    float fmax = -1.0e30f;
    uint32_t hist[16] = { 0 };
    for (t = 0; t < n; t++) {
      float f = (float)(int32_t)v[t] * 0.001f;
      sum += (int32_t)(v[t] & 0xffffu) - 32768;
      if ((int32_t)v[t] < imin) imin = (int32_t)v[t];
      if ((int32_t)v[t] > imax) imax = (int32_t)v[t];
      if (v[t] < umin) umin = v[t];
      if (v[t] > umax) umax = v[t];
      and_ &= v[t] | 0x10204080u;
      or_ |= v[t] & 0x01010101u;
      xor_ ^= v[t];
      inc = inc >= 100u ? 0u : inc + 1u;
      dec = (dec == 0u || dec > 50u) ? 50u : dec - 1u;
      fsum += (double)(v[t] & 0xffu) * 0.25;
      dsum += (double)(v[t] >> 8) * 0.5;
      u64 += (uint64_t)v[t] << 20;
      if (fmax < f) fmax = f;
      prod *= (uint64_t)(v[t] | 1u);
      hist[v[t] & 15]++;
    }
    o[0] = (uint32_t)sum; o[1] = (uint32_t)imin; o[2] = (uint32_t)imax;
    o[3] = umin; o[4] = umax; o[5] = and_; o[6] = or_; o[7] = xor_;
    o[8] = inc; o[9] = dec;
    dbits = ex_f64_bits(dsum);
    o[11] = (uint32_t)dbits; o[12] = (uint32_t)(dbits >> 32);
    o[13] = (uint32_t)u64; o[14] = (uint32_t)(u64 >> 32);
    o[16] = (uint32_t)prod; o[17] = (uint32_t)(prod >> 32);
    o[18] = n; o[19] = 1; o[20] = n * (n + 1) / 2;
    for (t = 0; t < 16; t++) o[21 + t] = hist[t];
    for (t = 37; t < 48; t++) o[t] = 0;
    x_f32(e, blk * 48 + 10, (float)fsum, 0); /* exact sums: bit-exact */
    x_f32(e, blk * 48 + 15, fmax, 0);
  }
}

static void ref_atomics_global(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t i, n = c->grid[0] * c->block[0], *o = e->w;
  int32_t sum = 0, imin = INT32_MAX, imax = INT32_MIN;
  uint32_t umin = UINT32_MAX, umax = 0, or_ = 0, xor_ = 0, hist[16] = { 0 };
  double fsum = 0.0, dsum = 0.0;
  uint64_t u64 = 0, umin64 = UINT64_MAX, exsum = 0, dbits;
  for (i = 0; i < n; i++) {
    uint32_t v = in[i];
    uint64_t key = ((uint64_t)v << 32) | i;
    sum += (int32_t)(v & 0xfffu) - 2048;
    if ((int32_t)v < imin) imin = (int32_t)v;
    if ((int32_t)v > imax) imax = (int32_t)v;
    if (v < umin) umin = v;
    if (v > umax) umax = v;
    or_ |= v & 0x11111111u;
    xor_ ^= v;
    fsum += (double)(v & 0x3ffu) * 0.125;
    dsum += (double)v * 0.25;
    u64 += (uint64_t)v * v;
    if (key < umin64) umin64 = key;
    exsum += i + 1u;
    hist[v >> 28]++;
  }
  o[0] = (uint32_t)sum; o[1] = (uint32_t)imin; o[2] = (uint32_t)imax;
  o[3] = umin; o[4] = umax; o[5] = or_; o[6] = xor_;
  dbits = ex_f64_bits(dsum);
  o[8] = (uint32_t)dbits; o[9] = (uint32_t)(dbits >> 32);
  o[10] = (uint32_t)u64; o[11] = (uint32_t)(u64 >> 32);
  o[12] = (uint32_t)umin64; o[13] = (uint32_t)(umin64 >> 32);
  o[14] = (uint32_t)exsum; o[15] = (uint32_t)(exsum >> 32);
  o[16] = n;
  for (i = 0; i < 16; i++) o[17 + i] = hist[i];
  o[33] = c->grid[0];
  for (i = 34; i < 48; i++) o[i] = 0;
  x_f32(e, 7, (float)fsum, 0);
}

static void ref_warp_ops(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t nthreads = c->grid[0] * c->block[0], w, l;
  for (w = 0; w < nthreads / 32; w++) {
    const uint32_t *V = in + w * 32;
    uint32_t ballot1 = 0, bit1 = 0, any0 = 0, all7 = 1, sum16 = 0, umin = UINT32_MAX, andv = UINT32_MAX,
             orv = 0, xorv = 0, sum = 0, big = 0, alleq = 1;
    int32_t smax = INT32_MIN;
    for (l = 0; l < 32; l++) {
      uint32_t v = V[l];
      ballot1 |= (v & 1u) << l;
      bit1 |= ((v >> 1) & 1u) << l;
      if ((v & 0xffu) == 0) any0 = 1;
      if ((v & 7u) == 0) all7 = 0;
      sum16 += v & 0xffffu;
      if (v < umin) umin = v;
      if ((int32_t)v > smax) smax = (int32_t)v;
      andv &= v | 0x80808080u;
      orv |= v & 0x01010101u;
      xorv ^= v;
      sum += v;
      if (v > 0x80000000u) big++;
      if (v != V[0]) alleq = 0;
    }
    for (l = 0; l < 32; l++) {
      uint32_t v = V[l], *o = e->w + (w * 32 + l) * 24, k, same = 0;
      for (k = 0; k < 32; k++)
        if ((V[k] & 3u) == (v & 3u)) same |= 1u << k;
      o[0] = V[(l * 7 + 3) & 31];
      o[1] = l >= 3 ? V[l - 3] : v;
      o[2] = l + 5 <= 31 ? V[l + 5] : v;
      o[3] = V[l ^ 9];
      o[4] = V[(l & ~7u) + ((l + 1) & 7u)];
      o[5] = (l & 15u) >= 2 ? V[l - 2] : v;
      o[6] = (l & 7u) + 3 < 8 ? V[l + 3] : v;
      o[7] = ballot1;
      o[8] = all7 | any0 << 1 | 1u << 2;
      o[9] = bit1;
      o[10] = sum16;
      o[11] = umin;
      o[12] = (uint32_t)smax;
      o[13] = andv ^ orv;
      o[14] = xorv;
      o[15] = same;
      o[16] = 0xffffffffu ^ 1u;
      o[17] = alleq ? 0xffffffffu : 0u;
      o[18] = sum;
      {
        uint32_t src = l < 31 ? l + 1 : l;
        uint64_t d = ex_f64_bits((double)V[src] * 0.5 + (double)src);
        o[19] = (uint32_t)d;
        o[20] = (uint32_t)(d >> 32);
      }
      o[21] = l < 16 ? V[15 - l] : V[47 - l];
      o[22] = big;
      o[23] = V[l ^ 31] + (l >= 31 ? V[l - 31] : v);
      for (k = 0; k < 24; k++) e->rule[(w * 32 + l) * 24 + k] = R_EXACT;
    }
  }
}

static void ref_warp_partial(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t bdim = c->block[0], blk, t;
  for (blk = 0; blk < c->grid[0]; blk++)
    for (t = 0; t < bdim; t++) {
      uint32_t w0 = t & ~31u, cnt = bdim - w0 < 32 ? bdim - w0 : 32, l = t & 31u;
      const uint32_t *V = in + blk * bdim + w0;
      uint32_t m = cnt == 32 ? 0xffffffffu : (1u << cnt) - 1u, sum = 0, ballot = 0, any = 0, all = 1, k;
      uint32_t *o = e->w + (blk * bdim + t) * 6;
      for (k = 0; k < cnt; k++) {
        sum += V[k] >> 4;
        ballot |= (V[k] & 1u) << k;
        if (V[k] < 0x01000000u) any = 1;
        if (V[k] < 0x00100000u) all = 0;
      }
      o[0] = m;
      o[1] = V[(l + 1) % cnt];
      o[2] = sum;
      o[3] = ballot;
      o[4] = V[cnt - 1 - l];
      o[5] = any | all << 1;
      for (k = 0; k < 6; k++) e->rule[(blk * bdim + t) * 6 + k] = R_EXACT;
    }
}

static void ref_divergence(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t n = c->grid[0] * c->block[0], g;
  int32_t *steps_of = (int32_t *)calloc(n, 4);
  assert_non_null(steps_of);
  for (g = 0; g < n; g++) {
    int32_t v = (int32_t)in[g];
    uint32_t cc = (uint32_t)v + 1u;
    int steps = 0;
    while (cc != 1u && steps < 500) {
      cc = (cc & 1u) ? 3u * cc + 1u : cc >> 1;
      steps++;
    }
    steps_of[g] = steps;
  }
  for (g = 0; g < n; g++) {
    int32_t v = (int32_t)in[g], cls, acc = 0, sw, i;
    uint32_t *o = e->w + g * 8, k;
    if (v < 300) cls = (v & 1) ? 1 : (v % 3 == 0) ? 2 : 3;
    else if (v > 900) cls = (v & 4) ? 4 : 5;
    else cls = 6 + (v % 5 == 0);
    o[0] = (uint32_t)cls;
    o[1] = (uint32_t)steps_of[g];
    for (i = 0; i < 64; i++) {
      if ((i ^ v) % 3 == 0) continue;
      acc += i * (v & 7);
      if (acc > v) break;
    }
    o[2] = (uint32_t)acc;
    switch (v % 9) {
    case 0: sw = 11; break;
    case 1: sw = v * 2; break;
    case 2: sw = -v; break;
    case 3: sw = v ^ 0x55; break;
    case 4: sw = v >> 2; break;
    case 5:
    case 6: sw = 66; break;
    case 7: sw = v % 13; break;
    default: sw = 8 * v + 1; break;
    }
    o[3] = (uint32_t)sw;
    o[4] = (uint32_t)steps_of[g ^ 1u];
    if (v % 7 == 0) {
      o[5] = o[6] = o[7] = 0xffffffffu;
    } else {
      int32_t x = v, depth = 0;
      do {
        x = x / 2 + (x & 1) * 17;
        depth++;
      } while (x > 20 && depth < 40);
      o[5] = (uint32_t)x;
      o[6] = (uint32_t)depth;
      o[7] = (uint32_t)(steps_of[g] > depth ? steps_of[g] - depth : depth * 3);
    }
    for (k = 0; k < 8; k++) e->rule[g * 8 + k] = R_EXACT;
  }
  free(steps_of);
}

static int32_t fib_ref(int32_t n) { return n < 2 ? n : fib_ref(n - 1) + fib_ref(n - 2); }

static uint32_t gcd_ref(uint32_t a, uint32_t b) { return b ? gcd_ref(b, a % b) : a; }

static void ref_calls(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t n = c->grid[0] * c->block[0], g, k;
  const int32_t *iv = (const int32_t *)in;
  for (g = 0; g < n; g++) {
    int32_t v = iv[g], mn, mx;
    uint32_t *o = e->w + g * 8;
    int64_t s = 0;
    double m;
    o[0] = (uint32_t)fib_ref(v & 15);
    o[1] = gcd_ref((uint32_t)v * 12u, (uint32_t)(v + 7) * 18u);
    for (k = 0; k < 8u + (uint32_t)(v & 7); k++) s += iv[(g & ~7u) + k];
    o[2] = (uint32_t)s;
    mn = mx = iv[g & ~15u];
    for (k = 1; k < 16; k++) {
      int32_t a = iv[(g & ~15u) + k];
      if (a < mn) mn = a;
      if (a > mx) mx = a;
    }
    o[3] = (uint32_t)mn;
    o[4] = (uint32_t)mx;
    o[5] = (uint32_t)(v * 3 - (int32_t)g);
    o[6] = fbits((float)v * 0.5f);
    m = (double)(int8_t)v + (double)(int16_t)(v * 3) + (double)v + (double)((int64_t)v << 20) +
        (double)((float)v * 0.25f) + (double)v + (double)(uint8_t)v + (double)(uint16_t)(v + 1) +
        (double)(uint32_t)v + (double)(uint64_t)(uint32_t)v;
    o[7] = (uint32_t)(int32_t)m;
    for (k = 0; k < 8; k++) e->rule[g * 8 + k] = R_EXACT;
  }
}

static void ref_globals(const e2e_case *c, const uint32_t *in, expect *e)
{
  static const int32_t table[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };
  static const int32_t counts[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };
  static const uint64_t wide[3] = { 0x0123456789abcdefull, 42ull, ~0ull };
  static const char msg[] = "smemu!";
  uint32_t n = c->grid[0] * c->block[0], g, k;
  for (g = 0; g < n; g++) {
    int32_t v = (int32_t)in[g];
    uint32_t *o = e->w + g * 8;
    float x = (float)(v & 63) * 0.0625f;
    o[0] = (uint32_t)(table[v & 15] * counts[g & 7]);
    o[1] = fbits(((3.0f * x + 0.125f) * x - 0.25f) * x + 1.5f); /* exact: dyadic */
    o[2] = (uint32_t)(-123456 + (-321) * (-7));
    o[3] = (uint32_t)(11 + msg[g % 6]);
    o[4] = (uint32_t)counts[2 + v % 6];
    o[5] = fbits(2.5f * (float)v);
    o[6] = (uint32_t)(int32_t)(wide[v % 3] >> (v & 31));
    o[7] = 7;
    for (k = 0; k < 8; k++) e->rule[g * 8 + k] = R_EXACT;
  }
}

static void ref_grid3d(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t bx, by, bz, tx, ty, tz, k;
  const uint32_t *G = c->grid, *B = c->block;
  for (bz = 0; bz < G[2]; bz++)
    for (by = 0; by < G[1]; by++)
      for (bx = 0; bx < G[0]; bx++)
        for (tz = 0; tz < B[2]; tz++)
          for (ty = 0; ty < B[1]; ty++)
            for (tx = 0; tx < B[0]; tx++) {
              uint32_t tid = tx + B[0] * (ty + B[1] * tz);
              uint32_t bid = bx + G[0] * (by + G[1] * bz);
              uint32_t gid = bid * B[0] * B[1] * B[2] + tid, *o = e->w + gid * 6;
              o[0] = tx | ty << 8 | tz << 16;
              o[1] = bx | by << 8 | bz << 16;
              o[2] = B[0] | B[1] << 8 | B[2] << 16;
              o[3] = G[0] | G[1] << 8 | G[2] << 16;
              o[4] = (tid & 31u) | (tid / 32) << 8;
              o[5] = in[gid] ^ gid;
              for (k = 0; k < 6; k++) e->rule[gid * 6 + k] = R_EXACT;
            }
}

static void ref_sync_count(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t n = c->block[0], blk, t;
  for (blk = 0; blk < c->grid[0]; blk++) {
    const int32_t *V = (const int32_t *)in + blk * n;
    uint32_t odd = 0, all10 = 1, any500 = 0, anyt = 0, lgt = 0;
    for (t = 0; t < n; t++) {
      odd += (uint32_t)(V[t] & 1);
      if (V[t] < 10) all10 = 0;
      if (V[t] == 500) any500 = 1;
      if (t == blk * 7) anyt = 1;
      if (V[(t + n - 1) % n] > V[t]) lgt++;
    }
    for (t = 0; t < n; t++) {
      uint32_t *o = e->w + (blk * n + t) * 8, k;
      o[0] = odd;
      o[1] = all10;
      o[2] = any500;
      o[3] = anyt;
      o[4] = n;
      o[5] = (uint32_t)(V[t] + V[(t + 1) % n]);
      o[6] = lgt;
      o[7] = 1;
      for (k = 0; k < 8; k++) e->rule[(blk * n + t) * 8 + k] = R_EXACT;
    }
  }
}

static void ref_local_mem(const e2e_case *c, const uint32_t *in, expect *e)
{
  enum { N = 20 };
  uint32_t n = c->grid[0] * c->block[0], g, k;
  for (g = 0; g < n; g++) {
    const int32_t *src = (const int32_t *)in + g * N;
    int32_t a[N], hist[8] = { 0 }, keys[N], vals[N], i, j;
    uint32_t *o = e->w + g * (N + 4);
    for (i = 0; i < N; i++) {
      a[i] = src[i];
      hist[src[i] & 7]++;
      keys[src[i] % N] = i;
      vals[i] = src[i] * 3;
    }
    for (i = 1; i < N; i++) {
      int32_t x = a[i];
      for (j = i - 1; j >= 0 && a[j] > x; j--) a[j + 1] = a[j];
      a[j + 1] = x;
    }
    for (i = 0; i < N; i++) o[i] = (uint32_t)a[i];
    o[N] = (uint32_t)(hist[src[0] & 7] * 100 + hist[src[1] & 7]);
    o[N + 1] = (uint32_t)a[src[2] % N];
    o[N + 2] = (uint32_t)vals[src[3] % N];
    o[N + 3] = (uint32_t)keys[src[4] % N]; /* assigned: src[4] % N was written at i = 4 */
    for (k = 0; k < N + 4; k++) e->rule[g * (N + 4) + k] = R_EXACT;
  }
}

static void ref_shared_vec(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t n = c->block[0], blk, t, k;
  const float *F = (const float *)in;
  for (blk = 0; blk < c->grid[0]; blk++) {
    const float *B = F + blk * n * 4; /* float4 of thread t: B[4t..4t+3] */
    uint8_t bytes[4 * 1024];
    uint32_t count100 = 0;
    for (t = 0; t < n; t++)
      for (k = 0; k < 4; k++) bytes[4 * t + k] = (uint8_t)(uint32_t)B[4 * t + k];
    for (t = 0; t < n; t++)
      if (B[4 * t] > 100.0f) count100++;
    for (t = 0; t < n; t++) {
      uint32_t r = (t + 37) % n, gid = blk * n + t, *o = e->w + gid * 16;
      const float *g = B + 4 * r, *d = B + 4 * (n - 1 - t), *f = B + 4 * t;
      uint64_t wr = ((uint64_t)(uint32_t)g[2] << 32) | (uint32_t)g[3];
      uint64_t sum = ex_f64_bits((double)d[0] + (double)d[3]);
      int32_t wsum = 0;
      for (k = 0; k < 32; k++) wsum += (int32_t)B[4 * ((t & ~31u) + k)];
      o[0] = fbits(g[0] + g[1]);
      o[1] = fbits(g[2] - g[3]);
      o[2] = fbits(g[2]) ^ fbits(g[3]);
      o[3] = bytes[(t * 5) % (n * 4)] | (uint32_t)bytes[(t * 7 + 1) % (n * 4)] << 8;
      o[4] = (uint32_t)(int32_t)(int16_t)(int32_t)(g[0] - g[1]);
      o[5] = (uint32_t)(wr >> 16);
      o[6] = (uint32_t)sum;
      o[7] = (uint32_t)(sum >> 32);
      o[8] = 0;
      o[9] = (uint32_t)wsum;
      o[10] = count100;
      o[11] = (uint32_t)f[3] & 0xffffu;
      o[12] = fbits(g[3]);
      o[13] = fbits(g[2] * 2.0f);
      o[14] = fbits(g[1]);
      o[15] = fbits(-g[0]);
      for (k = 0; k < 16; k++) e->rule[gid * 16 + k] = R_EXACT;
    }
  }
}

static void ref_named_barrier(const e2e_case *c, const uint32_t *in, expect *e)
{
  uint32_t blk, t;
  for (blk = 0; blk < c->grid[0]; blk++) {
    int32_t stage[64];
    for (t = 0; t < 64; t++) stage[t] = (int32_t)in[blk * 64 + t] * 3 + 1;
    for (t = 0; t < 128; t++) {
      uint32_t *o = e->w + (blk * 128 + t) * 2;
      if (t < 64) {
        o[0] = (uint32_t)-(int32_t)t;
        o[1] = 0;
      } else {
        uint32_t k = t - 64;
        o[0] = (uint32_t)(stage[63 - k] + stage[k]);
        o[1] = (uint32_t)stage[(k * 5) & 63];
      }
      e->rule[(blk * 128 + t) * 2] = e->rule[(blk * 128 + t) * 2 + 1] = R_EXACT;
    }
  }
}

static const struct {
  const char *name;
  ref_fn ref;
} g_refs[] = {
  { "int_arith", ref_int_arith },       { "convert", ref_convert },
  { "fp32_math", ref_fp32_math },       { "fp64_math", ref_fp64_math },
  { "half_math", ref_half_math },       { "bitops", ref_bitops },
  { "atomics_shared", ref_atomics_shared }, { "atomics_global", ref_atomics_global },
  { "warp_ops", ref_warp_ops },         { "warp_partial", ref_warp_partial },
  { "divergence", ref_divergence },     { "calls", ref_calls },
  { "globals", ref_globals },           { "grid3d", ref_grid3d },
  { "sync_count", ref_sync_count },     { "local_mem", ref_local_mem },
  { "shared_vec", ref_shared_vec },     { "named_barrier", ref_named_barrier },
};

static ref_fn find_ref(const char *name)
{
  size_t i;
  for (i = 0; i < sizeof g_refs / sizeof g_refs[0]; i++)
    if (strcmp(g_refs[i].name, name) == 0) return g_refs[i].ref;
  return NULL;
}

/* ---- running a case ------------------------------------------------------ */
/* Loads ptx_path, launches the case and copies its output to out. Returns 0,
 * or -1 with the reason in msg. */
static int run_case(const e2e_case *c, const char *ptx_path, uint32_t *out, char *msg, size_t len)
{
  smemu_options opt;
  smemu_ctx *ctx = NULL;
  smemu_module *mod = NULL;
  smemu_kernel *k = NULL;
  void *din = NULL, *dout = NULL, *args[E2E_MAXP];
  uint64_t vals[E2E_MAXP];
  uint32_t *in = (uint32_t *)calloc(c->in_words ? c->in_words : 1, 4);
  size_t in_bytes = (size_t)(c->in_words ? c->in_words : 1) * 4, out_bytes = (size_t)c->out_words * 4;
  smemu_status st;
  const char *step = "create";
  int i, rc = -1;

  assert_non_null(in);
  e2e_fill_input(c, in);
  memset(&opt, 0, sizeof opt);
  st = smemu_create(&opt, &ctx);
  if (st == SMEMU_OK) { step = "load"; st = smemu_module_load_file(ctx, ptx_path, &mod); }
  if (st == SMEMU_OK) { step = "get_kernel"; st = smemu_module_get_kernel(mod, c->kernel, &k); }
  if (st == SMEMU_OK) { step = "malloc"; st = smemu_malloc(ctx, &din, in_bytes); }
  if (st == SMEMU_OK) st = smemu_malloc(ctx, &dout, out_bytes);
  if (st == SMEMU_OK) { step = "memcpy"; st = smemu_memcpy(ctx, din, in, in_bytes); }
  if (st == SMEMU_OK) { step = "memset"; st = smemu_memset(ctx, dout, E2E_OUT_FILL, out_bytes); }
  if (st == SMEMU_OK) {
    for (i = 0; i < c->nparams; i++) {
      vals[i] = c->params[i].bits;
      args[i] = c->params[i].kind == E2E_IN ? (void *)&din
              : c->params[i].kind == E2E_OUT ? (void *)&dout : (void *)&vals[i];
    }
    step = "launch";
    st = smemu_launch(ctx, k, c->grid, c->block, c->shared_bytes, args);
  }
  if (st == SMEMU_OK) { step = "memcpy back"; st = smemu_memcpy(ctx, out, dout, out_bytes); }
  if (st == SMEMU_OK) rc = 0;
  else
    snprintf(msg, len, "%s: %s: %s", step, smemu_status_name(st), ctx ? smemu_errmsg(ctx) : "");
  if (ctx) {
    if (din) smemu_free(ctx, din);
    if (dout) smemu_free(ctx, dout);
    if (mod) smemu_module_unload(mod);
    smemu_destroy(ctx);
  }
  free(in);
  return rc;
}

/* Runs c from ptx_path and checks it against e; appends a line to report.
 * Returns 1 when it passed, 0 when the output differs, -1 when it did not run. */
static int check_variant(const e2e_case *c, const char *what, const char *ptx_path,
                         const expect *e, uint32_t *out, char *report, size_t len)
{
  char msg[512];
  size_t used = strlen(report);
  long bad;
  if (run_case(c, ptx_path, out, msg, sizeof msg) != 0) {
    snprintf(report + used, len - used, "  %s (%s): FAIL: %s\n", what, ptx_path, msg);
    return -1;
  }
  bad = compare_words(out, e, msg, sizeof msg);
  if (bad >= 0) {
    snprintf(report + used, len - used, "  %s (%s): FAIL vs C reference at %s\n", what, ptx_path, msg);
    return 0;
  }
  snprintf(report + used, len - used, "  %s: OK vs C reference\n", what);
  return 1;
}

static void test_case(void **state)
{
  const e2e_case *c = (const e2e_case *)*state;
  ref_fn ref = find_ref(c->name);
  uint32_t *in, *out;
  expect e;
  char path[1400], report[4096];
  int ok = 1, ran;
  const char *only = getenv("SMEMU_E2E_ONLY");

  if (only && *only && strcmp(only, c->name) != 0) skip();
  if (!ref) fail_msg("e2e %s: no C reference in test_e2e.c", c->name);
  report[0] = 0;
  in = (uint32_t *)calloc(c->in_words ? c->in_words : 1, 4);
  out = (uint32_t *)calloc(c->out_words, 4);
  assert_non_null(in);
  assert_non_null(out);
  e2e_fill_input(c, in);
  expect_init(&e, c->out_words);
  memset(e.w, E2E_OUT_FILL, (size_t)c->out_words * 4);
  ref(c, in, &e);

  /* 1. the checked-in PTX */
  snprintf(path, sizeof path, "%s/tests/e2e/%s.ptx", g_root, c->file);
  ran = check_variant(c, "checked-in PTX", path, &e, out, report, sizeof report);
  ok = ran == 1;

  /* 2. the GPU recording, compared with the same rules */
  snprintf(path, sizeof path, "%s/tests/hw/e2e/e2e_%s.bin", g_root, c->name);
  if (ran >= 0 && ex_file_exists(path)) {
    char msg[512], dir[1024];
    size_t used = strlen(report);
    void *rec;
    snprintf(dir, sizeof dir, "%s/tests/hw/e2e", g_root);
    rec = ex_read_bin(dir, "e2e", c->name, (size_t)c->out_words * 4);
    if (!rec) {
      snprintf(report + used, sizeof report - used, "  GPU recording %s: FAIL: unreadable or wrong size\n", path);
      ok = 0;
    } else {
      expect g = e;
      long bad;
      g.w = (uint32_t *)rec;
      bad = compare_words(out, &g, msg, sizeof msg);
      if (bad >= 0) {
        snprintf(report + used, sizeof report - used, "  checked-in PTX vs GPU recording: FAIL at %s\n", msg);
        ok = 0;
      } else {
        snprintf(report + used, sizeof report - used, "  checked-in PTX vs GPU recording: OK\n");
      }
      free(rec);
    }
  }

  /* 3. PTX compiled now by nvcc from the .cu */
  if (g_nvcc_dir[0]) {
    snprintf(path, sizeof path, "%s/%s.ptx", g_nvcc_dir, c->file);
    if (!ex_file_exists(path)) {
      size_t used = strlen(report);
      snprintf(report + used, sizeof report - used, "  nvcc PTX: FAIL: nvcc did not produce %s\n", path);
      ok = 0;
    } else {
      if (check_variant(c, "nvcc PTX", path, &e, out, report, sizeof report) != 1) ok = 0;
    }
  }

  print_message("e2e %s (%s, %s):\n%s", c->name, c->file, c->kernel, report);
  expect_free(&e);
  free(in);
  free(out);
  if (!ok) fail_msg("e2e %s failed", c->name);
}

/* The module-scope variables of globals.cu, through the API. */
static void test_globals_symbols(void **state)
{
  smemu_options opt;
  smemu_ctx *ctx = NULL;
  smemu_module *mod = NULL;
  void *p = NULL;
  size_t bytes = 0;
  char path[1200];
  (void)state;
  snprintf(path, sizeof path, "%s/tests/e2e/globals.ptx", g_root);
  memset(&opt, 0, sizeof opt);
  assert_int_equal(smemu_create(&opt, &ctx), SMEMU_OK);
  assert_int_equal(smemu_module_load_file(ctx, path, &mod), SMEMU_OK);
  assert_int_equal(smemu_module_get_global(mod, "gl_scale", &p, &bytes), SMEMU_OK);
  assert_int_equal(bytes, 4);
  assert_true(*(const float *)p == 2.5f);
  assert_int_equal(smemu_module_get_global(mod, "gl_counts", &p, &bytes), SMEMU_OK);
  assert_int_equal(bytes, 32);
  assert_int_equal(((const int32_t *)p)[7], 80);
  assert_int_equal(smemu_module_get_global(mod, "gl_table", &p, &bytes), SMEMU_OK);
  assert_int_equal(bytes, 64);
  assert_int_equal(((const int32_t *)p)[15], 3); /* the initializer's last element */
  assert_int_equal(smemu_module_get_global(mod, "gl_msg", &p, &bytes), SMEMU_OK);
  assert_int_equal(bytes, 7);
  assert_string_equal((const char *)p, "smemu!");
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

/* ---- nvcc ------------------------------------------------------------------ */
extern char **environ;

/* Start argv (looked up on the PATH, no shell) with stdout discarded;
 * its pid, or -1. */
static pid_t spawn_quiet(char *const argv[])
{
  posix_spawn_file_actions_t fa;
  pid_t pid;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

/* Wait for pid (0: every child); 0 when all exited with status 0. */
static int wait_all(pid_t pid)
{
  int st, bad = 0;
  pid_t w;
  if (pid < 0) return -1;
  while ((w = waitpid(pid ? pid : -1, &st, 0)) > 0 || (w < 0 && errno == EINTR)) {
    if (w > 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) bad = 1;
    if (w == pid) break;
  }
  return bad;
}

static int group_setup(void **state)
{
  const char *skip_nvcc = getenv("SMEMU_E2E_NO_NVCC");
  int i, j;
  char *version[] = {"nvcc", "--version", NULL};
  (void)state;
  if (!find_root()) {
    fprintf(stderr, "test_e2e: cannot find the repository root (set SMEMU_ROOT)\n");
    return -1;
  }
  g_nvcc_dir[0] = 0;
  if ((skip_nvcc && *skip_nvcc && strcmp(skip_nvcc, "0") != 0) ||
      wait_all(spawn_quiet(version)) != 0) {
    print_message("e2e: nvcc not used (not on PATH or SMEMU_E2E_NO_NVCC set)\n");
    return 0;
  }
  snprintf(g_nvcc_dir, sizeof g_nvcc_dir, "/tmp/smemu_e2e_XXXXXX");
  if (!mkdtemp(g_nvcc_dir)) {
    g_nvcc_dir[0] = 0;
    return 0;
  }
  /* one nvcc per file, in parallel (no shell); a failure shows up as a
   * missing .ptx */
  int bad = 0;
  for (i = 0; i < E2E_NCASES; i++) {
    for (j = 0; j < i; j++)
      if (strcmp(e2e_cases[j].file, e2e_cases[i].file) == 0) break;
    if (j < i) continue;
    char src[PATH_MAX + 64], out[PATH_MAX + 64];
    snprintf(src, sizeof src, "%s/tests/e2e/%s.cu", g_root, e2e_cases[i].file);
    snprintf(out, sizeof out, "%s/%s.ptx", g_nvcc_dir, e2e_cases[i].file);
    char *argv[] = {"nvcc", "-arch=sm_90", "-O3", "-lineinfo", "-ptx", src, "-o", out, NULL};
    if (spawn_quiet(argv) < 0) bad = 1;
  }
  if (wait_all(0) != 0 || bad) print_message("e2e: nvcc reported errors\n");
  print_message("e2e: nvcc PTX in %s\n", g_nvcc_dir);
  return 0;
}

static int group_teardown(void **state)
{
  (void)state;
  if (g_nvcc_dir[0]) {
    char *argv[] = {"rm", "-rf", g_nvcc_dir, NULL};
    if (wait_all(spawn_quiet(argv)) != 0) fprintf(stderr, "test_e2e: could not remove %s\n", g_nvcc_dir);
  }
  return 0;
}

int main(int argc, char **argv)
{
  struct CMUnitTest tests[E2E_NCASES + 1];
  int i;
  (void)argc;
  g_argv0 = argv[0];
  for (i = 0; i < E2E_NCASES; i++) {
    tests[i].name = e2e_cases[i].name;
    tests[i].test_func = test_case;
    tests[i].setup_func = NULL;
    tests[i].teardown_func = NULL;
    tests[i].initial_state = (void *)&e2e_cases[i];
  }
  tests[E2E_NCASES].name = "globals_symbols";
  tests[E2E_NCASES].test_func = test_globals_symbols;
  tests[E2E_NCASES].setup_func = NULL;
  tests[E2E_NCASES].teardown_func = NULL;
  tests[E2E_NCASES].initial_state = NULL;
  return _cmocka_run_group_tests("e2e", tests, E2E_NCASES + 1, group_setup, group_teardown);
}
