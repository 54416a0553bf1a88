// cudaMemset given an element count where it takes bytes: only the first
// quarter of the array is set, and the kernel reads all of it.
#include <cstdio>

constexpr int kThreads = 32;
constexpr int kBlocks = 3;
constexpr int kN = kThreads * kBlocks;

__global__ void bump(int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = v[i] + 1;
}

int main() {
  int *v;
  cudaMalloc(&v, kN * sizeof(int));
  cudaMemset(v, 0, kN); // bytes, not elements
  bump<<<kBlocks, kThreads>>>(v);
  printf("bump: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(v);
  return 0;
}
