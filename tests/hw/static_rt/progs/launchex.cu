// cudaLaunchKernelEx with a cluster attribute, cudaLaunchKernel, and
// __constant__ / __device__ variables through the symbol API.
#include <cstdio>
__constant__ int coef[4];
__device__ int counter;
__global__ void k(int *o) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = coef[threadIdx.x % 4] + blockIdx.x;
  atomicAdd(&counter, 1);
}
int main() {
  int c[4] = {10, 20, 30, 40}, *d, h[256], zero = 0;
  cudaMemcpyToSymbol(coef, c, sizeof c);
  cudaMemcpyToSymbol(counter, &zero, sizeof zero);
  cudaMalloc(&d, sizeof h);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(4);
  cfg.blockDim = dim3(64);
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 2;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&cfg, k, d);
  void *args[] = {&d};
  cudaError_t e2 = cudaLaunchKernel((const void *)k, dim3(4), dim3(64), args, 0, 0);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int cnt = 0;
  cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt);
  int *pc = 0;
  cudaGetSymbolAddress((void **)&pc, counter);
  printf("ex=%d launch=%d h[65]=%d h[255]=%d counter=%d addr_ok=%d\n", (int)e, (int)e2, h[65], h[255], cnt, pc != 0);
  at[0].val.clusterDim.x = 3;
  printf("bad cluster: %d\n", (int)cudaLaunchKernelEx(&cfg, k, d));
  return 0;
}
