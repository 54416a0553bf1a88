/* last_block.cu: a single-pass sum with the "last block" pattern: every
 * block reduces in shared memory and writes its partial sum, fences with
 * __threadfence(), and takes a ticket from a global counter; the block
 * that draws the last ticket adds all partial sums (the threadFenceReduction
 * pattern). */
#include "prog.h"

#define BLOCK 128

__device__ unsigned ticket;

__global__ void sumLast(const int *in, int n, int *partial, int *result)
{
  __shared__ int sdata[BLOCK];
  __shared__ bool amLast;
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  sdata[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = sdata[0];
    __threadfence();
    unsigned v = atomicInc(&ticket, gridDim.x);
    amLast = v == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast) {
    int acc = 0;
    for (int b = t; b < gridDim.x; b += BLOCK) acc += ((volatile int *)partial)[b];
    sdata[t] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (t < s) sdata[t] += sdata[t + s];
      __syncthreads();
    }
    if (t == 0) {
      *result = sdata[0];
      ticket = 0;
    }
  }
}

int main()
{
  const int n = 30000, blocks = (n + BLOCK - 1) / BLOCK;
  int *h = (int *)malloc(n * 4), res[2];
  unsigned s = 83;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 1001) - 500;
  int *d, *dp, *dr;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dp, blocks * 4));
  CHECK(cudaMalloc(&dr, 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  /* twice: the last block resets the ticket for the next launch */
  for (int r = 0; r < 2; r++) {
    sumLast<<<blocks, BLOCK>>>(d + r, n - r, dp, dr);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&res[r], dr, 4, cudaMemcpyDeviceToHost));
  }
  long long ref0 = 0;
  for (int i = 0; i < n; i++) ref0 += h[i];
  int bad = res[0] != ref0 || res[1] != ref0 - h[0];
  CHECK(cudaFree(d));
  CHECK(cudaFree(dp));
  CHECK(cudaFree(dr));
  return result("last_block", bad, "blocks %d sums %d %d", blocks, res[0], res[1]);
}
