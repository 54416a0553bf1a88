/* reverse.c: runs staticReverse and dynamicReverse (examples/reverse.cu) on
 * 64 generated ints in one block of 64 threads and checks the reversal
 * bit-exactly. Usage: reverse [FILE.ptx] [--dump DIR] [--gpu DIR]. */
#include "smemu.h"
#include "common.h"

static int run_one(const ex_opts *o, smemu_ctx *ctx, smemu_module *mod, const char *kernel,
                   uint32_t shared_bytes)
{
  enum { N = EX_REVERSE_N };
  int32_t in[N], want[N], got[N];
  int32_t *d = NULL;
  int n = N, ok = 0, i;
  void *args[2];
  char what[128];

  ex_fill_i32(in, N, EX_REVERSE_SEED, INT32_MIN, INT32_MAX);
  for (i = 0; i < N; i++) want[i] = in[N - 1 - i];
  if (!ex_ok(ctx, smemu_malloc(ctx, (void **)&d, sizeof in), "reverse", "malloc")) return 0;
  args[0] = &d;
  args[1] = &n;
  if (ex_ok(ctx, smemu_memcpy(ctx, d, in, sizeof in), "reverse", "memcpy") &&
      ex_launch(ctx, mod, "reverse", kernel, 1, 1, N, 1, shared_bytes, args) &&
      ex_ok(ctx, smemu_memcpy(ctx, got, d, sizeof got), "reverse", "memcpy")) {
    snprintf(what, sizeof what, "%d ints", N);
    ex_stats_note(ctx, what, sizeof what);
    ok = ex_report(o, "reverse", kernel, what, EX_I32, got, want, N, 0, 0.0);
  }
  smemu_free(ctx, d);
  return ok;
}

int main(int argc, char **argv)
{
  ex_opts o;
  smemu_ctx *ctx;
  smemu_module *mod;
  int ok;
  if (ex_parse_args(argc, argv, "reverse", &o) != 0) return 2;
  if (!ex_setup(&o, "reverse", &ctx, &mod)) {
    if (ctx) smemu_destroy(ctx);
    return 1;
  }
  ok = run_one(&o, ctx, mod, "staticReverse", 0);
  ok &= run_one(&o, ctx, mod, "dynamicReverse", EX_REVERSE_N * (uint32_t)sizeof(int));
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  return ok ? 0 : 1;
}
