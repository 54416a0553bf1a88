/* test_jit.c: the compiled tier against the interpreter, bit for bit.
 *  - tricky_ops: single forms at their edges (shifts by >= the width,
 *    min/max with NaN and signed zeros, cvt saturation and NaN, mul.hi,
 *    ftz/sat): the compiled result must equal the value stated here (from
 *    the PTX ISA's definitions) and the interpreter's.
 *  - fuzz_kernels: random straight-line and branchy kernels over the
 *    compiled forms, the forms that go through handlers, shared memory,
 *    guards and divergence (odd seeds: the full mix of tests/common/tiers.c:
 *    barriers, loops, vectors, sub-word sizes, atomics, warp collectives),
 *    run on both tiers with checks off and with the
 *    bank model and race checks on; outputs, counters, bank figures,
 *    hazards and error reports must agree.
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smemu.h"

#include "tiers.h"

/* Both tiers on one case; with checks off and with banks and races. */
static int both(const char *ptx, const char *file, int ki, const uint32_t grid[3], const uint32_t block[3],
                size_t bytes, uint64_t seed, const char *what, int *compiled, int nmodes) {
  static const uint32_t modes[] = {0, SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC};
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
    snprintf(w, sizeof w, "%s%s", what, m ? " (banks+races+sync)" : "");
    bad += tiers_both(ptx, file, ki, &L, w, compiled);
  }
  return bad;
}

/* ---- tricky forms with stated results ---- */
typedef struct tricky {
  const char *body;  /* PTX computing %rd9 (64-bit result) from %rd1 / %rd2 inputs */
  uint64_t a, b;     /* inputs */
  uint64_t want;     /* the stated result */
} tricky;

static const tricky cases[] = {
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
    for (int tier = SMEMU_TIER_INTERP; tier <= SMEMU_TIER_JIT; tier++) {
      tiers_outcome o;
      tiers_launch L = {{1, 1, 1}, {1, 1, 1}, 8, 0, 1, 0, 0, 0, 0};
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
  assert_int_equal(compiled, (int)(sizeof cases / sizeof *cases));
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
    snprintf(what, sizeof what, "random kernel, seed %llu", (unsigned long long)seed);
    int b = both(ptx, NULL, 0, grid, block, KGEN_IN_BYTES * 2 * 96, seed, what, &compiled, 2);
    if (b) printf("%s", ptx);
    bad += b;
    free(ptx);
  }
  assert_int_equal(bad, 0);
  assert_int_equal(compiled, 2 * n);
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

int main(void) {
  if (!smemu_jit_available()) {
    printf("SKIP: this build has no compiled tier (llvm-config-19 missing)\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tricky_ops),
      cmocka_unit_test(fuzz_kernels),
      cmocka_unit_test(corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
