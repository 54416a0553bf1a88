/* test_sparse_mma.c: the matrix instructions of tests/hw/sparse under smemu
 * against an H200's results, bit for bit:
 *   sp.ptx   (recorded/sp.out): mma.sp and mma.sp::ordered_metadata (every
 *            sparsity selector of the f16 and tf32 shapes), the Volta-shape
 *            m8n8k4 f16 in its four layouts, the integer signedness mixes,
 *            s4/u4, b1 .xor/.and.popc and the f64 shapes past m8n8k4;
 *   spwg.ptx (recorded/spwg.out): wgmma.mma_async.sp.
 * Each kernel draws its inputs from an integer hash, so smemu runs the same
 * PTX on the same inputs; the first recorded word of every thread is a hash
 * of its input words (checks that the inputs match), the rest are D. A case
 * named in known_differences.txt may differ (it says why); every other
 * result must be identical, on both tiers. */
#include "smemu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR "tests/hw/sparse/"

static int failures;

/* Case names that may differ (the first word of each line of
 * known_differences.txt that is not a comment). */
static char known[64][64];
static int nknown;
static void read_known(void) {
  FILE *f = fopen(DIR "known_differences.txt", "r");
  char line[512];
  if (!f) return;
  while (fgets(line, sizeof line, f) && nknown < 64)
    if (line[0] != '#' && sscanf(line, "%63s", known[nknown]) == 1) nknown++;
  fclose(f);
}
static int is_known(const char *name) {
  for (int i = 0; i < nknown; i++)
    if (!strcmp(known[i], name)) return 1;
  return 0;
}

/* Runs kernel KERNEL of PTX (params: int cfg, u32 *out) for every case of
 * the recording REC: TRIALS blocks of THREADS threads, STRIDE words per
 * thread. Returns the number of cases compared. */
static int compare(const char *ptx, const char *kernel, const char *rec_path, int trials, int threads,
                   int stride, int tier) {
  FILE *rec = fopen(rec_path, "r");
  if (!rec) {
    printf("no recording at %s\n", rec_path);
    return 0;
  }
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.tier = tier;
  smemu_ctx *ctx;
  smemu_module *mod;
  smemu_kernel *k;
  if (smemu_create(&o, &ctx) || smemu_module_load_file(ctx, ptx, &mod) ||
      smemu_module_get_kernel(mod, kernel, &k)) {
    printf("FAIL: load %s: %s\n", ptx, smemu_errmsg(ctx));
    failures++;
    fclose(rec);
    return 0;
  }
  size_t words = (size_t)trials * threads * stride;
  void *d_out;
  smemu_malloc(ctx, &d_out, words * 4);
  uint32_t *got = calloc(words, 4);
  char line[1024], name[64] = "";
  int cfg = -1, ncases = 0, diff = 0, total = 0, bad_in = 0, shown = 0;
  for (;;) {
    char *ln = fgets(line, sizeof line, rec);
    if (!ln || !strncmp(line, "cfg ", 4)) {
      if (cfg >= 0) {
        int ok = diff == 0 && bad_in == 0 && total > 0;
        printf("%-28s %6d of %6d results bit-identical%s%s\n", name, total - diff, total,
               bad_in ? ", inputs differ" : "",
               ok               ? ""
               : is_known(name) ? " (known difference)"
                                : "");
        if (!ok && !is_known(name)) failures++;
        ncases++;
      }
      if (!ln) break;
      char status[64] = "";
      if (sscanf(line, "cfg %63s %63s", name, status) < 1) break;
      cfg++;
      diff = total = bad_in = shown = 0;
      int c = cfg;
      smemu_memset(ctx, d_out, 0, words * 4);
      void *args[] = {&c, &d_out};
      uint32_t grid[3] = {(uint32_t)trials, 1, 1}, block[3] = {(uint32_t)threads, 1, 1};
      if (smemu_launch(ctx, k, grid, block, 0, args) != SMEMU_OK) {
        printf("FAIL: %s: launch: %s\n", name, smemu_errmsg(ctx));
        failures++;
        bad_in = 1;
      }
      smemu_memcpy(ctx, got, d_out, words * 4);
      continue;
    }
    int t, l, n = 0, off;
    char *p = line;
    if (sscanf(p, "%d %d%n", &t, &l, &off) != 2 || t < 0 || t >= trials || l < 0 || l >= threads) continue;
    p += off;
    unsigned v;
    const uint32_t *g = got + ((size_t)t * threads + l) * stride;
    while (n < stride && sscanf(p, " %x%n", &v, &off) == 1) {
      p += off;
      if (n == 0) {
        if (g[0] != v) bad_in++;
      } else {
        total++;
        if (g[n] != v) {
          diff++;
          if (shown++ < 3 && !is_known(name))
            printf("  %s: trial %d thread %d word %d: smemu %08x, GPU %08x\n", name, t, l, n - 1, g[n], v);
        }
      }
      n++;
    }
  }
  fclose(rec);
  free(got);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  return ncases;
}

int main(void) {
  read_known();
  /* both tiers: the compiled one runs these families through their handlers */
  int n = 0, m = 0;
  for (int tier = SMEMU_TIER_INTERP; tier <= SMEMU_TIER_JIT; tier++) {
    printf("-- %s tier\n", tier == SMEMU_TIER_INTERP ? "interpreter" : "compiled");
    n += compare(DIR "sp.ptx", "_Z4sp_kiPj", DIR "recorded/sp.out", 16, 32, 17, tier);
    m += compare(DIR "spwg.ptx", "_Z6spwg_kiPj", DIR "recorded/spwg.out", 4, 128, 33, tier);
  }
  if (n + m == 0) {
    printf("no recordings: skipped\n");
    return 77;
  }
  printf("%d cases compared; %d failures\n", n + m, failures);
  return failures ? 1 : 0;
}
