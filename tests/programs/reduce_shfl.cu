/* reduce_shfl.cu: a block sum with warp shuffles: each warp reduces its
 * values with __shfl_down_sync (offsets from warpSize), lane 0 stores the
 * warp's sum in shared memory, and the first warp reduces those. */
#include "prog.h"

__device__ float warpSum(float v)
{
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__global__ void reduceShfl(const float *in, float *out, int n)
{
  __shared__ float warpSums[32];
  int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  v = warpSum(v);
  if (lane == 0) warpSums[wid] = v;
  __syncthreads();
  int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps ? warpSums[lane] : 0.f;
  if (wid == 0) v = warpSum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

int main()
{
  const int n = 1 << 16, threads = 256, blocks = 32;
  float *h = (float *)malloc(n * sizeof(float)), hout[blocks];
  unsigned s = 7;
  /* small integers: every partial sum is exact in float */
  for (int i = 0; i < n; i++) h[i] = (float)(lcg(&s) % 17) - 8.f;
  float *d, *dout;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  reduceShfl<<<blocks, threads>>>(d, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  int bad = 0;
  double total = 0;
  for (int b = 0; b < blocks; b++) {
    float ref = 0.f;
    for (int i = b * threads; i < n; i += blocks * threads)
      for (int j = 0; j < threads; j++) ref += h[i + j];
    bad += hout[b] != ref;
    total += hout[b];
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("reduce_shfl", bad, "blocks %d sum %.0f hash %08x", blocks, total, fnv(hout, blocks));
}
