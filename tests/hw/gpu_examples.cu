/* gpu_examples.cu: records on a real GPU what smemu is compared against: runs
 * the launches of the example drivers (examples/*.c) and of the e2e corpus
 * (tests/e2e/e2e_cases.h) on the same generated inputs and writes every output
 * buffer to OUT_DIR/<example>_<kernel>.bin and OUT_DIR/e2e_<name>.bin.
 * Build and run: sh tests/hw/record_examples.sh OUT_DIR. */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "../../examples/common.h"
#include "../e2e/e2e_cases.h"

/* the kernels, compiled from the same sources as the checked-in PTX */
#include "../../examples/reverse.cu"
#include "../../examples/dot.cu"
#include "../../examples/matmul.cu"
#include "../../examples/transpose.cu"
#include "../../examples/split.cu"
#include "../e2e/int_arith.cu"
#include "../e2e/convert.cu"
#include "../e2e/fp32_math.cu"
#include "../e2e/fp64_math.cu"
#include "../e2e/half_math.cu"
#include "../e2e/bitops.cu"
#include "../e2e/atomics_shared.cu"
#include "../e2e/atomics_global.cu"
#include "../e2e/warp.cu"
#include "../e2e/divergence.cu"
#include "../e2e/calls.cu"
#include "../e2e/globals.cu"
#include "../e2e/grid3d.cu"
#include "../e2e/sync_count.cu"
#include "../e2e/local_mem.cu"
#include "../e2e/shared_vec.cu"
#include "../e2e/named_barrier.cu"

static const char *g_out = ".";
static int g_files = 0;

static void check(cudaError_t e, const char *what, int line)
{
  if (e != cudaSuccess) {
    fprintf(stderr, "gpu_examples.cu:%d: %s: %s (%s)\n", line, what, cudaGetErrorString(e),
            cudaGetErrorName(e));
    exit(1);
  }
}
#define CK(x) check((x), #x, __LINE__)
/* after a launch: the launch itself, then its execution */
#define CK_LAUNCH(what)                                      \
  do {                                                       \
    check(cudaGetLastError(), what " (launch)", __LINE__);   \
    check(cudaDeviceSynchronize(), what " (run)", __LINE__); \
  } while (0)

/* Copies `bytes` of device memory back and writes OUT/<example>_<kernel>.bin. */
static void save(const char *example, const char *kernel, const void *dev, size_t bytes)
{
  std::vector<unsigned char> host(bytes);
  CK(cudaMemcpy(host.data(), dev, bytes, cudaMemcpyDeviceToHost));
  if (ex_write_bin(g_out, example, kernel, host.data(), bytes) != 0) exit(1);
  printf("  %s/%s_%s.bin (%zu bytes)\n", g_out, example, kernel, bytes);
  g_files++;
}

template <typename T> static T *dev_alloc(size_t count)
{
  T *p = NULL;
  CK(cudaMalloc((void **)&p, count * sizeof(T)));
  return p;
}

/* ---- examples: the same launches as examples/<name>.c ------------------- */
static void run_reverse(void)
{
  int32_t in[EX_REVERSE_N];
  int n = EX_REVERSE_N;
  int *d = dev_alloc<int>(EX_REVERSE_N);
  ex_fill_i32(in, EX_REVERSE_N, EX_REVERSE_SEED, INT32_MIN, INT32_MAX);
  CK(cudaMemcpy(d, in, sizeof in, cudaMemcpyHostToDevice));
  staticReverse<<<1, n>>>(d, n);
  CK_LAUNCH("staticReverse");
  save("reverse", "staticReverse", d, sizeof in);
  CK(cudaMemcpy(d, in, sizeof in, cudaMemcpyHostToDevice));
  dynamicReverse<<<1, n, n * sizeof(int)>>>(d, n);
  CK_LAUNCH("dynamicReverse");
  save("reverse", "dynamicReverse", d, sizeof in);
  CK(cudaFree(d));
}

static void run_dot(void)
{
  const int n = EX_DOT_N;
  std::vector<float> a(n), b(n);
  float *da = dev_alloc<float>(n), *db = dev_alloc<float>(n), *dp = dev_alloc<float>(EX_DOT_BLOCKS);
  ex_fill_f32(a.data(), n, EX_DOT_SEED_A, -1.0f, 1.0f);
  ex_fill_f32(b.data(), n, EX_DOT_SEED_B, -1.0f, 1.0f);
  CK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemset(dp, 0xff, EX_DOT_BLOCKS * sizeof(float)));
  dotPartial<<<EX_DOT_BLOCKS, EX_DOT_THREADS>>>(da, db, dp, n);
  CK_LAUNCH("dotPartial");
  save("dot", "dotPartial", dp, EX_DOT_BLOCKS * sizeof(float));
  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dp));
}

static void run_matmul_one(int square, int m, int q, int p)
{
  const int T = EX_MM_TILE;
  size_t na = (size_t)m * q, nb = (size_t)q * p, nc = (size_t)m * p;
  std::vector<float> a(na), b(nb);
  float *da = dev_alloc<float>(na), *db = dev_alloc<float>(nb), *dc = dev_alloc<float>(nc);
  dim3 grid((p + T - 1) / T, (m + T - 1) / T), block(T, T);
  ex_fill_f32(a.data(), na, EX_MM_SEED_A, -1.0f, 1.0f);
  ex_fill_f32(b.data(), nb, EX_MM_SEED_B, -1.0f, 1.0f);
  CK(cudaMemcpy(da, a.data(), na * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), nb * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dc, 0xff, nc * 4));
  if (square) {
    matmulTiled<<<grid, block>>>(da, db, dc, m);
    CK_LAUNCH("matmulTiled");
    save("matmul", "matmulTiled", dc, nc * 4);
  } else {
    matmulTiledBounds<<<grid, block>>>(da, db, dc, m, q, p);
    CK_LAUNCH("matmulTiledBounds");
    save("matmul", "matmulTiledBounds", dc, nc * 4);
  }
  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dc));
}

static void run_transpose(void)
{
  const size_t n = (size_t)EX_TR_W * EX_TR_H;
  std::vector<float> in(n);
  float *di = dev_alloc<float>(n), *dout = dev_alloc<float>(n);
  dim3 grid(EX_TR_W / EX_TR_TILE, EX_TR_H / EX_TR_TILE), block(EX_TR_TILE, EX_TR_ROWS);
  ex_fill_f32(in.data(), n, EX_TR_SEED, -1.0f, 1.0f);
  CK(cudaMemcpy(di, in.data(), n * 4, cudaMemcpyHostToDevice));

  CK(cudaMemset(dout, 0xff, n * 4));
  transposeNaive<<<grid, block>>>(dout, di, EX_TR_W, EX_TR_H);
  CK_LAUNCH("transposeNaive");
  save("transpose", "transposeNaive", dout, n * 4);

  CK(cudaMemset(dout, 0xff, n * 4));
  transposeCoalesced<<<grid, block>>>(dout, di, EX_TR_W, EX_TR_H);
  CK_LAUNCH("transposeCoalesced");
  save("transpose", "transposeCoalesced", dout, n * 4);

  CK(cudaMemset(dout, 0xff, n * 4));
  transposeNoBankConflicts<<<grid, block>>>(dout, di, EX_TR_W, EX_TR_H);
  CK_LAUNCH("transposeNoBankConflicts");
  save("transpose", "transposeNoBankConflicts", dout, n * 4);
  CK(cudaFree(di));
  CK(cudaFree(dout));
}

static void run_split(void)
{
  const int NI = EX_SPLIT_NI, NF = EX_SPLIT_NF, NC = EX_SPLIT_NC, ND = EX_SPLIT_ND,
            NB = EX_SPLIT_BLOCKS;
  size_t rec = ex_split_shared_bytes();
  std::vector<int32_t> hi(NI * NB);
  std::vector<float> hf(NF * NB);
  std::vector<int8_t> hc(NC * NB);
  std::vector<double> hd(ND * NB);
  ex_fill_i32(hi.data(), hi.size(), EX_SPLIT_SEED, -1000000, 1000000);
  ex_fill_f32(hf.data(), hf.size(), EX_SPLIT_SEED + 1, -1.0f, 1.0f);
  ex_fill_i8(hc.data(), hc.size(), EX_SPLIT_SEED + 2);
  ex_fill_f64(hd.data(), hd.size(), EX_SPLIT_SEED + 3, -1.0, 1.0);
  int *di = dev_alloc<int>(hi.size());
  float *df = dev_alloc<float>(hf.size());
  signed char *dc = dev_alloc<signed char>(hc.size());
  double *dd = dev_alloc<double>(hd.size());
  unsigned char *dout = dev_alloc<unsigned char>(rec * NB);
  CK(cudaMemcpy(di, hi.data(), hi.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(df, hf.data(), hf.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dc, hc.data(), hc.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dd, hd.data(), hd.size() * 8, cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0, rec * NB));
  splitShared<<<NB, EX_SPLIT_THREADS, rec>>>(di, df, dc, dd, dout, NI, NF, NC, ND);
  CK_LAUNCH("splitShared");
  save("split", "splitShared", dout, rec * NB);
  CK(cudaFree(di));
  CK(cudaFree(df));
  CK(cudaFree(dc));
  CK(cudaFree(dd));
  CK(cudaFree(dout));
}

/* ---- the e2e corpus ------------------------------------------------------- */
static const struct {
  const char *name;
  const void *fn;
} g_e2e_fns[] = {
  { "int_arith", (const void *)intArith },
  { "convert", (const void *)convertMix },
  { "fp32_math", (const void *)fp32Math },
  { "fp64_math", (const void *)fp64Math },
  { "half_math", (const void *)halfMath },
  { "bitops", (const void *)bitOps },
  { "atomics_shared", (const void *)atomicsShared },
  { "atomics_global", (const void *)atomicsGlobal },
  { "warp_ops", (const void *)warpOps },
  { "warp_partial", (const void *)warpPartial },
  { "divergence", (const void *)divergent },
  { "calls", (const void *)callsKernel },
  { "globals", (const void *)globalsKernel },
  { "grid3d", (const void *)grid3d },
  { "sync_count", (const void *)syncCount },
  { "local_mem", (const void *)localMem },
  { "shared_vec", (const void *)sharedVec },
  { "named_barrier", (const void *)namedBarrier },
};

static void run_e2e(const e2e_case *c)
{
  const void *fn = NULL;
  size_t i, in_bytes = (size_t)(c->in_words ? c->in_words : 1) * 4, out_bytes = (size_t)c->out_words * 4;
  std::vector<uint32_t> in(in_bytes / 4);
  void *din = NULL, *dout = NULL, *args[E2E_MAXP];
  uint64_t vals[E2E_MAXP];
  for (i = 0; i < sizeof g_e2e_fns / sizeof g_e2e_fns[0]; i++)
    if (strcmp(g_e2e_fns[i].name, c->name) == 0) fn = g_e2e_fns[i].fn;
  if (!fn) {
    fprintf(stderr, "gpu_examples: no kernel for e2e case %s: add it to g_e2e_fns\n", c->name);
    exit(1);
  }
  e2e_fill_input(c, in.data());
  CK(cudaMalloc(&din, in_bytes));
  CK(cudaMalloc(&dout, out_bytes));
  CK(cudaMemcpy(din, in.data(), in_bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, E2E_OUT_FILL, out_bytes));
  for (i = 0; i < (size_t)c->nparams; i++) {
    vals[i] = c->params[i].bits; /* little-endian: the low bytes come first */
    args[i] = c->params[i].kind == E2E_IN ? (void *)&din
            : c->params[i].kind == E2E_OUT ? (void *)&dout : (void *)&vals[i];
  }
  CK(cudaLaunchKernel(fn, dim3(c->grid[0], c->grid[1], c->grid[2]),
                      dim3(c->block[0], c->block[1], c->block[2]), args, c->shared_bytes, 0));
  check(cudaDeviceSynchronize(), c->name, __LINE__);
  save("e2e", c->name, dout, out_bytes);
  CK(cudaFree(din));
  CK(cudaFree(dout));
}

int main(int argc, char **argv)
{
  cudaDeviceProp prop;
  int dev = 0, i;
  if (argc > 1) g_out = argv[1];
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&prop, dev));
  printf("gpu_examples: %s (sm_%d%d), writing to %s\n", prop.name, prop.major, prop.minor, g_out);
  run_reverse();
  run_dot();
  run_matmul_one(1, EX_MM_N, EX_MM_N, EX_MM_N);
  run_matmul_one(0, EX_MM_M2, EX_MM_K2, EX_MM_N2);
  run_transpose();
  run_split();
  for (i = 0; i < E2E_NCASES; i++) run_e2e(&e2e_cases[i]);
  printf("gpu_examples: %d files written\n", g_files);
  return 0;
}
