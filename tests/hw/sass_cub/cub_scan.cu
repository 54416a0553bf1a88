// cub_scan.cu: cub::BlockScan (warp scans, raking, raking memoize) between
// cub::BlockLoad/BlockStore with WARP_TRANSPOSE (through shared memory),
// and cub::WarpScan, from the toolkit's CCCL; checked against a CPU scan.
#include <cub/cub.cuh>
#include "../../programs/prog.h"

template <typename T, int BLOCK, int ITEMS, cub::BlockScanAlgorithm A>
__global__ void block_scan(const T *in, T *out) {
  using L = cub::BlockLoad<T, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using S = cub::BlockScan<T, BLOCK, A>;
  using St = cub::BlockStore<T, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename L::TempStorage l;
    typename S::TempStorage s;
    typename St::TempStorage st;
  } tmp;
  T v[ITEMS];
  L(tmp.l).Load(in + blockIdx.x * BLOCK * ITEMS, v);
  __syncthreads();
  S(tmp.s).ExclusiveSum(v, v);
  __syncthreads();
  St(tmp.st).Store(out + blockIdx.x * BLOCK * ITEMS, v);
}

template <typename T, int WARPS>
__global__ void warp_scan(const T *in, T *out) {
  using W = cub::WarpScan<T>;
  __shared__ typename W::TempStorage tmp[WARPS];
  int w = threadIdx.x / 32;
  T v;
  W(tmp[w]).InclusiveSum(in[blockIdx.x * blockDim.x + threadIdx.x], v);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

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
