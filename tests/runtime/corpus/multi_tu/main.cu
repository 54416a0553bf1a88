/* multi_tu/main.cu: a program of three translation units (main.cu, a.cu,
 * b.cu), each with its own kernels and a file-local __constant__ of the
 * same name; every unit's fatbinary is registered on its own. */
#include <cstdio>
#include <cstdlib>
#include "common.h"

static __constant__ int unit_id;

static __global__ void tag(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = unit_id * 1000 + i;
}

int main(void)
{
  const int n = 100;
  int *d, h[n];
  int id = 0;
  CHECK(cudaMemcpyToSymbol(unit_id, &id, sizeof id));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  tag<<<(n + 31) / 32, 32>>>(d, n);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("main: %d %d\n", h[0], h[n - 1]);
  unit_a_run(d, n);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("a:    %d %d\n", h[0], h[n - 1]);
  unit_b_run(d, n);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("b:    %d %d\n", h[0], h[n - 1]);
  printf("a then b: %d\n", unit_a_value() + unit_b_value());
  CHECK(cudaFree(d));
  return 0;
}
