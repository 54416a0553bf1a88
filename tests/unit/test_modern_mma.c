/* test_modern_mma.c: mma.sync and movmatrix (tests/hw/modern/mma.cu) under
 * smemu against an H100's results (recorded/mma.out): 32 warps of random
 * fragments per form, every fourth with special values (zeros, infinities,
 * NaN, subnormals, the largest finite values). The fragment inputs must
 * match word for word (the kernel draws them from a hash, so this checks
 * the integer path too) and every result bit for bit (bound 0 ulp): the
 * f32 accumulation model of src/exec/mma.c was fitted to this recording
 * (tests/hw/modern/mma_fit.py), the other forms are exact or round once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smemu.h"

#define DIR "tests/hw/modern/"
#define TRIALS 32
#define WORDS (TRIALS * 32 * 16)

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; if (failures < 40) { printf("FAIL: " __VA_ARGS__); printf("\n"); } } } while (0)

/* Result kind of each form (mma.cu's cfg order): 0 f32 words, 1 f64 pairs,
 * 2 f16x2 words, 3 exact words. Words of D each form writes. */
static const struct { const char *name; int kind, nd; double bound; } forms[] = {
  {"m16n8k16_f32_f16", 0, 4, 0}, {"m16n8k16_f32_bf16", 0, 4, 0}, {"m16n8k8_f32_tf32", 0, 4, 0},
  {"m8n8k4_f64", 1, 4, 0}, {"m16n8k16_f16_f16", 2, 2, 0}, {"m16n8k8_f32_f16", 0, 4, 0},
  {"m16n8k8_f32_bf16", 0, 4, 0}, {"m16n8k32_s32_s8", 3, 4, 0}, {"movmatrix_trans", 3, 1, 0},
  {"m16n8k16_f32_f16_wide", 0, 4, 0}, {"m16n8k16_f32_bf16_wide", 0, 4, 0}, {"m16n8k8_f32_tf32_wide", 0, 4, 0},
  {"m16n8k16_f16_f16_wide", 2, 2, 0}, {"m16n8k8_f16_f16", 2, 2, 0}, {"m16n8k32_s32_u8s8", 3, 4, 0},
  {"m16n8k16_s32_s8_satfinite", 3, 4, 0}, {"m16n8k4_f32_tf32", 0, 4, 0}, {"m16n8k64_s32_s4", 3, 4, 0},
  {"m8n8k16_s32_s8", 3, 2, 0},
};
#define NFORMS 19

/* Ordered integer of a float's bits, for ulp distances. */
static int64_t ord32(uint32_t u) { return (u >> 31) ? -(int64_t)(u & 0x7fffffff) : (int64_t)u; }
static int64_t ord64(uint64_t u) { return (u >> 63) ? -(int64_t)(u & 0x7fffffffffffffffull) : (int64_t)u; }
static int64_t ord16(uint32_t u) { return (u >> 15) ? -(int64_t)(u & 0x7fff) : (int64_t)u; }
static int isnan32(uint32_t u) { return (u & 0x7f800000) == 0x7f800000 && (u & 0x7fffff); }
static int isnan64(uint64_t u) { return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (u & 0xfffffffffffffull); }
static int isnan16(uint32_t u) { return (u & 0x7c00) == 0x7c00 && (u & 0x3ff); }

int main(void) {
  FILE *rec = fopen(DIR "recorded/mma.out", "r");
  if (!rec) { printf("no recording at " DIR "recorded/mma.out: skipped\n"); return 77; }
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  smemu_ctx *ctx;
  smemu_module *mod;
  smemu_kernel *k;
  if (smemu_create(&o, &ctx) || smemu_module_load_file(ctx, DIR "mma.ptx", &mod) ||
      smemu_module_get_kernel(mod, "_Z5mma_kiPj", &k)) {
    printf("FAIL: load: %s\n", smemu_errmsg(ctx));
    return 1;
  }
  void *d_out;
  smemu_malloc(ctx, &d_out, WORDS * 4);
  static uint32_t got[WORDS], want[WORDS];
  char line[512];
  int cfg = -1, nforms = 0;
  for (;;) {
    char *ln = fgets(line, sizeof line, rec);
    if (!ln || !strncmp(line, "cfg ", 4)) {
      if (cfg >= 0) {
        /* compare the form just read */
        int c = cfg;
        smemu_memset(ctx, d_out, 0, WORDS * 4);
        void *args[] = {&c, &d_out};
        uint32_t grid[3] = {TRIALS, 1, 1}, block[3] = {32, 1, 1};
        int rc = smemu_launch(ctx, k, grid, block, 0, args);
        CHECK(rc == SMEMU_OK, "%s: launch: %s", forms[c].name, smemu_errmsg(ctx));
        smemu_memcpy(ctx, got, d_out, sizeof got);
        int in_bad = 0, exact = 0, total = 0;
        double worst = 0;
        for (int t = 0; t < TRIALS * 32; t++) {
          const uint32_t *g = got + t * 16, *h = want + t * 16;
          for (int i = 0; i < 10; i++)
            if (g[i] != h[i] && in_bad++ < 3) CHECK(0, "%s: lane %d input word %d: smemu %08x, H100 %08x", forms[c].name, t, i, g[i], h[i]);
          int nd = forms[c].nd;
          for (int i = 0; i < nd; i++) {
            double d = 0;
            int both_nan = 0;
            switch (forms[c].kind) {
            case 0: both_nan = isnan32(g[10 + i]) && isnan32(h[10 + i]); d = fabs((double)(ord32(g[10 + i]) - ord32(h[10 + i]))); break;
            case 1: if (i & 1) continue; {
              uint64_t a = g[10 + i] | (uint64_t)g[11 + i] << 32, b = h[10 + i] | (uint64_t)h[11 + i] << 32;
              both_nan = isnan64(a) && isnan64(b);
              d = fabs((double)(ord64(a) - ord64(b)));
            } break;
            case 2:
              for (int j = 0; j < 2; j++) {
                uint32_t a = (g[10 + i] >> (16 * j)) & 0xffff, b = (h[10 + i] >> (16 * j)) & 0xffff;
                double dj = isnan16(a) && isnan16(b) ? 0 : fabs((double)(ord16(a) - ord16(b)));
                if (dj > d) d = dj;
              }
              break;
            default: d = g[10 + i] != h[10 + i]; break;
            }
            if (both_nan) d = 0;
            total++;
            if (d == 0) exact++;
            if (d > worst) worst = d;
            if (d > forms[c].bound)
              CHECK(0, "%s: trial %d lane %d D word %d: smemu %08x, H100 %08x (%.0f ulp, bound %.0f)", forms[c].name,
                    t / 32, t % 32, i, g[10 + i], h[10 + i], d, forms[c].bound);
          }
        }
        printf("%-20s %5d of %5d results bit-identical, largest difference %.0f ulp (bound %.0f)\n", forms[c].name,
               exact, total, worst, forms[c].bound);
        nforms++;
      }
      if (!ln) break;
      char name[64];
      if (sscanf(line, "cfg %63s", name) != 1) break;
      cfg = -1;
      for (int i = 0; i < NFORMS; i++)
        if (!strcmp(forms[i].name, name)) cfg = i;
      memset(want, 0, sizeof want);
      continue;
    }
    int t, l;
    uint32_t w[14];
    if (sscanf(line, "%d %d %x %x %x %x %x %x %x %x %x %x %x %x %x %x", &t, &l, &w[0], &w[1], &w[2], &w[3], &w[4],
               &w[5], &w[6], &w[7], &w[8], &w[9], &w[10], &w[11], &w[12], &w[13]) == 16 &&
        t >= 0 && t < TRIALS && l >= 0 && l < 32)
      memcpy(want + (t * 32 + l) * 16, w, sizeof w);
  }
  fclose(rec);
  printf("%d forms compared; %d failures\n", nforms, failures);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  return failures || nforms == 0 ? 1 : 0;
}
