// The CUDA samples' SharedMemory<T> idiom: one extern __shared__ array per
// type via a templated struct (int, double, float), reductions templated over
// the element type and block size with dynamic shared memory, and a
// nonzero-block-size-check "reduce6" style loop (two loads per thread).
#include "qa.h"

template <class T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <> struct SharedMemory<double> {
  __device__ inline operator double *() { extern __shared__ double __smem_d[]; return (double *)__smem_d; }
};

template <class T, unsigned BS, bool Pow2>
__global__ void reduce6(const T *g_idata, T *g_odata, unsigned n)
{
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x, i = blockIdx.x * BS * 2 + threadIdx.x, gridSize = BS * 2 * gridDim.x;
  T mySum = 0;
  while (i < n) {
    mySum += g_idata[i];
    if (Pow2 || i + BS < n) mySum += g_idata[i + BS];
    i += gridSize;
  }
  sdata[tid] = mySum;
  __syncthreads();
  if (BS >= 512 && tid < 256) sdata[tid] = mySum = mySum + sdata[tid + 256];
  __syncthreads();
  if (BS >= 256 && tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();
  if (BS >= 128 && tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    if (BS >= 64) mySum += sdata[tid + 32];
    for (int offset = 32 / 2; offset > 0; offset /= 2) mySum += __shfl_down_sync(0xffffffffu, mySum, offset);
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template <class T, unsigned BS, bool Pow2>
static void run(unsigned n)
{
  T *h = (T *)malloc(n * sizeof(T));
  double want = 0;
  for (unsigned i = 0; i < n; i++) { h[i] = (T)((int)(i % 19) - 9); want += (double)h[i]; }
  T *d, *o;
  const int grid = 12;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&o, grid * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  int smem = (BS <= 32) ? 2 * BS * sizeof(T) : BS * sizeof(T);
  reduce6<T, BS, Pow2><<<grid, BS, smem>>>(d, o, n);
  CHECK(cudaGetLastError());
  T r[grid];
  CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  double got = 0;
  for (int b = 0; b < grid; b++) got += (double)r[b];
  EXPECT_EQ("sum", BS * 10 + (int)sizeof(T), got, want);
  CHECK(cudaFree(d)); CHECK(cudaFree(o)); free(h);
}

int main()
{
  run<int, 256, true>(1 << 16);
  run<int, 128, false>(100001);
  run<float, 512, false>(77777);
  run<double, 64, false>(33333);
  run<double, 256, true>(1 << 15);
  return qa_done("sdk_sharedmem");
}
