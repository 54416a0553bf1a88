/* six_scalars.cu: a block keeps its parameters in six separate __shared__
 * scalars that thread 0 writes in a row (ptxas may lay them out side by
 * side and merge the stores); all threads then read them. */
#include "prog.h"

__global__ void params(const unsigned *cfg, unsigned *out)
{
  __shared__ unsigned s0, s1, s2, s3, s4, s5;
  if (threadIdx.x == 0) {
    const unsigned *c = cfg + blockIdx.x * 6;
    s0 = c[0];
    s1 = c[1];
    s2 = c[2];
    s3 = c[3];
    s4 = c[4];
    s5 = c[5];
  }
  __syncthreads();
  unsigned t = threadIdx.x;
  out[blockIdx.x * blockDim.x + t] = (s0 * t + s1) ^ (s2 + t * s3) ^ (s4 << (t & 7)) ^ s5;
}

int main()
{
  const int blocks = 8, threads = 128, n = blocks * threads;
  unsigned cfg[blocks * 6], *o = (unsigned *)malloc(n * 4);
  unsigned s = 89;
  for (int i = 0; i < blocks * 6; i++) cfg[i] = lcg(&s);
  unsigned *dc, *dout;
  CHECK(cudaMalloc(&dc, sizeof cfg));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(dc, cfg, sizeof cfg, cudaMemcpyHostToDevice));
  params<<<blocks, threads>>>(dc, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++)
    for (unsigned t = 0; t < (unsigned)threads; t++) {
      const unsigned *c = cfg + b * 6;
      unsigned r = (c[0] * t + c[1]) ^ (c[2] + t * c[3]) ^ (c[4] << (t & 7)) ^ c[5];
      bad += o[b * threads + t] != r;
    }
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dout));
  return result("six_scalars", bad, "hash %08x", fnv(o, n));
}
