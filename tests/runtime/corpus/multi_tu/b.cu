/* multi_tu/b.cu: another unit with the same names, and a template. */
#include "common.h"

static __constant__ int unit_id;
static __device__ int calls;

template <int K> __global__ void tag(int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = unit_id * 1000 + K * i;
  if (i == 0) calls += K;
}

void unit_b_run(int *d, int n)
{
  int id = 2;
  CHECK(cudaMemcpyToSymbol(unit_id, &id, sizeof id));
  tag<3><<<(n + 127) / 128, 128>>>(d, n);
  tag<4><<<(n + 127) / 128, 128>>>(d, n);
  CHECK(cudaGetLastError());
}

int unit_b_value(void)
{
  int v;
  CHECK(cudaMemcpyFromSymbol(&v, calls, sizeof v));
  return v;
}
