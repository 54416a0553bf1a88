// Device-wide CUB as library users call it (two-phase temp-storage query):
// DeviceReduce::Sum, DeviceScan::InclusiveSum (single-pass decoupled
// look-back: blocks wait on their predecessors' published status),
// DeviceRadixSort::SortKeys and DeviceHistogram::HistogramEven.
#include "qa.h"
#include <cub/cub.cuh>

static int cmp(const void *a, const void *b) { unsigned x = *(const unsigned *)a, y = *(const unsigned *)b; return (x > y) - (x < y); }

int main()
{
  const int n = 20000;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  unsigned *k = (unsigned *)malloc(n * 4), *ks = (unsigned *)malloc(n * 4);
  unsigned seed = 41;
  for (int i = 0; i < n; i++) { h[i] = (int)(qa_lcg(&seed) % 201) - 100; k[i] = qa_lcg(&seed); }
  int *d, *dout, *dsum; unsigned *dk, *dks; int *dhist;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&dout, n * 4)); CHECK(cudaMalloc(&dsum, 4));
  CHECK(cudaMalloc(&dk, n * 4)); CHECK(cudaMalloc(&dks, n * 4)); CHECK(cudaMalloc(&dhist, 16 * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dk, k, n * 4, cudaMemcpyHostToDevice));
  void *tmp = 0; size_t tb = 0, need;

  need = 0; CHECK(cub::DeviceReduce::Sum(0, need, d, dsum, n));
  if (need > tb) { CHECK(cudaFree(tmp)); CHECK(cudaMalloc(&tmp, need)); tb = need; }
  CHECK(cub::DeviceReduce::Sum(tmp, need, d, dsum, n));
  need = 0; CHECK(cub::DeviceScan::InclusiveSum(0, need, d, dout, n));
  if (need > tb) { CHECK(cudaFree(tmp)); CHECK(cudaMalloc(&tmp, need)); tb = need; }
  CHECK(cub::DeviceScan::InclusiveSum(tmp, need, d, dout, n));
  need = 0; CHECK(cub::DeviceRadixSort::SortKeys(0, need, dk, dks, n));
  if (need > tb) { CHECK(cudaFree(tmp)); CHECK(cudaMalloc(&tmp, need)); tb = need; }
  CHECK(cub::DeviceRadixSort::SortKeys(tmp, need, dk, dks, n));
  need = 0; CHECK(cub::DeviceHistogram::HistogramEven(0, need, d, dhist, 17, -100, 101, n));
  if (need > tb) { CHECK(cudaFree(tmp)); CHECK(cudaMalloc(&tmp, need)); tb = need; }
  CHECK(cub::DeviceHistogram::HistogramEven(tmp, need, d, dhist, 17, -100, 101, n));

  int sum = 0, hist[16];
  CHECK(cudaMemcpy(&sum, dsum, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ks, dks, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hist, dhist, sizeof hist, cudaMemcpyDeviceToHost));
  int s = 0, href[16] = {0};
  for (int i = 0; i < n; i++) {
    s += h[i];
    EXPECT_EQ("scan", i, o[i], s);
    href[(h[i] + 100) * 16 / 201]++; /* 16 even bins over [-100, 101) */
  }
  EXPECT_EQ("sum", 0, sum, s);
  for (int b = 0; b < 16; b++) EXPECT_EQ("hist", b, hist[b], href[b]);
  qsort(k, n, 4, cmp);
  for (int i = 0; i < n; i++) EXPECT_EQ("sort", i, ks[i], k[i]);
  return qa_done("cub_device");
}
