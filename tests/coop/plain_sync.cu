// grid.sync() in a kernel launched without cudaLaunchCooperativeKernel:
// the grid has no workspace, is_valid() is false and sync() traps.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void needs_grid(int *o) {
  o[blockIdx.x] = 1;
  cg::this_grid().sync();
  o[blockIdx.x] = 2;
}

int main() {
  int *o;
  cudaMalloc(&o, 4 * sizeof(int));
  needs_grid<<<4, 32>>>(o);
  cudaError_t e = cudaDeviceSynchronize();
  printf("plain launch of grid.sync(): %s\n", cudaGetErrorName(e));
  return 0;
}
