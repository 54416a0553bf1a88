// memcheck: which calls fail (and are reported) after a fault ends the
// context: asynchronous copies, fills, stream and event calls, allocation.
#include "san.cuh"

__global__ void overrun(int *p, int n)
{
  if (threadIdx.x == 3)
    p[n + 100] = 1;
}

int main()
{
  int *p = 0, h[32] = {0};
  cudaEvent_t ev;
  CALL(cudaMalloc(&p, 32 * sizeof(int)));
  CALL(cudaEventCreate(&ev));
  ADDR("p", p);
  overrun<<<1, 32>>>(p, 32);
  CALL(cudaStreamSynchronize(0));
  CALL(cudaPeekAtLastError());
  CALL(cudaMemcpyAsync(h, p, sizeof h, cudaMemcpyDeviceToHost, 0));
  CALL(cudaMemset(p, 0, 16));
  CALL(cudaMemsetAsync(p, 0, 16, 0));
  CALL(cudaEventRecord(ev, 0));
  CALL(cudaEventSynchronize(ev));
  int *q = 0;
  CALL(cudaMalloc(&q, 64));
  CALL(cudaDeviceSynchronize());
  CALL(cudaGetLastError());
  CALL(cudaGetLastError());
  return 0;
}
