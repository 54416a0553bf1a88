// cub_reduce.cu: cub::BlockReduce (warp reductions, raking) and
// cub::WarpReduce from the toolkit's CCCL for int, float and double; each
// launch checked against a CPU sum (small integers: exact in float too).
#include "cub_kernels.cuh"
#include "../../programs/prog.h"

enum { GRID = 4 };

template <typename T, int BLOCK, int ITEMS>
static int run_sum(const char *name) {
  const int n = GRID * BLOCK * ITEMS;
  T *h = new T[n], *d, *o, r[GRID];
  unsigned s = 7;
  for (int i = 0; i < n; i++) h[i] = (T)(lcg(&s) % 100);
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&o, GRID * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  block_sum<T, BLOCK, ITEMS><<<GRID, BLOCK>>>(d, o);
  CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < GRID; b++) {
    T e = 0;
    for (int i = 0; i < BLOCK * ITEMS; i++) e += h[b * BLOCK * ITEMS + i];
    bad |= r[b] != e;
  }
  cudaFree(d);
  cudaFree(o);
  delete[] h;
  return result(name, bad, "%g", (double)r[0]);
}

template <typename T, int BLOCK>
static int run_max(const char *name) {
  const int n = GRID * BLOCK;
  T *h = new T[n], *d, *o, r[GRID];
  unsigned s = 11;
  for (int i = 0; i < n; i++) h[i] = (T)(lcg(&s) % 1000);
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&o, GRID * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  block_max_raking<T, BLOCK><<<GRID, BLOCK>>>(d, o);
  CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < GRID; b++) {
    T e = h[b * BLOCK];
    for (int i = 1; i < BLOCK; i++) e = h[b * BLOCK + i] > e ? h[b * BLOCK + i] : e;
    bad |= r[b] != e;
  }
  cudaFree(d);
  cudaFree(o);
  delete[] h;
  return result(name, bad, "%g", (double)r[0]);
}

template <typename T>
static int run_warp(const char *name) {
  enum { WARPS = 4, BLOCK = WARPS * 32 };
  const int n = GRID * BLOCK;
  T *h = new T[n], *d, *o, r[GRID * WARPS];
  unsigned s = 13;
  for (int i = 0; i < n; i++) h[i] = (T)(lcg(&s) % 50);
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&o, sizeof r));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  warp_sum<T, WARPS><<<GRID, BLOCK>>>(d, o);
  CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int w = 0; w < GRID * WARPS; w++) {
    T e = 0;
    for (int i = 0; i < 32; i++) e += h[w * 32 + i];
    bad |= r[w] != e;
  }
  cudaFree(d);
  cudaFree(o);
  delete[] h;
  return result(name, bad, "%g", (double)r[0]);
}

int main() {
  int bad = 0;
  bad |= run_sum<int, 128, 4>("block_sum_int");
  bad |= run_sum<float, 256, 1>("block_sum_float");
  bad |= run_sum<double, 128, 2>("block_sum_double");
  bad |= run_max<int, 96>("block_max_raking_int");
  bad |= run_max<double, 64>("block_max_raking_double");
  bad |= run_warp<int>("warp_sum_int");
  bad |= run_warp<double>("warp_sum_double");
  return bad;
}
