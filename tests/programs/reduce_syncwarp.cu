/* reduce_syncwarp.cu: a tree reduction that stops barriers at 64 and lets
 * the first warp finish with __syncwarp between its steps (the modern form
 * of the "unrolled last warp"), reading volatile shared memory. */
#include "prog.h"

template <unsigned BLOCK>
__global__ void reduceSyncwarp(const unsigned *in, unsigned *out)
{
  __shared__ unsigned sdata[BLOCK];
  unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t < 32) {
    volatile unsigned *v = sdata;
    unsigned x = v[t] + v[t + 32];
    for (int off = warpSize / 2; off > 0; off >>= 1) {
      v[t] = x;
      __syncwarp();
      x += v[t + off];
      __syncwarp();
    }
    if (t == 0) out[blockIdx.x] = x;
  }
}

int main()
{
  const unsigned BLOCK = 256, blocks = 48, n = BLOCK * blocks;
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), hout[blocks];
  unsigned s = 11;
  for (unsigned i = 0; i < n; i++) h[i] = lcg(&s) & 0xffff;
  unsigned *d, *dout;
  CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, sizeof hout));
  CHECK(cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
  reduceSyncwarp<BLOCK><<<blocks, BLOCK>>>(d, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  int bad = 0;
  unsigned long long total = 0;
  for (unsigned b = 0; b < blocks; b++) {
    unsigned ref = 0;
    for (unsigned i = 0; i < BLOCK; i++) ref += h[b * BLOCK + i];
    bad += hout[b] != ref;
    total += hout[b];
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("reduce_syncwarp", bad, "blocks %u sum %llu hash %08x", blocks, total, fnv(hout, blocks));
}
