/* test_jit.c: the compiled tier against the interpreter, bit for bit.
 *  - tricky_ops: single forms at their edges (shifts by >= the width,
 *    min/max with NaN and signed zeros, cvt saturation and NaN, mul.hi,
 *    ftz/sat): the compiled result must equal the value stated here (from
 *    the PTX ISA's definitions) and the interpreter's.
 *  - fuzz_kernels: random straight-line and branchy kernels over the
 *    compiled forms, the forms that go through handlers, shared memory,
 *    guards and divergence, run on both tiers with checks off and with the
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
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smemu.h"

#define MAXBUF 8

/* What a launch left behind. */
typedef struct outcome {
  int status;
  char msg[4096];
  uint64_t winsn, tinsn;
  const char *tier;
  int has_bc;
  smemu_bank_counts bc;
  char hz[8192];           /* hazards and sync errors, as text */
  size_t nbufs, size[MAXBUF];
  unsigned char *buf[MAXBUF];
} outcome;

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Interesting 32-bit patterns: float specials, integer edges, shifts. */
static const uint32_t special32[] = {
    0, 1, 2, 31, 32, 33, 63, 64, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x3f800000u, 0xbf800000u,
    0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x00000001u, 0x80000001u,
    0x007fffffu, 0x00800000u, 0x4f000000u, 0xcf000000u, 0x4f800000u, 0x5f000000u, 0x3f000000u,
    0xbf000000u, 0x40490fdbu, 0x0000ffffu, 0xffff8000u, 0x00010000u};
static const uint64_t special64[] = {
    0, 1, 0xffffffffffffffffull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x3ff0000000000000ull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff4000000000001ull,
    0xfff8000000000000ull, 0x0000000000000001ull, 0x43e0000000000000ull, 0xc3e0000000000000ull,
    0x41e0000000000000ull, 0x3fe0000000000000ull, 0x00000000ffffffffull, 0x0000000080000000ull};

/* A random input word: a special value or random bits. */
static uint64_t input_word(uint64_t *s) {
  uint64_t r = splitmix(s);
  switch (r % 4) {
  case 0: return special32[(r >> 8) % (sizeof special32 / 4)] | ((uint64_t)special32[(r >> 20) % (sizeof special32 / 4)] << 32);
  case 1: return special64[(r >> 8) % (sizeof special64 / 8)];
  case 2: return (r >> 8) & 0xff;
  default: return splitmix(s);
  }
}

/* Run kernel `kname` (or the kernel at index ki) of the PTX text on tier
 * `tier` with `analyses`; pointer parameters get buffers of `bufbytes`
 * filled from `seed`, scalars small values. */
static void run(const char *ptx, const char *file, int ki, int tier, uint32_t analyses, const uint32_t grid[3],
                const uint32_t block[3], size_t bufbytes, uint64_t seed, outcome *o) {
  memset(o, 0, sizeof *o);
  smemu_options opt = {0};
  opt.threads = 1;
  opt.tier = tier;
  opt.analyses = analyses;
  opt.max_warp_instructions = 2000000;
  smemu_ctx *c = NULL;
  assert_int_equal(smemu_create(&opt, &c), SMEMU_OK);
  smemu_module *m = NULL;
  smemu_status s = file ? smemu_module_load_file(c, file, &m) : smemu_module_load_data(c, ptx, strlen(ptx), "fuzz.ptx", &m);
  if (s != SMEMU_OK) {
    o->status = -1000 - (int)s;
    snprintf(o->msg, sizeof o->msg, "%s", smemu_errmsg(c));
    smemu_destroy(c);
    return;
  }
  smemu_kernel *k = smemu_module_kernel(m, ki);
  if (!k) {
    o->status = -2000;
    smemu_destroy(c);
    return;
  }
  int np = smemu_kernel_param_count(k);
  void *args[32];
  uint64_t scal[32];
  void *ptrs[32];
  uint64_t st = seed;
  for (int i = 0; i < np && i < 32; i++) {
    smemu_param_info pi;
    smemu_kernel_param(k, i, &pi);
    if (pi.is_pointer && o->nbufs < MAXBUF) {
      void *d = NULL;
      assert_int_equal(smemu_malloc(c, &d, bufbytes), SMEMU_OK);
      unsigned char *h = malloc(bufbytes);
      for (size_t b = 0; b + 8 <= bufbytes; b += 8) {
        uint64_t w = input_word(&st);
        memcpy(h + b, &w, 8);
      }
      smemu_memcpy(c, d, h, bufbytes);
      o->buf[o->nbufs] = h;
      o->size[o->nbufs] = bufbytes;
      ptrs[o->nbufs] = d;
      scal[i] = (uint64_t)(uintptr_t)d;
      o->nbufs++;
    } else {
      scal[i] = 1 + (uint64_t)(i * 7 % 13);
    }
    args[i] = &scal[i];
  }
  o->status = smemu_launch(c, k, grid, block, 0, args);
  snprintf(o->msg, sizeof o->msg, "%s", o->status ? smemu_errmsg(c) : "");
  const smemu_launch_stats *ls = smemu_last_stats(c);
  o->winsn = ls->warp_instructions;
  o->tinsn = ls->thread_instructions;
  o->tier = ls->tier;
  o->has_bc = smemu_last_bank_counts(c, &o->bc) == SMEMU_OK;
  size_t n = 0;
  for (int i = 0; i < smemu_hazard_count(c) && n < sizeof o->hz - 512; i++) {
    const smemu_hazard *h = smemu_hazard_get(c, i);
    n += (size_t)snprintf(o->hz + n, sizeof o->hz - n, "%s %d %s %s %u %u %llu %llx %u,%u,%u %llx %llx;", h->type,
                          h->error, h->first_access, h->second_access, h->first_ptx_line, h->second_ptx_line,
                          (unsigned long long)h->count, (unsigned long long)h->address, h->first_thread[0],
                          h->second_thread[0], h->block[0], (unsigned long long)h->first_value,
                          (unsigned long long)h->second_value);
  }
  snprintf(o->hz + n, sizeof o->hz - n, " sync %d", smemu_sync_error_count(c));
  for (size_t b = 0; b < o->nbufs; b++) smemu_memcpy(c, o->buf[b], ptrs[b], bufbytes);
  smemu_destroy(c);
}

static void outcome_free(outcome *o) {
  for (size_t b = 0; b < o->nbufs; b++) free(o->buf[b]);
}

/* A message with its host addresses (allocations differ between two
 * contexts) replaced by "0x?". */
static void no_addresses(const char *in, char *out, size_t n) {
  size_t k = 0;
  for (const char *p = in; *p && k + 4 < n;) {
    if (p[0] == '0' && p[1] == 'x') {
      const char *q = p + 2;
      while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')) q++;
      if (q - p > 8) {
        memcpy(out + k, "0x?", 3);
        k += 3;
        p = q;
        continue;
      }
    }
    out[k++] = *p++;
  }
  out[k] = 0;
}

/* The two outcomes agree bit for bit; `what` names the case. Returns the
 * number of differences (each printed). */
static int compare(const outcome *a, const outcome *b, const char *what) {
  int bad = 0;
  char ma[4096], mb[4096];
  no_addresses(a->msg, ma, sizeof ma);
  no_addresses(b->msg, mb, sizeof mb);
  if (a->status != b->status || strcmp(ma, mb)) {
    printf("%s: status %d vs %d\n  interp: %s\n  jit:    %s\n", what, a->status, b->status, a->msg, b->msg);
    bad++;
  }
  if (a->winsn != b->winsn || a->tinsn != b->tinsn) {
    printf("%s: instructions %llu/%llu vs %llu/%llu\n", what, (unsigned long long)a->winsn,
           (unsigned long long)a->tinsn, (unsigned long long)b->winsn, (unsigned long long)b->tinsn);
    bad++;
  }
  if (a->has_bc != b->has_bc || (a->has_bc && memcmp(&a->bc, &b->bc, sizeof a->bc))) {
    printf("%s: bank counts differ\n", what);
    bad++;
  }
  if (strcmp(a->hz, b->hz)) {
    printf("%s: hazards differ\n  interp: %s\n  jit:    %s\n", what, a->hz, b->hz);
    bad++;
  }
  for (size_t i = 0; i < a->nbufs && i < b->nbufs; i++)
    for (size_t k = 0; k < a->size[i]; k += 8)
      if (memcmp(a->buf[i] + k, b->buf[i] + k, 8)) {
        uint64_t x, y;
        memcpy(&x, a->buf[i] + k, 8);
        memcpy(&y, b->buf[i] + k, 8);
        printf("%s: buffer %zu word %zu: %016llx vs %016llx\n", what, i, k / 8, (unsigned long long)x,
               (unsigned long long)y);
        bad++;
        break;
      }
  return bad;
}

/* Both tiers on one case; with checks off and with banks and races. */
static int both(const char *ptx, const char *file, int ki, const uint32_t grid[3], const uint32_t block[3],
                size_t bytes, uint64_t seed, const char *what, int *compiled, int nmodes) {
  static const uint32_t modes[] = {0, SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC};
  int bad = 0;
  for (int m = 0; m < nmodes; m++) {
    outcome a, b;
    run(ptx, file, ki, SMEMU_TIER_INTERP, modes[m], grid, block, bytes, seed, &a);
    run(ptx, file, ki, SMEMU_TIER_JIT, modes[m], grid, block, bytes, seed, &b);
    char w[600];
    snprintf(w, sizeof w, "%s%s", what, m ? " (banks+races+sync)" : "");
    bad += compare(&a, &b, w);
    if (b.tier && !strcmp(b.tier, "jit")) (*compiled)++;
    else printf("%s: not run compiled: status %d %s\n", w, b.status, b.msg);
    outcome_free(&a);
    outcome_free(&b);
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
      outcome o;
      uint32_t g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
      run(ptx, NULL, 0, tier, 0, g, b, 8, 1, &o);
      uint64_t got = 0;
      if (o.nbufs) memcpy(&got, o.buf[0], 8);
      if (o.status || got != cases[i].want) {
        printf("case %zu (%s) on %s: status %d %s, got %016llx, want %016llx\n", i, cases[i].body,
               tier == SMEMU_TIER_JIT ? "jit" : "interp", o.status, o.msg, (unsigned long long)got,
               (unsigned long long)cases[i].want);
        bad++;
      }
      if (tier == SMEMU_TIER_JIT && o.tier && !strcmp(o.tier, "jit")) compiled++;
      outcome_free(&o);
    }
  }
  assert_int_equal(bad, 0);
  assert_int_equal(compiled, (int)(sizeof cases / sizeof *cases));
}

/* ---- random kernels ---- */
typedef struct gen {
  char *s;
  size_t n, cap;
  uint64_t rng;
  int label;
} gen;

static void emit(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(gen *g, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(g->s + g->n, g->cap - g->n, fmt, ap);
    va_end(ap);
    if ((size_t)k < g->cap - g->n) {
      g->n += (size_t)k;
      return;
    }
    g->cap = g->cap * 2 + (size_t)k + 64;
    g->s = realloc(g->s, g->cap);
  }
}
static unsigned rnd(gen *g, unsigned n) { return (unsigned)(splitmix(&g->rng) % n); }

#define NR 8  /* registers of each kind */
static const char *guard(gen *g) {
  static char b[16];
  unsigned r = rnd(g, 10);
  if (r >= 3) return "";
  snprintf(b, sizeof b, "@%s%%p%u ", r == 0 ? "!" : "", 1 + rnd(g, NR - 1));
  return b;
}

/* One random instruction. */
static void random_insn(gen *g, int depth) {
  static const char *const ib[] = {"add", "sub", "mul.lo", "min", "max", "mul.hi"};
  static const char *const it[] = {"u32", "s32"};
  static const char *const lt[] = {"u64", "s64"};
  static const char *const fo[] = {"add", "sub", "mul", "add.ftz", "mul.sat", "sub.ftz.sat", "min", "max", "div.rn", "div.approx.ftz"};
  static const char *const cmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "hs"};
  static const char *const fcmp[] = {"eq", "ne", "lt", "ge", "equ", "neu", "ltu", "geu", "num", "nan"};
  static const char *const bop[] = {"", ".and", ".or", ".xor"};
  unsigned d = 1 + rnd(g, NR - 1), a = rnd(g, NR), b = rnd(g, NR), c = rnd(g, NR);
  const char *gd = guard(g);
  switch (rnd(g, 30)) {
  case 0: case 1: emit(g, "%s%s.%s %%r%u, %%r%u, %%r%u;\n", gd, ib[rnd(g, 6)], it[rnd(g, 2)], d, a, b); break;
  case 2: emit(g, "%s%s.%s %%rd%u, %%rd%u, %%rd%u;\n", gd, ib[rnd(g, 6)], lt[rnd(g, 2)], d, a, b); break;
  case 3: emit(g, "%s%s.b32 %%r%u, %%r%u, %%r%u;\n", gd, rnd(g, 2) ? "and" : rnd(g, 2) ? "or" : "xor", d, a, b); break;
  case 4:
    if (rnd(g, 2)) emit(g, "%sshl.b32 %%r%u, %%r%u, %%r%u;\n", gd, d, a, b);
    else emit(g, "%sshr.%s %%r%u, %%r%u, %%r%u;\n", gd, rnd(g, 2) ? "u32" : "s32", d, a, b);
    break;
  case 5: emit(g, "%sshr.s64 %%rd%u, %%rd%u, %%r%u;\n", gd, d, a, b); break;
  case 6: emit(g, "%smad.lo.s32 %%r%u, %%r%u, %%r%u, %%r%u;\n", gd, d, a, b, c); break;
  case 7: emit(g, "%smul.wide.%s %%rd%u, %%r%u, %%r%u;\n", gd, it[rnd(g, 2)], d, a, b); break;
  case 8: emit(g, "%s%s.b32 %%r%u, %%r%u;\n", gd, rnd(g, 2) ? "not" : rnd(g, 2) ? "popc" : "brev", d, a); break;
  case 9: emit(g, "%ssetp.%s%s.%s %%p%u|%%p%u, %%r%u, %%r%u%s;\n", gd, cmp[rnd(g, 8)], bop[c % 4], it[rnd(g, 2)], d,
               1 + (d % (NR - 1)), a, b, c % 4 ? (rnd(g, 2) ? ", %p1" : ", !%p2") : "");
    break;
  case 10: emit(g, "%ssetp.%s%s.f32 %%p%u, %%f%u, %%f%u;\n", gd, fcmp[rnd(g, 10)], rnd(g, 2) ? ".ftz" : "", d, a, b); break;
  case 11: emit(g, "%sselp.b32 %%r%u, %%r%u, %%r%u, %%p%u;\n", gd, d, a, b, c); break;
  case 12: case 13: emit(g, "%s%s.f32 %%f%u, %%f%u, %%f%u;\n", gd, fo[rnd(g, 10)], d, a, b); break;
  case 14: emit(g, "%sfma.rn%s.f32 %%f%u, %%f%u, %%f%u, %%f%u;\n", gd, rnd(g, 2) ? ".ftz" : "", d, a, b, c); break;
  case 15: emit(g, "%s%s.f64 %%fd%u, %%fd%u, %%fd%u;\n", gd, rnd(g, 2) ? "add" : rnd(g, 2) ? "mul" : "min", d, a, b); break;
  case 16: emit(g, "%sfma.rn.f64 %%fd%u, %%fd%u, %%fd%u, %%fd%u;\n", gd, d, a, b, c); break;
  case 17: {
    static const char *const cv[] = {"cvt.rn.f32.s32 %%f%u, %%r%u", "cvt.rzi.s32.f32 %%r%u, %%f%u", "cvt.rni.u32.f32 %%r%u, %%f%u",
                                     "cvt.f64.f32 %%fd%u, %%f%u", "cvt.rn.f32.f64 %%f%u, %%fd%u", "cvt.s64.s32 %%rd%u, %%r%u",
                                     "cvt.u32.u64 %%r%u, %%rd%u", "cvt.sat.s16.s32 %%h%u, %%r%u", "cvt.rmi.s64.f64 %%rd%u, %%fd%u",
                                     "cvt.rpi.f32.f32 %%f%u, %%f%u", "cvt.rz.f32.s32 %%f%u, %%r%u", "cvt.s32.s16 %%r%u, %%h%u"};
    char f[64];
    snprintf(f, sizeof f, "%%s%s;\n", cv[rnd(g, 12)]);
    emit(g, f, gd, d, a);
    break;
  }
  case 18: emit(g, "%s%s.f32 %%f%u, %%f%u;\n", gd, rnd(g, 2) ? "abs" : rnd(g, 2) ? "neg" : rnd(g, 2) ? "sqrt.rn" : "rcp.approx.ftz", d, a);
    break;
  case 19: emit(g, "%smov.b32 %%f%u, %%r%u;\n", gd, d, a); break;
  case 20: emit(g, "%smov.b32 %%r%u, %%f%u;\n", gd, d, a); break;
  case 21: emit(g, "%s%s.pred %%p%u, %%p%u, %%p%u;\n", gd, rnd(g, 2) ? "and" : rnd(g, 2) ? "or" : "xor", d, a, b); break;
  /* through handlers */
  case 22: emit(g, "%sbfe.u32 %%r%u, %%r%u, %%r%u, %%r%u;\n", gd, d, a, b, c); break;
  case 23: emit(g, "%sprmt.b32 %%r%u, %%r%u, %%r%u, %%r%u;\n", gd, d, a, b, c); break;
  case 24:
    if (depth) emit(g, "%sbfi.b32 %%r%u, %%r%u, %%r%u, 3, 5;\n", gd, d, a, b);
    else emit(g, "shfl.sync.bfly.b32 %%r%u, %%r%u, %u, 31, -1;\n", d, a, 1u << rnd(g, 5));
    break;
  /* shared memory: aligned in-range addresses from the thread index */
  case 25: case 26: {
    unsigned off = 4 * rnd(g, 64);
    emit(g, "and.b32 %%r0, %%r%u, 252;\nadd.s32 %%r0, %%r0, %%r9;\n", a);
    if (rnd(g, 2)) emit(g, "%sld.shared.u32 %%r%u, [%%r0+%u];\n", gd, d, off);
    else emit(g, "%sst.shared.u32 [%%r0+%u], %%r%u;\n", gd, off, b);
    break;
  }
  case 27: emit(g, "%sld.shared.u32 %%r%u, [%%r9+%u];\n", gd, d, 4 * rnd(g, 32)); break;
  case 28: emit(g, "%sst.shared.u32 [%%r9+%u], %%r%u;\n", gd, 4 * rnd(g, 32), a); break;
  default:
    if (depth < 2) {
      /* a divergent forward branch */
      int l = g->label++;
      emit(g, "setp.%s.u32 %%p%u, %%r9, %u;\n", rnd(g, 2) ? "lt" : "ne", 1 + rnd(g, NR - 1), 4 * rnd(g, 64));
      emit(g, "@%%p%u bra L%d;\n", 1 + rnd(g, NR - 1), l);
      unsigned k = 1 + rnd(g, 6);
      for (unsigned i = 0; i < k; i++) random_insn(g, depth + 1);
      emit(g, "L%d:\n", l);
    } else {
      emit(g, "%sadd.s32 %%r%u, %%r%u, 1;\n", gd, d, a);
    }
  }
}

/* A kernel: loads every register from in[], runs `len` random
 * instructions, stores every register to out[]. */
static char *random_kernel(uint64_t seed, int len) {
  gen G = {0}, *g = &G;
  g->rng = seed;
  emit(g, ".version 8.0\n.target sm_90\n.address_size 64\n"
          ".visible .entry fz(.param .u64 po, .param .u64 pi)\n{\n"
          ".reg .b16 %%h<%d>;\n.reg .b32 %%r<%d>;\n.reg .b64 %%rd<%d>;\n.reg .f32 %%f<%d>;\n.reg .f64 %%fd<%d>;\n"
          ".reg .pred %%p<%d>;\n.reg .b64 %%ra<4>;\n.shared .align 8 .b8 sm[1280];\n",
       NR, NR + 2, NR, NR, NR, NR);
  emit(g, "ld.param.u64 %%ra0, [po];\nld.param.u64 %%ra1, [pi];\nmov.u32 %%r9, %%tid.x;\n"
          "mul.wide.u32 %%ra2, %%r9, %d;\nadd.s64 %%ra1, %%ra1, %%ra2;\nadd.s64 %%ra0, %%ra0, %%ra2;\n"
          "shl.b32 %%r9, %%r9, 2;\nmov.u32 %%r8, sm;\nadd.s32 %%r9, %%r9, %%r8;\n",
       8 * 5 * NR);
  for (int i = 0; i < NR; i++) {
    emit(g, "ld.global.u32 %%r%d, [%%ra1+%d];\n", i, 8 * i);
    emit(g, "ld.global.u64 %%rd%d, [%%ra1+%d];\n", i, 8 * (NR + i));
    emit(g, "ld.global.f32 %%f%d, [%%ra1+%d];\n", i, 8 * (2 * NR + i));
    emit(g, "ld.global.f64 %%fd%d, [%%ra1+%d];\n", i, 8 * (3 * NR + i));
    emit(g, "ld.global.u16 %%h%d, [%%ra1+%d];\n", i, 8 * (4 * NR + i));
    if (i) emit(g, "setp.ne.u32 %%p%d, %%r%d, %d;\n", i, i, i);
  }
  for (int i = 0; i < len; i++) random_insn(g, 0);
  for (int i = 0; i < NR; i++) {
    emit(g, "st.global.u32 [%%ra0+%d], %%r%d;\n", 8 * i, i);
    emit(g, "st.global.u64 [%%ra0+%d], %%rd%d;\n", 8 * (NR + i), i);
    emit(g, "st.global.f32 [%%ra0+%d], %%f%d;\n", 8 * (2 * NR + i), i);
    emit(g, "st.global.f64 [%%ra0+%d], %%fd%d;\n", 8 * (3 * NR + i), i);
    emit(g, "st.global.u16 [%%ra0+%d], %%h%d;\n", 8 * (4 * NR + i), i);
    if (i) emit(g, "selp.u32 %%r0, 1, 0, %%p%d;\nst.global.u32 [%%ra0+%d], %%r0;\n", i, 8 * (4 * NR + i) + 4);
  }
  emit(g, "ret;\n}\n");
  return g->s;
}

static void fuzz_kernels(void **state) {
  (void)state;
  const char *e = getenv("SMEMU_JIT_FUZZ"), *sd = getenv("SMEMU_JIT_SEED");
  int n = e ? atoi(e) : 12, bad = 0, compiled = 0;
  uint64_t seed0 = sd ? strtoull(sd, NULL, 0) : 1;
  for (int i = 0; i < n; i++) {
    uint64_t seed = seed0 + (uint64_t)i;
    char *ptx = random_kernel(seed * 7919, 20 + (int)(seed % 40));
    uint32_t grid[3] = {2, 1, 1}, block[3] = {48 + 16 * (uint32_t)(seed % 3), 1, 1};
    char what[64];
    snprintf(what, sizeof what, "random kernel, seed %llu", (unsigned long long)seed);
    int b = both(ptx, NULL, 0, grid, block, 8 * 5 * NR * 96, seed, what, &compiled, 2);
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

int main(void) {
  if (!smemu_jit_available()) {
    printf("SKIP: this build has no compiled tier (llvm-config-19 missing)\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tricky_ops),
      cmocka_unit_test(mem_forms),
      cmocka_unit_test(mem_faults),
      cmocka_unit_test(disk_cache),
      cmocka_unit_test(fuzz_kernels),
      cmocka_unit_test(corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
