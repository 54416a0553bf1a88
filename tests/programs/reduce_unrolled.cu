/* reduce_unrolled.cu: a block-size template reduction over dynamic shared
 * memory (extern __shared__), each thread first summing several elements
 * in a grid-stride loop, the tree fully unrolled, with a warp-shuffle tail
 * (offsets from warpSize); launched for three block sizes. */
#include "prog.h"

template <unsigned B>
__global__ void reduceUnrolled(const unsigned *in, unsigned n, unsigned *out)
{
  extern __shared__ unsigned sm[];
  unsigned t = threadIdx.x, sum = 0;
  for (unsigned i = blockIdx.x * B + t; i < n; i += B * gridDim.x) sum += in[i];
  sm[t] = sum;
  __syncthreads();
  if (B >= 512 && t < 256) sm[t] = sum = sum + sm[t + 256];
  __syncthreads();
  if (B >= 256 && t < 128) sm[t] = sum = sum + sm[t + 128];
  __syncthreads();
  if (B >= 128 && t < 64) sm[t] = sum = sum + sm[t + 64];
  __syncthreads();
  if (t < 32) {
    if (B >= 64) sum += sm[t + 32];
    for (int off = warpSize / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (t == 0) out[blockIdx.x] = sum;
  }
}

template <unsigned B>
static int runOne(const unsigned *d, const unsigned *h, unsigned n, unsigned blocks, unsigned *hash)
{
  unsigned *dout, out[64];
  CHECK(cudaMalloc(&dout, blocks * 4));
  reduceUnrolled<B><<<blocks, B, B * sizeof(unsigned)>>>(d, n, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, blocks * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dout));
  int bad = 0;
  for (unsigned b = 0; b < blocks; b++) {
    unsigned r = 0;
    for (unsigned i = b * B; i < n; i += B * blocks)
      for (unsigned j = 0; j < B && i + j < n; j++) r += h[i + j];
    bad += out[b] != r;
  }
  *hash ^= fnv(out, blocks);
  return bad;
}

int main()
{
  const unsigned n = 30000;
  unsigned *h = (unsigned *)malloc(n * 4), hash = 0;
  unsigned s = 97;
  for (unsigned i = 0; i < n; i++) h[i] = lcg(&s) & 0xfff;
  unsigned *d;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  int bad = runOne<512>(d, h, n, 16, &hash) + runOne<256>(d, h, n, 24, &hash) + runOne<64>(d, h, n, 40, &hash);
  CHECK(cudaFree(d));
  return result("reduce_unrolled", bad, "hash %08x", hash);
}
