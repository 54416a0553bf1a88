/* dot.c: runs dotPartial (examples/dot.cu), 32 blocks of 256 threads over
 * 2^20 generated floats. The per-block partials must match, bit for bit, a
 * CPU reference that does the kernel's operations in the kernel's order. */
#include "smemu.h"
#include "common.h"

/* The kernel's arithmetic, in its order: each thread a chain of fmaf over its
 * grid-stride elements (nvcc contracts sum += a*b into fma.rn.f32), then the
 * shared tree: acc[t] = acc[t + half] + acc[t] for half = 128, 64, ..., 1. */
static void reference(const float *a, const float *b, float *partial, int n)
{
  float acc[EX_DOT_THREADS];
  int blk, t, i;
  for (blk = 0; blk < EX_DOT_BLOCKS; blk++) {
    for (t = 0; t < EX_DOT_THREADS; t++) {
      float sum = 0.0f;
      for (i = blk * EX_DOT_THREADS + t; i < n; i += EX_DOT_THREADS * EX_DOT_BLOCKS)
        sum = fmaf(a[i], b[i], sum);
      acc[t] = sum;
    }
    for (int half = EX_DOT_THREADS / 2; half > 0; half /= 2)
      for (t = 0; t < half; t++) acc[t] = acc[t + half] + acc[t];
    partial[blk] = acc[0];
  }
}

int main(int argc, char **argv)
{
  const int n = EX_DOT_N;
  ex_opts o;
  smemu_ctx *ctx;
  smemu_module *mod;
  float *ha, *hb, *da = NULL, *db = NULL, *dp = NULL;
  float got[EX_DOT_BLOCKS], want[EX_DOT_BLOCKS];
  int ok = 0, nn = n, i;
  void *args[4];
  char what[160];

  if (ex_parse_args(argc, argv, "dot", &o) != 0) return 2;
  if (!ex_setup(&o, "dot", &ctx, &mod)) {
    if (ctx) smemu_destroy(ctx);
    return 1;
  }
  ha = (float *)malloc(sizeof(float) * (size_t)n);
  hb = (float *)malloc(sizeof(float) * (size_t)n);
  if (!ha || !hb) {
    printf("dot: FAIL (out of host memory)\n");
    return 1;
  }
  ex_fill_f32(ha, (size_t)n, EX_DOT_SEED_A, -1.0f, 1.0f);
  ex_fill_f32(hb, (size_t)n, EX_DOT_SEED_B, -1.0f, 1.0f);
  reference(ha, hb, want, n);

  args[0] = &da;
  args[1] = &db;
  args[2] = &dp;
  args[3] = &nn;
  if (ex_ok(ctx, smemu_malloc(ctx, (void **)&da, sizeof(float) * (size_t)n), "dot", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, (void **)&db, sizeof(float) * (size_t)n), "dot", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, (void **)&dp, sizeof got), "dot", "malloc") &&
      ex_ok(ctx, smemu_memcpy(ctx, da, ha, sizeof(float) * (size_t)n), "dot", "memcpy") &&
      ex_ok(ctx, smemu_memcpy(ctx, db, hb, sizeof(float) * (size_t)n), "dot", "memcpy") &&
      ex_ok(ctx, smemu_memset(ctx, dp, 0xff, sizeof got), "dot", "memset") &&
      ex_launch(ctx, mod, "dot", "dotPartial", EX_DOT_BLOCKS, 1, EX_DOT_THREADS, 1, 0, args) &&
      ex_ok(ctx, smemu_memcpy(ctx, got, dp, sizeof got), "dot", "memcpy")) {
    snprintf(what, sizeof what, "%d partials bit-exact, %d blocks x %d threads over %d floats",
             EX_DOT_BLOCKS, EX_DOT_BLOCKS, EX_DOT_THREADS, n);
    ex_stats_note(ctx, what, sizeof what);
    ok = ex_report(&o, "dot", "dotPartial", what, EX_F32, got, want, EX_DOT_BLOCKS, 0, 0.0);

    /* The host total: partials added in index order, in float. Checked
     * against a double-precision dot product with the classic bound
     * |err| <= k * 2^-24 * sum|a*b|, k = terms per thread + tree depth +
     * number of partials (each addition rounds once). */
    {
      float total = 0.0f;
      double exact = 0.0, mag = 0.0, bound;
      int per_thread = (n + EX_DOT_THREADS * EX_DOT_BLOCKS - 1) / (EX_DOT_THREADS * EX_DOT_BLOCKS);
      int depth = 0;
      for (i = EX_DOT_THREADS; i > 1; i /= 2) depth++;
      for (i = 0; i < EX_DOT_BLOCKS; i++) total += got[i];
      for (i = 0; i < n; i++) {
        exact += (double)ha[i] * (double)hb[i];
        mag += fabs((double)ha[i] * (double)hb[i]);
      }
      bound = (double)(per_thread + depth + EX_DOT_BLOCKS) * ldexp(1.0, -24) * mag;
      if (fabs((double)total - exact) <= bound) {
        printf("dot: host total OK (%.6f, double reference %.6f, |err| %.2e <= bound %.2e)\n",
               (double)total, exact, fabs((double)total - exact), bound);
      } else {
        printf("dot: host total FAIL (%.6f, double reference %.6f, |err| %.2e > bound %.2e)\n",
               (double)total, exact, fabs((double)total - exact), bound);
        ok = 0;
      }
    }
  }
  smemu_free(ctx, da);
  smemu_free(ctx, db);
  smemu_free(ctx, dp);
  free(ha);
  free(hb);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  return ok ? 0 : 1;
}
