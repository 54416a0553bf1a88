/* assert.cu: a failing device assertion. The device prints it (stderr); the
 * next synchronising call returns cudaErrorAssert, as does every later call
 * needing the device (sticky), but cudaGetLastError clears it (CUDA 13). */
#include <cassert>
#include <cstdio>

__global__ void check_values(const int *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(x[i] != 5);
}

int main(void)
{
  const int n = 32;
  int h[n], *d;
  for (int i = 0; i < n; i++) h[i] = i == 17 ? 5 : i + 100;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check_values<<<1, n>>>(d, n);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  cudaError_t first = cudaGetLastError(), second = cudaGetLastError(), peek = cudaPeekAtLastError();
  printf("get %s, get %s, peek %s\n", cudaGetErrorName(first), cudaGetErrorName(second), cudaGetErrorName(peek));
  int *d2 = nullptr;
  e = cudaMalloc(&d2, 64);
  printf("malloc after the assertion: %s\n", cudaGetErrorName(e));
  e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("memcpy after the assertion: %s\n", cudaGetErrorName(e));
  check_values<<<1, n>>>(d, n);
  printf("launch after the assertion: %s\n", cudaGetErrorName(cudaGetLastError()));
  int count = -1;
  e = cudaGetDeviceCount(&count);
  printf("device count: %s, %d\n", cudaGetErrorName(e), count);
  return 0;
}
