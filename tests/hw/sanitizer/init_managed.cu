// initcheck and memory that is not cudaMalloc'd: unwritten managed memory,
// unwritten pinned host memory, and a __device__ array, each read by a
// kernel of its own (one line each), then managed memory the host wrote.
#include "san.cuh"

__device__ int devArray[32];

__global__ void readManaged(int *out, const int *m)
{
  out[threadIdx.x] = m[threadIdx.x];
}

__global__ void readPinned(int *out, const int *h)
{
  out[threadIdx.x] = h[threadIdx.x];
}

__global__ void readDevArray(int *out)
{
  out[threadIdx.x] = devArray[threadIdx.x];
}

__global__ void readManagedWritten(int *out, const int *m)
{
  out[threadIdx.x] = m[threadIdx.x];
}

int main()
{
  int *m = 0, *m2 = 0, *h = 0, *out = 0;
  CALL(cudaMallocManaged(&m, 32 * sizeof(int)));
  CALL(cudaMallocManaged(&m2, 32 * sizeof(int)));
  CALL(cudaMallocHost(&h, 32 * sizeof(int)));
  CALL(cudaMalloc(&out, 32 * sizeof(int)));
  ADDR("managed", m);
  ADDR("managed2", m2);
  ADDR("pinned", h);
  ADDR("out", out);
  readManaged<<<1, 32>>>(out, m);
  SYNC("readManaged");
  readPinned<<<1, 32>>>(out, h);
  SYNC("readPinned");
  readDevArray<<<1, 32>>>(out);
  SYNC("readDevArray");
  for (int i = 0; m2 && i < 32; i++)
    m2[i] = i;
  readManagedWritten<<<1, 32>>>(out, m2);
  SYNC("readManagedWritten");
  CALL(cudaFree(m));
  CALL(cudaFree(m2));
  CALL(cudaFreeHost(h));
  CALL(cudaFree(out));
  return 0;
}
