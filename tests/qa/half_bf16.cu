// __half, __half2 and __nv_bfloat16 in shared memory: a tile of halves is
// reversed and scaled, half2 pairs summed, bf16 rounded; values are small
// integers and halves so every conversion is exact.
#include "qa.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void halves(const float *in, float *outH, float *outH2, float *outB, int n)
{
  __shared__ __half sh[256];
  __shared__ __half2 sh2[128];
  __shared__ __nv_bfloat16 sb[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  float v = i < n ? in[i] : 0.f;
  sh[t] = __float2half(v);
  sb[t] = __float2bfloat16(v * 2.f);
  __syncthreads();
  if (t < 128) sh2[t] = __halves2half2(sh[2 * t], sh[2 * t + 1]);
  __syncthreads();
  __half r = __hmul(sh[255 - t], __float2half(0.5f));
  if (i < n) outH[i] = __half2float(r);
  if (t < 128 && blockIdx.x * 128 + t < n / 2) {
    __half2 p = __hadd2(sh2[t], sh2[127 - t]);
    outH2[blockIdx.x * 128 + t] = __low2float(p) + __high2float(p);
  }
  __nv_bfloat16 b = __hadd(sb[t], sb[t ^ 1]);
  if (i < n) outB[i] = __bfloat162float(b);
}

int main()
{
  const int n = 512; /* two full blocks */
  float in[n], oh[n], oh2[n / 2], ob[n];
  for (int i = 0; i < n; i++) in[i] = (float)((i * 13) % 64) - 32.f;
  float *d, *dh, *dh2, *db;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&dh, n * 4));
  CHECK(cudaMalloc(&dh2, n / 2 * 4)); CHECK(cudaMalloc(&db, n * 4));
  CHECK(cudaMemcpy(d, in, n * 4, cudaMemcpyHostToDevice));
  halves<<<n / 256, 256>>>(d, dh, dh2, db, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(oh, dh, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(oh2, dh2, n / 2 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ob, db, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int b = i / 256, t = i % 256;
    EXPECT_EQ("h", i, oh[i], in[b * 256 + 255 - t] * 0.5f);
    EXPECT_EQ("bf", i, ob[i], 2.f * (in[i] + in[b * 256 + (t ^ 1)]));
  }
  for (int j = 0; j < n / 2; j++) {
    int b = j / 128, t = j % 128;
    const float *s = in + b * 256;
    EXPECT_EQ("h2", j, oh2[j], s[2 * t] + s[2 * (127 - t)] + s[2 * t + 1] + s[2 * (127 - t) + 1]);
  }
  return qa_done("half_bf16");
}
