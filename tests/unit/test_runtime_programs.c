/* test_runtime_programs.c: whole CUDA programs on the drop-in runtime. Each
 * program of tests/runtime/programs.txt, built by nvcc into
 * build/runtime/progs (make builds them where nvcc is on the PATH; without
 * nvcc these tests are skipped), runs unmodified under `smemu run` and must
 * print what it printed on a GPU (tests/runtime/expected/, recorded by
 * tests/runtime/record.sh) and exit the same way. Also `smemu run`'s own
 * behaviour: compiling a .cu file, --arch, --check, --report, --json, refusing
 * statically linked and SASS-only programs. Run from the repository root. */
#include <ctype.h>
#include <dlfcn.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "../runtime/test_util.h"

typedef struct program {
  char name[64];
  char mode[16];
} program;

static char preload[4096]; /* LD_PRELOAD for sanitizer builds */

/* Under MODE=asan the runtime is built with the sanitizers, whose runtime
 * must come first in a program that is not: preload what this test loaded. */
static int collect_sanitizers(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  const char *n = info->dlpi_name;
  if (n && (strstr(n, "libasan") || strstr(n, "libubsan"))) {
    size_t k = strlen(preload);
    snprintf(preload + k, sizeof preload - k, "%s%s", k ? ":" : "LD_PRELOAD=", n);
  }
  return 0;
}

static int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static char *path_in_build(const char *rel) {
  static char buf[8][PATH_MAX];
  static int i;
  char *b = buf[i++ % 8];
  if (snprintf(b, PATH_MAX, "%s/%s", tu_build_dir(), rel) >= PATH_MAX) b[0] = 0;
  return b;
}

/* Run smemu-run with args (NULL-terminated) and extra environment. */
static void smemu_run(char **args, char **env, tu_run *r) {
  char *argv[32];
  int n = 0;
  argv[n++] = path_in_build("runtime/smemu-run");
  for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
  argv[n] = NULL;
  char *e[16];
  int k = 0;
  if (preload[0]) {
    e[k++] = preload;
    e[k++] = "ASAN_OPTIONS=detect_leaks=0";
  }
  for (int i = 0; env && env[i] && k < 15; i++) e[k++] = env[i];
  e[k] = NULL;
  assert_int_equal(tu_spawn(argv, e, r), 0);
}

static void need_progs(void) {
  char *stamp = tu_read_file(path_in_build("runtime/progs/.built"), NULL);
  int ok = stamp && strncmp(stamp, "no nvcc", 7);
  free(stamp);
  if (!ok) skip();
}

static char *expected(const char *name, const char *ext) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "tests/runtime/expected/%s.%s", name, ext);
  return tu_read_file(p, NULL);
}

/* What the recording machine did that is not CUDA's behaviour but that
 * machine's: after cudaDeviceReset, illegal.cu's next cudaMalloc returned
 * cudaErrorDevicesUnavailable on the H200 it was recorded on (CUDA 13.0,
 * driver 580.159.04), most likely because of that device's compute mode
 * (an exclusive mode, or a device held by another context, answers so when
 * the program creates its new context); a reset device is usable again (CUDA's documentation), and smemu
 * keeps the working reset: the recorded line stays in
 * tests/runtime/expected/illegal.out and is replaced here by what a device
 * in the default compute mode prints. Returns want itself or a new string. */
static char *machine_specific(const char *name, char *want) {
  static const struct {
    const char *prog, *recorded, *accepted;
  } subst[] = {
      {"illegal", "malloc after reset: cudaErrorDevicesUnavailable\n",
       "malloc after reset: cudaSuccess\nkernel after reset: cudaSuccess, value 9\n"},
  };
  for (size_t i = 0; i < sizeof subst / sizeof subst[0]; i++) {
    char *at;
    if (strcmp(name, subst[i].prog) || !(at = strstr(want, subst[i].recorded))) continue;
    size_t pre = (size_t)(at - want), rl = strlen(subst[i].recorded), al = strlen(subst[i].accepted);
    char *w = malloc(strlen(want) - rl + al + 1);
    assert_non_null(w);
    memcpy(w, want, pre);
    memcpy(w + pre, subst[i].accepted, al);
    strcpy(w + pre + al, at + rl);
    free(want);
    want = w;
  }
  return want;
}

/* smemu's messages without what differs from run to run: heap addresses
 * (0x and 6 or more hex digits) and offsets and distances from them
 * ("offset N", "N bytes before/after the allocation"). Returns a new
 * string. */
static char *without_addresses(const char *m) {
  char *o = malloc(strlen(m) + 1), *w = o;
  assert_non_null(o);
  while (*m) {
    size_t n = 0;
    if (m[0] == '0' && m[1] == 'x')
      while (isxdigit((unsigned char)m[2 + n])) n++;
    if (n >= 6) {
      w += sprintf(w, "0x?");
      m += 2 + n;
    } else if (isdigit((unsigned char)*m) && (w == o || !isalnum((unsigned char)w[-1])) &&
               (strstr(m, " bytes before the allocation") == m + strspn(m, "0123456789") ||
                strstr(m, " bytes after the allocation") == m + strspn(m, "0123456789"))) {
      w += sprintf(w, "?");
      m += strspn(m, "0123456789");
    } else if (!strncmp(m, "offset -", 8) || !strncmp(m, "offset ", 7)) {
      size_t k = m[7] == '-' ? 8 : 7;
      w += sprintf(w, "offset ?");
      m += k;
      while (isdigit((unsigned char)*m)) m++;
    } else {
      *w++ = *m++;
    }
  }
  *w = 0;
  return o;
}

/* A program under `smemu run`: the recorded stdout and exit status. */
static void test_program(void **state) {
  const program *p = *state;
  need_progs();
  char *bin = path_in_build("runtime/progs/");
  char binpath[PATH_MAX];
  snprintf(binpath, sizeof binpath, "%s%s", bin, p->name);
  if (!exists(binpath)) skip();
  char spath[PATH_MAX]; /* build.sh's twin with the static runtime */
  snprintf(spath, sizeof spath, "%sstatic/%s", bin, p->name);
  tu_run r;
  char *args[] = {"--", binpath, NULL};
  char *direct[] = {binpath, NULL};
  char *checked[] = {"--check", "races,sync,init", "--", binpath, NULL};
  if (!strcmp(p->mode, "host")) assert_int_equal(tu_spawn(direct, NULL, &r), 0);
  else if (!strcmp(p->mode, "check")) smemu_run(checked, NULL, &r);
  else smemu_run(args, NULL, &r);
  if (!strcmp(p->mode, "static")) {
    /* nvcc's default static runtime reaches smemu through libcuda.so.1:
     * the output of the shared build of the same source (reverse) */
    char *want = expected("reverse", "out");
    assert_non_null(want);
    if (strcmp(r.out, want)) fprintf(stderr, "%s: stdout differs; got:\n%s\nstderr:\n%s", p->name, r.out, r.err);
    assert_string_equal(r.out, want);
    assert_int_equal(r.rc, 0);
    free(want);
  } else if (!strcmp(p->mode, "check")) {
    /* the findings come after the program's output */
    assert_int_equal(r.rc, 0);
    const char *race = strstr(r.out, "Error: Race reported between");
    assert_non_null(race);
    assert_true(race > strstr(r.out, "synchronize: cudaSuccess"));
    assert_non_null(strstr(r.out, "racecheck.cu:15"));
    assert_non_null(strstr(r.out, "== checks of divergent_barrier(int*)"));
    assert_non_null(strstr(r.out, "== smemu checks: 2 launches checked"));
  } else if (!strcmp(p->mode, "host")) {
    /* abi_nvidia: NVIDIA's layout must be runtime/cuda_abi.h's */
    tu_run mine;
    char *argv[] = {path_in_build("runtime/abi_smemu"), NULL};
    assert_int_equal(tu_spawn(argv, NULL, &mine), 0);
    assert_int_equal(r.rc, 0);
    assert_int_equal(mine.rc, 0);
    assert_string_equal(mine.out, r.out);
    assert_true(strlen(r.out) > 1000);
    tu_run_free(&mine);
  } else if (!strcmp(p->mode, "sass")) {
    assert_int_equal(r.rc, 1);
    assert_non_null(strstr(r.err, "holds no PTX"));
    assert_non_null(strstr(r.out, "cudaErrorNoKernelImageForDevice"));
  } else {
    /* a per-thread default-stream build prints what its rt build printed */
    char base[64];
    snprintf(base, sizeof base, "%s", p->name);
    char *suffix = strstr(base, "_ptds");
    if (!strcmp(p->mode, "ptds") && suffix && !suffix[5]) *suffix = 0;
    char *want = expected(base, "out"), *rc = expected(base, "rc");
    assert_non_null(want);
    assert_non_null(rc);
    want = machine_specific(p->name, want);
    if (strcmp(r.out, want)) fprintf(stderr, "%s: stdout differs; got:\n%s\nstderr:\n%s", p->name, r.out, r.err);
    assert_string_equal(r.out, want);
    assert_int_equal(r.rc, atoi(rc));
    /* the same source built with nvcc's default static runtime (build.sh's
     * static/ twin): the same output, exit status and smemu messages */
    if (!strcmp(p->mode, "rt")) {
      assert_true(exists(spath));
      tu_run s;
      char *sargs[] = {"--", spath, NULL};
      smemu_run(sargs, NULL, &s);
      if (strcmp(s.out, want) || strcmp(s.err, r.err))
        fprintf(stderr, "%s (static runtime): stdout:\n%s\nstderr:\n%s", p->name, s.out, s.err);
      assert_string_equal(s.out, want);
      assert_int_equal(s.rc, atoi(rc));
      char *se = without_addresses(s.err), *re = without_addresses(r.err);
      assert_string_equal(se, re);
      free(se);
      free(re);
      tu_run_free(&s);
    }
    free(want);
    free(rc);
    if (!strcmp(p->name, "assert")) {
      assert_non_null(strstr(r.err, "Assertion `x[i] != 5` failed."));
      assert_non_null(strstr(r.err, "block: [0,0,0], thread: [17,0,0]"));
      /* the whole line, as the H200 printed it (tests/runtime/recorded/assert.err) */
      assert_non_null(strstr(r.err, "tests/runtime/corpus/assert.cu:10: void check_values(const int *, int): "
                                    "block: [0,0,0], thread: [17,0,0] Assertion `x[i] != 5` failed.\n"));
    }
    if (!strcmp(p->name, "illegal")) assert_non_null(strstr(r.err, "illegal.cu:6"));
  }
  tu_run_free(&r);
}

/* The same program loaded directly through LD_LIBRARY_PATH, no smemu run. */
static void test_direct_load(void **state) {
  (void)state;
  need_progs();
  char *bin = path_in_build("runtime/progs/dot");
  if (!exists(bin)) skip();
  char lp[PATH_MAX + 32];
  snprintf(lp, sizeof lp, "LD_LIBRARY_PATH=%s", path_in_build("runtime"));
  char *argv[] = {bin, NULL};
  char *env[] = {lp, preload[0] ? preload : NULL, NULL};
  tu_run r;
  assert_int_equal(tu_spawn(argv, env, &r), 0);
  char *want = expected("dot", "out");
  assert_string_equal(r.out, want);
  assert_int_equal(r.rc, 0);
  free(want);
  tu_run_free(&r);
}

/* smemu run FILE.cu compiles into the cache, then runs. */
static void test_run_cu_file(void **state) {
  (void)state;
  need_progs();
  /* under the sanitizers the preloaded runtime would be nvcc's too */
  if (preload[0]) skip();
  char cache[PATH_MAX + 32];
  snprintf(cache, sizeof cache, "SMEMU_CACHE=%s", path_in_build("runtime/cache"));
  char *args[] = {"examples/programs/reverse_main.cu", NULL};
  char *env[] = {cache, NULL};
  tu_run r;
  smemu_run(args, env, &r);
  char *want = expected("reverse", "out");
  if (strcmp(r.out, want)) fprintf(stderr, "stderr:\n%s", r.err);
  assert_string_equal(r.out, want);
  assert_int_equal(r.rc, 0);
  free(want);
  tu_run_free(&r);
  /* cached: no second compilation */
  smemu_run(args, env, &r);
  assert_null(strstr(r.err, "compiling"));
  assert_int_equal(r.rc, 0);
  tu_run_free(&r);
}

static void test_run_reports(void **state) {
  (void)state;
  need_progs();
  char *bin = path_in_build("runtime/progs/dot");
  char *json = path_in_build("runtime/dot-report.json");
  unlink(json);
  char *args[] = {"--report", "all", "--check", "banks", "--json", json, "--threads", "2", "--", bin, NULL};
  tu_run r;
  smemu_run(args, NULL, &r);
  assert_int_equal(r.rc, 0);
  char *want = expected("dot", "out");
  /* the program's output first, then the reports */
  assert_memory_equal(r.out, want, strlen(want));
  const char *rep = r.out + strlen(want);
  assert_non_null(strstr(rep, "== smemu: 1 launch of 1 kernel on sm_90"));
  assert_non_null(strstr(rep, "dotPartial(float const*, float const*, float*, int): 1 launch"));
  assert_non_null(strstr(rep, "shared-memory banks"));
  char *j = tu_read_file(json, NULL);
  assert_non_null(j);
  assert_non_null(strstr(j, "\"kernel\": \"_Z10dotPartialPKfS0_Pfi\""));
  assert_non_null(strstr(j, "\"grid\": [32, 1, 1], \"block\": [256, 1, 1]"));
  assert_non_null(strstr(j, "\"shared_ld_requests\""));
  free(j);
  free(want);
  tu_run_free(&r);
}

/* The corpus programs are free of races: the checkers must find nothing. */
static void test_run_checks_clean(void **state) {
  (void)state;
  need_progs();
  static const char *const progs[] = {"scan", "histogram", "matmul", "warp_reduce", "templates", "cg_tiles"};
  for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
    char *bin = path_in_build("runtime/progs/");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s%s", bin, progs[i]);
    char *args[] = {"--check", "all", "--", path, NULL};
    tu_run r;
    smemu_run(args, NULL, &r);
    char *want = expected(progs[i], "out");
    assert_memory_equal(r.out, want, strlen(want));
    if (!strstr(r.out + strlen(want), " 0 hazards, 0 barrier errors, 0 uninitialized shared reads"))
      fprintf(stderr, "%s with --check all:\n%s", progs[i], r.out + strlen(want));
    assert_non_null(strstr(r.out + strlen(want), " 0 hazards, 0 barrier errors, 0 uninitialized shared reads"));
    free(want);
    tu_run_free(&r);
  }
}

/* Cooperative groups' tiles of 64 and 128 threads keep their barriers in
 * the block's reserved shared memory: no hazard across tile.sync() (the
 * clean kernels, test_run_checks_clean), but a read of the other warp's
 * half of a tile before tile.sync() is one, and both tiers agree. */
static void test_run_cg_tile_race(void **state) {
  (void)state;
  need_progs();
  char *bin = path_in_build("runtime/progs/cg_tiles");
  static const char *const tiers[] = {"SMEMU_TIER=interp", "SMEMU_TIER=jit"};
  for (int i = 0; i < 2; i++) {
    char *args[] = {"--check", "races", "--", bin, "race", NULL};
    char *env[] = {(char *)tiers[i], NULL};
    tu_run r;
    smemu_run(args, env, &r);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "cg_tiles PASS"));
    const char *chk = strstr(r.out, "== checks of tile_race(int const*, int*)");
    assert_non_null(chk);
    assert_non_null(strstr(chk, "Error: Race reported between Write access at "));
    assert_non_null(strstr(chk, "cg_tiles.cu:53\n    and Read access at "));
    assert_non_null(strstr(chk, "cg_tiles.cu:54 ["));
    /* the clean kernels before it: no hazard */
    assert_non_null(strstr(r.out, "== smemu checks: 3 launches checked, 1 hazard, 0 barrier errors"));
    tu_run_free(&r);
  }
}

/* --arch: the device reports the chosen profile; a program whose PTX is
 * newer than it cannot run, as on such a GPU. */
static void test_run_arch(void **state) {
  (void)state;
  need_progs();
  char *info = path_in_build("runtime/progs/device_info");
  char *args[] = {"--arch", "sm_80", "--", info, NULL};
  tu_run r;
  smemu_run(args, NULL, &r);
  assert_int_equal(r.rc, 0);
  assert_non_null(strstr(r.out, "compute capability 8.0"));
  assert_non_null(strstr(r.out, "shared per block 49152, opt-in 166912, per SM 167936, reserved 1024"));
  tu_run_free(&r);
  char *rev = path_in_build("runtime/progs/reverse");
  char *args2[] = {"--arch", "sm_80", "--", rev, NULL};
  smemu_run(args2, NULL, &r);
  assert_int_equal(r.rc, 1);
  assert_non_null(strstr(r.err, "newer than the emulated sm_80"));
  assert_non_null(strstr(r.out, "cudaErrorNoKernelImageForDevice"));
  tu_run_free(&r);
}

static void test_run_usage(void **state) {
  (void)state;
  tu_run r;
  char *a1[] = {"--help", NULL};
  smemu_run(a1, NULL, &r);
  assert_int_equal(r.rc, 0);
  assert_non_null(strstr(r.out, "usage: smemu run"));
  tu_run_free(&r);
  char *a2[] = {"--arch", "sm_99", "--", "/bin/true", NULL};
  smemu_run(a2, NULL, &r);
  assert_int_equal(r.rc, 2);
  assert_non_null(strstr(r.err, "unknown architecture"));
  tu_run_free(&r);
  char *a3[] = {"--", NULL};
  smemu_run(a3, NULL, &r);
  assert_int_equal(r.rc, 2);
  tu_run_free(&r);
  char *a4[] = {"--report", "nothing", "--", "/bin/true", NULL};
  smemu_run(a4, NULL, &r);
  assert_int_equal(r.rc, 2);
  tu_run_free(&r);
  /* any program runs; its exit status is smemu run's */
  char *a5[] = {"--", "/bin/sh", "-c", "echo \"$SMEMU_ARCH\"; exit 3", NULL};
  smemu_run(a5, NULL, &r);
  assert_int_equal(r.rc, 3);
  assert_string_equal(r.out, "sm_90\n");
  tu_run_free(&r);
}

int main(void) {
  dl_iterate_phdr(collect_sanitizers, NULL);
  char *list = tu_read_file("tests/runtime/programs.txt", NULL);
  if (!list) {
    fprintf(stderr, "cannot read tests/runtime/programs.txt (run from the repository root)\n");
    return 1;
  }
  program progs[64];
  struct CMUnitTest tests[80];
  int n = 0, np = 0;
  for (char *line = strtok(list, "\n"); line && np < 64; line = strtok(NULL, "\n")) {
    if (line[0] == '#' || !line[0]) continue;
    if (sscanf(line, "%63s %15s", progs[np].name, progs[np].mode) != 2) continue;
    tests[n++] = (struct CMUnitTest){progs[np].name, test_program, NULL, NULL, &progs[np]};
    np++;
  }
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_direct_load);
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_run_cu_file);
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_run_reports);
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_run_arch);
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_run_checks_clean);
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_run_cg_tile_race);
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_run_usage);
  int rc = _cmocka_run_group_tests("runtime programs", tests, (size_t)n, NULL, NULL);
  free(list);
  return rc;
}
