/* common.h: helpers shared by the example drivers (C11) and the CUDA recorder
 * tests/hw/gpu_examples.cu (C++): a deterministic input generator, array
 * fillers, float comparison with tolerances, option parsing, file I/O. */
#ifndef SMEMU_EXAMPLES_COMMON_H
#define SMEMU_EXAMPLES_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- configuration shared by the drivers and the GPU recorder ---------- */
/* Sizes and seeds of every example launch. The GPU recorder uses the same
 * values, so its recorded buffers can be compared with the emulator's. */
#define EX_REVERSE_N 64
#define EX_REVERSE_SEED 0x5EED0001u

#define EX_DOT_N (1 << 20)
#define EX_DOT_BLOCKS 32
#define EX_DOT_THREADS 256 /* must equal DOT_THREADS in dot.cu */
#define EX_DOT_SEED_A 0x5EED0002u
#define EX_DOT_SEED_B 0x5EED0003u

#define EX_MM_TILE 16 /* must equal MM_TILE in matmul.cu */
#define EX_MM_N 256   /* square case, a multiple of the tile */
#define EX_MM_M2 200  /* rectangular case: C (M2 x N2) = A (M2 x K2) * B (K2 x N2) */
#define EX_MM_K2 150
#define EX_MM_N2 120
#define EX_MM_SEED_A 0x5EED0004u
#define EX_MM_SEED_B 0x5EED0005u

#define EX_TR_TILE 32 /* TILE_DIM in transpose.cu */
#define EX_TR_ROWS 8  /* BLOCK_ROWS in transpose.cu */
#define EX_TR_W 512   /* input width (columns), a multiple of the tile */
#define EX_TR_H 256   /* input height (rows), a multiple of the tile */
#define EX_TR_SEED 0x5EED0006u

#define EX_SPLIT_BLOCKS 4
#define EX_SPLIT_THREADS 128
#define EX_SPLIT_NI 300 /* ints per block */
#define EX_SPLIT_NF 200 /* floats per block */
#define EX_SPLIT_NC 333 /* chars per block (odd on purpose: doubles need padding) */
#define EX_SPLIT_ND 50  /* doubles per block, 8-byte aligned after the chars */
#define EX_SPLIT_SEED 0x5EED0007u

/* Byte offsets of the four arrays inside split.cu's one extern shared array,
 * and the dynamic shared size to launch with. */
static inline size_t ex_split_off_f(void) { return (size_t)EX_SPLIT_NI * 4u; }
static inline size_t ex_split_off_c(void) { return ex_split_off_f() + (size_t)EX_SPLIT_NF * 4u; }
static inline size_t ex_split_off_d(void)
{
  return (ex_split_off_c() + (size_t)EX_SPLIT_NC + 7u) & ~(size_t)7u;
}
static inline size_t ex_split_shared_bytes(void)
{
  return ex_split_off_d() + (size_t)EX_SPLIT_ND * 8u;
}

/* ---- deterministic generator ------------------------------------------- */
/* splitmix64 (Steele, Lea, Flood 2014): state += 0x9E3779B97F4A7C15, then the
 * usual two xor-shift-multiply rounds; ex_rand_u32 returns the high half. */
static inline uint64_t ex_rand_u64(uint64_t *state)
{
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline uint32_t ex_rand_u32(uint64_t *state)
{
  return (uint32_t)(ex_rand_u64(state) >> 32);
}

/* A float in [lo, hi): 24 random bits scaled; exact when hi - lo is a power
 * of two and |lo| <= hi - lo (the usual case: [-1, 1), [0, 256)). */
static inline float ex_rand_f32(uint64_t *state, float lo, float hi)
{
  float u = (float)(ex_rand_u32(state) >> 8) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

/* A double in [lo, hi): 53 random bits. */
static inline double ex_rand_f64(uint64_t *state, double lo, double hi)
{
  double u = (double)(ex_rand_u64(state) >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * u;
}

/* An integer in [lo, hi] (hi - lo < 2^32; the tiny modulo bias is fine). */
static inline int64_t ex_rand_range(uint64_t *state, int64_t lo, int64_t hi)
{
  uint64_t span = (uint64_t)(hi - lo) + 1u;
  return lo + (int64_t)(ex_rand_u64(state) % span);
}

static inline void ex_fill_f32(float *a, size_t n, uint64_t seed, float lo, float hi)
{
  uint64_t s = seed;
  size_t i;
  for (i = 0; i < n; i++) a[i] = ex_rand_f32(&s, lo, hi);
}

static inline void ex_fill_f64(double *a, size_t n, uint64_t seed, double lo, double hi)
{
  uint64_t s = seed;
  size_t i;
  for (i = 0; i < n; i++) a[i] = ex_rand_f64(&s, lo, hi);
}

static inline void ex_fill_i32(int32_t *a, size_t n, uint64_t seed, int32_t lo, int32_t hi)
{
  uint64_t s = seed;
  size_t i;
  for (i = 0; i < n; i++) a[i] = (int32_t)ex_rand_range(&s, lo, hi);
}

static inline void ex_fill_u32(uint32_t *a, size_t n, uint64_t seed)
{
  uint64_t s = seed;
  size_t i;
  for (i = 0; i < n; i++) a[i] = ex_rand_u32(&s);
}

static inline void ex_fill_i8(int8_t *a, size_t n, uint64_t seed)
{
  uint64_t s = seed;
  size_t i;
  for (i = 0; i < n; i++) a[i] = (int8_t)(ex_rand_u32(&s) >> 24);
}

/* ---- float comparison -------------------------------------------------- */
static inline uint32_t ex_f32_bits(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static inline uint64_t ex_f64_bits(double d)
{
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

/* Distance in units in the last place between two non-NaN floats, counted
 * on the ordered line of float values (+0 and -0 are one step apart). */
static inline uint32_t ex_f32_ulp_diff(float a, float b)
{
  uint32_t ua = ex_f32_bits(a), ub = ex_f32_bits(b);
  int64_t ia = (ua & 0x80000000u) ? -(int64_t)(ua & 0x7fffffffu) - 1 : (int64_t)ua;
  int64_t ib = (ub & 0x80000000u) ? -(int64_t)(ub & 0x7fffffffu) - 1 : (int64_t)ub;
  int64_t d = ia > ib ? ia - ib : ib - ia;
  return d > 0xffffffffll ? 0xffffffffu : (uint32_t)d;
}

static inline uint64_t ex_f64_ulp_diff(double a, double b)
{
  uint64_t ua = ex_f64_bits(a), ub = ex_f64_bits(b);
  const uint64_t sign = 0x8000000000000000ull;
  /* map to an unsigned ordered line: negatives below 2^63, positives above */
  uint64_t oa = (ua & sign) ? ~ua : (ua | sign);
  uint64_t ob = (ub & sign) ? ~ub : (ub | sign);
  return oa > ob ? oa - ob : ob - oa;
}

/* 1 when `got` is acceptable for `want`: identical bits, both NaN, at most
 * max_ulp ulps apart, or |got - want| <= rel * |want|. max_ulp = 0 and
 * rel = 0 is a bit-exact comparison (NaNs still match any NaN). */
static inline int ex_f32_close(float got, float want, uint32_t max_ulp, float rel)
{
  if (ex_f32_bits(got) == ex_f32_bits(want)) return 1;
  if (got != got || want != want) return got != got && want != want;
  if (max_ulp > 0 && ex_f32_ulp_diff(got, want) <= max_ulp) return 1;
  if (rel > 0.0f && fabsf(got - want) <= rel * fabsf(want)) return 1;
  return 0;
}

static inline int ex_f64_close(double got, double want, uint64_t max_ulp, double rel)
{
  if (ex_f64_bits(got) == ex_f64_bits(want)) return 1;
  if (got != got || want != want) return got != got && want != want;
  if (max_ulp > 0 && ex_f64_ulp_diff(got, want) <= max_ulp) return 1;
  if (rel > 0.0 && fabs(got - want) <= rel * fabs(want)) return 1;
  return 0;
}

/* ---- files and options ------------------------------------------------- */
/* Options of a driver: [PTX] [--dump DIR] [--gpu DIR]. */
typedef struct ex_opts {
  const char *ptx;      /* PTX file to load */
  const char *dump_dir; /* NULL, or where to write <example>_<kernel>.bin */
  const char *gpu_dir;  /* NULL, or where the recorded GPU outputs are */
  char ptx_buf[1024];
} ex_opts;

static inline int ex_file_exists(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fclose(f);
  return 1;
}

/* Parses the options. The default PTX is examples/NAME.ptx from the current
 * directory, or else the one next to the driver's source tree (argv[0] is
 * BUILD/examples/NAME, so ../../examples/NAME.ptx from its folder). Returns 0,
 * or -1 after printing a usage line. */
static inline int ex_parse_args(int argc, char **argv, const char *name, ex_opts *o)
{
  int i;
  memset(o, 0, sizeof *o);
  for (i = 1; i < argc; i++) {
    if ((strcmp(argv[i], "--dump") == 0 || strcmp(argv[i], "--gpu") == 0) && i + 1 < argc) {
      if (argv[i][2] == 'd') o->dump_dir = argv[++i];
      else o->gpu_dir = argv[++i];
    } else if (argv[i][0] == '-' || o->ptx) {
      fprintf(stderr, "usage: %s [FILE.ptx] [--dump DIR] [--gpu DIR]\n", argv[0]);
      return -1;
    } else {
      o->ptx = argv[i];
    }
  }
  if (!o->ptx) {
    snprintf(o->ptx_buf, sizeof o->ptx_buf, "examples/%s.ptx", name);
    if (!ex_file_exists(o->ptx_buf) && argc > 0) {
      const char *slash = strrchr(argv[0], '/');
      if (slash) {
        int dirlen = (int)(slash - argv[0]);
        char alt[1024];
        snprintf(alt, sizeof alt, "%.*s/../../examples/%s.ptx", dirlen, argv[0], name);
        if (ex_file_exists(alt)) memcpy(o->ptx_buf, alt, sizeof alt);
      }
    }
    o->ptx = o->ptx_buf;
  }
  return 0;
}

/* Writes DIR/<example>_<kernel>.bin. Returns 0 or -1 (with a message). */
static inline int ex_write_bin(const char *dir, const char *example, const char *kernel,
                               const void *data, size_t bytes)
{
  char path[2048];
  FILE *f;
  size_t wr;
  snprintf(path, sizeof path, "%s/%s_%s.bin", dir, example, kernel);
  f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "%s: cannot write %s\n", example, path);
    return -1;
  }
  wr = fwrite(data, 1, bytes, f);
  if (fclose(f) != 0 || wr != bytes) {
    fprintf(stderr, "%s: short write to %s\n", example, path);
    return -1;
  }
  return 0;
}

/* Reads exactly `bytes` bytes of DIR/<example>_<kernel>.bin into a new
 * buffer (free it). NULL, with a message, when missing or of another size. */
static inline void *ex_read_bin(const char *dir, const char *example, const char *kernel,
                                size_t bytes)
{
  char path[2048];
  FILE *f;
  void *buf;
  long size;
  snprintf(path, sizeof path, "%s/%s_%s.bin", dir, example, kernel);
  f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: cannot read %s\n", example, path);
    return NULL;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
      (size_t)size != bytes) {
    fprintf(stderr, "%s: %s is not %zu bytes\n", example, path, bytes);
    fclose(f);
    return NULL;
  }
  buf = malloc(bytes ? bytes : 1);
  if (buf && fread(buf, 1, bytes, f) != bytes) {
    free(buf);
    buf = NULL;
    fprintf(stderr, "%s: short read from %s\n", example, path);
  }
  fclose(f);
  return buf;
}

/* ---- comparing and reporting ------------------------------------------- */
/* Element kinds of an output buffer. */
#define EX_I32 0 /* 32-bit integers, bit-exact */
#define EX_U8 1  /* bytes, bit-exact */
#define EX_F32 2 /* floats, ex_f32_close(max_ulp, rel) */
#define EX_F64 3 /* doubles, ex_f64_close(max_ulp, rel) */

static inline size_t ex_kind_size(int kind)
{
  return kind == EX_U8 ? 1u : kind == EX_F64 ? 8u : 4u;
}

/* Index of the first element where `got` is not acceptable for `want`, or
 * -1; msg (when not -1) says what was there. */
static inline long ex_compare(int kind, const void *got, const void *want, size_t n,
                              uint32_t max_ulp, double rel, char *msg, size_t msglen)
{
  size_t i;
  for (i = 0; i < n; i++) {
    int ok;
    if (kind == EX_I32) {
      int32_t g = ((const int32_t *)got)[i], w = ((const int32_t *)want)[i];
      ok = g == w;
      if (!ok) snprintf(msg, msglen, "got %ld, want %ld", (long)g, (long)w);
    } else if (kind == EX_U8) {
      unsigned g = ((const unsigned char *)got)[i], w = ((const unsigned char *)want)[i];
      ok = g == w;
      if (!ok) snprintf(msg, msglen, "got 0x%02x, want 0x%02x", g, w);
    } else if (kind == EX_F32) {
      float g = ((const float *)got)[i], w = ((const float *)want)[i];
      ok = ex_f32_close(g, w, max_ulp, (float)rel);
      if (!ok)
        snprintf(msg, msglen, "got %.9g (0x%08lx), want %.9g (0x%08lx)", (double)g,
                 (unsigned long)ex_f32_bits(g), (double)w, (unsigned long)ex_f32_bits(w));
    } else {
      double g = ((const double *)got)[i], w = ((const double *)want)[i];
      ok = ex_f64_close(g, w, max_ulp, rel);
      if (!ok)
        snprintf(msg, msglen, "got %.17g (0x%016llx), want %.17g (0x%016llx)", g,
                 (unsigned long long)ex_f64_bits(g), w, (unsigned long long)ex_f64_bits(w));
    }
    if (!ok) return (long)i;
  }
  return -1;
}

/* Checks one output buffer of `n` elements and prints the kernel's line:
 * against the CPU reference `want`; against the GPU recording in
 * o->gpu_dir (same rule) when asked; writes it to o->dump_dir when asked.
 * Returns 1 when everything matched. */
static inline int ex_report(const ex_opts *o, const char *example, const char *kernel,
                            const char *what, int kind, const void *got, const void *want,
                            size_t n, uint32_t max_ulp, double rel)
{
  char msg[256], gmsg[256], gpu_note[320];
  long bad = ex_compare(kind, got, want, n, max_ulp, rel, msg, sizeof msg);
  int ok = bad < 0;
  gpu_note[0] = 0;
  if (o->gpu_dir) {
    void *rec = ex_read_bin(o->gpu_dir, example, kernel, n * ex_kind_size(kind));
    if (!rec) {
      ok = 0;
      snprintf(gpu_note, sizeof gpu_note, ", GPU recording missing");
    } else {
      long gbad = ex_compare(kind, got, rec, n, max_ulp, rel, gmsg, sizeof gmsg);
      if (gbad < 0) {
        snprintf(gpu_note, sizeof gpu_note, ", matches GPU");
      } else {
        ok = 0;
        snprintf(gpu_note, sizeof gpu_note, ", differs from GPU at index %ld: %s", gbad, gmsg);
      }
      free(rec);
    }
  }
  if (o->dump_dir && ex_write_bin(o->dump_dir, example, kernel, got, n * ex_kind_size(kind)) != 0)
    ok = 0;
  if (bad < 0)
    printf("%s: %s %s (%s%s)\n", example, kernel, ok ? "OK" : "FAIL", what, gpu_note);
  else
    printf("%s: %s FAIL (%s: first mismatch at index %ld: %s%s)\n", example, kernel, what, bad,
           msg, gpu_note);
  fflush(stdout);
  return ok;
}

#ifdef SMEMU_H
/* For the C drivers (include smemu.h first): 1 when st is SMEMU_OK, else
 * prints "<example>: <what> FAIL (<status>: <message>)" and returns 0. */
static inline int ex_ok(smemu_ctx *ctx, smemu_status st, const char *example, const char *what)
{
  if (st == SMEMU_OK) return 1;
  printf("%s: %s FAIL (%s: %s)\n", example, what, smemu_status_name(st),
         ctx ? smemu_errmsg(ctx) : "");
  fflush(stdout);
  return 0;
}

/* Creates a context and loads o->ptx. Returns 1, or 0 after a FAIL line. */
static inline int ex_setup(const ex_opts *o, const char *example, smemu_ctx **ctx,
                           smemu_module **mod)
{
  smemu_options opt;
  memset(&opt, 0, sizeof opt);
  *ctx = NULL;
  *mod = NULL;
  /* SMEMU_EX_BANKS=FILE: model banks and append each launch's figures to
   * FILE (tests/banks_examples.sh compares them with an H200's) */
  if (getenv("SMEMU_EX_BANKS")) opt.analyses = SMEMU_ANALYZE_BANKS;
  if (!ex_ok(NULL, smemu_create(&opt, ctx), example, "context")) return 0;
  return ex_ok(*ctx, smemu_module_load_file(*ctx, o->ptx, mod), example, o->ptx);
}

/* Looks a kernel up by its base name and launches it; 1 on success. */
static inline int ex_launch(smemu_ctx *ctx, smemu_module *mod, const char *example,
                            const char *kernel, uint32_t gx, uint32_t gy, uint32_t bx,
                            uint32_t by, uint32_t shared_bytes, void **args)
{
  smemu_kernel *k = NULL;
  uint32_t grid[3], block[3];
  grid[0] = gx; grid[1] = gy; grid[2] = 1;
  block[0] = bx; block[1] = by; block[2] = 1;
  if (!ex_ok(ctx, smemu_module_get_kernel(mod, kernel, &k), example, kernel)) return 0;
  if (!ex_ok(ctx, smemu_launch(ctx, k, grid, block, shared_bytes, args), example, kernel)) return 0;
  const char *bf = getenv("SMEMU_EX_BANKS");
  smemu_bank_counts bc;
  if (bf && smemu_last_bank_counts(ctx, &bc) == SMEMU_OK) {
    FILE *f = fopen(bf, "a");
    if (f) {
      fprintf(f, "%s", kernel);
      for (int i = 0; i < 3; i++)
        fprintf(f, "\t%llu\t%llu\t%llu", (unsigned long long)bc.requests[i], (unsigned long long)bc.wavefronts[i],
                (unsigned long long)bc.conflicts[i]);
      fprintf(f, "\n");
      fclose(f);
    }
  }
  return 1;
}

/* Appends ", N warp instructions" of the last launch to buf. */
static inline void ex_stats_note(const smemu_ctx *ctx, char *buf, size_t len)
{
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  size_t used = strlen(buf);
  if (st && used < len)
    snprintf(buf + used, len - used, ", %llu warp instructions",
             (unsigned long long)st->warp_instructions);
}
#endif

#endif
