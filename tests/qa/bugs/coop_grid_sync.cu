// grid.sync() in a cooperative launch: cudaLaunchCooperativeKernel returns
// cudaErrorNotSupported ("not supported by smemu's runtime") while
// cudaDevAttrCooperativeLaunch reports 1, so a program that checks the
// attribute before launching still fails. Blocks would have to run
// concurrently up to the grid barrier.
// smemu run tests/qa/bugs/coop_grid_sync.cu
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(int *flag, int *out)
{
  if (blockIdx.x == 1 && threadIdx.x == 0) *flag = 42;
  cg::this_grid().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = *flag;
}

int main()
{
  int *d, h = 0, attr = 0;
  cudaMalloc(&d, 8);
  cudaMemset(d, 0, 8);
  cudaDeviceGetAttribute(&attr, cudaDevAttrCooperativeLaunch, 0);
  int *flag = d, *out = d + 1;
  void *args[] = {&flag, &out};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)k, dim3(2), dim3(32), args, 0, 0);
  cudaMemcpy(&h, out, 4, cudaMemcpyDeviceToHost);
  printf("attr %d launch %s out %d (expected: attr 1 launch no error out 42)\n", attr, cudaGetErrorName(e), h);
  return h == 42 ? 0 : 1;
}
