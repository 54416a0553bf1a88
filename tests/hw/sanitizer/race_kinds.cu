// racecheck's severities: shared-memory hazards between warps and within a
// warp, with the racing write storing the value already there or a new one.
// One block of 64 threads per kernel; each kernel has one hazard.
#include "san.cuh"

// every thread stores the same value to one word (write after write)
__global__ void wawSame(int *out)
{
  __shared__ int s[1];
  s[0] = 7;
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// every thread stores its own index to one word
__global__ void wawDiffer(int *out)
{
  __shared__ int s[1];
  s[0] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// thread 0 rewrites s[40] with the value it holds while thread 40 reads it
__global__ void rawSame(int *out)
{
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0)
    s[40] = 1;
  out[threadIdx.x] = s[threadIdx.x];
}

// thread 0 writes s[40] a new value while thread 40 reads it
__global__ void rawDiffer(int *out)
{
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0)
    s[40] = 2;
  out[threadIdx.x] = s[threadIdx.x];
}

// thread 0 of each warp sums what its own warp wrote, without __syncwarp
__global__ void warpOnly(int *out)
{
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x % 32 == 0) {
    int sum = 0;
    for (int i = 0; i < 32; i++)
      sum += s[threadIdx.x + i];
    out[threadIdx.x] = sum;
  }
}

int main()
{
  int *out = 0;
  CALL(cudaMalloc(&out, 64 * sizeof(int)));
  wawSame<<<1, 64>>>(out);
  SYNC("wawSame");
  wawDiffer<<<1, 64>>>(out);
  SYNC("wawDiffer");
  rawSame<<<1, 64>>>(out);
  SYNC("rawSame");
  rawDiffer<<<1, 64>>>(out);
  SYNC("rawDiffer");
  warpOnly<<<1, 64>>>(out);
  SYNC("warpOnly");
  CALL(cudaFree(out));
  return 0;
}
