/* transpose.c: runs transposeNaive, transposeCoalesced (tile[32][32], 32-way
 * bank conflicts) and transposeNoBankConflicts (tile[32][33]) from
 * examples/transpose.cu on a 256 x 512 float matrix; a transpose is a copy, so bit-exact. */
#include "smemu.h"
#include "common.h"

static int run_one(const ex_opts *o, smemu_ctx *ctx, smemu_module *mod, const char *kernel,
                   const float *in, const float *want)
{
  const size_t n = (size_t)EX_TR_W * EX_TR_H;
  float *got = (float *)malloc(n * 4);
  float *di = NULL, *dout = NULL;
  int w = EX_TR_W, h = EX_TR_H, ok = 0;
  void *args[4];
  char what[160];

  if (!got) {
    printf("transpose: %s FAIL (out of host memory)\n", kernel);
    return 0;
  }
  args[0] = &dout;
  args[1] = &di;
  args[2] = &w;
  args[3] = &h;
  if (ex_ok(ctx, smemu_malloc(ctx, (void **)&di, n * 4), "transpose", "malloc") &&
      ex_ok(ctx, smemu_malloc(ctx, (void **)&dout, n * 4), "transpose", "malloc") &&
      ex_ok(ctx, smemu_memcpy(ctx, di, in, n * 4), "transpose", "memcpy") &&
      ex_ok(ctx, smemu_memset(ctx, dout, 0xff, n * 4), "transpose", "memset") &&
      ex_launch(ctx, mod, "transpose", kernel, EX_TR_W / EX_TR_TILE, EX_TR_H / EX_TR_TILE,
                EX_TR_TILE, EX_TR_ROWS, 0, args) &&
      ex_ok(ctx, smemu_memcpy(ctx, got, dout, n * 4), "transpose", "memcpy")) {
    snprintf(what, sizeof what, "%dx%d floats to %dx%d, bit-exact", EX_TR_H, EX_TR_W, EX_TR_W,
             EX_TR_H);
    ex_stats_note(ctx, what, sizeof what);
    ok = ex_report(o, "transpose", kernel, what, EX_F32, got, want, n, 0, 0.0);
  }
  smemu_free(ctx, di);
  smemu_free(ctx, dout);
  free(got);
  return ok;
}

int main(int argc, char **argv)
{
  const size_t n = (size_t)EX_TR_W * EX_TR_H;
  ex_opts o;
  smemu_ctx *ctx;
  smemu_module *mod;
  float *in, *want;
  int ok, r, c;
  if (ex_parse_args(argc, argv, "transpose", &o) != 0) return 2;
  in = (float *)malloc(n * 4);
  want = (float *)malloc(n * 4);
  if (!in || !want) {
    printf("transpose: FAIL (out of host memory)\n");
    return 1;
  }
  if (!ex_setup(&o, "transpose", &ctx, &mod)) {
    if (ctx) smemu_destroy(ctx);
    return 1;
  }
  /* input: EX_TR_H rows of EX_TR_W; output: EX_TR_W rows of EX_TR_H */
  ex_fill_f32(in, n, EX_TR_SEED, -1.0f, 1.0f);
  for (r = 0; r < EX_TR_H; r++)
    for (c = 0; c < EX_TR_W; c++) want[(size_t)c * EX_TR_H + r] = in[(size_t)r * EX_TR_W + c];
  ok = run_one(&o, ctx, mod, "transposeNaive", in, want);
  ok &= run_one(&o, ctx, mod, "transposeCoalesced", in, want);
  ok &= run_one(&o, ctx, mod, "transposeNoBankConflicts", in, want);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  free(in);
  free(want);
  return ok ? 0 : 1;
}
