/* race_diff.c: prints the shared race, sync and init reports of random
 * kernels (tests/common/tiers.c's generator) one after another, so that two
 * builds of the checker can be compared: build this against each library
 * and diff the outputs (tests/fuzz/race_diff.sh does). Usage:
 *   race_diff FIRST_SEED COUNT [interp|jit]
 * Each kernel runs with races+sync+init and with racecheck's one-access-
 * per-byte mode, on a block size picked from the seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiers.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s FIRST_SEED COUNT [interp|jit]\n", argv[0]);
    return 2;
  }
  uint64_t s0 = strtoull(argv[1], NULL, 0), n = strtoull(argv[2], NULL, 0);
  int tier = argc > 3 && !strcmp(argv[3], "jit") ? SMEMU_TIER_JIT : SMEMU_TIER_INTERP;
  static const uint32_t blocks[] = {32, 64, 96, 128, 256, 48};
  static const uint32_t modes[] = {SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT,
                                   SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_RACECHECK_COMPAT, SMEMU_ANALYZE_INIT,
                                   SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_INIT};
  for (uint64_t seed = s0; seed < s0 + n; seed++) {
    kgen_opts o = {(int)(20 + seed % 50), 1, 0};
    char *k = kgen_kernel(NULL, 0, seed * 0x9e3779b97f4a7c15ull + 1, &o, NULL);
    if (!k) return 1;
    for (unsigned mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
      tiers_launch L;
      memset(&L, 0, sizeof L);
      uint32_t bx = blocks[(seed + mi) % (sizeof blocks / sizeof *blocks)];
      L.grid[0] = 2;
      L.grid[1] = L.grid[2] = 1;
      L.block[0] = bx;
      L.block[1] = L.block[2] = 1;
      L.bytes = (size_t)KGEN_IN_BYTES * 2 * bx + KGEN_SCRATCH;
      L.seed = seed;
      L.analyses = modes[mi];
      tiers_outcome out;
      tiers_run(k, NULL, 0, tier, &L, &out);
      printf("== seed %llu mode %x block %u status %d\n%s\n%s\n", (unsigned long long)seed, modes[mi], bx, out.status,
             out.msg, out.rep ? out.rep : "");
      tiers_free(&out);
    }
    free(k);
  }
  return 0;
}
