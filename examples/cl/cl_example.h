/* cl_example.h: what the OpenCL example drivers (examples/cl/NAME.c), their
 * test (tests/unit/test_opencl.c) and the PoCL runner (tests/cl/pocl_run.c)
 * share: the table of launches (kernel, NDRange, arguments, inputs' seeds),
 * the generated inputs, and for the drivers (include smemu.h and clc.h
 * first) compiling a .cl file and running a launch of the table on smemu.
 * Needs examples/common.h. */
#ifndef SMEMU_CL_EXAMPLE_H
#define SMEMU_CL_EXAMPLE_H

#include "common.h"

/* Kinds of kernel arguments in the table. */
enum {
  CLX_END = 0, /* no more arguments */
  CLX_IN_F32,  /* __global float * input: n floats in [-1, 1) from seed */
  CLX_OUT_F32, /* __global float * output: n floats (one per launch), filled
                  with 0xff bytes (NaN) before the launch */
  CLX_S32,     /* int scalar: n */
  CLX_U32,     /* uint scalar: n */
  CLX_LOCAL    /* __local pointer: n bytes (clSetKernelArg(k, i, n, NULL)) */
};

#define CLX_MAX_ARGS 8

/* One argument of a launch. */
typedef struct clx_arg {
  int kind;      /* CLX_* */
  uint64_t n;    /* elements, value or bytes, by kind */
  uint64_t seed; /* CLX_IN_F32: ex_fill_f32's seed */
} clx_arg;

/* One launch: a kernel of a .cl file of examples/cl over a 2-D NDRange. */
typedef struct clx_case {
  const char *example; /* the driver: cl_matmul_tiled (build/examples/cl_*) */
  const char *file;    /* the source under examples/cl */
  const char *kernel;  /* kernel name */
  const char *label;   /* name of the result: printed, and the dump file
                          <example>_<label>.bin */
  const char *what;    /* what the check is, for the OK line */
  uint32_t global[2];  /* global work size (a multiple of local) */
  uint32_t local[2];   /* local work size */
  clx_arg args[CLX_MAX_ARGS];
} clx_case;

/* Sizes and seeds. The matrix products use examples/matmul.c's (EX_MM_*), so
 * they multiply the same matrices as the CUDA example. */
#define CLX_TILE 16              /* TILE in matmul_tiled.cl */
#define CLX_RUP(x) (((x) + CLX_TILE - 1) / CLX_TILE * CLX_TILE)
#define CLX_RED_N1 (1u << 18)    /* reduceSequential: floats in */
#define CLX_RED_L1 256u          /*   local size */
#define CLX_RED_N2 100000u       /* reduceInterleaved: floats in (not a multiple) */
#define CLX_RED_L2 128u          /*   local size */
#define CLX_RED_G2 ((CLX_RED_N2 + CLX_RED_L2 - 1) / CLX_RED_L2)
#define CLX_RED_SEED 0x5EED0101u

/* C (n x n) = A (n x n) * B (n x n), n = EX_MM_N; `extra`: the arguments after n. */
#define CLX_MM_SQ(kern, lbl, extra)                                                          \
  {"cl_matmul_" lbl, "matmul_" lbl ".cl", kern, kern,                                        \
   "256x256 = 256x256 * 256x256, bit-exact fmaf order",                                      \
   {EX_MM_N, EX_MM_N},                                                                       \
   {CLX_TILE, CLX_TILE},                                                                     \
   {{CLX_IN_F32, (uint64_t)EX_MM_N * EX_MM_N, EX_MM_SEED_A},                                 \
    {CLX_IN_F32, (uint64_t)EX_MM_N * EX_MM_N, EX_MM_SEED_B},                                 \
    {CLX_OUT_F32, (uint64_t)EX_MM_N * EX_MM_N, 0},                                           \
    {CLX_S32, EX_MM_N, 0},                                                                   \
    extra}}

/* C (m x p) = A (m x q) * B (q x p) with m, q, p = EX_MM_M2, EX_MM_K2, EX_MM_N2. */
#define CLX_MM_RECT(kern, lbl)                                                               \
  {"cl_matmul_" lbl, "matmul_" lbl ".cl", kern, kern "_rect",                                \
   "200x120 = 200x150 * 150x120, bit-exact fmaf order",                                      \
   {CLX_RUP(EX_MM_N2), CLX_RUP(EX_MM_M2)},                                                   \
   {CLX_TILE, CLX_TILE},                                                                     \
   {{CLX_IN_F32, (uint64_t)EX_MM_M2 * EX_MM_K2, EX_MM_SEED_A},                               \
    {CLX_IN_F32, (uint64_t)EX_MM_K2 * EX_MM_N2, EX_MM_SEED_B},                               \
    {CLX_OUT_F32, (uint64_t)EX_MM_M2 * EX_MM_N2, 0},                                         \
    {CLX_S32, EX_MM_M2, 0},                                                                  \
    {CLX_S32, EX_MM_K2, 0},                                                                  \
    {CLX_S32, EX_MM_N2, 0}}}

#define CLX_TILE_BYTES (CLX_TILE * CLX_TILE * 4)
#define CLX_NO_ARG {CLX_END, 0, 0}
#define CLX_SQ_QP {CLX_S32, EX_MM_N, 0}, {CLX_S32, EX_MM_N, 0} /* q = p = n */
#define CLX_TILE_ARGS {CLX_LOCAL, CLX_TILE_BYTES, 0}, {CLX_LOCAL, CLX_TILE_BYTES, 0}

static const clx_case clx_cases[] = {
    CLX_MM_SQ("matmulNaive", "naive", CLX_SQ_QP),
    CLX_MM_RECT("matmulNaive", "naive"),
    CLX_MM_SQ("matmulTiled", "tiled", CLX_NO_ARG),
    CLX_MM_RECT("matmulTiledBounds", "tiled"),
    CLX_MM_SQ("matmulTiledArgs", "tiled", CLX_TILE_ARGS),
    {"cl_reduce", "reduce.cl", "reduceSequential", "reduceSequential",
     "1024 partial sums of 256 floats, bit-exact tree order",
     {CLX_RED_N1, 1},
     {CLX_RED_L1, 1},
     {{CLX_IN_F32, CLX_RED_N1, CLX_RED_SEED},
      {CLX_OUT_F32, CLX_RED_N1 / CLX_RED_L1, 0},
      {CLX_LOCAL, CLX_RED_L1 * 4, 0},
      {CLX_U32, CLX_RED_N1, 0}}},
    {"cl_reduce", "reduce.cl", "reduceInterleaved", "reduceInterleaved",
     "782 partial sums of 128 floats (the last zero-padded), bit-exact tree order",
     {CLX_RED_G2 * CLX_RED_L2, 1},
     {CLX_RED_L2, 1},
     {{CLX_IN_F32, CLX_RED_N2, CLX_RED_SEED + 1},
      {CLX_OUT_F32, CLX_RED_G2, 0},
      {CLX_LOCAL, CLX_RED_L2 * 4, 0},
      {CLX_U32, CLX_RED_N2, 0}}},
};
#define CLX_NCASES ((int)(sizeof clx_cases / sizeof clx_cases[0]))

/* Index of the output argument of c. */
static inline int clx_out_index(const clx_case *c)
{
  int i;
  for (i = 0; i < CLX_MAX_ARGS && c->args[i].kind != CLX_END; i++)
    if (c->args[i].kind == CLX_OUT_F32) return i;
  return -1;
}

/* Host buffers of a launch: host[i] for each CLX_IN_F32 (generated) and the
 * CLX_OUT_F32 (0xff bytes); NULL elsewhere. Returns 0, or -1 when out of
 * memory (everything freed). */
static inline int clx_host_buffers(const clx_case *c, float *host[CLX_MAX_ARGS])
{
  int i;
  for (i = 0; i < CLX_MAX_ARGS; i++) host[i] = NULL;
  for (i = 0; i < CLX_MAX_ARGS && c->args[i].kind != CLX_END; i++) {
    const clx_arg *a = &c->args[i];
    if (a->kind != CLX_IN_F32 && a->kind != CLX_OUT_F32) continue;
    host[i] = (float *)malloc((size_t)a->n * sizeof(float));
    if (!host[i]) {
      while (i-- > 0) free(host[i]);
      return -1;
    }
    if (a->kind == CLX_IN_F32) ex_fill_f32(host[i], (size_t)a->n, a->seed, -1.0f, 1.0f);
    else memset(host[i], 0xff, (size_t)a->n * sizeof(float));
  }
  return 0;
}

static inline void clx_free_buffers(float *host[CLX_MAX_ARGS])
{
  int i;
  for (i = 0; i < CLX_MAX_ARGS; i++) free(host[i]);
}

/* Finds REL (a path from the repository root) from the current directory or
 * from the program's location (argv0 is BUILD/<dir>/NAME, two levels down).
 * Writes the path to out; returns 1 when found. */
static inline int clx_find(const char *argv0, const char *rel, char *out, size_t n)
{
  const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
  snprintf(out, n, "%s", rel);
  if (ex_file_exists(out)) return 1;
  if (slash) {
    snprintf(out, n, "%.*s/../../%s", (int)(slash - argv0), argv0, rel);
    if (ex_file_exists(out)) return 1;
  }
  snprintf(out, n, "%s", rel);
  return 0;
}

#if defined(SMEMU_H) && defined(SMEMU_CLC_H)
/* ---- running the table on smemu ----------------------------------------- */

/* Compiles a .cl file and loads it into ctx. Returns 1, 0 after a FAIL
 * line, or -1 after a SKIP line (clang-14 or libclc-14 not installed). */
static inline int clx_load(smemu_ctx *ctx, const char *example, const char *path,
                           const char *opts, smemu_module **mod)
{
  char err[4096];
  char *ptx = NULL;
  size_t len = 0;
  int rc = clc_compile(path, opts, &ptx, &len, err, sizeof err);
  *mod = NULL;
  if (rc == CLC_ERR_MISSING) {
    printf("%s: SKIP (%s)\n", example, err);
    return -1;
  }
  if (rc != CLC_OK) {
    printf("%s: %s FAIL (%s)\n", example, path, err);
    return 0;
  }
  rc = ex_ok(ctx, smemu_module_load_data(ctx, ptx, len, path, mod), example, path);
  free(ptx);
  return rc;
}

/* Runs launch c of the table on smemu with the host buffers of
 * clx_host_buffers; the output comes back into its host buffer. Returns 1,
 * or 0 after a FAIL line. */
static inline int clx_run(smemu_ctx *ctx, smemu_module *mod, const clx_case *c,
                          float *host[CLX_MAX_ARGS])
{
  void *dev[CLX_MAX_ARGS] = {0};
  uint8_t vals[CLX_MAX_ARGS][8];
  void *args[CLX_MAX_ARGS];
  smemu_kernel *k = NULL;
  uint32_t grid[3], block[3];
  int i, nargs = 0, ok = 1, out = clx_out_index(c);
  for (i = 0; i < 2; i++) {
    grid[i] = c->global[i] / c->local[i];
    block[i] = c->local[i];
  }
  grid[2] = block[2] = 1;
  ok = ex_ok(ctx, smemu_module_get_kernel(mod, c->kernel, &k), c->example, c->label);
  for (i = 0; i < CLX_MAX_ARGS && c->args[i].kind != CLX_END; i++) continue;
  if (ok && i != smemu_kernel_param_count(k)) {
    printf("%s: %s FAIL (the table gives %d arguments, %s takes %d)\n", c->example, c->label, i,
           c->kernel, smemu_kernel_param_count(k));
    ok = 0;
  }
  for (i = 0; ok && i < CLX_MAX_ARGS && c->args[i].kind != CLX_END; i++, nargs++) {
    const clx_arg *a = &c->args[i];
    if (a->kind == CLX_IN_F32 || a->kind == CLX_OUT_F32) {
      size_t bytes = (size_t)a->n * sizeof(float);
      ok = ex_ok(ctx, smemu_malloc(ctx, &dev[i], bytes), c->example, "malloc") &&
           ex_ok(ctx, smemu_memcpy(ctx, dev[i], host[i], bytes), c->example, "memcpy");
      args[i] = &dev[i];
    } else if (a->kind == CLX_LOCAL) {
      memcpy(vals[i], &a->n, 8); /* smemu takes a __local argument's byte count */
      args[i] = vals[i];
    } else {
      int32_t v = (int32_t)a->n;
      memcpy(vals[i], &v, 4);
      args[i] = vals[i];
    }
  }
  if (ok) ok = ex_ok(ctx, smemu_launch(ctx, k, grid, block, 0, args), c->example, c->label);
  if (ok && out >= 0)
    ok = ex_ok(ctx, smemu_memcpy(ctx, host[out], dev[out], (size_t)c->args[out].n * sizeof(float)),
               c->example, "memcpy");
  for (i = 0; i < nargs; i++)
    if (dev[i]) smemu_free(ctx, dev[i]);
  return ok;
}

/* Appends the last launch's warp instructions and shared-memory bank figures. */
static inline void clx_stats_note(const smemu_ctx *ctx, char *buf, size_t len)
{
  smemu_bank_counts bc;
  size_t used;
  ex_stats_note(ctx, buf, len);
  used = strlen(buf);
  if (smemu_last_bank_counts(ctx, &bc) == SMEMU_OK && used < len)
    snprintf(buf + used, len - used, ", __local ld %llu / st %llu requests, %llu bank conflicts",
             (unsigned long long)bc.requests[0], (unsigned long long)bc.requests[1],
             (unsigned long long)(bc.conflicts[0] + bc.conflicts[1]));
}

/* The CPU reference of launch c: fills want (the output's length) from the
 * host buffers. */
typedef void (*clx_reference)(const clx_case *c, float *const host[CLX_MAX_ARGS], float *want);

/* A driver's main: [FILE.cl] [--dump DIR] [--gpu DIR] (common.h's options;
 * FILE.cl replaces examples/cl/<file>). Runs every launch of the table that
 * belongs to `example` and checks it bit for bit against ref. Exit status: 0
 * when all passed, 77 when clang/libclc are missing (SKIP), else 1 (2: usage). */
static inline int clx_main(int argc, char **argv, const char *example, clx_reference ref)
{
  ex_opts o;
  smemu_options opt;
  smemu_ctx *ctx = NULL;
  smemu_module *mod = NULL;
  const char *loaded = NULL;
  char path[1024], rel[256], what[512];
  int i, ok = 1, r;
  if (ex_parse_args(argc, argv, example, &o) != 0) return 2;
  memset(&opt, 0, sizeof opt);
  opt.analyses = SMEMU_ANALYZE_BANKS;
  if (!ex_ok(NULL, smemu_create(&opt, &ctx), example, "context")) return 1;
  for (i = 0; i < CLX_NCASES && ok; i++) {
    const clx_case *c = &clx_cases[i];
    float *host[CLX_MAX_ARGS];
    float *want;
    int out = clx_out_index(c);
    if (strcmp(c->example, example) != 0) continue;
    if (!loaded || strcmp(loaded, c->file) != 0) {
      if (o.ptx != o.ptx_buf) {
        snprintf(path, sizeof path, "%s", o.ptx); /* the file given on the command line */
      } else {
        snprintf(rel, sizeof rel, "examples/cl/%s", c->file);
        clx_find(argc > 0 ? argv[0] : NULL, rel, path, sizeof path);
      }
      if (mod) smemu_module_unload(mod);
      r = clx_load(ctx, example, path, NULL, &mod);
      if (r < 0) {
        smemu_destroy(ctx);
        return 77; /* a skip for scripts/test.sh, not a pass */
      }
      if (!r) {
        ok = 0;
        break;
      }
      loaded = c->file;
    }
    if (clx_host_buffers(c, host) != 0) {
      printf("%s: %s FAIL (out of host memory)\n", example, c->label);
      ok = 0;
      break;
    }
    if (!(want = (float *)malloc((size_t)c->args[out].n * sizeof(float)))) {
      printf("%s: %s FAIL (out of host memory)\n", example, c->label);
      clx_free_buffers(host);
      ok = 0;
      break;
    }
    ref(c, host, want);
    if (clx_run(ctx, mod, c, host)) {
      snprintf(what, sizeof what, "%s, global %ux%u local %ux%u", c->what, c->global[0],
               c->global[1], c->local[0], c->local[1]);
      clx_stats_note(ctx, what, sizeof what);
      ok &= ex_report(&o, example, c->label, what, EX_F32, host[out], want,
                      (size_t)c->args[out].n, 0, 0.0);
    } else {
      ok = 0;
    }
    free(want);
    clx_free_buffers(host);
  }
  if (mod) smemu_module_unload(mod);
  smemu_destroy(ctx);
  return ok ? 0 : 1;
}
#endif

#endif
