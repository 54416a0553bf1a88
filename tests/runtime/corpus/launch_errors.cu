/* launch_errors.cu: launches CUDA refuses, with the error each gives (CUDA
 * 13: invalid argument for every bad configuration) and its (non-sticky)
 * life: cudaGetLastError returns and clears it, cudaPeekAtLastError returns
 * it and keeps it, and a good launch works afterwards. */
#include <cstdio>
#include <cstdlib>

__global__ void k(int *x)
{
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  x[t + blockIdx.x * blockDim.x * blockDim.y * blockDim.z] = (int)t;
}
__global__ void __launch_bounds__(128) bounded(int *x) { x[threadIdx.x] = 1; }
__global__ void params_only(int a, int b, int *out) { *out = a * b; }

static void show(const char *what)
{
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t peek2 = cudaPeekAtLastError();
  cudaError_t get = cudaGetLastError();
  cudaError_t after = cudaGetLastError();
  printf("%-34s peek %s, peek again %s, get %s, then %s\n", what, cudaGetErrorName(peek), cudaGetErrorName(peek2),
         cudaGetErrorName(get), cudaGetErrorName(after));
}

int main(void)
{
  int *d;
  if (cudaMalloc(&d, 1 << 20) != cudaSuccess) return 1;
  show("nothing yet:");
  k<<<1, 1025>>>(d);
  show("1025 threads:");
  k<<<1, dim3(32, 32, 2)>>>(d);
  show("32x32x2 threads:");
  k<<<1, dim3(1, 1, 65)>>>(d);
  show("block z 65:");
  k<<<1, dim3(1025, 1, 1)>>>(d);
  show("block x 1025:");
  k<<<0, 32>>>(d);
  show("grid 0:");
  k<<<dim3(1, 65536), 32>>>(d);
  show("grid y 65536:");
  k<<<dim3(1, 1, 65536), 32>>>(d);
  show("grid z 65536:");
  k<<<dim3(1, 1, 0), 32>>>(d);
  show("grid z 0:");
  k<<<1, 0>>>(d);
  show("block 0:");
  bounded<<<1, 256>>>(d);
  show("256 threads, bounds 128:");
  bounded<<<1, 128>>>(d);
  show("128 threads, bounds 128:");
  k<<<1, 64, 64 * 1024>>>(d);
  show("64 KB dynamic shared:");
  cudaError_t e = cudaLaunchKernel((const void *)main, dim3(1), dim3(1), nullptr, 0, 0);
  printf("cudaLaunchKernel(main): %s\n", cudaGetErrorName(e));
  show("after it:");

  /* two errors in a row: the last one is kept */
  k<<<0, 32>>>(d);
  k<<<1, 64, 64 * 1024>>>(d);
  show("two failures:");

  /* good launches after all that */
  k<<<dim3(2, 1, 1), dim3(16, 2, 1)>>>(d);
  show("a good launch:");
  int *out;
  cudaMalloc(&out, sizeof(int));
  params_only<<<1, 1>>>(6, 7, out);
  int h = 0;
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("6 * 7 = %d\n", h);
  e = cudaDeviceSynchronize();
  printf("synchronize: %s\n", cudaGetErrorName(e));
  show("end:");
  return 0;
}
