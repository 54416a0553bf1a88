// A failed device assert() (no bad address) under memcheck, with the
// default --destroy-on-device-error context and with kernel: what is
// reported, and what do later calls return?
#include "san.cuh"
#include <cassert>

__global__ void checkPositive(const int *v)
{
  assert(v[threadIdx.x] >= 0);
}

__global__ void fine(int *v)
{
  v[threadIdx.x] = 1;
}

int main()
{
  int *v = 0, h[32];
  for (int i = 0; i < 32; i++)
    h[i] = i == 9 ? -1 : i;
  CALL(cudaMalloc(&v, sizeof h));
  ADDR("v", v);
  CALL(cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice));
  checkPositive<<<1, 32>>>(v);
  SYNC("checkPositive");
  fine<<<1, 32>>>(v);
  SYNC("fine");
  CALL(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
  printf("h[9] %d\n", h[9]);
  return 0;
}
