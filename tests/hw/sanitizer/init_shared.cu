// initcheck and shared memory: a kernel reads a shared word no thread
// wrote, another reads one its own thread wrote.
#include "san.cuh"

__global__ void sharedUnwritten(int *out)
{
  __shared__ int s[64];
  if (threadIdx.x < 32)
    s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

int main()
{
  int *out = 0;
  CALL(cudaMalloc(&out, 64 * sizeof(int)));
  sharedUnwritten<<<1, 64>>>(out);
  SYNC("sharedUnwritten");
  CALL(cudaFree(out));
  return 0;
}
