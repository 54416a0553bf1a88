/* bench.c: throughput of the emulator on the examples at sizes that take
 * seconds: thread- and warp-instructions per second on one worker thread and
 * on all cores, and the speed-up. Prints a table; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "smemu.h"

typedef struct bench {
  const char *name, *ptx, *kernel;
  uint32_t grid[3], block[3], shared;
  int n;            /* problem size used for buffers */
  int kind;         /* 0 matmul, 1 transpose, 2 dot, 3 reverse */
} bench;

static void *buf(smemu_ctx *c, size_t bytes, unsigned seed) {
  void *p;
  if (smemu_malloc(c, &p, bytes) != SMEMU_OK) { fprintf(stderr, "%s\n", smemu_errmsg(c)); exit(1); }
  float *f = p;
  srand(seed);
  for (size_t i = 0; i < bytes / 4; i++) f[i] = (float)rand() / (float)RAND_MAX;
  return p;
}

static double run(const bench *b, int threads, smemu_launch_stats *out) {
  smemu_options o = {0};
  o.threads = threads;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  if (smemu_create(&o, &c) || smemu_module_load_file(c, b->ptx, &m) || smemu_module_get_kernel(m, b->kernel, &k)) {
    fprintf(stderr, "bench %s: %s\n", b->name, smemu_errmsg(c));
    exit(1);
  }
  size_t n = (size_t)b->n;
  void *x = buf(c, n * n * 4, 1), *y = buf(c, n * n * 4, 2), *z = buf(c, n * n * 4, 3);
  int nn = b->n, rows = b->n, cols = b->n, total = b->n * b->n;
  void *args4[] = {&x, &y, &z, &nn};
  void *argsT[] = {&z, &x, &cols, &rows};
  void *argsD[] = {&x, &y, &z, &total};
  void *argsR[] = {&x, &nn};
  void **args = b->kind == 0 ? args4 : b->kind == 1 ? argsT : b->kind == 2 ? argsD : argsR;
  if (smemu_launch(c, k, b->grid, b->block, b->shared, args) != SMEMU_OK) {
    fprintf(stderr, "bench %s: %s\n", b->name, smemu_errmsg(c));
    exit(1);
  }
  *out = *smemu_last_stats(c);
  smemu_destroy(c);
  return out->seconds;
}

int main(int argc, char **argv) {
  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (argc > 1) cores = atoi(argv[1]);
  static const bench benches[] = {
      {"matmul 512 (tile 16)", "examples/matmul.ptx", "matmulTiled", {32, 32, 1}, {16, 16, 1}, 0, 512, 0},
      {"transpose 2048 naive", "examples/transpose.ptx", "transposeCoalesced", {64, 64, 1}, {32, 8, 1}, 0, 2048, 1},
      {"transpose 2048 padded", "examples/transpose.ptx", "transposeNoBankConflicts", {64, 64, 1}, {32, 8, 1}, 0, 2048, 1},
      {"dot 4M (256 blocks)", "examples/dot.ptx", "dotPartial", {256, 1, 1}, {256, 1, 1}, 0, 2048, 2},
  };
  printf("%-24s %8s %10s %12s %12s %8s\n", "benchmark", "workers", "seconds", "Mthread-i/s", "Mwarp-i/s", "speedup");
  for (size_t i = 0; i < sizeof benches / sizeof *benches; i++) {
    smemu_launch_stats s1, sn;
    double t1 = run(&benches[i], 1, &s1);
    double tn = run(&benches[i], cores, &sn);
    printf("%-24s %8d %10.3f %12.1f %12.2f %8s\n", benches[i].name, 1, t1, s1.thread_instructions / t1 / 1e6,
           s1.warp_instructions / t1 / 1e6, "1.00");
    char sp[16];
    snprintf(sp, sizeof sp, "%.2f", t1 / tn);
    printf("%-24s %8d %10.3f %12.1f %12.2f %8s\n", benches[i].name, cores, tn, sn.thread_instructions / tn / 1e6,
           sn.warp_instructions / tn / 1e6, sp);
  }
  return 0;
}
