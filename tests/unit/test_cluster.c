/* test_cluster.c: thread-block clusters and distributed shared memory.
 * The kernels are tests/hw/cluster/cluster.cu (its PTX, cluster.ptx, so no
 * nvcc is needed). Expected values are arithmetic stated beside each check
 * and, where a recording from the H100 is in tests/hw/cluster/recorded/,
 * the GPU's output (see known_differences.txt for the cases that differ).
 *  - special registers for launches with and without cluster dimensions;
 *  - remote loads/stores/atomics (mapa, generic remote pointers), cluster
 *    barriers, fences, a remote mbarrier arrival, the histogram;
 *  - misuse: remote accesses out of bounds, to a rank past the cluster, to
 *    an exited block, misaligned; races through distributed shared memory;
 *    a cluster barrier that can never complete;
 *  - launch configurations that the GPU refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smemu.h"

#define DIR "tests/hw/cluster/"

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

static smemu_ctx *ctx;
static smemu_module *mod;

static smemu_kernel *kern(const char *name) {
  smemu_kernel *k = NULL;
  if (smemu_module_get_kernel(mod, name, &k)) printf("FAIL: kernel %s: %s\n", name, smemu_errmsg(ctx)), failures++;
  return k;
}

static int launch(const char *name, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx, const uint32_t *cl,
                  uint32_t dyn, void **args) {
  smemu_kernel *k = kern(name);
  if (!k) return -1;
  uint32_t g[3] = {gx, gy, gz}, b[3] = {bx, 1, 1};
  return smemu_launch_cluster(ctx, k, g, b, cl, dyn, args);
}

/* The recorded output file's text, or NULL. */
static char *slurp(const char *file) {
  char path[256];
  snprintf(path, sizeof path, DIR "recorded/%s", file);
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
  if (s) s[n] = 0;
  fclose(f);
  return s;
}

/* ---- special registers ---- */
static uint32_t *d_out;

/* Each block's 16 words as the PTX ISA defines them for cluster dims cd. */
static void check_sregs(const char *what, uint32_t gx, uint32_t gy, uint32_t gz, const uint32_t cd[3], int expl) {
  uint32_t n = gx * gy * gz, *o = malloc(n * 64);
  smemu_memcpy(ctx, o, d_out, n * 64);
  for (uint32_t b = 0; b < n; b++) {
    uint32_t c[3] = {b % gx, b / gx % gy, b / (gx * gy)}, g[3] = {gx, gy, gz};
    uint32_t *v = o + b * 16;
    for (int i = 0; i < 3; i++) {
      CHECK(v[i] == c[i] % cd[i], "%s block %u: %%cluster_ctaid.%c %u", what, b, "xyz"[i], v[i]);
      CHECK(v[3 + i] == cd[i], "%s block %u: %%cluster_nctaid.%c %u", what, b, "xyz"[i], v[3 + i]);
      CHECK(v[8 + i] == c[i] / cd[i], "%s block %u: %%clusterid.%c %u", what, b, "xyz"[i], v[8 + i]);
      CHECK(v[11 + i] == g[i] / cd[i], "%s block %u: %%nclusterid.%c %u", what, b, "xyz"[i], v[11 + i]);
    }
    uint32_t rank = c[0] % cd[0] + cd[0] * (c[1] % cd[1] + cd[1] * (c[2] % cd[2]));
    CHECK(v[6] == rank, "%s block %u: %%cluster_ctarank %u, expected %u", what, b, v[6], rank);
    CHECK(v[7] == cd[0] * cd[1] * cd[2], "%s block %u: %%cluster_nctarank %u", what, b, v[7]);
    CHECK(v[14] == (uint32_t)expl, "%s block %u: %%is_explicit_cluster %u", what, b, v[14]);
    CHECK(v[15] == b, "%s block %u: linear %u", what, b, v[15]);
  }
  free(o);
}

static void test_sregs(void) {
  void *args[] = {&d_out};
  uint32_t c2[3] = {2, 1, 2}, one[3] = {1, 1, 1}, cd[3] = {2, 2, 1};
  CHECK(launch("_Z6k_sregPj", 4, 2, 2, 32, c2, 0, args) == SMEMU_OK, "sreg c2x1x2: %s", smemu_errmsg(ctx));
  check_sregs("c2x1x2", 4, 2, 2, c2, 1);
  CHECK(launch("_Z6k_sregPj", 4, 1, 1, 32, NULL, 0, args) == SMEMU_OK, "sreg plain: %s", smemu_errmsg(ctx));
  check_sregs("plain", 4, 1, 1, one, 0);
  CHECK(launch("_Z6k_sregPj", 4, 1, 1, 32, one, 0, args) == SMEMU_OK, "sreg c1: %s", smemu_errmsg(ctx));
  check_sregs("c1", 4, 1, 1, one, 1);
  /* __cluster_dims__(2,2,1) applies without a launch attribute */
  CHECK(launch("_Z9k_sreg_cdPj", 4, 4, 1, 32, NULL, 0, args) == SMEMU_OK, "sreg cd: %s", smemu_errmsg(ctx));
  check_sregs("cd", 4, 4, 1, cd, 1);
}

/* ---- distributed shared memory ---- */
static void test_dsmem(void) {
  uint32_t *d_dummy;
  smemu_malloc(ctx, (void **)&d_dummy, 64);
  smemu_memset(ctx, d_out, 0xff, 8 * 1024 * 4);
  void *args[] = {&d_out, &d_dummy};
  uint32_t c4[3] = {4, 1, 1};
  int rc = launch("_Z7k_dsmemPjS_", 8, 1, 1, 128, c4, 0, args);
  CHECK(rc == SMEMU_OK, "dsmem: %s", smemu_errmsg(ctx));
  uint32_t *o = malloc(8 * 1024 * 4);
  smemu_memcpy(ctx, o, d_out, 8 * 1024 * 4);
  for (uint32_t b = 0; b < 8; b++) {
    uint32_t *v = o + b * 1024, r = b % 4;
    for (uint32_t t = 0; t < 128; t++) {
      CHECK(v[t] == (r + 1) % 4 * 1000 + t, "dsmem block %u: next rank's buf[%u] %u", b, t, v[t]);
      CHECK(v[128 + t] == (r + 3) % 4 * 1000 + 127 - t, "dsmem block %u: generic read %u", b, v[128 + t]);
      CHECK(v[256 + t] == (r + 3) % 4 * 10000 + t, "dsmem block %u: buf2[%u] %u", b, t, v[256 + t]);
      CHECK(v[500 + t] == t * 3 && v[640 + t] == 1, "dsmem block %u: after the barriers (thread %u)", b, t);
    }
    /* cnt[0]: 512 adds of 1 into rank 0; cnt[1] of rank q: 128 adds of
     * r+1 from rank r = (q+2)%4; cnt[2] of rank 3: 512 adds of 2 */
    CHECK(v[384] == (r == 0 ? 512u : 0u), "dsmem block %u: cnt[0] %u", b, v[384]);
    CHECK(v[385] == 128 * ((r + 2) % 4 + 1), "dsmem block %u: cnt[1] %u", b, v[385]);
    CHECK(v[386] == (r == 3 ? 1024u : 0u), "dsmem block %u: cnt[2] %u", b, v[386]);
    CHECK(v[387] == 0 && v[388] == 1, "dsmem block %u: cnt[3] %u, atom old %u", b, v[387], v[388]);
    CHECK(v[440] == r && v[441] == (r + 1) % 4 && v[442] == r && v[443] == (r + 3) % 4,
          "dsmem block %u: getctarank %u %u %u %u", b, v[440], v[441], v[442], v[443]);
    /* isspacep: own shared is both; a remote block's is shared::cluster
     * only; global memory neither; a remote generic address is not global */
    CHECK(v[444] == 1 && v[445] == 1 && v[446] == 0 && v[447] == 1 && v[448] == 0 && v[449] == 0 && v[450] == 0,
          "dsmem block %u: isspacep %u %u %u %u %u %u %u", b, v[444], v[445], v[446], v[447], v[448], v[449], v[450]);
    CHECK(v[452] == 1 && v[453] == 1, "dsmem block %u: cvta to/from shared::cluster %u %u", b, v[452], v[453]);
    CHECK(v[456] == r * 1000 + 5 && v[457] == r * 1000 + 6, "dsmem block %u: own through cluster %u %u", b, v[456], v[457]);
    if (r == 1)
      for (uint32_t t = 0; t < 32; t++) CHECK(v[460 + t] == 7000 + t, "dsmem block %u: message %u: %u", b, t, v[460 + t]);
  }
  char *rec = slurp("dsmem.out");
  if (!rec) {
    printf("no recording of dsmem: GPU comparison skipped\n");
  } else {
    /* the words whose values smemu's address layout does not fix (raw
     * mapa results, addresses) are known differences: compare the rest */
    for (uint32_t b = 0; b < 8; b++) {
      char key[32];
      snprintf(key, sizeof key, "block %u:", b);
      char *p = strstr(rec, key);
      CHECK(p != NULL, "recording has no line for block %u", b);
      if (!p) continue;
      p += strlen(key);
      for (int i = 0; i < 704; i++) {
        unsigned long x = strtoul(p, &p, 10);
        int layout = (i >= 400 && i < 440) || i == 451 || i == 454 || i == 455 || i == 458;
        if (!layout && (i < 460 || i >= 492 || b % 4 == 1))
          CHECK(o[b * 1024 + (uint32_t)i] == (uint32_t)x, "dsmem block %u word %d: smemu %u, H100 %lu", b, i,
                o[b * 1024 + (uint32_t)i], x);
      }
    }
    free(rec);
  }
  free(o);
  smemu_free(ctx, d_dummy);
}

static void test_mbar(void) {
  void *args[] = {&d_out};
  uint32_t c2[3] = {2, 1, 1};
  smemu_memset(ctx, d_out, 0xff, 4096);
  int rc = launch("_Z6k_mbarPj", 4, 1, 1, 64, c2, 0, args);
  CHECK(rc == SMEMU_OK, "remote mbarrier: %s", smemu_errmsg(ctx));
  uint32_t o[64];
  smemu_memcpy(ctx, o, d_out, sizeof o);
  for (int t = 0; t < 64; t++) CHECK(o[t] == 500u + (uint32_t)t, "remote mbarrier data[%d] %u", t, o[t]);
}

static void test_hist(void) {
  enum { N = 1 << 14, NB = 1024 };
  static uint32_t in[N], ref[NB], got[NB];
  uint32_t x = 12345;
  memset(ref, 0, sizeof ref);
  for (int i = 0; i < N; i++) {
    x = x * 1664525u + 1013904223u;
    in[i] = x >> 8;
    ref[in[i] % NB]++;
  }
  uint32_t *d_in, *d_bins;
  smemu_malloc(ctx, (void **)&d_in, sizeof in);
  smemu_malloc(ctx, (void **)&d_bins, sizeof got);
  smemu_memcpy(ctx, d_in, in, sizeof in);
  int n = N, nb = NB;
  void *args[] = {&d_bins, &d_in, &n, &nb};
  for (uint32_t cs = 1; cs <= 16; cs *= 2) {
    smemu_kernel *k = kern("_Z6k_histPjPKjii");
    if (cs == 16) smemu_kernel_set_attribute(k, SMEMU_ATTR_NON_PORTABLE_CLUSTER, 1);
    smemu_memset(ctx, d_bins, 0, sizeof got);
    uint32_t c[3] = {cs, 1, 1};
    int rc = launch("_Z6k_histPjPKjii", 16, 1, 1, 256, c, NB / cs * 4, args);
    CHECK(rc == SMEMU_OK, "hist cluster %u: %s", cs, smemu_errmsg(ctx));
    smemu_memcpy(ctx, got, d_bins, sizeof got);
    int bad = 0;
    for (int i = 0; i < NB; i++) bad += got[i] != ref[i];
    CHECK(bad == 0, "hist cluster %u: %d bins differ from the CPU's", cs, bad);
  }
  smemu_free(ctx, d_in);
  smemu_free(ctx, d_bins);
}

/* ---- misuse ---- */
static int bad_case(int c, const char **msg) {
  void *args[] = {&d_out, &c};
  uint32_t c2[3] = {2, 1, 1};
  int rc = launch("_Z5k_badPji", 2, 1, 1, 128, c2, 0, args);
  *msg = smemu_errmsg(ctx);
  return rc;
}

static void test_bad(void) {
  const char *msg;
  /* case 0: s[0] + 512 is `flag`, declared after s (smemu places shared
   * variables in declaration order): in bounds, it reads flag's 0 */
  int rc = bad_case(0, &msg);
  uint32_t o0;
  smemu_memcpy(ctx, &o0, d_out, 4);
  CHECK(rc == SMEMU_OK && o0 == 0, "remote load of the word after s[]: %d %s (%u)", rc, msg, o0);
  rc = bad_case(1, &msg);
  CHECK(rc == SMEMU_ERR_ILLEGAL_ADDRESS && strstr(msg, "block rank 1"), "remote load far past the end: %d %s", rc, msg);
  rc = bad_case(2, &msg);
  /* the H100: unspecified launch failure (719) for these two; memcheck
   * names "CTA 5" (bad2) and nothing for the exited block (bad3) */
  CHECK(rc == SMEMU_ERR_LAUNCH_FAILURE && strstr(msg, "block rank 5") && strstr(msg, "2 block(s)"),
        "rank past the cluster: %d %s", rc, msg);
  rc = bad_case(3, &msg);
  CHECK(rc == SMEMU_ERR_LAUNCH_FAILURE && strstr(msg, "has exited"), "read of an exited block: %d %s", rc, msg);
  rc = bad_case(8, &msg);
  CHECK(rc == SMEMU_ERR_MISALIGNED && strstr(msg, "shared::cluster"), "misaligned remote load: %d %s", rc, msg);
  rc = bad_case(9, &msg);
  CHECK(rc == SMEMU_ERR_ILLEGAL_ADDRESS && strstr(msg, "out-of-bounds write") && strstr(msg, "block rank 1"),
        "remote generic store past the end: %d %s", rc, msg);
  /* the bounded spin: the cluster barrier waits for warp 0 of rank 0 */
  rc = bad_case(6, &msg);
  CHECK(rc == SMEMU_OK, "bounded spin at a cluster barrier: %d %s", rc, msg);
  uint32_t o[256];
  smemu_memcpy(ctx, o, d_out, sizeof o);
  CHECK(o[0] == 1, "bounded spin: the flag set after the cluster barrier was seen before it (%u)", o[0]);
  /* legal divergent (non-aligned) cluster barriers and aligned ones in
   * converged code ran in dsmem; .aligned in divergent code: case 7 */
  /* .aligned cluster barrier in divergent code: the H100 hung (bad7.out
   * "rc 124", the timeout) */
  rc = bad_case(7, &msg);
  CHECK(rc == SMEMU_ERR_DEADLOCK && strstr(msg, ".aligned") && strstr(msg, "0x0000ffff"),
        "divergent .aligned cluster barrier: %d %s", rc, msg);
}

static int count_cluster_hazards(int *total) {
  int n = smemu_hazard_count(ctx), c = 0;
  *total = n;
  for (int i = 0; i < n; i++) c += smemu_hazard_get(ctx, i)->cluster;
  return c;
}

static int open_ctx(unsigned analyses);

static void test_races(void) {
  smemu_ctx *plain = ctx;
  smemu_module *plain_mod = mod;
  uint32_t *plain_out = d_out;
  if (open_ctx(SMEMU_ANALYZE_RACES)) return;
  const char *msg;
  int total;
  int rc = bad_case(4, &msg);
  int c = count_cluster_hazards(&total);
  CHECK(rc == SMEMU_OK && c >= 1, "race through remote stores: rc %d, %d cluster hazards of %d", rc, c, total);
  if (c) {
    const smemu_hazard *h = smemu_hazard_get(ctx, 0);
    /* racecheck's shape: the address is rank 1's window (0x1000400 + ...),
     * the block the cluster's first, threads of ranks 0 and 1 */
    CHECK(h->address >> 24 == 1 && h->block[0] == 0 && h->error && h->first_rank + h->second_rank == 1,
          "the race is in block rank 1's memory (0x%llx)", (unsigned long long)h->address);
  }
  rc = bad_case(5, &msg);
  c = count_cluster_hazards(&total);
  CHECK(rc == SMEMU_OK && total == 0, "remote stores ordered by barrier.cluster: rc %d, %d hazards", rc, total);
  rc = bad_case(10, &msg);
  c = count_cluster_hazards(&total);
  CHECK(rc == SMEMU_OK && c >= 1, "race through generic remote pointers: rc %d, %d cluster hazards", rc, c);
  uint32_t *d_dummy;
  smemu_malloc(ctx, (void **)&d_dummy, 64);
  void *args[] = {&d_out, &d_dummy};
  uint32_t c4[3] = {4, 1, 1}, c2[3] = {2, 1, 1};
  rc = launch("_Z7k_dsmemPjS_", 8, 1, 1, 128, c4, 0, args);
  c = count_cluster_hazards(&total);
  CHECK(rc == SMEMU_OK && total == 0, "dsmem (barriers, fences) is race-free: rc %d, %d hazards", rc, total);
  if (total) smemu_write_race_report(ctx, stdout, 1);
  /* k_mbar has a real race: threads 33..63 of rank 1 store into rank 0's
   * data and never arrive (thread 32 arrives with a count of 32 for them,
   * which orders only its own store): 31 threads x 4 bytes x 2 clusters, as racecheck counts (248 hazards, recorded); threads
   * 0..32, whose arrivals release their stores, race with nothing */
  rc = launch("_Z6k_mbarPj", 4, 1, 1, 64, c2, 0, args);
  c = count_cluster_hazards(&total);
  const smemu_hazard *h = total == 1 ? smemu_hazard_get(ctx, 0) : NULL;
  CHECK(rc == SMEMU_OK && h && h->cluster && h->count == 248 && h->first_thread[0] >= 33 &&
            !strcmp(h->type, "RAW") && h->first_line == 189 && h->second_line == 200,
        "k_mbar: the race of threads 33..63 (rc %d, %d hazards)", rc, total);
  if (!h) smemu_write_race_report(ctx, stdout, 1);
  smemu_free(ctx, d_dummy);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  /* racecheck-compatible: fences order nothing and .relaxed accesses are
   * plain, as racecheck reports k_dsmem on the H100 (san_racecheck_dsmem):
   * the fence-and-flag handoff of mp[] (lines 150 -> 160, 256 hazards),
   * the flag itself (150 -> 155), and k_mbar's race (189 -> 200, 248) */
  if (!open_ctx(SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_RACECHECK_COMPAT)) {
    smemu_malloc(ctx, (void **)&d_dummy, 64);
    args[1] = &d_dummy;
    rc = launch("_Z7k_dsmemPjS_", 8, 1, 1, 128, c4, 0, args);
    int n = smemu_hazard_count(ctx), mp = 0, flag = 0;
    for (int i = 0; i < n; i++) {
      const smemu_hazard *z = smemu_hazard_get(ctx, i);
      if (z->cluster && z->second_line == 160 && z->count == 256) mp = 1;
      if (z->cluster && z->first_line == 150 && z->second_line == 155) flag = 1;
    }
    CHECK(rc == SMEMU_OK && mp && flag, "racecheck-compatible k_dsmem: rc %d, %d hazards, mp %d flag %d", rc, n, mp,
          flag);
    if (!mp || !flag) smemu_write_race_report(ctx, stdout, 0);
    smemu_free(ctx, d_dummy);
    smemu_module_unload(mod);
    smemu_destroy(ctx);
  }
  ctx = plain;
  mod = plain_mod;
  d_out = plain_out;
}

/* ---- a cluster barrier that can never complete ---- */
static const char *deadlock_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry dl()\n{\n .reg .b32 %r<4>;\n .reg .pred %p<3>;\n"
    " mov.u32 %r1, %cluster_ctarank;\n mov.u32 %r2, %tid.x;\n"
    " setp.eq.u32 %p1, %r1, 1;\n setp.lt.u32 %p2, %r2, 32;\n and.pred %p1, %p1, %p2;\n"
    " @%p1 bra HOLD;\n barrier.cluster.arrive.aligned;\n barrier.cluster.wait.aligned;\n ret;\n"
    "HOLD:\n bar.sync 1, 64;\n ret;\n}\n";

static const char *exit_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry ex()\n{\n .reg .b32 %r<4>;\n .reg .pred %p<3>;\n"
    " mov.u32 %r1, %cluster_ctarank;\n mov.u32 %r2, %tid.x;\n"
    " setp.eq.u32 %p1, %r1, 1;\n @%p1 ret;\n setp.ge.u32 %p2, %r2, 32;\n @%p2 ret;\n"
    " barrier.cluster.arrive.aligned;\n barrier.cluster.wait.aligned;\n"
    " barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";

/* rank n of a cluster of n: the first rank past it */
static const char *rank_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry rk(.param .u32 q)\n{\n .reg .b32 %r<5>;\n .shared .align 4 .b8 buf[64];\n"
    " ld.param.u32 %r3, [q];\n mov.u32 %r1, buf;\n mapa.shared::cluster.u32 %r2, %r1, %r3;\n"
    " ld.shared::cluster.u32 %r4, [%r2];\n barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";

static void test_rank_edge(void) {
  smemu_module *m;
  smemu_kernel *k;
  if (smemu_module_load_data(ctx, rank_ptx, strlen(rank_ptx), "rank.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, "rk", &k)) {
    CHECK(0, "load rank.ptx: %s", smemu_errmsg(ctx));
    return;
  }
  uint32_t g[3] = {2, 1, 1}, b[3] = {32, 1, 1}, c2[3] = {2, 1, 1}, q = 1;
  void *args[] = {&q};
  int rc = smemu_launch_cluster(ctx, k, g, b, c2, 0, args);
  CHECK(rc == SMEMU_OK, "rank 1 of 2: %d %s", rc, smemu_errmsg(ctx));
  q = 2;
  rc = smemu_launch_cluster(ctx, k, g, b, c2, 0, args);
  CHECK(rc == SMEMU_ERR_LAUNCH_FAILURE && strstr(smemu_errmsg(ctx), "block rank 2"), "rank 2 of 2: %d %s", rc,
        smemu_errmsg(ctx));
  smemu_module_unload(m);
}

static void test_deadlock(void) {
  smemu_module *m;
  CHECK(smemu_module_load_data(ctx, deadlock_ptx, strlen(deadlock_ptx), "dl.ptx", &m) == SMEMU_OK, "load: %s",
        smemu_errmsg(ctx));
  smemu_kernel *k;
  if (smemu_module_get_kernel(m, "dl", &k)) return;
  uint32_t g[3] = {2, 1, 1}, b[3] = {64, 1, 1}, c2[3] = {2, 1, 1};
  int rc = smemu_launch_cluster(ctx, k, g, b, c2, 0, NULL);
  const char *msg = smemu_errmsg(ctx);
  CHECK(rc == SMEMU_ERR_DEADLOCK && strstr(msg, "barrier.cluster.wait") && strstr(msg, "block rank 1"),
        "cluster barrier deadlock: %d %s", rc, msg);
  /* the same kernel without clusters: block 0's barrier is its own */
  uint32_t one[3] = {1, 1, 1};
  g[0] = 1;
  rc = smemu_launch_cluster(ctx, k, g, b, one, 0, NULL);
  CHECK(rc == SMEMU_OK, "cluster of one: %d %s", rc, smemu_errmsg(ctx));
  smemu_module_unload(m);
  /* exited threads release a cluster barrier (PTX ISA, exit): rank 1 and
   * half of rank 0 exit, the rest of rank 0 passes two phases */
  if (smemu_module_load_data(ctx, exit_ptx, strlen(exit_ptx), "exit.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, "ex", &k)) {
    CHECK(0, "load exit.ptx: %s", smemu_errmsg(ctx));
    return;
  }
  g[0] = 2;
  rc = smemu_launch_cluster(ctx, k, g, b, c2, 0, NULL);
  CHECK(rc == SMEMU_OK, "a cluster barrier released by exits: %d %s", rc, smemu_errmsg(ctx));
  smemu_module_unload(m);
}

/* ---- multicast and remote bulk copies (cp.async.bulk into shared::cluster) ----
 * mode 0: rank 0's thread 0 multicasts src[0..255] to the ranks of mask;
 * mode 1: rank 0's thread r copies src[256r..] into rank r (mapa of buf
 * and bar), a remote destination for r > 0; mode 2: as mode 0, but rank 1
 * exits first; mode 3: as mode 1, but no rank waits on its mbarrier (a
 * race). Every block inits its barrier and expects 256 bytes before the
 * cluster barrier; every thread waits for phase 0 and copies 8 bytes of its
 * block's buf to out[256 * ctaid + 8 * tid]. */
static const char *mcast_ptx =
    ".version 8.0\n.target sm_90a\n.address_size 64\n"
    ".visible .entry mc(.param .u64 src, .param .u64 out, .param .u32 mode, .param .u32 mask)\n{\n"
    " .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n .reg .pred %p<6>;\n .reg .b16 %h<2>;\n"
    " .shared .align 128 .b8 buf[256];\n .shared .align 8 .b64 bar;\n"
    " ld.param.u64 %rd1, [src];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r1, [mode];\n"
    " ld.param.u32 %r2, [mask];\n cvt.u16.u32 %h1, %r2;\n"
    " mov.u32 %r3, %cluster_ctarank;\n mov.u32 %r4, %tid.x;\n mov.u32 %r5, %ctaid.x;\n"
    " mov.u32 %r6, buf;\n mov.u32 %r7, bar;\n"
    " setp.eq.u32 %p1, %r1, 2;\n setp.eq.u32 %p2, %r3, 1;\n and.pred %p1, %p1, %p2;\n @%p1 ret;\n"
    " setp.eq.u32 %p3, %r4, 0;\n @!%p3 bra SYNC;\n"
    " mbarrier.init.shared::cta.b64 [%r7], 1;\n"
    " mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r7], 256;\n"
    "SYNC:\n barrier.cluster.arrive;\n barrier.cluster.wait;\n"
    " setp.ne.u32 %p2, %r3, 0;\n @%p2 bra WAIT;\n"
    " setp.eq.u32 %p4, %r1, 1;\n setp.eq.u32 %p5, %r1, 3;\n or.pred %p4, %p4, %p5;\n @%p4 bra REMOTE;\n"
    " @!%p3 bra WAIT;\n"
    " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r6], [%rd1], 256, [%r7], %h1;\n"
    " bra WAIT;\n"
    "REMOTE:\n mov.u32 %r8, %cluster_nctarank;\n setp.ge.u32 %p4, %r4, %r8;\n @%p4 bra WAIT;\n"
    " mapa.shared::cluster.u32 %r9, %r6, %r4;\n mapa.shared::cluster.u32 %r10, %r7, %r4;\n"
    " mul.wide.u32 %rd4, %r4, 256;\n add.u64 %rd4, %rd1, %rd4;\n"
    " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r9], [%rd4], 256, [%r10];\n"
    "WAIT:\n setp.eq.u32 %p4, %r1, 3;\n @%p4 bra COPY;\n"
    "POLL:\n mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r7], 0;\n @!%p5 bra POLL;\n"
    "COPY:\n shl.b32 %r11, %r4, 3;\n add.u32 %r9, %r6, %r11;\n ld.shared.u64 %rd5, [%r9];\n"
    " mul.wide.u32 %rd6, %r5, 256;\n cvt.u64.u32 %rd7, %r11;\n add.u64 %rd6, %rd6, %rd7;\n add.u64 %rd6, %rd2, %rd6;\n"
    " st.global.u64 [%rd6], %rd5;\n"
    " barrier.cluster.arrive;\n barrier.cluster.wait;\n ret;\n}\n";

/* src byte i: (i * 7 + 3) & 0xff */
static int run_mcast(smemu_kernel *k, uint32_t nblocks, uint32_t csize, uint32_t mode, uint32_t mask, uint8_t *src,
                     uint8_t *out) {
  uint32_t g[3] = {nblocks, 1, 1}, b[3] = {32, 1, 1}, c[3] = {csize, 1, 1};
  memset(out, 0xee, 256u * nblocks);
  void *args[] = {&src, &out, &mode, &mask};
  return smemu_launch_cluster(ctx, k, g, b, c, 0, args);
}

static void test_mcast(void) {
  smemu_module *m;
  smemu_kernel *k;
  if (smemu_module_load_data(ctx, mcast_ptx, strlen(mcast_ptx), "mcast.ptx", &m) != SMEMU_OK ||
      smemu_module_get_kernel(m, "mc", &k)) {
    CHECK(0, "load mcast.ptx: %s", smemu_errmsg(ctx));
    return;
  }
  uint8_t *src, *out;
  smemu_malloc(ctx, (void **)&src, 4 * 256);
  smemu_malloc(ctx, (void **)&out, 8 * 256);
  for (int i = 0; i < 4 * 256; i++) src[i] = (uint8_t)(i * 7 + 3);
  /* multicast to all 4 ranks of each of 2 clusters: every block's buf is src[0..255] */
  int rc = run_mcast(k, 8, 4, 0, 0xf, src, out), bad = -1;
  for (int i = 0; i < 8 * 256 && bad < 0; i++)
    if (out[i] != (uint8_t)((i % 256) * 7 + 3)) bad = i;
  CHECK(rc == SMEMU_OK && bad < 0, "multicast to 4 ranks: rc %d %s, first bad byte %d", rc, smemu_errmsg(ctx), bad);
  /* clusters of 2, mask 0x3 */
  rc = run_mcast(k, 4, 2, 0, 0x3, src, out);
  bad = -1;
  for (int i = 0; i < 4 * 256 && bad < 0; i++)
    if (out[i] != (uint8_t)((i % 256) * 7 + 3)) bad = i;
  CHECK(rc == SMEMU_OK && bad < 0, "multicast to 2 ranks: rc %d %s, first bad byte %d", rc, smemu_errmsg(ctx), bad);
  /* remote destinations: block of rank r holds src[256r..256r+255] */
  rc = run_mcast(k, 8, 4, 1, 0, src, out);
  bad = -1;
  for (int i = 0; i < 8 * 256 && bad < 0; i++)
    if (out[i] != (uint8_t)((i % 1024) * 7 + 3)) bad = i;
  CHECK(rc == SMEMU_OK && bad < 0, "remote bulk copies: rc %d %s, first bad byte %d", rc, smemu_errmsg(ctx), bad);
  /* a mask bit past the cluster (rank 4 of 4) */
  rc = run_mcast(k, 4, 4, 0, 0x1f, src, out);
  const char *msg = smemu_errmsg(ctx);
  CHECK(rc == SMEMU_ERR_LAUNCH_FAILURE && strstr(msg, "block rank 4") && strstr(msg, "4 block(s)"),
        "multicast mask past the cluster: %d %s", rc, msg);
  /* a destination block that has exited */
  rc = run_mcast(k, 2, 2, 2, 0x3, src, out);
  msg = smemu_errmsg(ctx);
  CHECK(rc == SMEMU_ERR_LAUNCH_FAILURE && strstr(msg, "block rank 1") && strstr(msg, "exited"),
        "multicast to an exited block: %d %s", rc, msg);
  smemu_free(ctx, src);
  smemu_free(ctx, out);
  smemu_module_unload(m);
  /* races: the remote copies are ordered by the destination's mbarrier wait;
   * reading without it races with them */
  smemu_ctx *plain = ctx;
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 2;
  o.analyses = SMEMU_ANALYZE_RACES;
  if (smemu_create(&o, &ctx) || smemu_module_load_data(ctx, mcast_ptx, strlen(mcast_ptx), "mcast.ptx", &m) ||
      smemu_module_get_kernel(m, "mc", &k)) {
    CHECK(0, "race context: %s", ctx ? smemu_errmsg(ctx) : "create");
    ctx = plain;
    return;
  }
  smemu_malloc(ctx, (void **)&src, 4 * 256);
  smemu_malloc(ctx, (void **)&out, 8 * 256);
  for (int i = 0; i < 4 * 256; i++) src[i] = (uint8_t)(i * 7 + 3);
  int total;
  rc = run_mcast(k, 4, 4, 1, 0, src, out);
  int c = count_cluster_hazards(&total);
  CHECK(rc == SMEMU_OK && total == 0, "remote copies waited for: rc %d, %d hazards", rc, total);
  if (total) smemu_write_race_report(ctx, stdout, 1);
  rc = run_mcast(k, 4, 4, 0, 0xf, src, out);
  c = count_cluster_hazards(&total);
  CHECK(rc == SMEMU_OK && total == 0, "multicast waited for: rc %d, %d hazards", rc, total);
  if (total) smemu_write_race_report(ctx, stdout, 1);
  rc = run_mcast(k, 4, 4, 3, 0, src, out);
  c = count_cluster_hazards(&total);
  /* ranks 1..3 read without a wait: hazards in their memory; rank 0's own
   * copy is the block's race check's */
  /* the copy (PTX line 50) and the reads of buf (line 60) of ranks 1..3,
   * in either order */
  uint64_t bytes = 0;
  for (int i = 0; i < total; i++) {
    const smemu_hazard *h = smemu_hazard_get(ctx, i);
    if (h->cluster && ((h->first_line == 50 && h->second_line == 60 && !strcmp(h->type, "RAW")) ||
                       (h->first_line == 60 && h->second_line == 50 && !strcmp(h->type, "WAR"))))
      bytes += h->count;
  }
  CHECK(rc == SMEMU_OK && c >= 1 && bytes >= 256, "remote copies not waited for: rc %d, %d cluster hazards of %d, %llu bytes",
        rc, c, total, (unsigned long long)bytes);
  if (!bytes) smemu_write_race_report(ctx, stdout, 1);
  smemu_free(ctx, src);
  smemu_free(ctx, out);
  smemu_module_unload(m);
  smemu_destroy(ctx);
  ctx = plain;
}

/* ---- launch configurations ---- */
static void test_config(void) {
  void *args[] = {&d_out};
  smemu_kernel *k = kern("_Z6k_sregPj");
  uint32_t c[3];
#define CFG(gx, cx, cy, cz, want)                                                                     \
  do {                                                                                                \
    c[0] = cx, c[1] = cy, c[2] = cz;                                                                  \
    int rc_ = launch("_Z6k_sregPj", gx, 1, 1, 32, c, 0, args);                                        \
    CHECK(rc_ == (want), "grid %d cluster (%d,%d,%d): %d (want %d) %s", gx, cx, cy, cz, rc_, want,    \
          smemu_errmsg(ctx));                                                                         \
  } while (0)
  CFG(6, 4, 1, 1, SMEMU_ERR_CLUSTER_CONFIG);  /* grid not a multiple */
  CFG(9, 3, 1, 1, SMEMU_OK);
  CFG(16, 8, 1, 1, SMEMU_OK);
  CFG(16, 16, 1, 1, SMEMU_ERR_CLUSTER_CONFIG); /* needs the non-portable attribute */
  smemu_kernel_set_attribute(k, SMEMU_ATTR_NON_PORTABLE_CLUSTER, 1);
  CFG(16, 16, 1, 1, SMEMU_OK);
  CFG(32, 32, 1, 1, SMEMU_ERR_CLUSTER_CONFIG);
  CFG(4, 0, 1, 1, SMEMU_ERR_CLUSTER_CONFIG);
  smemu_kernel_set_attribute(k, SMEMU_ATTR_NON_PORTABLE_CLUSTER, 0);
  /* .maxclusterrank 4 */
  c[0] = 8, c[1] = c[2] = 1;
  CHECK(launch("_Z9k_sreg_mrPj", 8, 1, 1, 32, c, 0, args) == SMEMU_ERR_CLUSTER_CONFIG, ".maxclusterrank 4, cluster 8");
  c[0] = 4;
  CHECK(launch("_Z9k_sreg_mrPj", 8, 1, 1, 32, c, 0, args) == SMEMU_OK, ".maxclusterrank 4, cluster 4: %s",
        smemu_errmsg(ctx));
  /* compile-time dims: a chevron launch of a grid they do not divide */
  CHECK(launch("_Z9k_sreg_cdPj", 3, 4, 1, 32, NULL, 0, args) == SMEMU_ERR_CLUSTER_CONFIG, "cd, grid (3,4)");
  smemu_kernel *cd = kern("_Z9k_sreg_cdPj");
  CHECK(smemu_kernel_set_attribute(cd, SMEMU_ATTR_CLUSTER_WIDTH, 4) == SMEMU_ERR_INVALID_VALUE,
        "compile-time width is read-only (invalid value on the H100)");
  /* run-time required dims on a plain kernel apply to plain launches */
  smemu_kernel *k2 = kern("_Z7k_sreg2Pj");
  smemu_kernel_set_attribute(k2, SMEMU_ATTR_CLUSTER_WIDTH, 2);
  smemu_kernel_set_attribute(k2, SMEMU_ATTR_CLUSTER_HEIGHT, 1);
  smemu_kernel_set_attribute(k2, SMEMU_ATTR_CLUSTER_DEPTH, 1);
  uint32_t c21[3] = {2, 1, 1};
  CHECK(launch("_Z7k_sreg2Pj", 8, 1, 1, 32, NULL, 0, args) == SMEMU_OK, "k2 grid 8: %s", smemu_errmsg(ctx));
  check_sregs("k2", 8, 1, 1, c21, 1);
  CHECK(launch("_Z7k_sreg2Pj", 7, 1, 1, 32, NULL, 0, args) == SMEMU_ERR_CLUSTER_CONFIG, "k2 grid 7");
}

/* A context with these analyses, cluster.ptx loaded and d_out allocated. */
static int open_ctx(unsigned analyses) {
  smemu_options o;
  memset(&o, 0, sizeof o);
  o.threads = 2;
  o.analyses = analyses;
  if (smemu_create(&o, &ctx) || smemu_module_load_file(ctx, DIR "cluster.ptx", &mod)) {
    printf("FAIL: load: %s\n", ctx ? smemu_errmsg(ctx) : "create");
    failures++;
    return -1;
  }
  smemu_malloc(ctx, (void **)&d_out, 1 << 20);
  return 0;
}

/* ---- the recorded launch configurations (recorded/launch.out) ----
 * Each case runs here with the same grid, block, cluster dimensions, dynamic
 * shared bytes and kernel attributes as on the H100; the launch's outcome
 * (0: ran, 912: cudaErrorInvalidClusterSize, 1: cudaErrorInvalidValue) and,
 * for launches that ran, every block's special registers must agree. */
struct rcase {
  const char *name, *kernel;
  uint32_t g[3], block, c[3], dyn;
  int nonportable; /* attribute before it: -1 leave, 0/1 set */
};
static const struct rcase rcases[] = {
    {"c2", "_Z6k_sregPj", {8, 1, 1}, 32, {2, 1, 1}, 0, -1},
    {"c2x1x2", "_Z6k_sregPj", {4, 2, 2}, 32, {2, 1, 2}, 0, -1},
    {"c1", "_Z6k_sregPj", {4, 1, 1}, 32, {1, 1, 1}, 0, -1},
    {"c0", "_Z6k_sregPj", {4, 1, 1}, 32, {0, 0, 0}, 0, -1},
    {"c0x1x1", "_Z6k_sregPj", {4, 1, 1}, 32, {0, 1, 1}, 0, -1},
    {"notdiv", "_Z6k_sregPj", {6, 1, 1}, 32, {4, 1, 1}, 0, -1},
    {"notdiv_y", "_Z6k_sregPj", {4, 3, 1}, 32, {1, 2, 1}, 0, -1},
    {"c3", "_Z6k_sregPj", {9, 1, 1}, 32, {3, 1, 1}, 0, -1},
    {"c8", "_Z6k_sregPj", {16, 1, 1}, 32, {8, 1, 1}, 0, -1},
    {"c2x2x2", "_Z6k_sregPj", {4, 4, 2}, 32, {2, 2, 2}, 0, -1},
    {"c16_portable", "_Z6k_sregPj", {16, 1, 1}, 32, {16, 1, 1}, 0, -1},
    {"c16", "_Z6k_sregPj", {16, 1, 1}, 32, {16, 1, 1}, 0, 1},
    {"c4x4", "_Z6k_sregPj", {8, 8, 1}, 32, {4, 4, 1}, 0, -1},
    {"c12", "_Z6k_sregPj", {24, 1, 1}, 32, {12, 1, 1}, 0, -1},
    {"c32", "_Z6k_sregPj", {32, 1, 1}, 32, {32, 1, 1}, 0, -1},
    {"c17", "_Z6k_sregPj", {17, 1, 1}, 32, {17, 1, 1}, 0, -1},
    {"c16_b1024", "_Z6k_sregPj", {16, 1, 1}, 1024, {16, 1, 1}, 0, -1},
    {"c2_dyn200k", "_Z6k_sregPj", {8, 1, 1}, 32, {2, 1, 1}, 204800, -1},
    {"c8_dyn227k", "_Z6k_sregPj", {16, 1, 1}, 32, {8, 1, 1}, 232448, -1},
    {"c16_dyn227k", "_Z6k_sregPj", {16, 1, 1}, 32, {16, 1, 1}, 232448, -1},
    {"c16_dyn227k_b1024", "_Z6k_sregPj", {16, 1, 1}, 1024, {16, 1, 1}, 232448, -1},
    {"c8_dyn_over", "_Z6k_sregPj", {16, 1, 1}, 32, {8, 1, 1}, 233472, -1},
    {"c16_again_portable", "_Z6k_sregPj", {16, 1, 1}, 32, {16, 1, 1}, 0, 0},
    {"cd_ex_same", "_Z9k_sreg_cdPj", {4, 4, 1}, 32, {2, 2, 1}, 0, -1},
    {"cd_ex_other", "_Z9k_sreg_cdPj", {4, 4, 1}, 32, {4, 1, 1}, 0, -1},
    {"mr_c4", "_Z9k_sreg_mrPj", {8, 1, 1}, 32, {4, 1, 1}, 0, -1},
    {"mr_c8", "_Z9k_sreg_mrPj", {8, 1, 1}, 32, {8, 1, 1}, 0, -1},
};

static void test_recorded_launches(void) {
  char *rec = slurp("launch.out");
  if (!rec) { printf("no recording of launch: GPU comparison skipped\n"); return; }
  smemu_kernel_set_attribute(kern("_Z6k_sregPj"), SMEMU_ATTR_MAX_DYNAMIC_SHARED, 232448);
  void *args[] = {&d_out};
  static char mine[1 << 16];
  int dumps = 0;
  for (size_t i = 0; i < sizeof rcases / sizeof *rcases; i++) {
    const struct rcase *c = &rcases[i];
    char key[64];
    snprintf(key, sizeof key, "case %s grid", c->name);
    char *p = strstr(rec, key);
    CHECK(p != NULL, "recording has no case %s", c->name);
    if (!p) continue;
    int code = atoi(strstr(p, "launch=") + 7);
    smemu_kernel *k = kern(c->kernel);
    if (c->nonportable >= 0) smemu_kernel_set_attribute(k, SMEMU_ATTR_NON_PORTABLE_CLUSTER, c->nonportable);
    smemu_memset(ctx, d_out, 0xff, 1 << 16);
    uint32_t b[3] = {c->block, 1, 1};
    int rc = smemu_launch_cluster(ctx, k, c->g, b, c->c, c->dyn, args);
    int got = rc == SMEMU_OK ? 0 : rc == SMEMU_ERR_CLUSTER_CONFIG ? 912 : 1;
    CHECK(got == code, "case %s: smemu %d (%s), H100 %d", c->name, got, rc ? smemu_errmsg(ctx) : "ran", code);
    if (rc || code) continue;
    /* the H100's dump: the "  blk" lines after the case's sync line */
    uint32_t n = c->g[0] * c->g[1] * c->g[2], o[16];
    size_t k2 = 0;
    for (uint32_t bl = 0; bl < n && n <= 64; bl++) {
      smemu_memcpy(ctx, o, (char *)d_out + bl * 64, 64);
      k2 += (size_t)snprintf(mine + k2, sizeof mine - k2,
                             "  blk %u: cctaid %u %u %u cnctaid %u %u %u rank %u nrank %u cid %u %u %u ncid %u %u %u expl %u b %u\n",
                             bl, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13],
                             o[14], o[15]);
    }
    char *d = strstr(p, "\n  blk 0:");
    if (n > 64) continue;
    CHECK(d && !strncmp(d + 1, mine, k2), "case %s: the special registers differ from the H100's", c->name);
    dumps++;
  }
  CHECK(dumps == 17, "%d recorded register dumps compared (17 expected)", dumps);
  smemu_kernel_set_attribute(kern("_Z6k_sregPj"), SMEMU_ATTR_NON_PORTABLE_CLUSTER, 0);
  free(rec);
}

/* ---- shared-memory counters of the one-warp kernels (ncu_shared.csv) ----
 * Nsight Compute counts a load, store or atomic on another block's shared
 * memory as distributed shared memory (l1tex__..._dshared), not in the
 * shared counters, and one through shared::cluster on the own block as a
 * shared access. Per kernel (both blocks of a cluster of 2): the stores
 * that fill s[], the local read-back, and nothing of the remote accesses.
 * [ld requests, ld wavefronts, st requests, st wavefronts] from the H100. */
static void test_ncu_counts(void) {
  smemu_ctx *plain = ctx;
  smemu_module *plain_mod = mod;
  uint32_t *plain_out = d_out;
  if (open_ctx(SMEMU_ANALYZE_BANKS)) return;
  /* and [dshared requests, sectors] of the load, store or atomic family
   * (family index in d[2]) from ncu_dsmem.csv */
  static const struct { const char *k; uint64_t v[4], d[3]; } want[] = {
      {"_Z15k_ncu_ld_remotePj", {0, 0, 2, 2}, {1, 4, 0}},
      {"_Z15k_ncu_st_remotePj", {1, 1, 2, 2}, {1, 4, 1}},
      {"_Z17k_ncu_atom_remotePj", {0, 0, 2, 2}, {1, 4, 2}},
      {"_Z23k_ncu_ld_stride2_remotePj", {0, 0, 4, 4}, {1, 8, 0}},
      {"_Z21k_ncu_ld_self_clusterPj", {2, 2, 2, 2}, {0, 0, 0}},
  };
  void *args[] = {&d_out};
  uint32_t c2[3] = {2, 1, 1};
  for (int i = 0; i < 5; i++) {
    int rc = launch(want[i].k, 2, 1, 1, 32, c2, 0, args);
    smemu_bank_counts bc;
    memset(&bc, 0, sizeof bc);
    smemu_last_bank_counts(ctx, &bc);
    uint64_t got[4] = {bc.requests[0], bc.wavefronts[0], bc.requests[1], bc.wavefronts[1]};
    CHECK(rc == SMEMU_OK && !memcmp(got, want[i].v, sizeof got),
          "%s: ld %llu/%llu st %llu/%llu, H100 ld %llu/%llu st %llu/%llu", want[i].k, (unsigned long long)got[0],
          (unsigned long long)got[1], (unsigned long long)got[2], (unsigned long long)got[3],
          (unsigned long long)want[i].v[0], (unsigned long long)want[i].v[1], (unsigned long long)want[i].v[2],
          (unsigned long long)want[i].v[3]);
    int f = (int)want[i].d[2];
    uint64_t dr = bc.dshared_requests[0] + bc.dshared_requests[1] + bc.dshared_requests[2];
    CHECK(dr == want[i].d[0] && bc.dshared_requests[f] == want[i].d[0] && bc.dshared_sectors[f] == want[i].d[1],
          "%s: dshared %llu requests %llu sectors, H100 %llu %llu", want[i].k, (unsigned long long)dr,
          (unsigned long long)bc.dshared_sectors[f], (unsigned long long)want[i].d[0], (unsigned long long)want[i].d[1]);
  }
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  ctx = plain;
  mod = plain_mod;
  d_out = plain_out;
}

int main(void) {
  if (open_ctx(0)) return 1;
  test_sregs();
  test_dsmem();
  test_mbar();
  test_hist();
  test_bad();
  test_races();
  test_deadlock();
  test_rank_edge();
  test_mcast();
  test_config();
  test_recorded_launches();
  test_ncu_counts();
  smemu_free(ctx, d_out);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
  printf("%d failures\n", failures);
  return failures != 0;
}
