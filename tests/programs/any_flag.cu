/* any_flag.cu: the "any thread found it" flag: every thread that sees a
 * match stores the same value (1) to one __shared__ flag, and all threads
 * of a block store the same pointer to a shared pointer variable; both
 * are read after a barrier (same-value stores: racecheck does not count
 * them as hazards). */
#include "prog.h"

__global__ void anyMatch(const int *in, int key, int *found, const int **where)
{
  __shared__ int flag;
  __shared__ const int *base;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  base = in + blockIdx.x * blockDim.x; /* every thread: the same pointer */
  if (in[blockIdx.x * blockDim.x + threadIdx.x] == key) flag = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    found[blockIdx.x] = flag;
    where[blockIdx.x] = base;
  }
}

int main()
{
  const int blocks = 32, threads = 128, n = blocks * threads;
  int *h = (int *)malloc(n * 4), found[blocks];
  const int *where[blocks];
  unsigned s = 101;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 300);
  int *d, *df;
  const int **dw;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&df, sizeof found));
  CHECK(cudaMalloc(&dw, sizeof where));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  anyMatch<<<blocks, threads>>>(d, 123, df, dw);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(found, df, sizeof found, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(where, dw, sizeof where, cudaMemcpyDeviceToHost));
  int bad = 0, nfound = 0;
  for (int b = 0; b < blocks; b++) {
    int r = 0;
    for (int t = 0; t < threads; t++) r |= h[b * threads + t] == 123;
    bad += found[b] != r || where[b] != d + b * threads;
    nfound += found[b];
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(df));
  CHECK(cudaFree(dw));
  return result("any_flag", bad, "blocks with key %d hash %08x", nfound, fnv(found, blocks));
}
