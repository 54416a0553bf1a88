/* test_opencl.c: OpenCL C on smemu through clang-14 and libclc-14
 * (tools/clc.c): the compiler driver's messages, the PTX dialect clang emits
 * for OpenCL, __local pointer arguments of several sizes beside static
 * __local arrays, the work-item functions over 2-D and 3-D ranges, barrier
 * and fences, the race checker on a missing barrier, the bank figures of
 * the tiled product and of the transposes against their CUDA twins, and the
 * examples against PoCL (where cl_pocl_run was built and a platform exists).
 * Kernels: tests/cl/ and examples/cl/. Tests that compile OpenCL skip with a
 * message when clang-14 or libclc-14 is not installed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smemu.h"
#include "clc.h"
#include "cl_example.h"

extern char **environ;

static const char *argv0; /* BUILD/tests/test_opencl: finds files and cl_pocl_run */

/* ------------------------------------------------------------ helpers ---- */

/* Skips the calling test when clang-14 or libclc-14 is missing. */
static void need_clc(void)
{
  char err[512];
  if (!clc_available(err, sizeof err)) {
    fprintf(stderr, "test_opencl: SKIP: %s\n", err);
    skip();
  }
}

static smemu_ctx *new_ctx(const char *arch, int bank_mode, uint32_t analyses)
{
  smemu_options opt;
  smemu_ctx *ctx = NULL;
  memset(&opt, 0, sizeof opt);
  opt.arch = arch;
  opt.bank_mode = bank_mode;
  opt.analyses = analyses;
  assert_int_equal(smemu_create(&opt, &ctx), SMEMU_OK);
  return ctx;
}

/* Compiles REL (a path from the repository root) with opts, loads the PTX
 * into ctx; *ptx_keep gets the PTX text when asked (free it). */
static smemu_module *load_cl(smemu_ctx *ctx, const char *rel, const char *opts, char **ptx_keep)
{
  char path[1024], err[8192];
  char *ptx = NULL;
  size_t len = 0;
  smemu_module *mod = NULL;
  clx_find(argv0, rel, path, sizeof path);
  if (clc_compile(path, opts, &ptx, &len, err, sizeof err) != CLC_OK)
    fail_msg("clc_compile %s: %s", path, err);
  if (smemu_module_load_data(ctx, ptx, len, path, &mod) != SMEMU_OK)
    fail_msg("loading the PTX of %s: %s", path, smemu_errmsg(ctx));
  if (ptx_keep) *ptx_keep = ptx;
  else free(ptx);
  return mod;
}

static smemu_module *load_ptx(smemu_ctx *ctx, const char *rel)
{
  char path[1024];
  smemu_module *mod = NULL;
  clx_find(argv0, rel, path, sizeof path);
  if (smemu_module_load_file(ctx, path, &mod) != SMEMU_OK)
    fail_msg("loading %s: %s", path, smemu_errmsg(ctx));
  return mod;
}

/* Launches an NDRange: global and local sizes per dimension (the grid is
 * global / local, as clEnqueueNDRangeKernel with no offset). */
static smemu_status ndrange(smemu_ctx *ctx, smemu_module *mod, const char *kernel,
                            const uint32_t global[3], const uint32_t local[3], void **args)
{
  smemu_kernel *k = NULL;
  uint32_t grid[3];
  int d;
  for (d = 0; d < 3; d++) {
    assert_int_equal(global[d] % local[d], 0);
    grid[d] = global[d] / local[d];
  }
  if (smemu_module_get_kernel(mod, kernel, &k) != SMEMU_OK) fail_msg("%s", smemu_errmsg(ctx));
  return smemu_launch(ctx, k, grid, local, 0, args);
}

static void run_ok(smemu_ctx *ctx, smemu_module *mod, const char *kernel, const uint32_t global[3],
                   const uint32_t local[3], void **args)
{
  smemu_status s = ndrange(ctx, mod, kernel, global, local, args);
  if (s != SMEMU_OK) fail_msg("%s: %s (%s)", kernel, smemu_errmsg(ctx), smemu_status_name(s));
}

/* A device buffer of `bytes`, a copy of src or filled with `fill` bytes. */
static void *dev(smemu_ctx *ctx, const void *src, size_t bytes, int fill)
{
  void *p = NULL;
  assert_int_equal(smemu_malloc(ctx, &p, bytes), SMEMU_OK);
  if (src) assert_int_equal(smemu_memcpy(ctx, p, src, bytes), SMEMU_OK);
  else assert_int_equal(smemu_memset(ctx, p, fill, bytes), SMEMU_OK);
  return p;
}

static void back(smemu_ctx *ctx, void *host, void *d, size_t bytes)
{
  assert_int_equal(smemu_memcpy(ctx, host, d, bytes), SMEMU_OK);
}

/* Writes text to DIR/name and returns the path (static buffer). */
static const char *write_tmp(const char *dir, const char *name, const char *text)
{
  static char path[1024];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
  return path;
}

static void rm_tree(const char *dir, const char *const *names)
{
  char path[1024];
  int i;
  for (i = 0; names[i]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  rmdir(dir);
}

/* ------------------------------------------------------ the compiler ---- */

/* Sets or (value NULL) unsets an environment variable. */
static void set_env(const char *name, const char *value)
{
  if (value) setenv(name, value, 1);
  else unsetenv(name);
}

/* Missing tools give CLC_ERR_MISSING and name the Debian package. Needs
 * neither tool; the caller's SMEMU_CLANG and SMEMU_LIBCLC are restored. */
static void test_missing_tools(void **state)
{
  char err[512], *old_clang = getenv("SMEMU_CLANG"), *old_libclc = getenv("SMEMU_LIBCLC");
  char *ptx = (char *)"x";
  size_t len = 1;
  (void)state;
  if (old_clang) old_clang = strdup(old_clang);
  if (old_libclc) old_libclc = strdup(old_libclc);
  setenv("SMEMU_CLANG", "/nonexistent/clang-14", 1);
  assert_int_equal(clc_compile("examples/cl/reduce.cl", NULL, &ptx, &len, err, sizeof err),
                   CLC_ERR_MISSING);
  assert_null(ptx);
  assert_int_equal(len, 0);
  assert_non_null(strstr(err, "apt-get install clang-14"));
  assert_int_equal(clc_available(err, sizeof err), 0);
  assert_non_null(strstr(err, "clang-14"));
  set_env("SMEMU_CLANG", old_clang);

  /* libclc: named, unless clang-14 is missing too (then clang-14 is) */
  setenv("SMEMU_LIBCLC", "/nonexistent/nvptx64--nvidiacl.bc", 1);
  assert_int_equal(clc_compile("examples/cl/reduce.cl", NULL, &ptx, &len, err, sizeof err),
                   CLC_ERR_MISSING);
  assert_true(strstr(err, "apt-get install libclc-14") || strstr(err, "apt-get install clang-14"));
  set_env("SMEMU_LIBCLC", old_libclc);
  free(old_clang);
  free(old_libclc);
}

/* Diagnostics come back; built-ins libclc lacks are named; build options
 * (with quotes) reach the compiler. */
static void test_compile_errors_and_options(void **state)
{
  static const char *const names[] = {"bad.cl", "workdim.cl", "opts.cl", NULL};
  char dir[] = "/tmp/test_opencl-XXXXXX", err[8192];
  char *ptx = NULL;
  size_t len = 0;
  smemu_ctx *ctx;
  smemu_module *mod = NULL;
  (void)state;
  need_clc();
  assert_non_null(mkdtemp(dir));

  const char *bad = write_tmp(dir, "bad.cl", "__kernel void k(__global int *o) { o[0] = nope; }\n");
  assert_int_equal(clc_compile(bad, NULL, &ptx, &len, err, sizeof err), CLC_ERR_COMPILE);
  assert_null(ptx);
  assert_non_null(strstr(err, "bad.cl:1:"));
  assert_non_null(strstr(err, "error:"));

  const char *wd = write_tmp(dir, "workdim.cl",
                             "__kernel void k(__global uint *o) { o[0] = get_work_dim(); }\n");
  assert_int_equal(clc_compile(wd, NULL, &ptx, &len, err, sizeof err), CLC_ERR_COMPILE);
  assert_non_null(strstr(err, "get_work_dim"));

  assert_int_equal(clc_compile(wd, "-D 'unterminated", &ptx, &len, err, sizeof err),
                   CLC_ERR_COMPILE);
  assert_non_null(strstr(err, "quote"));

  /* VAL has spaces inside quotes; -cl-std=CL2.0 (given after the default
   * CL1.2) must win */
  const char *op = write_tmp(dir, "opts.cl",
                             "__kernel void k(__global int *o) { o[0] = VAL; o[1] = "
                             "__OPENCL_C_VERSION__; o[2] = TWO; }\n");
  ctx = new_ctx(NULL, 0, 0);
  assert_int_equal(clc_compile(op, "-D 'VAL=3 + 4' -cl-std=CL2.0 \"-DTWO=2\"", &ptx, &len, err,
                               sizeof err),
                   CLC_OK);
  assert_int_equal(strlen(ptx), len);
  assert_int_equal(smemu_module_load_data(ctx, ptx, len, op, &mod), SMEMU_OK);
  free(ptx);
  {
    int32_t got[3];
    void *d = dev(ctx, NULL, sizeof got, 0);
    void *args[1] = {&d};
    const uint32_t one[3] = {1, 1, 1};
    run_ok(ctx, mod, "k", one, one, args);
    back(ctx, got, d, sizeof got);
    assert_int_equal(got[0], 7);
    assert_int_equal(got[1], 200);
    assert_int_equal(got[2], 2);
  }
  smemu_destroy(ctx);
  rm_tree(dir, names);
}

/* The native_ functions clc.c supplies, against the C library: within the
 * PTX ISA's bounds for ex2/lg2/sin/cos.approx.f32 (relative 2^-22 for ex2,
 * absolute 2^-22 for lg2 and 2^-20.5 for sin and cos), widened by the
 * roundings around them. */
static void test_native_math(void **state)
{
  enum { N = 64 };
  float in[N], out[N * 11];
  smemu_ctx *ctx;
  smemu_module *mod;
  void *din, *dout;
  void *args[2];
  const uint32_t global[3] = {N, 1, 1}, local[3] = {32, 1, 1};
  int i, f;
  (void)state;
  need_clc();
  ctx = new_ctx(NULL, 0, 0);
  mod = load_cl(ctx, "tests/cl/native.cl", NULL, NULL);
  for (i = 0; i < N; i++) in[i] = 0.1f + 1.3f * (float)i / N; /* (0.1, 1.4): tan stays finite */
  din = dev(ctx, in, sizeof in, 0);
  dout = dev(ctx, NULL, sizeof out, 0xff);
  args[0] = &din;
  args[1] = &dout;
  run_ok(ctx, mod, "natives", global, local, args);
  back(ctx, out, dout, sizeof out);
  for (i = 0; i < N; i++) {
    double x = in[i];
    double want[11] = {exp(x),    exp2(x), pow(10.0, x), log(x),       log2(x), log10(x),
                       sin(x),    cos(x),  tan(x),       pow(x, 2.5), exp(x)};
    double rel[11] = {1e-6, 1e-6, 2e-6, 0, 0, 0, 0, 0, 2e-5, 2e-6, 1e-6};
    double abs_[11] = {0, 0, 0, 1e-6, 1e-6, 1e-6, 2e-6, 2e-6, 0, 0, 0};
    for (f = 0; f < 11; f++) {
      double err = fabs((double)out[i * 11 + f] - want[f]);
      if (err > rel[f] * fabs(want[f]) + abs_[f])
        fail_msg("native function %d of %.9g: %.9g, want %.9g", f, x, (double)out[i * 11 + f], want[f]);
    }
  }
  smemu_free(ctx, din);
  smemu_free(ctx, dout);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

/* The PTX dialect of clang's OpenCL target, and what smemu makes of it. */
static void test_ptx_dialect(void **state)
{
  smemu_ctx *ctx;
  smemu_module *mod;
  smemu_kernel *k;
  smemu_param_info pi;
  char *ptx = NULL;
  int i;
  (void)state;
  need_clc();
  ctx = new_ctx(NULL, 0, 0);
  mod = load_cl(ctx, "examples/cl/matmul_tiled.cl", NULL, &ptx);
  assert_non_null(strstr(ptx, ".version 3.2"));
  assert_non_null(strstr(ptx, ".target sm_20, texmode_independent"));
  assert_non_null(strstr(ptx, ".ptr .global .align"));
  assert_non_null(strstr(ptx, ".ptr .shared .align"));
  assert_non_null(strstr(ptx, "has been demoted"));
  assert_non_null(strstr(ptx, "matmul_tiled.cl\""));
  assert_non_null(strstr(ptx, "\t.loc\t"));
  assert_non_null(strstr(ptx, "%tid.x")); /* libclc's get_local_id, inlined */
  assert_null(strstr(ptx, "call"));
  free(ptx);

  assert_int_equal(smemu_module_get_kernel(mod, "matmulTiled", &k), SMEMU_OK);
  assert_int_equal(smemu_kernel_static_shared(k), 2 * 16 * 16 * 4);
  assert_int_equal(smemu_module_get_kernel(mod, "matmulTiledArgs", &k), SMEMU_OK);
  assert_int_equal(smemu_kernel_param_count(k), 6);
  assert_int_equal(smemu_kernel_static_shared(k), 0);
  for (i = 0; i < 6; i++) {
    assert_int_equal(smemu_kernel_param(k, i, &pi), SMEMU_OK);
    assert_int_equal(pi.is_local, i >= 4);
    assert_int_equal(pi.is_pointer, i != 3);
    assert_int_equal(pi.size, i == 3 ? 4 : 8);
  }
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

/* ---------------------------------------------------- __local arguments -- */

/* One launch of localLayout with __local sizes na and nb: the contents of
 * both buffers in every group, and the layout: a and b 16-byte aligned, a
 * right after the static arrays, b right after a, no overlap. */
static void check_layout(smemu_ctx *ctx, smemu_module *mod, uint64_t na, uint64_t nb)
{
  enum { G = 3, L = 96 };
  uint64_t addr[5];
  uint8_t *oa = malloc(G * na), *ob = malloc(G * nb);
  void *d_addr = dev(ctx, NULL, sizeof addr, 0xff);
  void *d_oa = dev(ctx, NULL, G * na, 0xee), *d_ob = dev(ctx, NULL, G * nb, 0xee);
  uint32_t na32 = (uint32_t)na, nb32 = (uint32_t)nb;
  void *args[7] = {&d_addr, &d_oa, &d_ob, &na, &na32, &nb, &nb32};
  const uint32_t global[3] = {G * L, 1, 1}, local[3] = {L, 1, 1};
  uint64_t g, i, s1, s2, a, b, static_end;
  assert_non_null(oa);
  assert_non_null(ob);
  run_ok(ctx, mod, "localLayout", global, local, args);
  back(ctx, addr, d_addr, sizeof addr);
  back(ctx, oa, d_oa, G * na);
  back(ctx, ob, d_ob, G * nb);
  for (g = 0; g < G; g++) {
    for (i = 0; i < na; i++)
      if (oa[g * na + i] != (uint8_t)(i * 7 + 1 + g))
        fail_msg("na %llu nb %llu: group %llu a[%llu] = %u", (unsigned long long)na,
                 (unsigned long long)nb, (unsigned long long)g, (unsigned long long)i, oa[g * na + i]);
    for (i = 0; i < nb; i++)
      if (ob[g * nb + i] != (uint8_t)(i * 13 + 5 + g))
        fail_msg("na %llu nb %llu: group %llu b[%llu] = %u", (unsigned long long)na,
                 (unsigned long long)nb, (unsigned long long)g, (unsigned long long)i, ob[g * nb + i]);
  }
  s1 = addr[0];
  s2 = addr[1];
  a = addr[2];
  b = addr[3];
  assert_int_equal(addr[4], 1); /* the static arrays kept their values */
  static_end = s1 + 12 > s2 + 40 ? s1 + 12 : s2 + 40;
  /* static arrays first (s1 then s2, in declaration order), then a, then b */
  assert_true(s1 < s2);
  assert_true(a >= static_end);
  assert_true(a < static_end + 16);
  assert_true(b >= a + na);
  assert_true(b < a + na + 16);
  assert_int_equal(a % 16, 0);
  assert_int_equal(b % 16, 0);
  smemu_free(ctx, d_addr);
  smemu_free(ctx, d_oa);
  smemu_free(ctx, d_ob);
  free(oa);
  free(ob);
}

static void test_local_args(void **state)
{
  static const uint64_t sizes[][2] = {{1, 1}, {1, 64}, {64, 4096}, {4096, 1}, {4096, 4096}};
  smemu_ctx *ctx;
  smemu_module *mod;
  size_t i;
  (void)state;
  need_clc();
  ctx = new_ctx(NULL, 0, 0);
  mod = load_cl(ctx, "tests/cl/local_args.cl", NULL, NULL);
  for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_layout(ctx, mod, sizes[i][0], sizes[i][1]);

  /* more __local memory than a work-group may have: the launch is refused */
  {
    uint64_t big = 48 * 1024, one = 1;
    uint32_t n32 = 1;
    void *d = dev(ctx, NULL, 64, 0);
    void *args[7] = {&d, &d, &d, &big, &n32, &one, &n32};
    const uint32_t g1[3] = {32, 1, 1};
    assert_int_equal(ndrange(ctx, mod, "localLayout", g1, g1, args), SMEMU_ERR_OUT_OF_RESOURCES);
    smemu_free(ctx, d);
  }

  /* a float4 buffer after a 1-byte one: aligned for the vector accesses */
  {
    enum { L = 64 };
    float got[2 * L * 4];
    uint64_t one = 1, vbytes = L * 16;
    void *d = dev(ctx, NULL, sizeof got, 0xff);
    void *args[3] = {&d, &one, &vbytes};
    const uint32_t global[3] = {2 * L, 1, 1}, local[3] = {L, 1, 1};
    int t;
    run_ok(ctx, mod, "localVector", global, local, args);
    /* __local buffers are the launch's dynamic shared memory:
     * 1 byte placed in 16 (the next buffer is 16-byte aligned), then
     * 64 float4 = 1024 bytes */
    assert_int_equal(smemu_last_stats(ctx)->shared_dynamic_bytes, 16 + L * 16);
    back(ctx, got, d, sizeof got);
    for (t = 0; t < 2 * L; t++) {
      int nxt = (t % L + 1) % L;
      assert_true(got[4 * t] == (float)nxt);
      assert_true(got[4 * t + 1] == (float)nxt + 0.5f);
      assert_true(got[4 * t + 2] == -(float)nxt);
      assert_true(got[4 * t + 3] == 0.0f);
    }
    smemu_free(ctx, d);
  }
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

/* ------------------------------------------------- work-item functions -- */

/* workItems over global gs and local ls: every work-item's 20 values. */
static void check_ndrange(smemu_ctx *ctx, smemu_module *mod, const uint32_t gs[3], const uint32_t ls[3])
{
  size_t n = (size_t)gs[0] * gs[1] * gs[2], lin;
  uint32_t *out = malloc(n * 20 * 4), id[3];
  void *d = dev(ctx, NULL, n * 20 * 4, 0xff);
  void *args[1] = {&d};
  int dd;
  assert_non_null(out);
  run_ok(ctx, mod, "workItems", gs, ls, args);
  back(ctx, out, d, n * 20 * 4);
  for (id[2] = 0; id[2] < gs[2]; id[2]++)
    for (id[1] = 0; id[1] < gs[1]; id[1]++)
      for (id[0] = 0; id[0] < gs[0]; id[0]++) {
        lin = id[0] + (size_t)id[1] * gs[0] + (size_t)id[2] * gs[0] * gs[1];
        const uint32_t *p = out + lin * 20;
        for (dd = 0; dd < 3; dd++) {
          uint32_t want[6] = {id[dd], id[dd] % ls[dd], id[dd] / ls[dd], ls[dd], gs[dd] / ls[dd], gs[dd]};
          for (int f = 0; f < 6; f++)
            if (p[6 * dd + f] != want[f])
              fail_msg("global %ux%ux%u local %ux%ux%u: work-item (%u,%u,%u) value %d of dimension %d "
                       "is %u, want %u",
                       gs[0], gs[1], gs[2], ls[0], ls[1], ls[2], id[0], id[1], id[2], f, dd,
                       p[6 * dd + f], want[f]);
        }
        assert_int_equal(p[18], 0); /* no global offset */
        assert_int_equal(p[19], 0);
      }
  smemu_free(ctx, d);
  free(out);
}

static void test_ndrange(void **state)
{
  /* 1-D; 2-D with 64-item groups; 2-D and 3-D groups of sizes that are not
   * multiples of the warp (24 and 60 work-items) */
  static const uint32_t cases[][2][3] = {
      {{96, 1, 1}, {32, 1, 1}},  {{48, 20, 1}, {16, 4, 1}}, {{30, 12, 1}, {6, 4, 1}},
      {{12, 6, 10}, {4, 3, 2}},  {{10, 8, 9}, {5, 4, 3}},   {{8, 8, 8}, {8, 8, 8}},
  };
  smemu_ctx *ctx;
  smemu_module *mod;
  size_t i;
  (void)state;
  need_clc();
  ctx = new_ctx(NULL, 0, 0);
  mod = load_cl(ctx, "tests/cl/ndrange.cl", NULL, NULL);
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    check_ndrange(ctx, mod, cases[i][0], cases[i][1]);
  }

  /* dimension 3 and beyond: ids 0; libclc-14 returns 0 for the sizes too
   * (OpenCL 1.2 says 1), and smemu runs libclc's definitions as they are */
  {
    uint32_t got[6], dim = 3;
    void *d = dev(ctx, NULL, sizeof got, 0xff);
    void *args[2] = {&d, &dim};
    const uint32_t g[3] = {64, 1, 1}, l[3] = {32, 1, 1};
    run_ok(ctx, mod, "outOfRange", g, l, args);
    back(ctx, got, d, sizeof got);
    for (int f = 0; f < 6; f++) assert_int_equal(got[f], 0);
    smemu_free(ctx, d);
  }
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

/* ------------------------------------------------------------ barriers -- */

static void check_rotate(smemu_ctx *ctx, smemu_module *mod, const char *kernel, int shift)
{
  enum { G = 2, L = 512 };
  int32_t *got = malloc(G * L * 4);
  void *d = dev(ctx, NULL, G * L * 4, 0xff);
  void *args[1] = {&d};
  const uint32_t global[3] = {G * L, 1, 1}, local[3] = {L, 1, 1};
  assert_non_null(got);
  run_ok(ctx, mod, kernel, global, local, args);
  back(ctx, got, d, G * L * 4);
  for (int g = 0; g < G; g++)
    for (int t = 0; t < L; t++) {
      int want = ((t + shift) % L) * 3 + 1 + g * 1000;
      if (got[g * L + t] != want)
        fail_msg("%s: group %d work-item %d read %d, want %d", kernel, g, t, got[g * L + t], want);
    }
  smemu_free(ctx, d);
  free(got);
}

static void test_barriers(void **state)
{
  smemu_ctx *ctx;
  smemu_module *mod;
  (void)state;
  need_clc();

  /* barrier(CLK_LOCAL_MEM_FENCE) across 16 warps, in the fixed warp order
   * and in seeded random orders */
  for (int seed = 0; seed < 4; seed++) {
    smemu_options opt;
    memset(&opt, 0, sizeof opt);
    opt.schedule = seed ? SMEMU_SCHEDULE_RANDOM : SMEMU_SCHEDULE_FIXED;
    opt.seed = (uint64_t)seed;
    assert_int_equal(smemu_create(&opt, &ctx), SMEMU_OK);
    mod = load_cl(ctx, "tests/cl/barrier.cl", NULL, NULL);
    check_rotate(ctx, mod, "barrierRotate", 33);
    smemu_module_unload(mod);
    smemu_destroy(ctx);
  }

  ctx = new_ctx(NULL, 0, 0);
  mod = load_cl(ctx, "tests/cl/barrier.cl", NULL, NULL);

  /* a barrier in every step of a loop: prefix sums in a __local argument */
  {
    enum { G = 3, L = 256 };
    int32_t in[G * L], got[G * L];
    uint64_t bytes = 2 * L * 4;
    ex_fill_i32(in, G * L, 0x5EED0C01u, -100, 100);
    void *din = dev(ctx, in, sizeof in, 0), *dout = dev(ctx, NULL, sizeof got, 0xff);
    void *args[3] = {&din, &dout, &bytes};
    const uint32_t global[3] = {G * L, 1, 1}, local[3] = {L, 1, 1};
    run_ok(ctx, mod, "barrierScan", global, local, args);
    back(ctx, got, dout, sizeof got);
    for (int g = 0; g < G; g++) {
      int32_t sum = 0;
      for (int t = 0; t < L; t++) {
        sum += in[g * L + t];
        if (got[g * L + t] != sum) fail_msg("scan: group %d item %d: %d, want %d", g, t, got[g * L + t], sum);
      }
    }
    smemu_free(ctx, din);
    smemu_free(ctx, dout);
  }

  /* barrier(CLK_GLOBAL_MEM_FENCE): neighbours' global writes */
  {
    enum { G = 4, L = 128 };
    int32_t got[G * L];
    void *buf = dev(ctx, NULL, sizeof got, 0), *dout = dev(ctx, NULL, sizeof got, 0xff);
    void *args[2] = {&buf, &dout};
    const uint32_t global[3] = {G * L, 1, 1}, local[3] = {L, 1, 1};
    run_ok(ctx, mod, "barrierGlobal", global, local, args);
    back(ctx, got, dout, sizeof got);
    for (int g = 0; g < G; g++)
      for (int t = 0; t < L; t++)
        assert_int_equal(got[g * L + t], (g * L + (t + L - 1) % L) * 5 - 7);
    smemu_free(ctx, buf);
    smemu_free(ctx, dout);
  }

  /* mem_fence, read_mem_fence, write_mem_fence: a work-item's own accesses */
  {
    enum { G = 2, L = 256 };
    int32_t got[G * L];
    void *dout = dev(ctx, NULL, sizeof got, 0xff);
    void *args[1] = {&dout};
    const uint32_t global[3] = {G * L, 1, 1}, local[3] = {L, 1, 1};
    run_ok(ctx, mod, "fences", global, local, args);
    back(ctx, got, dout, sizeof got);
    for (int t = 0; t < G * L; t++) assert_int_equal(got[t], (t % L) * 22);
    smemu_free(ctx, dout);
  }
  smemu_module_unload(mod);

  /* OpenCL 2.0's work_group_barrier, both forms (built with -cl-std=CL2.0) */
  mod = load_cl(ctx, "tests/cl/barrier.cl", "-cl-std=CL2.0", NULL);
  check_rotate(ctx, mod, "workGroupBarrier", 34);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

/* The line of the first line of REL's text that contains marker. */
static uint32_t line_of(const char *rel, const char *marker)
{
  char path[1024], buf[512];
  uint32_t line = 0;
  FILE *f;
  clx_find(argv0, rel, path, sizeof path);
  f = fopen(path, "r");
  assert_non_null(f);
  while (fgets(buf, sizeof buf, f)) {
    line++;
    if (strstr(buf, marker)) {
      fclose(f);
      return line;
    }
  }
  fclose(f);
  fail_msg("no %s in %s", marker, path);
  return 0;
}

static int ends_with(const char *s, const char *suffix)
{
  size_t n = s ? strlen(s) : 0, m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The race checker finds the missing barrier at the two .cl lines; the
 * version with the barrier is clean and right. */
static void test_race_missing_barrier(void **state)
{
  enum { N = 256 };
  const char *rel = "tests/cl/race_missing_barrier.cl";
  uint32_t wline, rline;
  smemu_ctx *ctx;
  smemu_module *mod;
  int32_t in[N], got[N], n = N, i, found = 0;
  void *d;
  void *args[2];
  const uint32_t global[3] = {N, 1, 1}, local[3] = {N, 1, 1};
  (void)state;
  need_clc();
  wline = line_of(rel, "RACE-WRITE");
  rline = line_of(rel, "RACE-READ");
  ctx = new_ctx(NULL, 0, SMEMU_ANALYZE_RACES);
  mod = load_cl(ctx, rel, NULL, NULL);
  for (i = 0; i < N; i++) in[i] = i * 3 - 100;
  d = dev(ctx, in, sizeof in, 0);
  args[0] = &d;
  args[1] = &n;

  run_ok(ctx, mod, "reverseNoBarrier", global, local, args);
  for (i = 0; i < smemu_hazard_count(ctx); i++) {
    const smemu_hazard *h = smemu_hazard_get(ctx, i);
    fprintf(stderr, "test_opencl: hazard %s %s %s:%u -> %s %s:%u (%s)\n", h->type, h->first_access,
            h->first_file ? h->first_file : "?", h->first_line, h->second_access,
            h->second_file ? h->second_file : "?", h->second_line, h->error ? "error" : "warning");
    if (h->error && !h->global && ends_with(h->first_file, "race_missing_barrier.cl") &&
        ends_with(h->second_file, "race_missing_barrier.cl") &&
        ((h->first_line == wline && h->second_line == rline) ||
         (h->first_line == rline && h->second_line == wline)))
      found = 1;
  }
  if (!found)
    fail_msg("no shared-memory hazard between lines %u and %u of %s (%d hazards)", wline, rline, rel,
             smemu_hazard_count(ctx));

  assert_int_equal(smemu_memcpy(ctx, d, in, sizeof in), SMEMU_OK);
  run_ok(ctx, mod, "reverseBarrier", global, local, args);
  assert_int_equal(smemu_hazard_count(ctx), 0);
  back(ctx, got, d, sizeof got);
  for (i = 0; i < N; i++) assert_int_equal(got[i], in[N - 1 - i]);
  smemu_free(ctx, d);
  smemu_module_unload(mod);
  smemu_destroy(ctx);
}

/* --------------------------------------------- bank reports, CUDA twins -- */

/* One line of a bank report (the JSON form's "lines"). */
typedef struct bank_line {
  char op[8];
  char file[512];
  uint64_t line, requests, wavefronts, conflicts;
} bank_line;

/* The unsigned number after "key": inside [p, end); 0 when absent. */
static uint64_t json_num(const char *p, const char *end, const char *key)
{
  char pat[64];
  const char *q;
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  q = strstr(p, pat);
  return q && q < end ? strtoull(q + strlen(pat), NULL, 10) : 0;
}

static void json_str(const char *p, const char *end, const char *key, char *out, size_t n)
{
  char pat[64];
  const char *q;
  size_t k = 0;
  snprintf(pat, sizeof pat, "\"%s\": \"", key);
  q = strstr(p, pat);
  if (q && q < end)
    for (q += strlen(pat); *q && *q != '"' && k + 1 < n; q++) out[k++] = *q;
  out[k] = 0;
}

static int cmp_line(const void *x, const void *y)
{
  const bank_line *a = x, *b = y;
  int c = strcmp(a->op, b->op);
  if (c) return c;
  if (a->requests != b->requests) return a->requests < b->requests ? -1 : 1;
  if (a->wavefronts != b->wavefronts) return a->wavefronts < b->wavefronts ? -1 : 1;
  return a->conflicts < b->conflicts ? -1 : a->conflicts > b->conflicts;
}

/* The per-line figures of the last launch, sorted by their figures. */
static int bank_lines(smemu_ctx *ctx, bank_line *out, int max)
{
  char *buf = NULL;
  size_t len = 0;
  int n = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  smemu_write_bank_json(ctx, f);
  fclose(f);
  const char *p = strstr(buf, "\"lines\": [");
  assert_non_null(p);
  while (n < max && (p = strchr(p + 1, '{')) != NULL) {
    const char *end = strchr(p, '}');
    bank_line *l = &out[n++];
    assert_non_null(end);
    json_str(p, end, "op", l->op, sizeof l->op);
    json_str(p, end, "file", l->file, sizeof l->file);
    l->line = json_num(p, end, "line");
    l->requests = json_num(p, end, "requests");
    l->wavefronts = json_num(p, end, "wavefronts");
    l->conflicts = json_num(p, end, "bank_conflicts");
  }
  free(buf);
  qsort(out, (size_t)n, sizeof *out, cmp_line);
  return n;
}

/* A kernel of the bank comparison: the CUDA PTX, the OpenCL source, the
 * launch and its arguments (float buffers of `floats` elements, then ints). */
typedef struct twin {
  const char *ptx, *cl, *kernel;
  uint32_t grid[3], block[3];
  int nbuf;          /* leading float buffers */
  size_t floats[3];  /* their elements */
  int nint;          /* trailing ints */
  int32_t ints[3];
  int conflicts;     /* 1: must have load conflicts on sm_90, 0: none */
} twin;

static void bank_run(smemu_ctx *ctx, smemu_module *mod, const twin *t, const char *what,
                     smemu_bank_counts *bc, bank_line *lines, int *nlines)
{
  void *bufs[3] = {0};
  void *args[6];
  smemu_kernel *k = NULL;
  int i;
  for (i = 0; i < t->nbuf; i++) {
    float *h = malloc(t->floats[i] * 4);
    assert_non_null(h);
    ex_fill_f32(h, t->floats[i], 0x5EED0D00u + (uint64_t)i, -1.0f, 1.0f);
    bufs[i] = dev(ctx, h, t->floats[i] * 4, 0);
    free(h);
    args[i] = &bufs[i];
  }
  for (i = 0; i < t->nint; i++) args[t->nbuf + i] = (void *)&t->ints[i];
  if (smemu_module_get_kernel(mod, t->kernel, &k) != SMEMU_OK) fail_msg("%s", smemu_errmsg(ctx));
  if (smemu_launch(ctx, k, t->grid, t->block, 0, args) != SMEMU_OK)
    fail_msg("%s %s: %s", what, t->kernel, smemu_errmsg(ctx));
  assert_int_equal(smemu_last_bank_counts(ctx, bc), SMEMU_OK);
  *nlines = bank_lines(ctx, lines, 16);
  for (i = 0; i < t->nbuf; i++) smemu_free(ctx, bufs[i]);
}

/* The tiled product and the transposes, OpenCL against CUDA: the same
 * requests, wavefronts and conflicts for loads, stores and atomics, in total
 * and line by line, on sm_90, on 1.x's 16 banks (half-warps) and on 3.x's
 * 8-byte banks; the OpenCL lines are lines of the .cl file. */
static void test_bank_report_matches_cuda(void **state)
{
  static const twin twins[] = {
      {"examples/matmul.ptx", "examples/cl/matmul_tiled.cl", "matmulTiled", {4, 4, 1}, {16, 16, 1},
       3, {64 * 64, 64 * 64, 64 * 64}, 1, {64}, 0},
      {"examples/matmul.ptx", "examples/cl/matmul_tiled.cl", "matmulTiledBounds", {8, 13, 1},
       {16, 16, 1}, 3, {200 * 150, 150 * 120, 200 * 120}, 3, {200, 150, 120}, 0},
      {"examples/transpose.ptx", "tests/cl/transpose.cl", "transposeCoalesced", {8, 4, 1}, {32, 8, 1},
       2, {256 * 128, 256 * 128}, 2, {256, 128}, 1},
      {"examples/transpose.ptx", "tests/cl/transpose.cl", "transposeNoBankConflicts", {8, 4, 1},
       {32, 8, 1}, 2, {256 * 128, 256 * 128}, 2, {256, 128}, 0},
  };
  static const struct {
    const char *arch;
    int mode;
  } archs[] = {{"sm_90", 0}, {"sm_13", 0}, {"sm_35", 8}};
  size_t ti, ai;
  (void)state;
  need_clc();
  for (ai = 0; ai < sizeof archs / sizeof archs[0]; ai++) {
    smemu_ctx *ctx = new_ctx(archs[ai].arch, archs[ai].mode, SMEMU_ANALYZE_BANKS);
    for (ti = 0; ti < sizeof twins / sizeof twins[0]; ti++) {
      const twin *t = &twins[ti];
      smemu_bank_counts cu, cl;
      bank_line lcu[16], lcl[16];
      int ncu, ncl, i, j;
      smemu_module *mcu = load_ptx(ctx, t->ptx), *mcl = load_cl(ctx, t->cl, NULL, NULL);
      bank_run(ctx, mcu, t, "CUDA", &cu, lcu, &ncu);
      bank_run(ctx, mcl, t, "OpenCL", &cl, lcl, &ncl);
      fprintf(stderr, "test_opencl: %s %s: ld %llu req %llu wf %llu conflicts, st %llu req %llu wf %llu conflicts\n",
              archs[ai].arch, t->kernel, (unsigned long long)cl.requests[0],
              (unsigned long long)cl.wavefronts[0], (unsigned long long)cl.conflicts[0],
              (unsigned long long)cl.requests[1], (unsigned long long)cl.wavefronts[1],
              (unsigned long long)cl.conflicts[1]);
      for (i = 0; i < 3; i++) {
        if (cu.requests[i] != cl.requests[i] || cu.wavefronts[i] != cl.wavefronts[i] ||
            cu.conflicts[i] != cl.conflicts[i])
          fail_msg("%s %s kind %d: CUDA %llu requests %llu wavefronts %llu conflicts, OpenCL %llu "
                   "%llu %llu",
                   archs[ai].arch, t->kernel, i, (unsigned long long)cu.requests[i],
                   (unsigned long long)cu.wavefronts[i], (unsigned long long)cu.conflicts[i],
                   (unsigned long long)cl.requests[i], (unsigned long long)cl.wavefronts[i],
                   (unsigned long long)cl.conflicts[i]);
      }
      if (!strcmp(archs[ai].arch, "sm_90")) {
        assert_true(cl.requests[0] > 0 && cl.requests[1] > 0);
        assert_true(t->conflicts ? cl.conflicts[0] > 0 : cl.conflicts[0] == 0);
      }
      assert_int_equal(ncu, ncl);
      for (i = 0; i < ncl; i++) {
        if (strcmp(lcu[i].op, lcl[i].op) || lcu[i].requests != lcl[i].requests ||
            lcu[i].wavefronts != lcl[i].wavefronts || lcu[i].conflicts != lcl[i].conflicts)
          fail_msg("%s %s: report line %d differs: CUDA %s %llu/%llu/%llu, OpenCL %s %llu/%llu/%llu",
                   archs[ai].arch, t->kernel, i, lcu[i].op, (unsigned long long)lcu[i].requests,
                   (unsigned long long)lcu[i].wavefronts, (unsigned long long)lcu[i].conflicts,
                   lcl[i].op, (unsigned long long)lcl[i].requests,
                   (unsigned long long)lcl[i].wavefronts, (unsigned long long)lcl[i].conflicts);
        if (!ends_with(lcl[i].file, strrchr(t->cl, '/') + 1))
          fail_msg("%s: a report line names '%s', not the .cl file", t->kernel, lcl[i].file);
        assert_true(lcl[i].line > 0);
        for (j = 0; j < i; j++) /* distinct source lines per operation */
          assert_false(!strcmp(lcl[j].op, lcl[i].op) && lcl[j].line == lcl[i].line);
      }
      smemu_module_unload(mcu);
      smemu_module_unload(mcl);
    }
    smemu_destroy(ctx);
  }
}

/* ----------------------------------------------------------- on PoCL ---- */

/* Runs cl_pocl_run OUTDIR; returns its exit status, or -1 when not built. */
static int run_pocl(const char *outdir)
{
  char path[1024];
  const char *slash = strrchr(argv0, '/');
  char *argv[3];
  pid_t pid;
  int st;
  snprintf(path, sizeof path, "%.*s/cl_pocl_run", slash ? (int)(slash - argv0) : 1,
           slash ? argv0 : ".");
  if (access(path, X_OK) != 0) return -1;
  argv[0] = path;
  argv[1] = (char *)outdir;
  argv[2] = NULL;
  if (posix_spawn(&pid, path, NULL, NULL, argv, environ) != 0) return -1;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* Every launch of the examples' table on smemu and on PoCL: the outputs must
 * be identical, bit for bit. Both compile a * b + c into a fused multiply-add
 * (OpenCL's FP_CONTRACT is on by default: clang's NVPTX fma.rn.f32, PoCL's
 * x86 FMA) and the reductions add in the tree's fixed order. Where the PoCL
 * device reports no FMA (device.txt: "fma 0") the products may round twice
 * there, so they are held to the dot-product error bound
 * 2 * q * 2^-24 * sum |a * b| instead; the sums stay bit-exact. */
static void test_examples_match_pocl(void **state)
{
  char dir[] = "/tmp/test_opencl-pocl-XXXXXX", path[1200], rel[256], msg[256];
  smemu_ctx *ctx;
  smemu_module *mod = NULL;
  const char *loaded = NULL;
  int i, rc, fma = 1;
  (void)state;
  need_clc();
  assert_non_null(mkdtemp(dir));
  rc = run_pocl(dir);
  if (rc < 0 || rc == 77) {
    fprintf(stderr, "test_opencl: SKIP: %s\n",
            rc < 0 ? "cl_pocl_run was not built (no /usr/include/CL/cl.h: install ocl-icd-opencl-dev)"
                   : "no OpenCL platform (install pocl-opencl-icd)");
    rmdir(dir);
    skip();
  }
  assert_int_equal(rc, 0);
  snprintf(path, sizeof path, "%s/device.txt", dir);
  {
    FILE *f = fopen(path, "r");
    if (f) {
      if (fscanf(f, "fma %d", &fma) != 1) fma = 1;
      fclose(f);
      unlink(path);
    }
  }
  ctx = new_ctx(NULL, 0, 0);
  for (i = 0; i < CLX_NCASES; i++) {
    const clx_case *c = &clx_cases[i];
    float *host[CLX_MAX_ARGS], *pocl;
    int out = clx_out_index(c);
    size_t n = (size_t)c->args[out].n, j, same = 0;
    long bad;
    if (!loaded || strcmp(loaded, c->file) != 0) {
      if (mod) smemu_module_unload(mod);
      snprintf(rel, sizeof rel, "examples/cl/%s", c->file);
      mod = load_cl(ctx, rel, NULL, NULL);
      loaded = c->file;
    }
    assert_int_equal(clx_host_buffers(c, host), 0);
    assert_true(clx_run(ctx, mod, c, host));
    pocl = ex_read_bin(dir, c->example, c->label, n * sizeof(float));
    assert_non_null(pocl);
    snprintf(path, sizeof path, "%s/%s_%s.bin", dir, c->example, c->label);
    unlink(path);
    for (j = 0; j < n; j++) same += ex_f32_bits(pocl[j]) == ex_f32_bits(host[out][j]);
    fprintf(stderr, "test_opencl: %s %s: %zu of %zu elements identical to PoCL's\n", c->example,
            c->label, same, n);
    bad = ex_compare(EX_F32, host[out], pocl, n, 0, 0.0, msg, sizeof msg);
    if (bad >= 0 && !fma && strncmp(c->kernel, "matmul", 6) == 0) {
      /* the bound, element by element, from the inputs */
      const float *A = host[0], *B = host[1];
      int m = (int)c->args[3].n, q = m, p = m;
      if (c->args[4].kind == CLX_S32) {
        q = (int)c->args[4].n;
        p = (int)c->args[5].n;
      }
      bad = -1;
      for (j = 0; j < n && bad < 0; j++) {
        double mag = 0.0;
        for (int k = 0; k < q; k++)
          mag += fabs((double)A[(j / p) * q + k] * (double)B[(size_t)k * p + j % p]);
        if (fabs((double)host[out][j] - (double)pocl[j]) > 2.0 * q * 0x1p-24 * mag) {
          bad = (long)j;
          snprintf(msg, sizeof msg, "smemu %.9g, PoCL %.9g, bound %.3g", (double)host[out][j],
                   (double)pocl[j], 2.0 * q * 0x1p-24 * mag);
        }
      }
    }
    if (bad >= 0) fail_msg("%s %s: differs from PoCL at %ld: %s", c->example, c->label, bad, msg);
    free(pocl);
    clx_free_buffers(host);
  }
  if (mod) smemu_module_unload(mod);
  smemu_destroy(ctx);
  rmdir(dir);
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_missing_tools),
      cmocka_unit_test(test_compile_errors_and_options),
      cmocka_unit_test(test_native_math),
      cmocka_unit_test(test_ptx_dialect),
      cmocka_unit_test(test_local_args),
      cmocka_unit_test(test_ndrange),
      cmocka_unit_test(test_barriers),
      cmocka_unit_test(test_race_missing_barrier),
      cmocka_unit_test(test_bank_report_matches_cuda),
      cmocka_unit_test(test_examples_match_pocl),
  };
  argv0 = argc > 0 ? argv[0] : "test_opencl";
  (void)argc;
  return cmocka_run_group_tests(tests, NULL, NULL);
}
