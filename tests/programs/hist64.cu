/* hist64.cu: a 64-bin histogram of 6-bit keys: each block counts into
 * shared bins with atomicAdd whose result is unused (ptxas turns it into a
 * shared reduction), then adds its bins to the global histogram. */
#include "prog.h"

#define BINS 64

__global__ void hist64(const unsigned char *in, int n, unsigned *bins)
{
  __shared__ unsigned local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] & (BINS - 1)], 1u);
  __syncthreads();
  if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main()
{
  const int n = 1 << 16;
  unsigned char *h = (unsigned char *)malloc(n);
  unsigned s = 5;
  /* skewed keys: some bins collide often within a warp */
  for (int i = 0; i < n; i++) h[i] = (unsigned char)((lcg(&s) >> 3) % (i % 3 ? 64 : 8));
  unsigned char *d;
  unsigned *dbins, out[BINS], ref[BINS] = {0};
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMalloc(&dbins, sizeof out));
  CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dbins, 0, sizeof out));
  hist64<<<16, 256>>>(d, n, dbins);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dbins, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ref[h[i] & (BINS - 1)]++;
  int bad = 0;
  for (int b = 0; b < BINS; b++) bad += out[b] != ref[b];
  CHECK(cudaFree(d));
  CHECK(cudaFree(dbins));
  return result("hist64", bad, "bin0 %u bin63 %u hash %08x", out[0], out[63], fnv(out, BINS));
}
