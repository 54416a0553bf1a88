// initcheck over the whole size of memory that starts written: pinned host
// memory (cudaMallocHost, cudaHostAlloc), managed memory and __device__
// variables of odd sizes. A kernel reads the last byte of each (no error),
// then the first and the last int of a cudaMalloc buffer whose first half a
// cudaMemset wrote (one error: the last), then the last int of one it wrote
// whole (no error).
#include "san.cuh"

__device__ int devInts[1001];
__device__ char devBytes[777];
__device__ double devScalar;

__global__ void lastByte(char *out, const char *p, size_t n)
{
  out[0] = p[n - 1];
}

__global__ void lastInt(int *out, const int *p, size_t n)
{
  out[0] = p[n - 1];
}

__global__ void devLast(int *out)
{
  out[0] = devInts[1000] + devBytes[776] + (int)devScalar;
}

int main()
{
  char *h = 0, *h2 = 0, *m = 0, *cout = 0;
  int *iout = 0, *half = 0, *whole = 0;
  const size_t nh = 4003, nh2 = (1 << 20) + 3, nm = 3001;
  CALL(cudaMallocHost((void **)&h, nh));
  CALL(cudaHostAlloc((void **)&h2, nh2, cudaHostAllocDefault));
  CALL(cudaMallocManaged((void **)&m, nm));
  CALL(cudaMalloc((void **)&cout, 16));
  CALL(cudaMalloc((void **)&iout, 16));
  CALL(cudaMalloc((void **)&half, 4096));
  CALL(cudaMalloc((void **)&whole, 4096));
  ADDR("pinned", h);
  ADDR("hostalloc", h2);
  ADDR("managed", m);
  ADDR("half", half);
  ADDR("whole", whole);
  lastByte<<<1, 1>>>(cout, h, nh);
  SYNC("pinned");
  lastByte<<<1, 1>>>(cout, h2, nh2);
  SYNC("hostalloc");
  lastByte<<<1, 1>>>(cout, m, nm);
  SYNC("managed");
  devLast<<<1, 1>>>(iout);
  SYNC("device variables");
  CALL(cudaMemset(half, 0, 2048));
  lastInt<<<1, 1>>>(iout, half, 1);
  SYNC("half first");
  lastInt<<<1, 1>>>(iout, half, 1024);
  SYNC("half last");
  CALL(cudaMemset(whole, 0, 4096));
  lastInt<<<1, 1>>>(iout, whole, 1024);
  SYNC("whole last");
  CALL(cudaFreeHost(h));
  CALL(cudaFreeHost(h2));
  CALL(cudaFree(m));
  CALL(cudaFree(cout));
  CALL(cudaFree(iout));
  CALL(cudaFree(half));
  CALL(cudaFree(whole));
  return 0;
}
