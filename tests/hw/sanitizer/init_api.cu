// initcheck and the other ways to write device memory: a pitched
// allocation half set with cudaMemset2D, a 2-D copy from the host, a
// non-zero fill, an asynchronous copy back of unwritten bytes, and a
// __device__ array written in part by cudaMemcpyToSymbol.
#include "san.cuh"

__device__ int devArr[64];

__global__ void readPitched(int *out, const int *p, size_t pitch)
{
  int x = threadIdx.x, y = blockIdx.x;
  const int *row = (const int *)((const char *)p + y * pitch);
  out[y * 32 + x] = row[x];
}

__global__ void readDev(int *out)
{
  out[threadIdx.x] = devArr[threadIdx.x];
}

int main()
{
  int *p = 0, *q = 0, *out = 0;
  size_t pitch = 0, qpitch = 0;
  static int host[4 * 32];
  CALL(cudaMallocPitch((void **)&p, &pitch, 32 * sizeof(int), 4));
  CALL(cudaMallocPitch((void **)&q, &qpitch, 32 * sizeof(int), 4));
  CALL(cudaMalloc(&out, 4 * 32 * sizeof(int)));
  ADDR("p", p);
  ADDR("q", q);
  ADDR("out", out);
  printf("pitch %zu\n", pitch);
  // rows 0..3, the first 16 ints of each
  CALL(cudaMemset2D(p, pitch, 7, 16 * sizeof(int), 4));
  readPitched<<<4, 32>>>(out, p, pitch);
  SYNC("readPitched memset2D");
  // rows 0 and 1 whole, from the host
  CALL(cudaMemcpy2D(q, qpitch, host, 32 * sizeof(int), 32 * sizeof(int), 2, cudaMemcpyHostToDevice));
  readPitched<<<4, 32>>>(out, q, qpitch);
  SYNC("readPitched memcpy2D");
  CALL(cudaMemcpyAsync(host, q + 32 * 3, 32 * sizeof(int), cudaMemcpyDeviceToHost, 0));
  CALL(cudaStreamSynchronize(0));
  int part[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CALL(cudaMemcpyToSymbol(devArr, part, sizeof part, 0));
  readDev<<<1, 64>>>(out);
  SYNC("readDev");
  CALL(cudaFree(p));
  CALL(cudaFree(q));
  CALL(cudaFree(out));
  return 0;
}
