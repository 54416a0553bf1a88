/* hist_used.cu: bucketing keys into per-bin slots: the value returned by
 * the shared atomicAdd (the key's slot in its bin) is used, so ptxas must
 * keep one ATOMS per lane; a second pass reads the buckets back. */
#include "prog.h"

#define BINS 16
#define CAP 64

__global__ void bucket(const unsigned *keys, unsigned *out, unsigned *counts)
{
  __shared__ unsigned count[BINS];
  __shared__ unsigned slots[BINS][CAP];
  if (threadIdx.x < BINS) count[threadIdx.x] = 0;
  __syncthreads();
  unsigned k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned bin = k % BINS;
  unsigned pos = atomicAdd(&count[bin], 1u);
  if (pos < CAP) slots[bin][pos] = k;
  __syncthreads();
  /* each bin's sum of keys: independent of the order the slots were taken */
  if (threadIdx.x < BINS) {
    unsigned c = min(count[threadIdx.x], (unsigned)CAP), sum = 0;
    for (unsigned j = 0; j < c; j++) sum += slots[threadIdx.x][j];
    out[blockIdx.x * BINS + threadIdx.x] = sum;
    counts[blockIdx.x * BINS + threadIdx.x] = count[threadIdx.x];
  }
}

int main()
{
  const int blocks = 24, threads = 256, n = blocks * threads;
  unsigned *h = (unsigned *)malloc(n * 4), out[blocks * BINS], cnt[blocks * BINS];
  unsigned s = 21;
  for (int i = 0; i < n; i++) h[i] = lcg(&s) % 100000;
  unsigned *d, *dout, *dcnt;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMalloc(&dcnt, sizeof cnt));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  bucket<<<blocks, threads>>>(d, dout, dcnt);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cnt, dcnt, sizeof cnt, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++)
    for (int k = 0; k < BINS; k++) {
      unsigned rs = 0, rc = 0;
      for (int t = 0; t < threads; t++) {
        unsigned key = h[b * threads + t];
        if (key % BINS == (unsigned)k) rc++, rs += key;
      }
      /* no bin overflows with this data; the check would say so */
      bad += cnt[b * BINS + k] != rc || (rc <= CAP && out[b * BINS + k] != rs);
    }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dcnt));
  return result("hist_used", bad, "sums %08x counts %08x", fnv(out, blocks * BINS), fnv(cnt, blocks * BINS));
}
