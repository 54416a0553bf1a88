// memcheck and shared memory: 32 threads write s[t + 8] of a 32-int shared
// array (threads 24..31 past its end, but inside the block's shared
// memory?), then s[t - 40] from threads 0..7 (before the array).
#include "san.cuh"

__global__ void sharedOver(int *out, int shift)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  s[t + shift] = -t;
  __syncthreads();
  out[t] = s[t];
}

int main()
{
  int *out = 0;
  CALL(cudaMalloc(&out, 32 * sizeof(int)));
  ADDR("out", out);
  sharedOver<<<1, 32>>>(out, 8);
  SYNC("sharedOver 8");
  sharedOver<<<1, 32>>>(out, 1000);
  SYNC("sharedOver 1000");
  CALL(cudaFree(out));
  return 0;
}
