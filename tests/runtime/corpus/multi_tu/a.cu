/* multi_tu/a.cu: one unit's kernel, constant and device variable. */
#include "common.h"

static __constant__ int unit_id;
static __device__ int calls;

static __global__ void tag(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = unit_id * 1000 + 2 * i;
  if (i == 0) calls += 10;
}

void unit_a_run(int *d, int n)
{
  int id = 1;
  CHECK(cudaMemcpyToSymbol(unit_id, &id, sizeof id));
  tag<<<(n + 63) / 64, 64>>>(d, n);
  CHECK(cudaGetLastError());
}

int unit_a_value(void)
{
  int v;
  CHECK(cudaMemcpyFromSymbol(&v, calls, sizeof v));
  return v;
}
