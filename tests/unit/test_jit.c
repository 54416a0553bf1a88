/* test_jit.c: the compiled tier against the interpreter, bit for bit.
 *  - tricky_ops: single forms at their edges (shifts by >= the width,
 *    min/max with NaN and signed zeros, cvt saturation and NaN, mul.hi,
 *    ftz/sat, a NaN result read by abs/neg/min/max/cvt/setp/fma after it),
 *    on one thread and on a full warp (the compiled tier's full-warp
 *    bodies): the compiled result must equal the value stated here (from
 *    the PTX ISA's definitions) and the interpreter's.
 *  - fuzz_kernels: random straight-line and branchy kernels over the
 *    compiled forms, the forms that go through handlers, shared memory,
 *    guards and divergence (odd seeds: the full mix of tests/common/tiers.c:
 *    barriers, loops, vectors, sub-word sizes, atomics, warp collectives),
 *    run on both tiers with checks off and with the
 *    bank model and race checks on; outputs, counters, bank figures,
 *    hazards and error reports must agree.
 *  - full_warp: a kernel whose warps enter with all lanes and with some
 *    (jit.c's full-warp bodies, and the general bodies of
 *    SMEMU_JIT_PARTIAL=1 or the interpreter), against stated results.
 *    fuzz_kernels runs every other pair of seeds with SMEMU_JIT_PARTIAL=1.
 *  - corpus: every kernel of the examples and of the e2e and control-flow
 *    corpora with generated arguments, on both tiers (checks off, so the
 *    compiled memory paths run), compared the same way.
 * SMEMU_JIT_FUZZ=N sets the number of random kernels (default 12),
 * SMEMU_JIT_SEED the first seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smemu.h"

#include "tiers.h"

/* Both tiers on one case; with checks off and with banks and races. */
static int both(const char *ptx, const char *file, int ki, const uint32_t grid[3], const uint32_t block[3],
                size_t bytes, uint64_t seed, const char *what, int *compiled, int nmodes) {
  /* (the third: the bank model alone, where compiled code counts a
   * pattern it has seen from the bank cache and hooks no global access) */
  static const uint32_t modes[] = {0, SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC,
                                   SMEMU_ANALYZE_BANKS};
  int bad = 0;
  for (int m = 0; m < nmodes; m++) {
    tiers_launch L;
    memset(&L, 0, sizeof L);
    memcpy(L.grid, grid, sizeof L.grid);
    memcpy(L.block, block, sizeof L.block);
    L.bytes = bytes;
    L.seed = seed;
    L.analyses = modes[m];
    char w[1400];
    snprintf(w, sizeof w, "%s%s", what, m == 2 ? " (banks)" : m ? " (banks+races+sync)" : "");
    bad += tiers_both(ptx, file, ki, &L, w, compiled);
  }
  return bad;
}

/* One run on one tier (the generator's run, with the old names the memory,
 * fault and cache tests use). */
typedef tiers_outcome outcome;
#define NR KGEN_NR
#define outcome_free tiers_free
#define compare tiers_compare
static void run(const char *ptx, const char *file, int ki, int tier, uint32_t analyses, const uint32_t grid[3],
                const uint32_t block[3], size_t bytes, uint64_t seed, outcome *o) {
  tiers_launch L;
  memset(&L, 0, sizeof L);
  memcpy(L.grid, grid, sizeof L.grid);
  memcpy(L.block, block, sizeof L.block);
  L.bytes = bytes;
  L.seed = seed;
  L.analyses = analyses;
  tiers_run(ptx, file, ki, tier, &L, o);
}

/* Runs the compiled tier's partial-warp regions in general bodies (on) or
 * in the interpreter (off, the default). */
static void partial_bodies(int on) {
  if (on) setenv("SMEMU_JIT_PARTIAL", "1", 1);
  else unsetenv("SMEMU_JIT_PARTIAL");
}

/* A kernel of test_jit's original mix, len instructions. */
static char *random_kernel(uint64_t seed, int len) {
  kgen_opts ko = {len, 0, 0};
  return kgen_kernel(NULL, 0, seed, &ko, NULL);
}

/* ---- tricky forms with stated results ---- */
typedef struct tricky {
  const char *body;  /* PTX computing %rd9 (64-bit result) from %rd1 / %rd2 inputs */
  uint64_t a, b;     /* inputs */
  uint64_t want;     /* the stated result */
} tricky;

static const tricky cases[] = {
    /* a guarded ret falls through: %rd5, written before it, is read after it */
    {"add.u64 %rd5, %rd1, %rd2; setp.eq.u64 %p3, %rd1, 12345; @%p3 ret; mov.u64 %rd9, %rd5;", 40, 2, 42},
    /* the same with a guarded exit */
    {"add.u64 %rd5, %rd1, %rd2; setp.eq.u64 %p3, %rd1, 12345; @%p3 exit; mul.lo.u64 %rd9, %rd5, 3;", 40, 2, 126},
    /* shifts by the width and beyond: 0 for shl/shr.u, the sign for shr.s */
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; shl.b32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 0xffffffff, 32, 0},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; shl.b32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 1, 31, 0x80000000},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; shr.u32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 0x80000000, 33, 0},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; shr.s32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 0x80000000, 40, 0xffffffff},
    {"cvt.u32.u64 %r2, %rd2; shl.b64 %rd9, %rd1, %r2;", 1, 64, 0},
    {"cvt.u32.u64 %r2, %rd2; shr.s64 %rd9, %rd1, %r2;", 0x8000000000000000ull, 0xffffffff, ~0ull},
    {"cvt.u16.u64 %h1, %rd1; cvt.u32.u64 %r2, %rd2; shl.b16 %h3, %h1, %r2; cvt.u64.u16 %rd9, %h3;", 1, 16, 0},
    /* mul.hi and mul.wide */
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mul.hi.s32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 0x80000000, 0x80000000, 0x40000000},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mul.hi.u32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 0xffffffff, 0xffffffff, 0xfffffffe},
    {"mul.hi.u64 %rd9, %rd1, %rd2;", ~0ull, ~0ull, ~0ull - 1},
    {"mul.hi.s64 %rd9, %rd1, %rd2;", ~0ull, ~0ull, 0},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mul.wide.s32 %rd9, %r1, %r2;", 0xffffffff, 0x7fffffff, 0xffffffff80000001ull},
    /* f32 min/max: one NaN gives the other operand; -0 < +0 */
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; min.f32 %f3, %f1, %f2; mov.b32 %r3, %f3; cvt.u64.u32 %rd9, %r3;", 0x7fc00000, 0x3f800000, 0x3f800000},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; max.f32 %f3, %f1, %f2; mov.b32 %r3, %f3; cvt.u64.u32 %rd9, %r3;", 0x00000000, 0x80000000, 0x00000000},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; min.f32 %f3, %f1, %f2; mov.b32 %r3, %f3; cvt.u64.u32 %rd9, %r3;", 0x00000000, 0x80000000, 0x80000000},
    /* f64 min: both NaN give the canonical NaN */
    {"mov.b64 %fd1, %rd1; mov.b64 %fd2, %rd2; min.f64 %fd3, %fd1, %fd2; mov.b64 %rd9, %fd3;", 0x7ff8000000000001ull, 0xfff8000000000000ull, 0x7fffffffffffffffull},
    /* cvt: saturation, NaN, rounding */
    {"cvt.u32.u64 %r1, %rd1; mov.b32 %f1, %r1; cvt.rzi.s32.f32 %r3, %f1; cvt.u64.u32 %rd9, %r3;", 0x4f800000, 0, 0x7fffffff},
    {"cvt.u32.u64 %r1, %rd1; mov.b32 %f1, %r1; cvt.rzi.s32.f32 %r3, %f1; cvt.u64.u32 %rd9, %r3;", 0x7fc00000, 0, 0},
    {"cvt.u32.u64 %r1, %rd1; mov.b32 %f1, %r1; cvt.rzi.u32.f32 %r3, %f1; cvt.u64.u32 %rd9, %r3;", 0xbf800000, 0, 0},
    {"mov.b64 %fd1, %rd1; cvt.rzi.s32.f64 %r3, %fd1; cvt.u64.u32 %rd9, %r3;", 0x7ff8000000000000ull, 0, 0x80000000},
    {"cvt.u32.u64 %r1, %rd1; mov.b32 %f1, %r1; cvt.rni.s32.f32 %r3, %f1; cvt.u64.u32 %rd9, %r3;", 0x40200000, 0, 2}, /* 2.5 -> 2 */
    {"cvt.u32.u64 %r1, %rd1; mov.b32 %f1, %r1; cvt.rmi.s32.f32 %r3, %f1; cvt.u64.u32 %rd9, %r3;", 0xc0200000, 0, 0xfffffffd},
    {"cvt.u32.u64 %r1, %rd1; cvt.sat.u8.s32 %h1, %r1; cvt.u64.u16 %rd9, %h1;", 0xffffff00, 0, 0},
    {"cvt.u32.u64 %r1, %rd1; cvt.sat.s8.s32 %h1, %r1; cvt.u64.u16 %rd9, %h1;", 300, 0, 0x7f},
    {"cvt.s32.s64 %r1, %rd1; cvt.u64.u32 %rd9, %r1;", 0xfffffffffffffff0ull, 0, 0xfffffff0},
    /* ftz and sat */
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; add.ftz.f32 %f3, %f1, %f2; mov.b32 %r3, %f3; cvt.u64.u32 %rd9, %r3;", 0x80000001, 0x80000000, 0x80000000},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; add.sat.f32 %f3, %f1, %f2; mov.b32 %r3, %f3; cvt.u64.u32 %rd9, %r3;", 0x7fc00000, 0x3f800000, 0},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; mul.sat.f32 %f3, %f1, %f2; mov.b32 %r3, %f3; cvt.u64.u32 %rd9, %r3;", 0x40000000, 0x40000000, 0x3f800000},
    /* f32 NaN results are canonical */
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; add.f32 %f3, %f1, %f2; mov.b32 %r3, %f3; cvt.u64.u32 %rd9, %r3;", 0xffc00001, 0x3f800000, 0x7fffffff},
    /* a NaN result read by the next instruction is the canonical NaN
     * whatever the host made of the input's payload: through abs, neg,
     * min/max of two NaNs, cvt to f64, and an fma chain */
#define F12 "cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; "
#define R9 "mov.b32 %r3, %f5; cvt.u64.u32 %rd9, %r3;"
    {F12 "add.f32 %f3, %f1, %f2; abs.f32 %f5, %f3; " R9, 0xffc00001, 0x3f800000, 0x7fffffff},
    {F12 "mul.f32 %f3, %f1, %f2; neg.f32 %f5, %f3; " R9, 0x7fc00005, 0x3f800000, 0xffffffff},
    {F12 "fma.rn.f32 %f3, %f1, %f2, %f2; mul.f32 %f4, %f2, %f1; min.f32 %f5, %f4, %f3; " R9, 0xffc00001, 0x3f800000,
     0x7fffffff},
    {F12 "add.f32 %f3, %f1, %f2; max.f32 %f5, %f3, %f2; " R9, 0xffc00001, 0x3f800000, 0x3f800000},
    {F12 "add.f32 %f3, %f1, %f2; fma.rn.f32 %f4, %f3, %f2, %f2; fma.rn.f32 %f5, %f4, %f2, %f4; " R9, 0xffc00001,
     0x3f800000, 0x7fffffff},
    {F12 "sub.f32 %f3, %f1, %f2; fma.rn.f32 %f4, %f3, %f2, %f2; mov.f32 %f5, %f3; " R9, 0xffc00001, 0x3f800000,
     0x7fffffff},
    {F12 "add.f32 %f3, %f1, %f2; cvt.f64.f32 %fd1, %f3; mov.b64 %rd9, %fd1;", 0xffc00001, 0x3f800000,
     0x7fffffffe0000000ull},
    {F12 "add.f32 %f3, %f1, %f2; setp.equ.f32 %p1, %f3, %f3; setp.eq.f32 %p2, %f3, %f3; selp.u64 %rd10, 1, 0, %p1; "
         "selp.u64 %rd9, 2, 0, %p2; add.u64 %rd9, %rd9, %rd10;", 0xffc00001, 0x3f800000, 1},
#undef F12
#undef R9
    /* setp with NaN: ordered lt false, unordered ltu true */
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; mov.b32 %f1, %r1; mov.b32 %f2, %r2; setp.ltu.f32 %p1, %f1, %f2; setp.lt.or.f32 %p2, %f1, %f2, %p1; selp.u64 %rd9, 7, 9, %p2;", 0x7fc00000, 0, 7},
    /* integer min with signs */
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; min.s32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 0xffffffff, 1, 0xffffffff},
    {"cvt.u32.u64 %r1, %rd1; cvt.u32.u64 %r2, %rd2; min.u32 %r3, %r1, %r2; cvt.u64.u32 %rd9, %r3;", 0xffffffff, 1, 1},
};

static void tricky_ops(void **state) {
  (void)state;
  int compiled = 0, bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char ptx[2048];
    snprintf(ptx, sizeof ptx,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry t(.param .u64 po)\n{\n"
             ".reg .b16 %%h<8>;\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<12>;\n.reg .f32 %%f<8>;\n.reg .f64 %%fd<8>;\n"
             ".reg .pred %%p<4>;\n"
             "ld.param.u64 %%rd8, [po];\nmov.u64 %%rd1, %lluU;\nmov.u64 %%rd2, %lluU;\n%s\n"
             "st.global.u64 [%%rd8], %%rd9;\nret;\n}\n",
             (unsigned long long)cases[i].a, (unsigned long long)cases[i].b, cases[i].body);
    /* one thread, and a full warp (the compiled tier's full-warp bodies;
     * every lane stores the same value) */
    for (int k = 0; k < 4; k++) {
      int tier = k & 1 ? SMEMU_TIER_JIT : SMEMU_TIER_INTERP;
      tiers_outcome o;
      tiers_launch L = {{1, 1, 1}, {k < 2 ? 1 : 32, 1, 1}, 8, 0, 1, 0, 0, 0, 0};
      tiers_run(ptx, NULL, 0, tier, &L, &o);
      uint64_t got = 0;
      if (o.nbufs) memcpy(&got, o.buf[0], 8);
      if (o.status || got != cases[i].want) {
        printf("case %zu (%s) on %s: status %d %s, got %016llx, want %016llx\n", i, cases[i].body,
               tier == SMEMU_TIER_JIT ? "jit" : "interp", o.status, o.msg, (unsigned long long)got,
               (unsigned long long)cases[i].want);
        bad++;
      }
      if (tier == SMEMU_TIER_JIT && o.tier && !strcmp(o.tier, "jit")) compiled++;
      tiers_free(&o);
    }
  }
  assert_int_equal(bad, 0);
  assert_int_equal(compiled, 2 * (int)(sizeof cases / sizeof *cases));
}

/* ---- random kernels (tests/common/tiers.c) ---- */
static void fuzz_kernels(void **state) {
  (void)state;
  const char *e = getenv("SMEMU_JIT_FUZZ"), *sd = getenv("SMEMU_JIT_SEED");
  int n = e ? atoi(e) : 12, bad = 0, compiled = 0;
  uint64_t seed0 = sd ? strtoull(sd, NULL, 0) : 1;
  for (int i = 0; i < n; i++) {
    uint64_t seed = seed0 + (uint64_t)i;
    /* odd seeds: the full mix (barriers, loops, vectors, atomics, ...) */
    kgen_opts ko = {20 + (int)(seed % 40), (int)(seed & 1), 0};
    char *ptx = kgen_kernel(NULL, 0, seed * 7919, &ko, NULL);
    uint32_t grid[3] = {2, 1, 1}, block[3] = {48 + 16 * (uint32_t)(seed % 3), 1, 1};
    char what[64];
    int part = (int)(seed >> 1 & 1);
    snprintf(what, sizeof what, "random kernel, seed %llu%s", (unsigned long long)seed,
             part ? ", SMEMU_JIT_PARTIAL=1" : "");
    partial_bodies(part);
    int b = both(ptx, NULL, 0, grid, block, KGEN_IN_BYTES * 2 * 96, seed, what, &compiled, 2);
    partial_bodies(0);
    if (b) printf("%s", ptx);
    bad += b;
    free(ptx);
  }
  assert_int_equal(bad, 0);
  assert_int_equal(compiled, 2 * n);
}

/* ---- memory forms: every space, widths 8 to 64 bits, vectors ---- */
static const char mem_ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".const .align 8 .b32 ctab[8] = {1, -2, 3, -4, 5, 6, 7, 8};\n"
    ".visible .entry mem(.param .u64 po, .param .u64 pi, .param .u32 n, .param .u16 h, .param .u8 b)\n"
    "{\n"
    ".reg .b16 %h<8>;\n"
    ".reg .b32 %r<24>;\n"
    ".reg .b64 %rd<24>;\n"
    ".reg .f32 %f<8>;\n"
    ".reg .f64 %fd<4>;\n"
    ".reg .pred %p<4>;\n"
    ".local .align 16 .b8 loc[64];\n"
    ".shared .align 16 .b8 sm[2048];\n"
    "ld.param.u64 %rd1, [po];\n"
    "ld.param.u64 %rd2, [pi];\n"
    "ld.param.u32 %r1, [n];\n"
    "ld.param.u16 %h1, [h];\n"
    "ld.param.s8 %r20, [b];\n"
    "mov.u32 %r2, %tid.x;\n"
    "mul.wide.u32 %rd3, %r2, 16;\n"
    "add.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd4];\n"
    "ld.global.v2.u64 {%rd5, %rd6}, [%rd4];\n"
    "ld.global.s8 %r7, [%rd4+3];\n"
    "ld.global.s16 %r8, [%rd4+6];\n"
    "ld.global.u8 %h2, [%rd4+5];\n"
    "ld.global.v2.f32 {%f1, %f2}, [%rd4+8];\n"
    "ld.global.s32 %rd7, [%rd4+4];\n"
    "shl.b32 %r9, %r2, 4;\n"
    "mov.u32 %r10, sm;\n"
    "add.s32 %r9, %r9, %r10;\n"
    "st.shared.v4.u32 [%r9], {%r6, %r5, %r4, %r3};\n"
    "st.shared.u8 [%r9+1], %h2;\n"
    "st.shared.u16 [%r9+6], %h1;\n"
    "bar.sync 0;\n"
    "xor.b32 %r11, %r9, 16;\n"
    "ld.shared.v4.u32 {%r12, %r13, %r14, %r15}, [%r11];\n"
    "ld.shared.v2.u64 {%rd8, %rd9}, [%r11];\n"
    "ld.shared.s8 %r16, [%r11+1];\n"
    "mov.u64 %rd10, loc;\n"
    "cvta.local.u64 %rd11, %rd10;\n"
    "cvta.to.local.u64 %rd12, %rd11;\n"
    "cvt.u32.u64 %r17, %rd12;\n"
    "and.b32 %r18, %r2, 3;\n"
    "shl.b32 %r18, %r18, 4;\n"
    "add.s32 %r17, %r17, %r18;\n"
    "st.local.v4.u32 [%r17], {%r2, %r3, %r12, %r13};\n"
    "st.local.u16 [%r17+2], %h1;\n"
    "ld.local.v2.u64 {%rd13, %rd14}, [%r17];\n"
    "ld.local.s16 %r19, [%r17+2];\n"
    "and.b32 %r21, %r2, 7;\n"
    "mul.wide.u32 %rd15, %r21, 4;\n"
    "mov.u64 %rd16, ctab;\n"
    "add.s64 %rd16, %rd16, %rd15;\n"
    "ld.const.s32 %rd17, [%rd16];\n"
    "ld.const.v2.u32 {%r22, %r23}, [ctab+8];\n"
    "mul.wide.u32 %rd18, %r2, 128;\n"
    "add.s64 %rd19, %rd1, %rd18;\n"
    "st.global.v4.u32 [%rd19], {%r12, %r13, %r14, %r15};\n"
    "st.global.v2.u64 [%rd19+16], {%rd8, %rd9};\n"
    "st.global.v2.u64 [%rd19+32], {%rd13, %rd14};\n"
    "st.global.v2.u64 [%rd19+48], {%rd5, %rd6};\n"
    "st.global.v4.u32 [%rd19+64], {%r7, %r8, %r16, %r19};\n"
    "st.global.v2.u64 [%rd19+80], {%rd7, %rd17};\n"
    "st.global.v2.u32 [%rd19+96], {%r22, %r23};\n"
    "st.global.v2.f32 [%rd19+104], {%f2, %f1};\n"
    "st.global.u32 [%rd19+112], %r1;\n"
    "st.global.u32 [%rd19+116], %r20;\n"
    "st.global.u16 [%rd19+120], %h2;\n"
    "st.global.u8 [%rd19+122], %h1;\n"
    "st.global.u32 [%rd1], %r2;\n"
    "ret;\n"
    "}\n"
;

/* The memory forms compiled natively agree with the interpreter, with
 * checks off and with analyses on, and give the values stated here from
 * the input buffer, the constant table and the parameters. */
static void mem_forms(void **state) {
  (void)state;
  int compiled = 0;
  uint32_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
  assert_int_equal(both(mem_ptx, NULL, 0, grid, block, 1 << 14, 5, "memory forms", &compiled, 2), 0);
  assert_int_equal(compiled, 2);
  for (int tier = SMEMU_TIER_INTERP; tier <= SMEMU_TIER_JIT; tier++) {
    outcome o;
    run(mem_ptx, NULL, 0, tier, 0, grid, block, 1 << 14, 5, &o);
    assert_int_equal(o.status, 0);
    const unsigned char *in = o.buf[1], *out = o.buf[0];
    /* (the kernel does not write its input: read back, it is what the
     * launch started with) */
    for (uint32_t t = 0; t < 64; t++) {
      const unsigned char *x = in + 16 * t, *y = out + 128 * t;
      uint64_t a, b;
      memcpy(&a, y + 48, 8);
      memcpy(&b, x, 8);
      assert_true(a == b); /* ld.global.v2.u64 */
      int32_t s8, s16, c0, c1, n, pb;
      memcpy(&s8, y + 64, 4);
      assert_int_equal(s8, (int32_t)(int8_t)x[3]); /* ld.global.s8 */
      int16_t h;
      memcpy(&h, x + 6, 2);
      memcpy(&s16, y + 68, 4);
      assert_int_equal(s16, (int32_t)h); /* ld.global.s16 */
      int64_t c;
      memcpy(&c, y + 88, 8);
      static const int32_t ctab[8] = {1, -2, 3, -4, 5, 6, 7, 8};
      assert_true(c == (int64_t)ctab[t & 7]); /* ld.const.s32 into 64 bits */
      memcpy(&c0, y + 96, 4);
      memcpy(&c1, y + 100, 4);
      assert_int_equal(c0, 3); /* ld.const.v2.u32 [ctab+8] */
      assert_int_equal(c1, -4);
      memcpy(&n, y + 112, 4);
      memcpy(&pb, y + 116, 4);
      assert_int_equal(n, 1 + (2 * 7 % 13)); /* ld.param.u32 */
      assert_int_equal(pb, 1 + (4 * 7 % 13)); /* ld.param.s8 */
      assert_int_equal(y[122], 1 + (3 * 7 % 13)); /* ld.param.u16, st.global.u8 */
      assert_int_equal(y[120], x[5]); /* ld.global.u8, st.global.u16 */
    }
    outcome_free(&o);
  }
}

/* ---- full-warp and general bodies (jit.c full_begin) ----
 * 48 threads: warp 0 enters every region with all 32 lanes (the full-warp
 * bodies), warp 1 with 16 (the general ones). Run A loads shared memory
 * at consecutive addresses and at one address per 8 lanes, and global
 * memory at consecutive addresses (the full-warp body's loads without
 * gather paths); run B loads shared memory at scattered addresses (the
 * full-warp body falls back to the general one). */
static const char spec_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry spec(.param .u64 po, .param .u64 pi)\n{\n"
    ".reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.shared .align 16 .b8 sm[256];\n"
    "ld.param.u64 %rd1, [po];\nld.param.u64 %rd2, [pi];\n"
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r2, [%rd4];\nmov.u32 %r3, sm;\nshl.b32 %r4, %r1, 2;\nadd.s32 %r5, %r3, %r4;\n"
    "st.shared.u32 [%r5], %r2;\nbar.sync 0;\n"
    "and.b32 %r6, %r1, -8;\nshl.b32 %r7, %r6, 2;\nadd.s32 %r8, %r3, %r7;\n"
    "ld.shared.u32 %r9, [%r5];\nld.shared.u32 %r10, [%r8+4];\nld.global.u32 %r11, [%rd4+192];\n"
    "mul.lo.u32 %r12, %r9, 3;\nmad.lo.u32 %r13, %r10, 5, %r12;\nadd.u32 %r14, %r13, %r11;\n"
    "add.s64 %rd6, %rd1, %rd3;\nst.global.u32 [%rd6], %r14;\n"
    "mul.lo.u32 %r15, %r1, 7;\nand.b32 %r16, %r15, 31;\nshl.b32 %r17, %r16, 2;\nadd.s32 %r18, %r3, %r17;\n"
    "ld.shared.u32 %r19, [%r18];\nld.shared.u32 %r20, [%r5];\nmad.lo.u32 %r21, %r19, 9, %r20;\n"
    "st.global.u32 [%rd6+192], %r21;\nret;\n}\n";

static void full_warp(void **state) {
  (void)state;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {48, 1, 1};
  for (int part = 0; part < 2; part++) {
    int compiled = 0;
    partial_bodies(part);
    const char *what = part ? "general bodies" : "full-warp bodies";
    assert_int_equal(both(spec_ptx, NULL, 0, grid, block, 1024, 11, what, &compiled, 2), 0);
    assert_int_equal(compiled, 2);
  }
  for (int k = 0; k < 3; k++) {
    /* the interpreter, full-warp bodies alone, and with general bodies */
    int tier = k ? SMEMU_TIER_JIT : SMEMU_TIER_INTERP;
    partial_bodies(k == 2);
    outcome o;
    run(spec_ptx, NULL, 0, tier, 0, grid, block, 1024, 11, &o);
    assert_int_equal(o.status, 0);
    uint32_t in[96], out[96];
    memcpy(in, o.buf[1], sizeof in);
    memcpy(out, o.buf[0], sizeof out);
    for (uint32_t t = 0; t < 48; t++) {
      assert_int_equal(out[t], in[t] * 3u + in[(t & ~7u) + 1] * 5u + in[t + 48]);
      assert_int_equal(out[48 + t], in[(t * 7) & 31] * 9u + in[t]);
    }
    outcome_free(&o);
  }
  partial_bodies(0);
}

/* Lanes storing to one address: the highest lane's value stays, on both
 * tiers (the full-warp body's scatter stores its lanes lowest first). Lane
 * t of the warp stores t at word t % 4, then reads that word back: 28 +
 * t % 4. */
static void store_order(void **state) {
  static const char order_ptx[] =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry order(.param .u64 po)\n{\n"
      ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.shared .align 4 .b8 sm[16];\n"
      "ld.param.u64 %rd1, [po];\nmov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 3;\nshl.b32 %r3, %r2, 2;\n"
      "mov.u32 %r4, sm;\nadd.s32 %r5, %r4, %r3;\nst.shared.u32 [%r5], %r1;\nbar.sync 0;\n"
      "ld.shared.u32 %r6, [%r5];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
      "st.global.u32 [%rd3], %r6;\nret;\n}\n";
  uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
  (void)state;
  for (int tier = SMEMU_TIER_INTERP; tier <= SMEMU_TIER_JIT; tier++) {
    outcome o;
    run(order_ptx, NULL, 0, tier, 0, grid, block, 128, 3, &o);
    assert_int_equal(o.status, 0);
    uint32_t out[32];
    memcpy(out, o.buf[0], sizeof out);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(out[t], 28 + t % 4);
    outcome_free(&o);
  }
}

/* Faults in compiled memory instructions: each kernel has lanes at a bad
 * address (out of bounds, misaligned) on one access; both tiers report
 * the same kernel, block, thread, instruction and address. */
static const char fault_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    /* 0: shared, the last lanes past the end of the block's shared memory */
    ".visible .entry f_shared(.param .u64 po, .param .u64 pi)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 8 .b8 sm[2048];\n"
    "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 5;\nmov.u32 %r3, sm;\nadd.s32 %r2, %r2, %r3;\n"
    "ld.shared.v2.u32 {%r4, %r5}, [%r2];\nld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r1, 8;\n"
    "add.s64 %rd1, %rd1, %rd2;\nst.global.v2.u32 [%rd1], {%r4, %r5};\nret;\n}\n"
    /* 1: global, a misaligned 16-bit store on odd lanes */
    ".visible .entry f_misaligned(.param .u64 po, .param .u64 pi)\n{\n.reg .b16 %h<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [po];\ncvt.u64.u32 %rd2, %r1;\nadd.s64 %rd1, %rd1, %rd2;\n"
    "cvt.u16.u32 %h1, %r1;\nst.global.u16 [%rd1], %h1;\nret;\n}\n"
    /* 2: global, a vector load past the end of the buffer in the second block */
    ".visible .entry f_global(.param .u64 po, .param .u64 pi)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmad.lo.s32 %r1, %r2, 8128, %r1;\nld.param.u64 %rd1, [pi];\n"
    "mul.wide.u32 %rd2, %r1, 16;\nadd.s64 %rd1, %rd1, %rd2;\nld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd1];\n"
    "ld.param.u64 %rd3, [po];\nst.global.u32 [%rd3], %r6;\nret;\n}\n"
    /* 3: local, one lane past its thread's local memory */
    ".visible .entry f_local(.param .u64 po, .param .u64 pi)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    ".reg .pred %p<2>;\n.local .align 8 .b8 loc[32];\n"
    "mov.u32 %r1, %tid.x;\nmov.u64 %rd1, loc;\ncvta.local.u64 %rd2, %rd1;\ncvta.to.local.u64 %rd3, %rd2;\n"
    "cvt.u32.u64 %r2, %rd3;\nsetp.eq.u32 %p1, %r1, 37;\nselp.u32 %r3, 65536, 0, %p1;\nadd.s32 %r2, %r2, %r3;\n"
    "st.local.u32 [%r2], %r1;\nld.local.u32 %r4, [%r2];\nld.param.u64 %rd4, [po];\nst.global.u32 [%rd4], %r4;\nret;\n}\n"
    /* 4: a read-only global (the constant bank) is not written */
    ".visible .entry f_guarded(.param .u64 po, .param .u64 pi)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    ".reg .pred %p<2>;\n.shared .align 4 .b8 sm2[256];\n"
    "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, sm2;\nadd.s32 %r2, %r2, %r3;\n"
    "setp.gt.u32 %p1, %r1, 70;\n@%p1 ld.shared.u32 %r4, [%r2];\n@!%p1 st.shared.u32 [%r2], %r1;\nret;\n}\n";

static void mem_faults(void **state) {
  (void)state;
  int compiled = 0;
  uint32_t grid[3] = {2, 1, 1}, block[3] = {96, 1, 1};
  for (int k = 0; k < 5; k++) {
    char what[64];
    snprintf(what, sizeof what, "fault kernel %d", k);
    assert_int_equal(both(fault_ptx, NULL, k, grid, block, 1 << 14, 9, what, &compiled, 2), 0);
    /* it does fault, on both tiers */
    outcome o;
    run(fault_ptx, NULL, k, SMEMU_TIER_JIT, 0, grid, block, 1 << 14, 9, &o);
    if (!o.status) printf("%s: no fault\n", what);
    assert_int_not_equal(o.status, 0);
    assert_non_null(strstr(o.msg, "block"));
    outcome_free(&o);
  }
  assert_int_equal(compiled, 10);
}

/* ---- the disk cache of compiled code ---- */
static int cache_files(const char *dir, char *first, size_t n) {
  DIR *d = opendir(dir);
  int k = 0;
  if (!d) return 0;
  struct dirent *de;
  while ((de = readdir(d)))
    if (strlen(de->d_name) > 2 && !strcmp(de->d_name + strlen(de->d_name) - 2, ".o")) {
      if (!k && first) snprintf(first, n, "%s/%s", dir, de->d_name);
      k++;
    }
  closedir(d);
  return k;
}

/* The first run writes the kernel's object file; a damaged file is not
 * used (the run compiles again and agrees with the interpreter); a cache
 * directory others may write to is not used at all. (A kernel's global
 * variables' addresses are part of its code: such kernels are kept per
 * load.) */
static void disk_cache(void **state) {
  (void)state;
  char root[] = "/tmp/smemu-jit-cache-test-XXXXXX", jdir[600], file[900];
  assert_non_null(mkdtemp(root));
  const char *old = getenv("SMEMU_CACHE");
  char *saved = old ? strdup(old) : NULL;
  setenv("SMEMU_CACHE", root, 1);
  snprintf(jdir, sizeof jdir, "%s/jit", root);
  /* (a kernel without global variables, whose addresses are in the code) */
  char *ptx = random_kernel(4242, 30);
  uint32_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
  outcome a, b;
  run(ptx, NULL, 0, SMEMU_TIER_INTERP, 0, grid, block, 8 * 5 * NR * 96, 5, &a);
  run(ptx, NULL, 0, SMEMU_TIER_JIT, 0, grid, block, 8 * 5 * NR * 96, 5, &b);
  assert_int_equal(compare(&a, &b, "disk cache, first run"), 0);
  outcome_free(&b);
  assert_int_equal(cache_files(jdir, file, sizeof file), 1);
  /* from the cache */
  run(ptx, NULL, 0, SMEMU_TIER_JIT, 0, grid, block, 8 * 5 * NR * 96, 5, &b);
  assert_int_equal(compare(&a, &b, "disk cache, second run"), 0);
  assert_string_equal(b.tier, "jit");
  outcome_free(&b);
  /* a damaged object: its checksum fails, the kernel is compiled again */
  FILE *f = fopen(file, "r+b");
  assert_non_null(f);
  fseek(f, 100, SEEK_SET);
  int c = fgetc(f);
  fseek(f, 100, SEEK_SET);
  fputc(c ^ 0x5a, f);
  fclose(f);
  run(ptx, NULL, 0, SMEMU_TIER_JIT, 0, grid, block, 8 * 5 * NR * 96, 5, &b);
  assert_int_equal(compare(&a, &b, "disk cache, damaged file"), 0);
  assert_string_equal(b.tier, "jit");
  outcome_free(&b);
  /* a directory others may write: not used */
  unlink(file);
  assert_int_equal(chmod(jdir, 0777), 0);
  run(ptx, NULL, 0, SMEMU_TIER_JIT, 0, grid, block, 8 * 5 * NR * 96, 5, &b);
  assert_int_equal(compare(&a, &b, "disk cache, shared directory"), 0);
  outcome_free(&b);
  if (cache_files(jdir, NULL, 0)) {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls -la '%s'", jdir);
    if (system(cmd)) {}
  }
  assert_int_equal(cache_files(jdir, NULL, 0), 0);
  outcome_free(&a);
  if (saved) setenv("SMEMU_CACHE", saved, 1);
  else unsetenv("SMEMU_CACHE");
  free(saved);
  free(ptx);
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
}

/* ---- the corpora ---- */
static int corpus_dir(const char *dir, int *nk, int *compiled) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int bad = 0;
  struct dirent *de;
  char *names[256];
  int nn = 0;
  while ((de = readdir(d)) && nn < 256) {
    size_t l = strlen(de->d_name);
    if (l > 4 && !strcmp(de->d_name + l - 4, ".ptx")) names[nn++] = strdup(de->d_name);
  }
  closedir(d);
  for (int i = 0; i < nn; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    smemu_ctx *c;
    smemu_module *m;
    int kc = 0;
    if (smemu_create(NULL, &c) == SMEMU_OK && smemu_module_load_file(c, path, &m) == SMEMU_OK) kc = smemu_module_kernel_count(m);
    smemu_destroy(c);
    for (int k = 0; k < kc; k++) {
      uint32_t grid[3] = {2, 1, 1}, block[3] = {96, 1, 1};
      char what[1200];
      snprintf(what, sizeof what, "%s kernel %d", path, k);
      bad += both(NULL, path, k, grid, block, 1 << 16, (uint64_t)(i * 31 + k), what, compiled, 1);
      (*nk)++;
    }
    free(names[i]);
  }
  return bad;
}

static void corpus(void **state) {
  (void)state;
  int nk = 0, compiled = 0, bad = 0;
  static const char *const dirs[] = {"examples", "tests/e2e", "tests/cflow"};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) bad += corpus_dir(dirs[i], &nk, &compiled);
  printf("corpus: %d kernels, %d runs compiled\n", nk, compiled);
  assert_true(nk >= 20);
  assert_int_equal(bad, 0);
  /* every kernel compiles */
  assert_int_equal(compiled, nk);
}

/* ---- shared access patterns under the bank model ----
 * Compiled code counts a full warp's shared access whose lanes are affine
 * by halves (lane l at a0 + (l%16)*s, a1 + (l%16)*s) from the bank cache
 * once the pc has seen that pattern. Each access below changes its
 * pattern between loop iterations in one part of the key (stride, gap,
 * base, the upper half alone, the lanes) or is one the cache must not
 * serve (partial masks, merged pairs, vectors), so a key that left a part
 * out, or a pattern test that passed a non-affine warp, counts a figure
 * the interpreter does not. */
static const char pat_ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry pats(.param .u64 po, .param .u64 pi)\n{\n"
    ".reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
    ".shared .align 16 .b8 sm[8448];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, sm;\nmov.u32 %r3, 0;\nmov.u32 %r30, 0;\n"
    "ld.param.u64 %rd1, [pi];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r4, [%rd3];\n"
    "mov.u32 %r13, %laneid;\nshl.b32 %r16, %r1, 3;\nadd.u32 %r16, %r16, %r2;\n"
    "LOOP:\n"
    "bar.sync 0;\n"
    "and.b32 %r5, %r3, 1;\n"
    /* stores: stride 4 or 8 by iteration, stride 128 (32 ways) */
    "mov.u32 %r7, 4;\nshl.b32 %r6, %r7, %r5;\nmul.lo.u32 %r8, %r1, %r6;\nadd.u32 %r8, %r8, %r2;\n"
    "add.u32 %r9, %r4, %r3;\nst.shared.u32 [%r8+4096], %r9;\n"
    "shl.b32 %r10, %r1, 7;\nadd.u32 %r10, %r10, %r2;\nst.shared.u32 [%r10], %r9;\n"
    "bar.sync 0;\n"
    /* A: stride 4 or 8 */
    "ld.shared.u32 %r9, [%r8];\nadd.u32 %r30, %r30, %r9;\n"
    /* B: halves on 16 words each, 128 bytes apart (both on banks 0-15: 2
     * wavefronts) or on the same words (1) */
    "and.b32 %r10, %r1, 15;\nshl.b32 %r10, %r10, 2;\nshr.u32 %r11, %r1, 4;\nxor.b32 %r12, %r5, 1;\nshl.b32 %r12, %r12, 7;\n"
    "mul.lo.u32 %r11, %r11, %r12;\nadd.u32 %r10, %r10, %r11;\nadd.u32 %r10, %r10, %r2;\n"
    "ld.shared.u32 %r9, [%r10];\nadd.u32 %r30, %r30, %r9;\n"
    /* C: lane l at word l; on odd iterations lane 31 at word 32 instead
     * (bank 0 twice: 2 wavefronts), which lanes 0, 1 and 16 do not show */
    "setp.eq.u32 %p1, %r13, 31;\nsetp.ne.and.u32 %p1, %r5, 0, %p1;\n"
    "selp.u32 %r14, 32, %r13, %p1;\nshl.b32 %r14, %r14, 2;\nadd.u32 %r14, %r14, %r2;\n"
    "ld.shared.u32 %r9, [%r14];\nadd.u32 %r30, %r30, %r9;\n"
    /* D: a broadcast moving by a word each iteration */
    "shl.b32 %r15, %r3, 2;\nadd.u32 %r15, %r15, %r2;\nld.shared.u32 %r9, [%r15];\nadd.u32 %r30, %r30, %r9;\n"
    /* E: each half on one word, the halves 64 bytes apart, moving */
    "shr.u32 %r17, %r1, 4;\nshl.b32 %r17, %r17, 6;\nadd.u32 %r17, %r17, %r15;\n"
    "ld.shared.u32 %r9, [%r17];\nadd.u32 %r30, %r30, %r9;\n"
    /* F: a negative stride */
    "sub.u32 %r18, 63, %r1;\nshl.b32 %r18, %r18, 2;\nadd.u32 %r18, %r18, %r2;\n"
    "ld.shared.u32 %r9, [%r18];\nadd.u32 %r30, %r30, %r9;\n"
    /* G: vectors and 64-bit elements at stride 8 or 16 */
    "ld.shared.v2.u32 {%r19, %r20}, [%r16];\nadd.u32 %r30, %r30, %r19;\nadd.u32 %r30, %r30, %r20;\n"
    "shl.b32 %r21, %r1, 4;\nadd.u32 %r21, %r21, %r2;\n"
    "ld.shared.v4.u32 {%r22, %r23, %r24, %r25}, [%r21];\nadd.u32 %r30, %r30, %r25;\n"
    "mul.lo.u32 %r26, %r6, 2;\nmul.lo.u32 %r26, %r26, %r1;\nadd.u32 %r26, %r26, %r2;\n"
    "ld.shared.u64 %rd4, [%r26];\ncvt.u32.u64 %r27, %rd4;\nadd.u32 %r30, %r30, %r27;\n"
    /* H: a pair ptxas merges into one 8-byte access */
    "ld.shared.u32 %r28, [%r16];\nld.shared.u32 %r29, [%r16+4];\nadd.u32 %r30, %r30, %r28;\nadd.u32 %r30, %r30, %r29;\n"
    /* I: the full warp but on the third iteration (threads 0-19) */
    "setp.ne.u32 %p2, %r3, 2;\nsetp.lt.or.u32 %p2, %r1, 20, %p2;\n"
    "@%p2 ld.shared.u32 %r9, [%r8+4096];\nadd.u32 %r30, %r30, %r9;\n"
    "add.u32 %r3, %r3, 1;\nsetp.lt.u32 %p3, %r3, 6;\n@%p3 bra LOOP;\n"
    "ld.param.u64 %rd5, [po];\nadd.s64 %rd5, %rd5, %rd2;\nst.global.u32 [%rd5], %r30;\nret;\n}\n"
    /* 1: one access whose halves are 128 bytes apart on even iterations
     * (both halves on banks 0-15: 2 wavefronts) and 64 on odd ones (1) */
    ".visible .entry gapalt(.param .u64 po, .param .u64 pi)\n{\n"
    ".reg .b32 %r<16>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n"
    ".shared .align 16 .b8 g[512];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, g;\nmov.u32 %r3, 0;\nmov.u32 %r9, 0;\n"
    "and.b32 %r10, %r1, 15;\nshl.b32 %r10, %r10, 2;\nshr.u32 %r11, %r1, 4;\n"
    "GL:\n"
    "and.b32 %r5, %r3, 1;\nmov.u32 %r12, 128;\nshr.u32 %r12, %r12, %r5;\nmul.lo.u32 %r12, %r11, %r12;\n"
    "add.u32 %r12, %r12, %r10;\nadd.u32 %r12, %r12, %r2;\nld.shared.u32 %r4, [%r12];\nadd.u32 %r9, %r9, %r4;\n"
    "add.u32 %r3, %r3, 1;\nsetp.lt.u32 %p1, %r3, 6;\n@%p1 bra GL;\n"
    "ld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\nst.global.u32 [%rd1], %r9;\nret;\n}\n";

static void bank_patterns(void **state) {
  (void)state;
  int compiled = 0;
  uint32_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1}, one[3] = {1, 1, 1}, warp[3] = {32, 1, 1};
  assert_int_equal(both(pat_ptx, NULL, 0, grid, block, 1 << 12, 3, "bank patterns", &compiled, 3), 0);
  assert_int_equal(both(pat_ptx, NULL, 1, one, warp, 1 << 12, 3, "gap by iteration", &compiled, 3), 0);
  assert_int_equal(compiled, 6);
  /* the stated figures of gapalt: 6 requests, 3 x 2 + 3 x 1 wavefronts */
  for (int tier = SMEMU_TIER_INTERP; tier <= SMEMU_TIER_JIT; tier++) {
    outcome o;
    run(pat_ptx, NULL, 1, tier, SMEMU_ANALYZE_BANKS, one, warp, 1 << 12, 3, &o);
    assert_int_equal(o.status, 0);
    assert_true(o.has_bc);
    assert_int_equal(o.bc.requests[0], 6);
    assert_int_equal(o.bc.wavefronts[0], 9);
    assert_int_equal(o.bc.conflicts[0], 3);
    outcome_free(&o);
  }
}

int main(void) {
  if (!smemu_jit_available()) {
    printf("SKIP: this build has no compiled tier (llvm-config-19 missing)\n");
    return 77;
  }
  /* SMEMU_JIT_TEST=name runs that test alone */
  if (getenv("SMEMU_JIT_TEST")) cmocka_set_test_filter(getenv("SMEMU_JIT_TEST"));
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tricky_ops),
      cmocka_unit_test(mem_forms),
      cmocka_unit_test(full_warp),
      cmocka_unit_test(store_order),
      cmocka_unit_test(mem_faults),
      cmocka_unit_test(disk_cache),
      cmocka_unit_test(fuzz_kernels),
      cmocka_unit_test(bank_patterns),
      cmocka_unit_test(corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
