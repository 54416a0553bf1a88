// A kernel that prints and writes, launched with <<<>>>.
#include <cstdio>
__global__ void hello(int *out) {
  out[threadIdx.x] = threadIdx.x * 2;
  if (threadIdx.x == 0) printf("hello from block %d\n", blockIdx.x);
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  hello<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("sync=%d h[5]=%d h[31]=%d\n", (int)e, h[5], h[31]);
  cudaFree(d);
  return 0;
}
