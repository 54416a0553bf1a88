/* fuzz_tiers.c: the differential fuzz target of the two tiers. The input
 * drives a generator of valid kernels (tests/common/tiers.c: integer and
 * float arithmetic, fma/min/max/cvt/selp/setp, predicates, divergent
 * branches and loops that reconverge, shared loads and stores at
 * lane-dependent addresses incl. vectors and sub-word sizes, bar.sync,
 * shfl/vote/redux, atomics, global loads, stores and atomics on a shared
 * scratch buffer, and rarely a faulting access); the kernel runs on the
 * interpreter and on the compiled tier, and any difference in outputs,
 * counters, bank figures, hazards, sync errors, uninitialised reads,
 * faults or messages aborts.
 *
 * Input: byte 0 picks the analyses (off, or banks+races+sync+init, plus
 * global races and memcheck), the schedule, the block and grid and whether
 * faults may be generated; byte 1 the length; the rest the kernel. `make
 * fuzz-tiers` builds the libFuzzer binary; tests/fuzz/replay.c replays
 * tests/fuzz/corpus_tiers/ in `make test`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smemu.h"
#include "tiers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int fuzz_replay_skip(void);

/* The replay skips where this build has no compiled tier. */
int fuzz_replay_skip(void) { return !smemu_jit_available(); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2 || !smemu_jit_available()) return 0;
  static const uint32_t blocks[8] = {32, 64, 96, 128, 48, 40, 1, 33};
  static const uint32_t analyses[4] = {
      0, SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT,
      SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT,
      SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT |
          SMEMU_ANALYZE_GLOBAL_RACES | SMEMU_ANALYZE_MEMCHECK};
  uint8_t mode = data[0];
  uint64_t seed = 1469598103934665603ull;
  for (size_t i = 0; i < size; i++) seed = (seed ^ data[i]) * 1099511628211ull;
  kgen_opts ko = {8 + data[1] % 48, 1, (mode >> 7) & 1};
  char *ptx = kgen_kernel(data + 2, size - 2, seed, &ko, NULL);
  tiers_launch L;
  memset(&L, 0, sizeof L);
  L.grid[0] = 1 + ((mode >> 6) & 1);
  L.grid[1] = L.grid[2] = L.block[1] = L.block[2] = 1;
  L.block[0] = blocks[(mode >> 3) & 7];
  L.bytes = (size_t)KGEN_IN_BYTES * 256;
  L.unwritten = KGEN_SCRATCH * 3 / 8;
  L.seed = seed;
  L.analyses = analyses[mode & 3];
  L.schedule = (mode >> 2) & 1 ? SMEMU_SCHEDULE_RANDOM : SMEMU_SCHEDULE_FIXED;
  L.sched_seed = seed >> 7;
  int compiled = 0;
  if (getenv("FUZZ_TIERS_SHOW")) { /* the kernel and what the interpreter made of it */
    tiers_outcome o;
    tiers_run(ptx, NULL, 0, SMEMU_TIER_INTERP, &L, &o);
    printf("%s\nmode %02x: status %d %s\ninstructions %llu/%llu\n%s\n", ptx, mode, o.status, o.msg,
           (unsigned long long)o.winsn, (unsigned long long)o.tinsn, o.rep ? o.rep : "");
    tiers_free(&o);
  }
  int bad = tiers_both(ptx, NULL, 0, &L, "fuzz_tiers", &compiled);
  if (bad || !compiled) {
    printf("fuzz_tiers: mode %02x (analyses %x, schedule %d, grid %u, block %u) kernel:\n%s", mode, L.analyses,
           L.schedule, L.grid[0], L.block[0], ptx);
    fflush(stdout);
    abort();
  }
  free(ptx);
  return 0;
}
