// cub_device.cu: cub device-wide algorithms from the toolkit's CCCL at
// small sizes: DeviceReduce::Sum (int, double), DeviceScan::ExclusiveSum
// (float), DeviceRadixSort::SortKeys (int) and DeviceHistogram::HistogramEven;
// checked against CPU results.
#include <cub/cub.cuh>
#include <algorithm>
#include "../../programs/prog.h"

static const int N = 5000;

template <typename T>
static int reduce(const char *name) {
  T h[N], *d, *o, r;
  unsigned s = 1;
  T e = 0;
  for (int i = 0; i < N; i++) e += h[i] = (T)(lcg(&s) % 100);
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&o, sizeof(T)));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  void *tmp = nullptr;
  size_t bytes = 0;
  CHECK(cub::DeviceReduce::Sum(tmp, bytes, d, o, N));
  CHECK(cudaMalloc(&tmp, bytes));
  CHECK(cub::DeviceReduce::Sum(tmp, bytes, d, o, N));
  CHECK(cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost));
  cudaFree(tmp);
  cudaFree(d);
  cudaFree(o);
  return result(name, r != e, "%g", (double)r);
}

static int scan(const char *name) {
  static float h[N], g[N];
  float *d, *o;
  unsigned s = 2;
  for (int i = 0; i < N; i++) h[i] = (float)(lcg(&s) % 10);
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&o, sizeof h));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  void *tmp = nullptr;
  size_t bytes = 0;
  CHECK(cub::DeviceScan::ExclusiveSum(tmp, bytes, d, o, N));
  CHECK(cudaMalloc(&tmp, bytes));
  CHECK(cub::DeviceScan::ExclusiveSum(tmp, bytes, d, o, N));
  CHECK(cudaMemcpy(g, o, sizeof g, cudaMemcpyDeviceToHost));
  int bad = 0;
  float acc = 0;
  for (int i = 0; i < N; i++) {
    bad |= g[i] != acc;
    acc += h[i];
  }
  cudaFree(tmp);
  cudaFree(d);
  cudaFree(o);
  return result(name, bad, "%g", (double)g[N - 1]);
}

static int sort(const char *name) {
  static int h[N], g[N];
  int *d, *o;
  unsigned s = 3;
  for (int i = 0; i < N; i++) h[i] = (int)(lcg(&s) % 100000) - 50000;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&o, sizeof h));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  void *tmp = nullptr;
  size_t bytes = 0;
  CHECK(cub::DeviceRadixSort::SortKeys(tmp, bytes, d, o, N));
  CHECK(cudaMalloc(&tmp, bytes));
  CHECK(cub::DeviceRadixSort::SortKeys(tmp, bytes, d, o, N));
  CHECK(cudaMemcpy(g, o, sizeof g, cudaMemcpyDeviceToHost));
  std::sort(h, h + N);
  int bad = 0;
  for (int i = 0; i < N; i++) bad |= g[i] != h[i];
  cudaFree(tmp);
  cudaFree(d);
  cudaFree(o);
  return result(name, bad, "%d", g[0]);
}

static int hist(const char *name) {
  static int h[N];
  int *d, *o, g[64], e[64] = {0};
  unsigned s = 4;
  for (int i = 0; i < N; i++) {
    h[i] = (int)(lcg(&s) % 1024);
    e[h[i] / 16]++;
  }
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&o, sizeof g));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  void *tmp = nullptr;
  size_t bytes = 0;
  CHECK(cub::DeviceHistogram::HistogramEven(tmp, bytes, d, o, 65, 0, 1024, N));
  CHECK(cudaMalloc(&tmp, bytes));
  CHECK(cub::DeviceHistogram::HistogramEven(tmp, bytes, d, o, 65, 0, 1024, N));
  CHECK(cudaMemcpy(g, o, sizeof g, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 64; i++) bad |= g[i] != e[i];
  cudaFree(tmp);
  cudaFree(d);
  cudaFree(o);
  return result(name, bad, "%d", g[0]);
}

int main() {
  int bad = 0;
  bad |= reduce<int>("device_reduce_int");
  bad |= reduce<double>("device_reduce_double");
  bad |= scan("device_scan_float");
  bad |= sort("device_sort_int");
  bad |= hist("device_hist");
  return bad;
}
