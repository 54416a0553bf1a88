// arch.cu: which PTX a fatbinary with both compute_90 and compute_90a PTX
// (and sm_90a SASS) runs: 1 when the arch-specific code ran, 2 otherwise.
#include <cstdio>
__global__ void which(int *o) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  o[threadIdx.x] = 1;
#else
  o[threadIdx.x] = 2;
#endif
}
int main() {
  int *d, h = 0;
  cudaMalloc(&d, 4);
  which<<<1, 1>>>(d);
  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
  printf("arch-specific %d\n", h);
  return h == 1 ? 0 : 1;
}
