// cub_scan.cu: cub::BlockScan (warp scans, raking, raking memoize) between
// cub::BlockLoad/BlockStore with WARP_TRANSPOSE (through shared memory),
// and cub::WarpScan, from the toolkit's CCCL; checked against a CPU scan.
#include "cub_kernels.cuh"
#include "../../programs/prog.h"

enum { GRID = 3 };

template <typename T, int BLOCK, int ITEMS, cub::BlockScanAlgorithm A>
static int run(const char *name) {
  const int tile = BLOCK * ITEMS, n = GRID * tile;
  T *h = new T[n], *g = new T[n], *d, *o;
  unsigned s = 5;
  for (int i = 0; i < n; i++) h[i] = (T)(lcg(&s) % 10);
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&o, n * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  block_scan<T, BLOCK, ITEMS, A><<<GRID, BLOCK>>>(d, o);
  CHECK(cudaMemcpy(g, o, n * sizeof(T), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < GRID; b++) {
    T acc = 0;
    for (int i = 0; i < tile; i++) {
      bad |= g[b * tile + i] != acc;
      acc += h[b * tile + i];
    }
  }
  double last = (double)g[n - 1];
  cudaFree(d);
  cudaFree(o);
  delete[] h;
  delete[] g;
  return result(name, bad, "%g", last);
}

template <typename T>
static int run_warp(const char *name) {
  enum { WARPS = 4, BLOCK = 128 };
  const int n = GRID * BLOCK;
  T *h = new T[n], *g = new T[n], *d, *o;
  unsigned s = 9;
  for (int i = 0; i < n; i++) h[i] = (T)(lcg(&s) % 10);
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&o, n * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  warp_scan<T, WARPS><<<GRID, BLOCK>>>(d, o);
  CHECK(cudaMemcpy(g, o, n * sizeof(T), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int w = 0; w < n / 32; w++) {
    T acc = 0;
    for (int i = 0; i < 32; i++) {
      acc += h[w * 32 + i];
      bad |= g[w * 32 + i] != acc;
    }
  }
  double last = (double)g[n - 1];
  cudaFree(d);
  cudaFree(o);
  delete[] h;
  delete[] g;
  return result(name, bad, "%g", last);
}

int main() {
  int bad = 0;
  bad |= run<int, 128, 4, cub::BLOCK_SCAN_WARP_SCANS>("scan_warp_scans_int");
  bad |= run<float, 128, 2, cub::BLOCK_SCAN_RAKING>("scan_raking_float");
  bad |= run<double, 64, 3, cub::BLOCK_SCAN_RAKING_MEMOIZE>("scan_memoize_double");
  bad |= run<long long, 96, 4, cub::BLOCK_SCAN_WARP_SCANS>("scan_warp_scans_ll");
  bad |= run_warp<int>("warp_scan_int");
  bad |= run_warp<float>("warp_scan_float");
  return bad;
}
