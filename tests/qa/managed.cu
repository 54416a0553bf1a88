// Unified memory: cudaMallocManaged input and output touched by host and
// device, a __managed__ global, cudaMemPrefetchAsync/cudaMemAdvise accepted;
// a shared-memory histogram of 64 bins per block merged into managed memory.
#include "qa.h"

__managed__ unsigned total;

__global__ void hist(const unsigned char *in, int n, unsigned *bins)
{
  __shared__ unsigned h[64];
  if (threadIdx.x < 64) h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[in[i] & 63], 1u);
  __syncthreads();
  if (threadIdx.x < 64) {
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
    atomicAdd(&total, h[threadIdx.x]);
  }
}

int main()
{
  const int n = 50001;
  unsigned char *in;
  unsigned *bins;
  CHECK(cudaMallocManaged(&in, n));
  CHECK(cudaMallocManaged(&bins, 64 * 4, cudaMemAttachGlobal));
  unsigned seed = 23, ref[64] = {0};
  for (int i = 0; i < n; i++) { in[i] = (unsigned char)qa_lcg(&seed); ref[in[i] & 63]++; }
  for (int b = 0; b < 64; b++) bins[b] = 0;
  total = 0;
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaError_t e = cudaMemAdvise(in, n, cudaMemAdviseSetReadMostly, loc);
  if (e != cudaSuccess) printf("note: cudaMemAdvise: %s\n", cudaGetErrorString(e));
  cudaGetLastError();
  hist<<<10, 128>>>(in, n, bins);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int b = 0; b < 64; b++) EXPECT_EQ("bin", b, bins[b], ref[b]);
  EXPECT_EQ("total", 0, total, (unsigned)n);
  CHECK(cudaFree(in));
  CHECK(cudaFree(bins));
  return qa_done("managed");
}
