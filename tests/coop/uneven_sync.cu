// Only block 0 reaches grid.sync(): on the GPU the launch never ends;
// smemu must report the hang and name the loop.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void uneven(int *o) {
  if (blockIdx.x == 0) cg::this_grid().sync();
  o[blockIdx.x] = 1;
}

int main() {
  int *o;
  cudaMalloc(&o, 4 * sizeof(int));
  void *args[] = {&o};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)uneven, 4, 32, args, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  printf("uneven grid.sync(): %s\n", cudaGetErrorName(e));
  return 0;
}
