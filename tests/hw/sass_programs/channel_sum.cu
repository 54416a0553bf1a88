/* channel_sum.cu: per-channel sums of an NHWC image (16 channels), the
 * way normalisation layers start: each thread adds its pixels' channels in
 * registers, stores its 16 partial sums in a row of a shared array and the
 * block reduces the rows pairwise (each thread adds two rows of 16 values:
 * scalar accesses ptxas merges into 128-bit ones), then one atomicAdd per
 * channel to global memory. Unpadded (16-word rows) and padded (17). */
#include "../../programs/prog.h"

#define C 16
#define BLOCK 128

template <int PITCH>
__global__ void channel_sum(const float *img, int pixels, float *sums)
{
  __shared__ float part[BLOCK * PITCH];
  float acc[C];
  for (int c = 0; c < C; c++) acc[c] = 0;
  for (int p = blockIdx.x * BLOCK + threadIdx.x; p < pixels; p += gridDim.x * BLOCK)
    for (int c = 0; c < C; c++) acc[c] += img[p * C + c];
  float *row = part + threadIdx.x * PITCH;
  for (int c = 0; c < C; c++) row[c] = acc[c];
  __syncthreads();
  for (int n = BLOCK / 2; n > 0; n >>= 1) {
    if (threadIdx.x < n) {
      float *other = part + (threadIdx.x + n) * PITCH;
      for (int c = 0; c < C; c++) row[c] += other[c];
    }
    __syncthreads();
  }
  if (threadIdx.x < C) atomicAdd(&sums[threadIdx.x], part[threadIdx.x]);
}

int main()
{
  const int pixels = 8192, blocks = 8, n = pixels * C;
  float *h = (float *)malloc(n * 4), o[C];
  unsigned s = 3;
  for (int i = 0; i < n; i++) h[i] = (float)(lcg(&s) % 32);
  float *d, *ds;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&ds, C * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  float r[C] = {0};
  for (int p = 0; p < pixels; p++)
    for (int c = 0; c < C; c++) r[c] += h[p * C + c];
  int bad = 0;
  unsigned hs[2];
  for (int v = 0; v < 2; v++) {
    CHECK(cudaMemset(ds, 0, C * 4));
    if (v) channel_sum<C + 1><<<blocks, BLOCK>>>(d, pixels, ds);
    else channel_sum<C><<<blocks, BLOCK>>>(d, pixels, ds);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(o, ds, sizeof o, cudaMemcpyDeviceToHost));
    for (int c = 0; c < C; c++) bad += o[c] != r[c];
    hs[v] = fnv(o, C);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(ds));
  return result("channel_sum", bad, "%08x %08x", hs[0], hs[1]);
}
