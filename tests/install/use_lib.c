/* use_lib.c: a program outside the tree that uses an installed libsmemu
 * (built with pkg-config's flags by tests/install/install_test.sh): loads
 * reverse.ptx (argv[1]), runs staticReverse on 0..63 and checks that the
 * result is 63..0, the reversal stated by the kernel's source. */
#include <stdio.h>
#include <stdint.h>
#include "smemu.h"

int main(int argc, char **argv) {
  enum { N = 64 };
  int32_t in[N], out[N];
  smemu_ctx *ctx = NULL;
  smemu_module *mod = NULL;
  smemu_kernel *k = NULL;
  void *d = NULL;
  int n = N;
  if (argc < 2) return 2;
  for (int i = 0; i < N; i++) in[i] = i;
  if (smemu_create(NULL, &ctx) != SMEMU_OK || smemu_module_load_file(ctx, argv[1], &mod) != SMEMU_OK ||
      smemu_module_get_kernel(mod, "staticReverse", &k) != SMEMU_OK || smemu_malloc(ctx, &d, sizeof in) != SMEMU_OK ||
      smemu_memcpy(ctx, d, in, sizeof in) != SMEMU_OK) {
    fprintf(stderr, "use_lib: setup failed: %s\n", ctx ? smemu_errmsg(ctx) : "no context");
    return 1;
  }
  void *args[2] = {&d, &n};
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {N, 1, 1};
  if (smemu_launch(ctx, k, grid, block, 0, args) != SMEMU_OK || smemu_memcpy(ctx, out, d, sizeof out) != SMEMU_OK) {
    fprintf(stderr, "use_lib: launch failed: %s\n", smemu_errmsg(ctx));
    return 1;
  }
  for (int i = 0; i < N; i++)
    if (out[i] != N - 1 - i) { fprintf(stderr, "use_lib: out[%d] = %d, want %d\n", i, out[i], N - 1 - i); return 1; }
  printf("use_lib: smemu %s reversed %d ints\n", smemu_version(), N);
  smemu_destroy(ctx);
  return 0;
}
