/* bench.c: throughput of the emulator on the examples at sizes that take
 * seconds: thread- and warp-instructions per second on one worker thread and
 * on all cores, and the speed-up. Prints a table; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* CPU seconds (all workers) of the last run's launch: on a shared machine
 * the wall time moves with the load, the CPU time much less. */
static double g_cpu;
static int bench_tier; /* SMEMU_TIER_* of every run (--tiers) */

static double run(const bench *b, int threads, uint32_t analyses, smemu_launch_stats *out) {
  smemu_options o = {0};
  o.threads = threads;
  o.analyses = analyses;
  o.tier = bench_tier;
  smemu_ctx *c;
  smemu_module *m;
  smemu_kernel *k;
  if (smemu_create(&o, &c) || smemu_module_load_file(c, b->ptx, &m) || smemu_module_get_kernel(m, b->kernel, &k)) {
    fprintf(stderr, "bench %s: %s\n", b->name, smemu_errmsg(c));
    exit(1);
  }
  size_t n = (size_t)b->n, len = b->kind == 2 ? n * 4 : n * n * 4; /* dot: n floats */
  void *x = buf(c, len, 1), *y = buf(c, len, 2), *z = buf(c, b->kind == 2 ? b->grid[0] * 4 : len, 3);
  int nn = b->n, rows = b->n, cols = b->n, total = b->n;
  void *args4[] = {&x, &y, &z, &nn};
  void *argsT[] = {&z, &x, &cols, &rows};
  void *argsD[] = {&x, &y, &z, &total};
  void *argsR[] = {&x, &nn};
  void **args = b->kind == 0 ? args4 : b->kind == 1 ? argsT : b->kind == 2 ? argsD : argsR;
  struct rusage r0, r1;
  getrusage(RUSAGE_SELF, &r0);
  smemu_status st = smemu_launch(c, k, b->grid, b->block, b->shared, args);
  getrusage(RUSAGE_SELF, &r1);
  g_cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) + (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) * 1e-6 +
          (double)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) + (double)(r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) * 1e-6;
  if (st != SMEMU_OK) {
    fprintf(stderr, "bench %s: %s\n", b->name, smemu_errmsg(c));
    exit(1);
  }
  *out = *smemu_last_stats(c);
  smemu_destroy(c);
  return out->seconds;
}

static const bench benches[] = {
    {"matmul 512 (tile 16)", "examples/matmul.ptx", "matmulTiled", {32, 32, 1}, {16, 16, 1}, 0, 512, 0},
    {"transpose 2048 naive", "examples/transpose.ptx", "transposeCoalesced", {64, 64, 1}, {32, 8, 1}, 0, 2048, 1},
    {"transpose 2048 padded", "examples/transpose.ptx", "transposeNoBankConflicts", {64, 64, 1}, {32, 8, 1}, 0, 2048, 1},
    {"dot 4M (256 blocks)", "examples/dot.ptx", "dotPartial", {256, 1, 1}, {256, 1, 1}, 0, 4 << 20, 2},
};
#define NBENCH (sizeof benches / sizeof *benches)
static const bench *benches_list(void) { return benches; }

/* The cost of the analyses on one worker: time with each over time without. */
static void checks(const bench *bs, size_t n) {
  static const struct { const char *name; uint32_t an; } modes[] = {
      {"none", 0}, {"banks", SMEMU_ANALYZE_BANKS}, {"races", SMEMU_ANALYZE_RACES},
      {"races+sync+init", SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT},
      {"banks+races", SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES}};
  printf("%-24s %-16s %10s %8s\n", "benchmark", "analyses", "seconds", "x none");
  for (size_t i = 0; i < n; i++) {
    double t0 = 0;
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
      smemu_launch_stats st;
      double t = 1e30;
      for (int rep = 0; rep < 3; rep++) {
        double x = run(&bs[i], 1, modes[m].an, &st);
        if (x < t) t = x;
      }
      if (m == 0) t0 = t;
      printf("%-24s %-16s %10.3f %8.2f\n", bs[i].name, modes[m].name, t, t / t0);
    }
  }
}

#define CHECK_ALL (SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC | SMEMU_ANALYZE_INIT | SMEMU_ANALYZE_GLOBAL_RACES)

/* The tiers side by side on one worker: kernel time of the interpreter and
 * of the compiled code (and its compile time) without checks, with the
 * bank model, with the race checks, with initcheck and with every check
 * (the last two: where auto interprets). */
static void tiers(const bench *bs, size_t n) {
  static const struct { const char *name; uint32_t an; } modes[] = {
      {"none", 0}, {"banks", SMEMU_ANALYZE_BANKS}, {"races", SMEMU_ANALYZE_RACES}, {"init", SMEMU_ANALYZE_INIT},
      {"all", CHECK_ALL}};
  if (!smemu_jit_available())
    printf("(no compiled tier in this build or no LLVM found: both columns are the interpreter)\n");
  printf("%-24s %-8s %10s %10s %-6s %8s %12s\n", "benchmark", "analyses", "interp s", "jit s", "ran", "speedup",
         "jit compile s");
  for (size_t i = 0; i < n; i++)
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
      double t[2] = {1e30, 1e30}, comp = 0;
      const char *ran = "?"; /* the tier that ran the jit column */
      for (int tier = 0; tier < 2; tier++)
        for (int rep = 0; rep < 3; rep++) {
          smemu_launch_stats st;
          bench_tier = tier ? SMEMU_TIER_JIT : SMEMU_TIER_INTERP;
          double x = run(&bs[i], 1, modes[m].an, &st);
          if (x < t[tier]) t[tier] = x;
          if (tier) ran = st.tier ? st.tier : "?";
          if (tier && st.jit_seconds > comp) comp = st.jit_seconds;
        }
      bench_tier = 0;
      printf("%-24s %-8s %10.3f %10.3f %-6s %8.2f %12.3f\n", bs[i].name, modes[m].name, t[0], t[1], ran,
             t[0] / t[1], comp);
    }
}


/* The best of `reps` runs (one when a run takes over 3 s); *cpu: the CPU
 * seconds of that run. */
static double best(const bench *b, int threads, uint32_t an, int reps, smemu_launch_stats *st, double *cpu) {
  double t = 1e30;
  for (int r = 0; r < reps; r++) {
    double x = run(b, threads, an, st);
    if (x < t) {
      t = x;
      if (cpu) *cpu = g_cpu;
    }
    if (x > 3) break;
  }
  return t;
}


/* The peak RSS in MB of a child process running b with analyses an. */
static double rss_mb(const bench *b, int threads, uint32_t an) {
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    smemu_launch_stats st;
    run(b, threads, an, &st);
    _exit(0);
  }
  int status;
  struct rusage ru;
  if (p < 0 || wait4(p, &status, 0, &ru) != p || !WIFEXITED(status) || WEXITSTATUS(status)) return -1;
  return (double)ru.ru_maxrss / 1024.0;
}

/* The speed table's matmul rows: the tiled product at N=512 with the checks
 * off, the bank model, --check races (with the bank model, as `smemu exec`
 * runs it) and --check all, against native code of the same kernel
 * measured in the same run: the C + OpenMP version built for the CPU
 * (bench/omp_matmul.c, `omp` seconds), the baseline the targets are taken
 * against, and PoCL's (`pocl` seconds, bench/pocl_matmul.c; 0 where PoCL
 * is missing); then the peak RSS at N=1024 under --check all against 64 MB
 * plus twice the buffers. Each mode runs first once compiled
 * (SMEMU_TIER_JIT: it compiles and fills the disk cache, or finds its code
 * there; not timed), then best of 3 on the default tier (auto: the cached
 * code, as a program's second run gets it) and on the interpreter. */
static void table(double pocl, double omp, int threads) {
  static const struct { const char *name; uint32_t an; double target; } modes[] = {
      {"checks off", 0, 1.0}, {"bank model", SMEMU_ANALYZE_BANKS, 1.3},
      {"--check races", SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES, 2.5}, {"--check all", CHECK_ALL, 4}};
  bench b = benches[0];
  double base = omp > 0 ? omp : pocl;
  printf("tiled matmul N=512 (examples/matmul.ptx), %d workers: kernel time vs native C+OpenMP %.3f s, PoCL %.3f s\n",
         threads ? threads : (int)sysconf(_SC_NPROCESSORS_ONLN), omp, pocl);
  printf("  %-14s %-6s %9s %9s %14s %8s %8s %7s %-8s %9s %8s %10s\n", "smemu", "tier", "seconds", "cpu s",
         "thread-insns", "x OpenMP", "x PoCL", "target", "", "interp s", "x OpenMP", "compile s");
  for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
    smemu_launch_stats st;
    bench_tier = SMEMU_TIER_JIT;
    run(&b, threads, modes[m].an, &st);
    double comp = st.jit_seconds;
    bench_tier = SMEMU_TIER_INTERP;
    double ti = best(&b, threads, modes[m].an, 3, &st, NULL);
    bench_tier = 0;
    double cpu = 0, t = best(&b, threads, modes[m].an, 3, &st, &cpu);
    printf("  %-14s %-6s %9.3f %9.3f %14llu %8.2f %8.2f %6.1fx %-8s %9.3f %8.2f %10.3f\n", modes[m].name,
           st.tier ? st.tier : "?", t, cpu, (unsigned long long)st.thread_instructions, omp > 0 ? t / omp : 0,
           pocl > 0 ? t / pocl : 0, modes[m].target,
           base <= 0 ? "(none)" : t / base <= modes[m].target ? "met" : "MISSED", ti, omp > 0 ? ti / omp : 0, comp);
  }
  printf("  (tier, seconds: the default tier (auto) with the disk cache warm, as a program's second run;\n"
         "   interp s: the interpreter; compile s: the mode's first compiled run, 0 when its code was cached;\n"
         "   targets against C+OpenMP, or PoCL where the OpenMP build failed)\n");
  b.n = 1024;
  b.grid[0] = b.grid[1] = 64;
  double buffers = 3.0 * 1024 * 1024 * 4 / (1024 * 1024), limit = 64 + 2 * buffers, rss = rss_mb(&b, threads, CHECK_ALL);
  printf("  %-16s %10.1f MB peak RSS at N=1024 (buffers %.0f MB), target < %.0f MB: %s\n", "--check all", rss, buffers,
         limit, rss > 0 && rss < limit ? "met" : "MISSED");
}

/* The dot product of examples/dot.ptx (32 blocks of 256 threads, as
 * examples/dot.c) over n floats: prints its kernel seconds, checks off and
 * with the bank model, on one line each ("dot N MODE SECONDS"). */
static void dot(int n, int threads) {
  bench b = benches[3];
  b.grid[0] = 32;
  b.n = n;
  smemu_launch_stats st;
  printf("dot %d none %.6f\n", n, best(&b, threads, 0, 5, &st, NULL));
  printf("dot %d banks %.6f\n", n, best(&b, threads, SMEMU_ANALYZE_BANKS, 5, &st, NULL));
}

/* PTX instructions of kernel `name` in the file at path: the lines of its
 * body that hold an instruction (not a directive, label, brace or comment). */
static int ptx_insns(const char *path, const char *name) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[4096];
  int in = 0, n = 0;
  while (fgets(line, sizeof line, f)) {
    char *p = line + strspn(line, " \t");
    if (!in) {
      in = strstr(p, ".entry") && strstr(p, name);
      continue;
    }
    if (*p == '}' && p == line) break; /* the body's closing brace */
    if ((*p == '@' || (*p >= 'a' && *p <= 'z')) && strchr(p, ';')) n++;
  }
  fclose(f);
  return n;
}

/* CPU seconds of one launch of b on one block, in a child process (each
 * child starts with no code in memory, as a program does) with the given
 * tier and cache directory; *tier: the tier that ran, *compile_wall: the
 * wall seconds the launch waited for its code; -1 on failure. */
static double launch_cpu(const bench *b0, int tier, const char *cache, char tier_out[8], double *compile_wall) {
  int fd[2];
  if (pipe(fd)) return -1;
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    close(fd[0]);
    setenv("SMEMU_CACHE", cache, 1);
    bench b = *b0;
    b.grid[0] = b.grid[1] = b.grid[2] = 1;
    bench_tier = tier;
    smemu_launch_stats st;
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    run(&b, 1, 0, &st);
    getrusage(RUSAGE_SELF, &r1);
    double cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) +
                 (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) * 1e-6 +
                 (double)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) +
                 (double)(r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) * 1e-6;
    char msg[64];
    int k = snprintf(msg, sizeof msg, "%.6f %.6f %s\n", cpu, st.jit_seconds, st.tier ? st.tier : "?");
    _exit(write(fd[1], msg, (size_t)k) == k ? 0 : 1);
  }
  close(fd[1]);
  char msg[64] = "";
  ssize_t got = p > 0 ? read(fd[0], msg, sizeof msg - 1) : -1;
  close(fd[0]);
  int status = 1;
  if (p > 0) waitpid(p, &status, 0);
  double cpu = -1;
  if (got > 0 && WIFEXITED(status) && !WEXITSTATUS(status) &&
      sscanf(msg, "%lf %lf %7s", &cpu, compile_wall, tier_out) != 3)
    cpu = -1;
  return cpu;
}

/* What compiling costs: for each bench kernel, one block launched compiled
 * with an empty disk cache (it compiles), again with the cache it left (it
 * links the cached object) and interpreted, each in a fresh process; the
 * compile cost is the cold launch's CPU time less the interpreted one's,
 * per PTX instruction of the kernel, against the target of 0.5 ms; and the
 * wall seconds the cold launch waited for its code (the compile's parts
 * run on threads: less than its CPU time where cores are free). */
static void compile_cost(void) {
  char dir[] = "/tmp/smemu-bench-cacheXXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return;
  }
  printf("%-24s %6s %9s %9s %9s %12s %-16s %s\n", "kernel (1 block)", "insns", "cold s", "cached s", "interp s",
         "ms per insn", "target <= 0.5 ms", "compile wall s");
  for (size_t i = 0; i < NBENCH; i++) {
    if (i && !strcmp(benches[i].ptx, benches[i - 1].ptx) && !strcmp(benches[i].kernel, benches[i - 1].kernel))
      continue;
    char t0[8] = "?", t1[8] = "?", t2[8] = "?", sub[sizeof dir + 8];
    snprintf(sub, sizeof sub, "%s/%zu", dir, i);
    mkdir(sub, 0700);
    double wc = 0, ww = 0, wi = 0;
    double cold = launch_cpu(&benches[i], SMEMU_TIER_JIT, sub, t0, &wc);
    double warm = launch_cpu(&benches[i], SMEMU_TIER_JIT, sub, t1, &ww);
    double interp = launch_cpu(&benches[i], SMEMU_TIER_INTERP, sub, t2, &wi);
    int n = ptx_insns(benches[i].ptx, benches[i].kernel);
    double per = n ? (cold - interp) / n * 1e3 : 0;
    printf("%-24s %6d %9.3f %9.3f %9.3f %12.2f %-16s %.3f%s\n", benches[i].kernel, n, cold, warm, interp, per,
           per <= 0.5 ? "met" : "MISSED", wc, strcmp(t0, "jit") ? " (not compiled: no compiled tier)" : "");
  }
  char cmd[sizeof dir + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) fprintf(stderr, "bench: could not remove %s\n", dir);
}

/* Usage: bench [WORKERS,...] (default: 1 and every core); bench --checks;
 * bench --table POCL_SECONDS [WORKERS [OMP_SECONDS]]; bench --dot N [WORKERS]; bench --tiers;
 * bench --compile. */
int main(int argc, char **argv) {
  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN), counts[16], nc = 0;
  if (argc > 1 && !strcmp(argv[1], "--tiers")) {
    tiers(benches_list(), 1);
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "--compile")) {
    compile_cost();
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "--checks")) {
    checks(benches_list(), NBENCH);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "--table")) {
    table(atof(argv[2]), argc > 4 ? atof(argv[4]) : 0, argc > 3 ? atoi(argv[3]) : 0);
    return 0;
  }
  if (argc > 3 && !strcmp(argv[1], "--one")) {
    /* --one BENCH ANALYSES [WORKERS [N]]: one run, for a profiler */
    static const struct { const char *name; uint32_t an; } an[] = {
        {"off", 0}, {"banks", SMEMU_ANALYZE_BANKS}, {"races", SMEMU_ANALYZE_RACES},
        {"banks+races", SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES}, {"init", SMEMU_ANALYZE_INIT}, {"all", CHECK_ALL}};
    bench b = benches[atoi(argv[2]) % NBENCH];
    uint32_t a = 0;
    for (size_t i = 0; i < sizeof an / sizeof *an; i++)
      if (!strcmp(argv[3], an[i].name)) a = an[i].an;
    if (argc > 5 && b.kind == 0) {
      b.n = atoi(argv[5]);
      b.grid[0] = b.grid[1] = (uint32_t)b.n / 16;
    }
    smemu_launch_stats st;
    double t = run(&b, argc > 4 ? atoi(argv[4]) : 1, a, &st);
    printf("%s %s: %.3f s, %.3f cpu s\n", b.name, argv[3], t, g_cpu);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "--dot")) {
    dot(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 0);
    return 0;
  }
  if (argc > 1) {
    for (char *p = argv[1]; *p && nc < 16;) {
      counts[nc++] = atoi(p);
      p = strchr(p, ',');
      if (!p) break;
      p++;
    }
  } else {
    counts[nc++] = 1;
    if (cores > 1) counts[nc++] = cores;
  }

  printf("%-24s %8s %10s %12s %12s %8s\n", "benchmark", "workers", "seconds", "Mthread-i/s", "Mwarp-i/s", "speedup");
  for (size_t i = 0; i < sizeof benches / sizeof *benches; i++) {
    double t1 = 0;
    for (int c = 0; c < nc; c++) {
      smemu_launch_stats st;
      double t = run(&benches[i], counts[c], 0, &st);
      if (c == 0) t1 = t;
      printf("%-24s %8d %10.3f %12.1f %12.2f %8.2f\n", benches[i].name, counts[c], t,
             st.thread_instructions / t / 1e6, st.warp_instructions / t / 1e6, t1 / t);
    }
  }
  return 0;
}
