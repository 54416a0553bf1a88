// depth.cu: a recursion of grids that print their depth (tree), and a
// chain of single-thread grids that launch one more level until a launch
// fails (deep): the level where the nesting limit stops it and the error
// each level's launch got.
#include <cstdio>

__device__ int count;
__device__ int deep_err[40];
__device__ int deep_reached;

__global__ void tree(int depth, int maxd) {
  printf("tree depth %d block %d thread %d\n", depth, blockIdx.x, threadIdx.x);
  atomicAdd(&count, 1);
  if (depth < maxd && threadIdx.x == 0) {
    tree<<<2, 2>>>(depth + 1, maxd);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("tree launch error %d\n", (int)e);
  }
}

__global__ void deep(int level) {
  atomicMax(&deep_reached, level);
  if (level >= 39) return;
  deep<<<1, 1>>>(level + 1);
  deep_err[level] = (int)cudaGetLastError();
}

int main() {
  tree<<<2, 2>>>(0, 3);
  cudaError_t e = cudaDeviceSynchronize();
  int c = 0;
  cudaMemcpyFromSymbol(&c, count, sizeof c);
  printf("tree: sync %d, %d threads ran (expected 60)\n", (int)e, c);
  deep<<<1, 1>>>(0);
  e = cudaDeviceSynchronize();
  int err[40], reached = 0;
  cudaMemcpyFromSymbol(err, deep_err, sizeof err);
  cudaMemcpyFromSymbol(&reached, deep_reached, sizeof reached);
  printf("deep: sync %d, deepest level %d\n", (int)e, reached);
  for (int i = 0; i <= reached && i < 40; i++)
    if (err[i]) printf("deep: level %d launch error %d\n", i, err[i]);
  return 0;
}
