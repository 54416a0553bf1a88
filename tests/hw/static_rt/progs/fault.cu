// A kernel that faults: the sticky error and the messages.
#include <cstdio>
__global__ void bad(int *p) { p[threadIdx.x] = 1; }
int main() {
  bad<<<1, 1>>>((int *)8);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync=%d %s\n", (int)e, cudaGetErrorName(e));
  int *d;
  printf("malloc after=%d last=%d\n", (int)cudaMalloc(&d, 4), (int)cudaGetLastError());
  return 0;
}
