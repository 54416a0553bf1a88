/* block_reduce.cu: block reductions as samples write them: (1) warp
 * shuffles, warp partials in shared, thread 0 adds the 8 partials in a
 * loop (ptxas reads them with wide LDS); (2) each thread stores a pair of
 * values (two scalar stores ptxas may merge), then a tree over pairs;
 * (3) per-warp {sum, max} structs in shared, read field by field. */
#include "../../programs/prog.h"

#define BLOCK 256
#define WARPS (BLOCK / 32)

__global__ void reduce_warp_partials(const float *in, float *out)
{
  __shared__ float part[WARPS];
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < WARPS; w++) s += part[w];
    out[blockIdx.x] = s;
  }
}

__global__ void reduce_pairs(const int *in, int *out)
{
  __shared__ int s[2 * BLOCK];
  const int *p = in + blockIdx.x * 2 * BLOCK;
  int t = threadIdx.x;
  s[2 * t] = p[t];
  s[2 * t + 1] = p[t + BLOCK];
  __syncthreads();
  /* each round adds neighbouring pairs: n sums remain in s[0..n) */
  for (int n = BLOCK; n > 0; n >>= 1) {
    int a = 0;
    if (t < n) a = s[2 * t] + s[2 * t + 1];
    __syncthreads();
    if (t < n) s[t] = a;
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

struct stat2 { float sum; float max; };

__global__ void reduce_struct(const float *in, float *out)
{
  __shared__ stat2 ws[WARPS];
  float v = in[blockIdx.x * BLOCK + threadIdx.x], m = v;
  for (int o = 16; o > 0; o >>= 1) {
    v += __shfl_xor_sync(0xffffffffu, v, o);
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  }
  if (threadIdx.x % 32 == 0) {
    ws[threadIdx.x / 32].sum = v;
    ws[threadIdx.x / 32].max = m;
  }
  __syncthreads();
  if (threadIdx.x < 32) {
    float s = threadIdx.x < WARPS ? ws[threadIdx.x].sum : 0.f;
    float x = threadIdx.x < WARPS ? ws[threadIdx.x].max : -1e30f;
    for (int o = 16; o > 0; o >>= 1) {
      s += __shfl_xor_sync(0xffffffffu, s, o);
      x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, o));
    }
    if (threadIdx.x == 0) {
      out[2 * blockIdx.x] = s;
      out[2 * blockIdx.x + 1] = x;
    }
  }
}

int main()
{
  const int blocks = 16, n = blocks * BLOCK;
  float *hf = (float *)malloc(n * 4), of[2 * blocks];
  int *hi = (int *)malloc(2 * n * 4), oi[blocks];
  unsigned s = 5;
  /* small integers: float sums are exact in any order */
  for (int i = 0; i < n; i++) hf[i] = (float)(lcg(&s) % 64);
  for (int i = 0; i < 2 * n; i++) hi[i] = (int)(lcg(&s) % 1000) - 500;
  float *df, *dof;
  int *di, *doi;
  CHECK(cudaMalloc(&df, n * 4));
  CHECK(cudaMalloc(&dof, sizeof of));
  CHECK(cudaMalloc(&di, 2 * n * 4));
  CHECK(cudaMalloc(&doi, sizeof oi));
  CHECK(cudaMemcpy(df, hf, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(di, hi, 2 * n * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  reduce_warp_partials<<<blocks, BLOCK>>>(df, dof);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(of, dof, blocks * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    float r = 0;
    for (int t = 0; t < BLOCK; t++) r += hf[b * BLOCK + t];
    bad += of[b] != r;
  }
  unsigned h1 = fnv(of, blocks);
  reduce_pairs<<<blocks, BLOCK>>>(di, doi);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(oi, doi, sizeof oi, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int r = 0;
    for (int t = 0; t < 2 * BLOCK; t++) r += hi[b * 2 * BLOCK + t];
    bad += oi[b] != r;
  }
  reduce_struct<<<blocks, BLOCK>>>(df, dof);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(of, dof, sizeof of, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    float r = 0, m = -1e30f;
    for (int t = 0; t < BLOCK; t++) r += hf[b * BLOCK + t], m = fmaxf(m, hf[b * BLOCK + t]);
    bad += of[2 * b] != r || of[2 * b + 1] != m;
  }
  CHECK(cudaFree(df));
  CHECK(cudaFree(dof));
  CHECK(cudaFree(di));
  CHECK(cudaFree(doi));
  return result("block_reduce", bad, "%08x %08x %08x", h1, fnv(oi, blocks), fnv(of, 2 * blocks));
}
