// __launch_bounds__ kernels: the attribute caps maxThreadsPerBlock, a launch
// above it fails, below it runs; a tiled 1-D stencil with halo in shared.
#include "qa.h"

#define R 3
template <int BS>
__global__ void __launch_bounds__(BS, 2) stencil(const float *in, float *out, int n)
{
  __shared__ float tile[BS + 2 * R];
  int g = blockIdx.x * BS + threadIdx.x;
  int l = threadIdx.x + R;
  tile[l] = g < n ? in[g] : 0.f;
  if (threadIdx.x < R) {
    tile[l - R] = g - R >= 0 && g - R < n ? in[g - R] : 0.f;
    tile[l + BS] = g + BS < n ? in[g + BS] : 0.f;
  }
  __syncthreads();
  if (g < n) {
    float s = 0.f;
#pragma unroll
    for (int k = -R; k <= R; k++) s += tile[l + k] * (float)(k + R + 1);
    out[g] = s;
  }
}

int main()
{
  const int n = 3000;
  float *h = (float *)malloc(n * 4), *o = (float *)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = (float)(i % 17) - 8.f;
  float *di, *dout;
  CHECK(cudaMalloc(&di, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(di, h, n * 4, cudaMemcpyHostToDevice));
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, stencil<128>));
  EXPECT_EQ("maxThreadsPerBlock", 0, fa.maxThreadsPerBlock, 128);
  EXPECT_EQ("sharedSizeBytes", 0, (int)fa.sharedSizeBytes, (128 + 2 * R) * 4);
  stencil<128><<<(n + 127) / 128, 256>>>(di, dout, n); /* above the bound */
  EXPECT_EQ("over-bound launch fails", 0, cudaGetLastError() != cudaSuccess, 1);
  CHECK(cudaDeviceSynchronize());
  stencil<128><<<(n + 127) / 128, 128>>>(di, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float s = 0.f;
    for (int k = -R; k <= R; k++) s += (i + k >= 0 && i + k < n ? h[i + k] : 0.f) * (float)(k + R + 1);
    EXPECT_EQ("stencil128", i, o[i], s);
  }
  stencil<64><<<(n + 63) / 64, 64>>>(di, dout, n);
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float s = 0.f;
    for (int k = -R; k <= R; k++) s += (i + k >= 0 && i + k < n ? h[i + k] : 0.f) * (float)(k + R + 1);
    EXPECT_EQ("stencil64", i, o[i], s);
  }
  return qa_done("launch_bounds");
}
