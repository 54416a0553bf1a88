// Dynamic shared memory above 48 KB: the launch must fail without
// cudaFuncSetAttribute and work with it (a 160 KB block-local histogram of
// 40960 bins); also a kernel with static + dynamic shared near the limit.
#include "qa.h"

__global__ void bigHist(const unsigned *keys, int n, unsigned *out, int bins)
{
  extern __shared__ unsigned hist[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&hist[keys[i] % bins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (hist[b]) atomicAdd(&out[b], hist[b]);
}

__global__ void staticPlusDynamic(int *out)
{
  __shared__ int fixed[4096]; /* 16 KB static */
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  for (int i = t; i < 4096; i += blockDim.x) fixed[i] = i;
  __syncthreads();
  int ndyn = 50000; /* 200000 bytes */
  for (int i = t; i < ndyn; i += blockDim.x) dyn[i] = fixed[i % 4096] * 2;
  __syncthreads();
  int s = 0;
  for (int i = t; i < ndyn; i += blockDim.x) s += dyn[i];
  atomicAdd(out, s);
}

int main()
{
  const int n = 200000, bins = 40960;
  size_t shm = bins * sizeof(unsigned);
  unsigned *h = (unsigned *)malloc(n * 4), *ref = (unsigned *)calloc(bins, 4), *got = (unsigned *)malloc(bins * 4);
  unsigned seed = 5;
  for (int i = 0; i < n; i++) { h[i] = qa_lcg(&seed); ref[h[i] % bins]++; }
  unsigned *dk, *dh;
  CHECK(cudaMalloc(&dk, n * 4));
  CHECK(cudaMalloc(&dh, bins * 4));
  CHECK(cudaMemcpy(dk, h, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dh, 0, bins * 4));
  bigHist<<<8, 256, shm>>>(dk, n, dh, bins);
  cudaError_t e = cudaGetLastError();
  EXPECT_EQ("launch-without-optin-fails", 0, e != cudaSuccess, 1);
  int optin = 0;
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  EXPECT_EQ("optin>=shm", 0, optin >= (int)shm, 1);
  CHECK(cudaFuncSetAttribute(bigHist, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
  bigHist<<<8, 256, shm>>>(dk, n, dh, bins);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, dh, bins * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < bins; b++) EXPECT_EQ("hist", b, got[b], ref[b]);

  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, staticPlusDynamic));
  EXPECT_EQ("static bytes", 0, (int)fa.sharedSizeBytes, 16384);
  int dynBytes = 200000;
  /* static + dynamic above the opt-in limit must be refused */
  EXPECT_EQ("over-optin refused", 0,
            cudaFuncSetAttribute(staticPlusDynamic, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 optin - 16384 + 4) != cudaSuccess, 1);
  cudaGetLastError();
  CHECK(cudaFuncSetAttribute(staticPlusDynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, dynBytes));
  int *d;
  CHECK(cudaMalloc(&d, 4));
  CHECK(cudaMemset(d, 0, 4));
  staticPlusDynamic<<<2, 512, dynBytes>>>(d);
  CHECK(cudaGetLastError());
  int s = 0;
  CHECK(cudaMemcpy(&s, d, 4, cudaMemcpyDeviceToHost));
  long long want = 0;
  for (int i = 0; i < 50000; i++) want += (i % 4096) * 2;
  EXPECT_EQ("static+dyn", 0, (long long)s, 2 * want);
  return qa_done("big_dynamic");
}
