// memcheck and --destroy-on-device-error kernel: three faulting kernels in a
// row, then a correct one. Natively the first fault (misaligned) is sticky
// and every later call returns it; compute-sanitizer's default ends the
// context at the first error; with --destroy-on-device-error kernel each
// faulting kernel is reported and the program goes on.
#include "san.cuh"
#include <cstdint>

__global__ void misalignedWrite(int *p)
{
  if (threadIdx.x == 5)
    *(int *)((char *)p + 2) = 1;
}

__global__ void overrunWrite(int *p, int n)
{
  if (threadIdx.x == 7)
    p[n] = 7;
}

__global__ void wildWrite(int *wild)
{
  if (blockIdx.x == 1 && threadIdx.x == 2)
    *wild = 3;
}

__global__ void fine(int *p)
{
  p[threadIdx.x] = threadIdx.x;
}

int main()
{
  const int n = 32;
  int *p = 0;
  CALL(cudaMalloc(&p, n * sizeof(int)));
  ADDR("p", p);
  misalignedWrite<<<1, 32>>>(p);
  SYNC("misalignedWrite");
  overrunWrite<<<1, 32>>>(p, n);
  SYNC("overrunWrite");
  wildWrite<<<2, 32>>>((int *)(uintptr_t)0x1000);
  SYNC("wildWrite");
  fine<<<1, 32>>>(p);
  SYNC("fine");
  int h[n] = {0};
  CALL(cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost));
  printf("h[31] %d\n", h[31]);
  CALL(cudaFree(p));
  return 0;
}
