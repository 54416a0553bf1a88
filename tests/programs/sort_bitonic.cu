/* sort_bitonic.cu: each block sorts 512 keys in shared memory with a
 * bitonic network, 256 threads each doing one compare-exchange per step. */
#include "prog.h"

#define N 512

__global__ void bitonic(unsigned *data)
{
  __shared__ unsigned k[N];
  unsigned t = threadIdx.x;
  unsigned *p = data + blockIdx.x * N;
  k[t] = p[t];
  k[t + N / 2] = p[t + N / 2];
  for (unsigned size = 2; size <= N; size <<= 1) {
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned i = 2 * t - (t & (stride - 1));
      unsigned j = i + stride;
      bool up = (i & size) == 0;
      unsigned a = k[i], b = k[j];
      if ((a > b) == up) {
        k[i] = b;
        k[j] = a;
      }
    }
  }
  __syncthreads();
  p[t] = k[t];
  p[t + N / 2] = k[t + N / 2];
}

static int cmpu(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

int main()
{
  const int blocks = 16, n = blocks * N;
  unsigned *h = (unsigned *)malloc(n * 4), *o = (unsigned *)malloc(n * 4);
  unsigned s = 47;
  for (int i = 0; i < n; i++) h[i] = lcg(&s) % 100000;
  unsigned *d;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  bitonic<<<blocks, N / 2>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, d, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++) qsort(h + b * N, N, 4, cmpu);
  for (int i = 0; i < n; i++) bad += o[i] != h[i];
  CHECK(cudaFree(d));
  return result("sort_bitonic", bad, "min %u max %u hash %08x", o[0], o[N - 1], fnv(o, n));
}
