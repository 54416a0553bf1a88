// cudaLaunchKernel with an argument array (the form libraries use instead of
// <<<>>>): a block-local reversal through shared memory, then scaled.
#include "qa.h"

__global__ void scale(int *p, int n, int k)
{
  __shared__ int tmp[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  tmp[63 - threadIdx.x] = i < n ? p[i] : 0;
  __syncthreads();
  int j = blockIdx.x * 64 + 63 - threadIdx.x;
  if (j < n) p[j] = tmp[threadIdx.x] * k;
}

int main()
{
  const int n = 10000;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = i % 97;
  int *d;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  int nn = n, k = 3;
  void *args2[] = {&d, &nn, &k};
  CHECK(cudaLaunchKernel((void *)scale, dim3((n + 63) / 64), dim3(64), args2, 0, 0));
  CHECK(cudaMemcpy(o, d, n * 4, cudaMemcpyDeviceToHost));
  /* each element goes through the reversed tile and comes back to its own index */
  for (int i = 0; i < n; i++) EXPECT_EQ("scale", i, o[i], h[i] * 3);
  return qa_done("launch_kernel");
}
