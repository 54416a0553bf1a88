/* atomic_double.cu: per-block sums of doubles accumulated with a shared
 * 64-bit atomicAdd (native on sm_60+), results unused, into 4 slots, then
 * also a float atomicAdd whose returned value is used. */
#include "prog.h"

__global__ void dsum(const double *in, double *out, float *firsts)
{
  __shared__ double acc[4];
  __shared__ float fa;
  if (threadIdx.x < 4) acc[threadIdx.x] = 0.0;
  if (threadIdx.x == 0) fa = 0.f;
  __syncthreads();
  double v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&acc[threadIdx.x % 4], v);
  /* every value added is 1: the old values are 0..blockDim-1 in some order */
  float old = atomicAdd(&fa, 1.f);
  __syncthreads();
  if (threadIdx.x < 4) out[blockIdx.x * 4 + threadIdx.x] = acc[threadIdx.x];
  if (old == 0.f) firsts[blockIdx.x] = fa;
}

int main()
{
  const int blocks = 16, threads = 128, n = blocks * threads;
  double *h = (double *)malloc(n * 8), out[blocks * 4];
  float firsts[blocks];
  unsigned s = 79;
  /* multiples of 1/8: sums are exact in any order */
  for (int i = 0; i < n; i++) h[i] = (double)(int)(lcg(&s) % 801 - 400) / 8.0;
  double *d, *dout;
  float *df;
  CHECK(cudaMalloc(&d, n * 8));
  CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMalloc(&df, sizeof firsts));
  CHECK(cudaMemcpy(d, h, n * 8, cudaMemcpyHostToDevice));
  dsum<<<blocks, threads>>>(d, dout, df);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(firsts, df, sizeof firsts, cudaMemcpyDeviceToHost));
  int bad = 0;
  double total = 0;
  for (int b = 0; b < blocks; b++) {
    for (int k = 0; k < 4; k++) {
      double r = 0;
      for (int t = k; t < threads; t += 4) r += h[b * threads + t];
      bad += out[b * 4 + k] != r;
      total += out[b * 4 + k];
    }
    bad += firsts[b] != (float)threads;
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(df));
  return result("atomic_double", bad, "sum %.3f hash %08x", total, fnv(out, 2 * blocks * 4));
}
