/* matmul.c: runs matmulTiled (256 x 256) and matmulTiledBounds (200 x 150
 * times 150 x 120) from examples/matmul.cu on generated floats in [-1, 1);
 * both must match, bit for bit, a CPU product accumulated with fmaf in k order. */
#include "smemu.h"
#include "common.h"

/* C = A (m x q) * B (q x p), each element an fmaf chain over k = 0..q-1, the
 * order of the kernel's unrolled tile loop (nvcc emits fma.rn.f32). The zero
 * padding of the bounds kernel adds fma(x, 0, acc) = acc exactly (acc is
 * never -0 since it starts at +0 and round-to-nearest gives x + -x = +0). */
static void reference(const float *A, const float *B, float *C, int m, int q, int p)
{
  int i, j, k;
  for (i = 0; i < m; i++)
    for (j = 0; j < p; j++) {
      float acc = 0.0f;
      for (k = 0; k < q; k++) acc = fmaf(A[(size_t)i * q + k], B[(size_t)k * p + j], acc);
      C[(size_t)i * p + j] = acc;
    }
}

/* Runs one product; square selects matmulTiled (m = q = p). */
static int run_one(const ex_opts *o, smemu_ctx *ctx, smemu_module *mod, int square, int m,
                   int q, int p)
{
  const char *kernel = square ? "matmulTiled" : "matmulTiledBounds";
  size_t na = (size_t)m * q, nb = (size_t)q * p, nc = (size_t)m * p;
  float *ha = (float *)malloc(na * 4), *hb = (float *)malloc(nb * 4);
  float *want = (float *)malloc(nc * 4), *got = (float *)malloc(nc * 4);
  float *da = NULL, *db = NULL, *dc = NULL;
  int ok = 0, T = EX_MM_TILE;
  void *args[6];
  char what[160];

  if (!ha || !hb || !want || !got) {
    printf("matmul: %s FAIL (out of host memory)\n", kernel);
    return 0;
  }
  ex_fill_f32(ha, na, EX_MM_SEED_A, -1.0f, 1.0f);
  ex_fill_f32(hb, nb, EX_MM_SEED_B, -1.0f, 1.0f);
  reference(ha, hb, want, m, q, p);
  args[0] = &da;
  args[1] = &db;
  args[2] = &dc;
  args[3] = &m;
  args[4] = &q;
  args[5] = &p;
  if (ex_ok(ctx, smemu_malloc(ctx, (void **)&da, na * 4), "matmul", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, (void **)&db, nb * 4), "matmul", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, (void **)&dc, nc * 4), "matmul", "malloc") &&
      ex_ok(ctx, smemu_memcpy(ctx, da, ha, na * 4), "matmul", "memcpy") &&
      ex_ok(ctx, smemu_memcpy(ctx, db, hb, nb * 4), "matmul", "memcpy") &&
      ex_ok(ctx, smemu_memset(ctx, dc, 0xff, nc * 4), "matmul", "memset") &&
      ex_launch(ctx, mod, "matmul", kernel, (uint32_t)((p + T - 1) / T),
                (uint32_t)((m + T - 1) / T), (uint32_t)T, (uint32_t)T, 0, args) &&
      ex_ok(ctx, smemu_memcpy(ctx, got, dc, nc * 4), "matmul", "memcpy")) {
    snprintf(what, sizeof what, "%dx%d = %dx%d * %dx%d, tile %d, bit-exact fmaf order", m, p, m,
             q, q, p, T);
    ex_stats_note(ctx, what, sizeof what);
    ok = ex_report(o, "matmul", kernel, what, EX_F32, got, want, nc, 0, 0.0);
  }
  smemu_free(ctx, da);
  smemu_free(ctx, db);
  smemu_free(ctx, dc);
  free(ha);
  free(hb);
  free(want);
  free(got);
  return ok;
}

int main(int argc, char **argv)
{
  ex_opts o;
  smemu_ctx *ctx;
  smemu_module *mod;
  int ok;
  if (ex_parse_args(argc, argv, "matmul", &o) != 0) return 2;
  if (!ex_setup(&o, "matmul", &ctx, &mod)) {
    if (ctx) smemu_destroy(ctx);
    return 1;
  }
  ok = run_one(&o, ctx, mod, 1, EX_MM_N, EX_MM_N, EX_MM_N);
  ok &= run_one(&o, ctx, mod, 0, EX_MM_M2, EX_MM_K2, EX_MM_N2);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  return ok ? 0 : 1;
}
