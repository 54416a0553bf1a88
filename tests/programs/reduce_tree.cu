/* reduce_tree.cu: the classic shared-memory tree reduction of one block's
 * elements (interleaved-free, sequential addressing), the loop bound taken
 * from warpSize so the last warp's steps are counted like the others. */
#include "prog.h"

__global__ void reduceTree(const int *in, int *out, int n)
{
  extern __shared__ int sdata[];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + t;
  int v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[t] = v;
  __syncthreads();
  unsigned s = blockDim.x / 2;
  for (; s >= (unsigned)warpSize; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  /* below a warp's width only the first warp works; it still syncs */
  for (; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}

int main()
{
  const int n = 40000, threads = 256;
  const int blocks = (n + threads * 2 - 1) / (threads * 2);
  int *h = (int *)malloc(n * sizeof(int)), *hout = (int *)malloc(blocks * sizeof(int));
  unsigned s = 1;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 1000) - 500;
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  reduceTree<<<blocks, threads, threads * sizeof(int)>>>(d, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  long long total = 0;
  for (int b = 0; b < blocks; b++) {
    int ref = 0;
    for (int i = b * threads * 2; i < (b + 1) * threads * 2 && i < n; i++) ref += h[i];
    bad += hout[b] != ref;
    total += hout[b];
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("reduce_tree", bad, "blocks %d sum %lld hash %08x", blocks, total, fnv(hout, blocks));
}
