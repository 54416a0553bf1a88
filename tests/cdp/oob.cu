// oob.cu: a child grid writes past the end of its array (8 threads, 4
// ints): the error names the child and the launch site, the parent's
// block 1, thread 2.
#include <cstdio>

__global__ void child(int *p) { p[threadIdx.x] = (int)threadIdx.x; }

__global__ void parent(int *p) {
  if (blockIdx.x == 1 && threadIdx.x == 2) child<<<1, 8>>>(p);
}

int main() {
  int *p;
  cudaMalloc(&p, 4 * sizeof(int));
  parent<<<2, 4>>>(p);
  cudaError_t e = cudaDeviceSynchronize();
  printf("oob: sync %d\n", (int)e);
  return 0;
}
