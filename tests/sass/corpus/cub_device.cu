// cub_device.cu: cub device-wide algorithms (the toolkit's CCCL headers)
// for int, float and double, for the SASS-mapping corpus
// (tests/sass/corpus.sh): reduce, scan, radix sort, histogram, select.
#include <cub/cub.cuh>
#include <cstdio>

template <typename T>
static void run_all(int n) {
  T *a, *b;
  int *cnt;
  cudaMalloc(&a, n * sizeof(T));
  cudaMalloc(&b, n * sizeof(T));
  cudaMalloc(&cnt, sizeof(int));
  void *tmp = nullptr;
  size_t bytes = 0, need = 0;
  cub::DeviceReduce::Sum(nullptr, need, a, b, n);
  bytes = need > bytes ? need : bytes;
  cub::DeviceReduce::Max(nullptr, need, a, b, n);
  bytes = need > bytes ? need : bytes;
  cub::DeviceScan::InclusiveSum(nullptr, need, a, b, n);
  bytes = need > bytes ? need : bytes;
  cub::DeviceScan::ExclusiveSum(nullptr, need, a, b, n);
  bytes = need > bytes ? need : bytes;
  cub::DeviceRadixSort::SortKeys(nullptr, need, a, b, n);
  bytes = need > bytes ? need : bytes;
  cub::DeviceSelect::If(nullptr, need, a, b, cnt, n, [] __device__(T x) { return x > T(0); });
  bytes = need > bytes ? need : bytes;
  cudaMalloc(&tmp, bytes);
  cub::DeviceReduce::Sum(tmp, bytes, a, b, n);
  cub::DeviceReduce::Max(tmp, bytes, a, b, n);
  cub::DeviceScan::InclusiveSum(tmp, bytes, a, b, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, a, b, n);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, a, b, n);
  cub::DeviceSelect::If(tmp, bytes, a, b, cnt, n, [] __device__(T x) { return x > T(0); });
  cudaFree(tmp);
  cudaFree(a);
  cudaFree(b);
  cudaFree(cnt);
}

static void hist(int n) {
  int *s, *h;
  cudaMalloc(&s, n * sizeof(int));
  cudaMalloc(&h, 64 * sizeof(int));
  void *tmp = nullptr;
  size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(tmp, bytes, s, h, 65, 0, 1024, n);
  cudaMalloc(&tmp, bytes);
  cub::DeviceHistogram::HistogramEven(tmp, bytes, s, h, 65, 0, 1024, n);
  cudaFree(tmp);
  cudaFree(s);
  cudaFree(h);
}

int main() {
  run_all<int>(1000);
  run_all<float>(1000);
  run_all<double>(1000);
  hist(1000);
  printf("ok\n");
  return 0;
}
