/* illegal.cu: a kernel writing through a bad pointer. The launch succeeds,
 * the synchronisation returns cudaErrorIllegalAddress, later calls too
 * (sticky; not cudaGetLastError) until cudaDeviceReset; then it works. */
#include <cstdio>

__global__ void write_at(int *p, int v) { p[threadIdx.x] = v; }

int main(void)
{
  int *good;
  cudaMalloc(&good, 256);
  write_at<<<1, 32>>>(good, 1);
  printf("good kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  write_at<<<1, 32>>>((int *)0x10, 2);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("again: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int *p = nullptr;
  printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&p, 64)));
  cudaError_t first = cudaGetLastError(), second = cudaGetLastError();
  printf("get %s, then %s\n", cudaGetErrorName(first), cudaGetErrorName(second));
  e = cudaDeviceReset();
  printf("reset: %s\n", cudaGetErrorName(e));
  printf("last error after reset: %s\n", cudaGetErrorName(cudaGetLastError()));
  e = cudaMalloc(&p, 64);
  printf("malloc after reset: %s\n", cudaGetErrorName(e));
  int h[32] = {0};
  if (e == cudaSuccess) {
    write_at<<<1, 16>>>(p, 9);
    e = cudaMemcpy(h, p, 16 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("kernel after reset: %s, value %d\n", cudaGetErrorName(e), h[15]);
  }
  return 0;
}
