/* generic_ptr.cu: shared memory reached through generic pointers, which
 * ptxas cannot prove shared and so accesses with LD/ST/ATOM instead of
 * LDS/STS/ATOMS: (1) a __noinline__ function that sums a row through a
 * plain float pointer, called with a shared row; (2) a pointer that is
 * shared or global depending on a kernel argument; (3) atomicAdd through a
 * __noinline__ function's int pointer, called with a shared counter
 * (NVVM clones (1) and (3) for the shared space: LDS/ATOMS); (4) atomics
 * and loads through a pointer that is shared or global by argument. */
#include "../../programs/prog.h"

#define BLOCK 128

__device__ __noinline__ float row_sum(const float *p, int n)
{
  float s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

__device__ __noinline__ void bump(int *c, int v) { atomicAdd(c, v); }

__device__ __noinline__ void put(float *p, int i, float v) { p[i] = v; }

__global__ void generic_rows(const float *in, float *out)
{
  __shared__ float tile[BLOCK][9];
  int t = threadIdx.x;
  for (int i = 0; i < 8; i++) put(&tile[0][0], t * 9 + i, in[(blockIdx.x * BLOCK + t) * 8 + i]);
  __syncthreads();
  out[blockIdx.x * BLOCK + t] = row_sum(tile[(t + 3) % BLOCK], 8);
}

__global__ void generic_select(const float *in, float *out, float *scratch, int use_shared)
{
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  float *p = use_shared ? s : scratch + blockIdx.x * BLOCK;
  p[t] = in[blockIdx.x * BLOCK + t] * 2;
  __syncthreads();
  out[blockIdx.x * BLOCK + t] = p[(t * 3) % BLOCK] + p[t];
}

__global__ void generic_atomic(const int *in, int *out)
{
  __shared__ int count[4];
  int t = threadIdx.x;
  if (t < 4) count[t] = 0;
  __syncthreads();
  int v = in[blockIdx.x * BLOCK + t];
  bump(&count[v & 3], v);
  __syncthreads();
  if (t < 4) out[blockIdx.x * 4 + t] = count[t];
}

__global__ void generic_atomic_select(const int *in, int *out, int *scratch, int use_shared)
{
  __shared__ int count[4];
  int t = threadIdx.x;
  int *c = use_shared ? count : scratch + blockIdx.x * 4;
  if (t < 4) c[t] = 0;
  __syncthreads();
  int v = in[blockIdx.x * BLOCK + t];
  atomicAdd(&c[v & 3], v);
  __syncthreads();
  if (t < 4) out[blockIdx.x * 4 + t] = c[t];
}

int main()
{
  const int blocks = 4, n = blocks * BLOCK;
  float *hf = (float *)malloc(n * 8 * 4), of[n];
  int hi[n], oi[blocks * 4];
  unsigned s = 61;
  for (int i = 0; i < n * 8; i++) hf[i] = (float)(lcg(&s) % 50);
  for (int i = 0; i < n; i++) hi[i] = (int)(lcg(&s) % 1000);
  float *df, *dof, *dsc;
  int *di, *doi;
  CHECK(cudaMalloc(&df, n * 8 * 4));
  CHECK(cudaMalloc(&dof, n * 4));
  CHECK(cudaMalloc(&dsc, n * 4));
  CHECK(cudaMalloc(&di, n * 4));
  CHECK(cudaMalloc(&doi, sizeof oi));
  CHECK(cudaMemcpy(df, hf, n * 8 * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(di, hi, n * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[4];
  generic_rows<<<blocks, BLOCK>>>(df, dof);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(of, dof, n * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < BLOCK; t++) {
      float r = 0;
      for (int i = 0; i < 8; i++) r += hf[(b * BLOCK + (t + 3) % BLOCK) * 8 + i];
      bad += of[b * BLOCK + t] != r;
    }
  hs[0] = fnv(of, n);
  for (int u = 1; u >= 0; u--) {
    generic_select<<<blocks, BLOCK>>>(df, dof, dsc, u);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(of, dof, n * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < BLOCK; t++)
        bad += of[b * BLOCK + t] != hf[b * BLOCK + (t * 3) % BLOCK] * 2 + hf[b * BLOCK + t] * 2;
    hs[2 - u] = fnv(of, n);
  }
  generic_atomic<<<blocks, BLOCK>>>(di, doi);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(oi, doi, sizeof oi, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int k = 0; k < 4; k++) {
      int r = 0;
      for (int t = 0; t < BLOCK; t++)
        if ((hi[b * BLOCK + t] & 3) == k) r += hi[b * BLOCK + t];
      bad += oi[b * 4 + k] != r;
    }
  hs[3] = fnv(oi, blocks * 4);
  int *dsi = (int *)dsc;
  for (int u = 1; u >= 0; u--) {
    generic_atomic_select<<<blocks, BLOCK>>>(di, doi, dsi, u);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(oi, doi, sizeof oi, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
      for (int k = 0; k < 4; k++) {
        int r = 0;
        for (int t = 0; t < BLOCK; t++)
          if ((hi[b * BLOCK + t] & 3) == k) r += hi[b * BLOCK + t];
        bad += oi[b * 4 + k] != r;
      }
  }
  CHECK(cudaFree(df));
  CHECK(cudaFree(dof));
  CHECK(cudaFree(dsc));
  CHECK(cudaFree(di));
  CHECK(cudaFree(doi));
  return result("generic_ptr", bad, "%08x %08x %08x %08x", hs[0], hs[1], hs[2], hs[3]);
}
