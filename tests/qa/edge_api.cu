// A CI user's edge cases of the runtime around shared-memory kernels: empty
// buffers and zero-length copies, empty work (n = 0), bad launch
// configurations (each must fail at launch, not crash, and not be sticky),
// bad frees, copies past an allocation or a symbol; afterwards a normal
// launch must still work. CUDA 13 answers every bad configuration with
// cudaErrorInvalidValue (tests/runtime/corpus/launch_errors.cu, H200).
#include "qa.h"

__device__ int sym[4];

__global__ void rev(const int *in, int *out, int n)
{
  extern __shared__ int s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i < n) s[t] = in[i];
  __syncthreads();
  int j = blockIdx.x * blockDim.x + blockDim.x - 1 - t;
  if (j < n && i < n && blockDim.x - 1 - t < blockDim.x) out[i] = s[blockDim.x - 1 - t];
}

#define EXPECT_ERR(what, call)                                               \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    EXPECT_EQ(what, 0, e_ != cudaSuccess, 1);                                \
    cudaGetLastError();                                                      \
  } while (0)

int main()
{
  int *d0 = (int *)1, *d, *o, h[256];
  CHECK(cudaMalloc(&d0, 0));
  CHECK(cudaMemcpy(d0, h, 0, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d0, 0, 0));
  CHECK(cudaMalloc(&d, 256 * 4));
  CHECK(cudaMalloc(&o, 256 * 4));
  CHECK(cudaMemcpy(d, h, 0, cudaMemcpyHostToDevice));
  rev<<<1, 64, 64 * 4>>>(d0, d0, 0); /* no work */
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  rev<<<0, 64, 256>>>(d, o, 64);
  EXPECT_EQ("grid 0", 0, (int)cudaGetLastError(), (int)cudaErrorInvalidValue);
  rev<<<1, 1025, 0>>>(d, o, 64);
  EXPECT_EQ("block 1025", 0, (int)cudaGetLastError(), (int)cudaErrorInvalidValue);
  rev<<<dim3(1, 65536), 32, 0>>>(d, o, 64);
  EXPECT_EQ("grid.y 65536", 0, (int)cudaGetLastError(), (int)cudaErrorInvalidValue);
  rev<<<1, dim3(32, 1, 65), 0>>>(d, o, 64);
  EXPECT_EQ("block.z 65", 0, (int)cudaGetLastError(), (int)cudaErrorInvalidValue);
  rev<<<1, 64, 1 << 20>>>(d, o, 64);
  EXPECT_EQ("1 MB shared fails", 0, cudaGetLastError() != cudaSuccess, 1);
  CHECK(cudaDeviceSynchronize()); /* launch errors are not sticky */

  CHECK(cudaFree(NULL));
  EXPECT_ERR("free host pointer", cudaFree(h));
  EXPECT_ERR("free inside an allocation", cudaFree(d + 1));
  EXPECT_ERR("copy past the end", cudaMemcpy(d + 200, h, 100 * 4, cudaMemcpyHostToDevice));
  EXPECT_ERR("copy past the end (default)", cudaMemcpy(d + 200, h, 100 * 4, cudaMemcpyDefault));
  EXPECT_ERR("memset past the end", cudaMemset(d + 255, 0, 8));
  EXPECT_ERR("symbol past the end", cudaMemcpyToSymbol(sym, h, 5 * 4));
  EXPECT_ERR("symbol offset past the end", cudaMemcpyToSymbol(sym, h, 4, 16));
  int *tmp;
  CHECK(cudaMalloc(&tmp, 16));
  CHECK(cudaFree(tmp));
  EXPECT_ERR("double free", cudaFree(tmp));

  for (int i = 0; i < 256; i++) h[i] = i * 3;
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  rev<<<4, 64, 64 * 4>>>(d, o, 256);
  CHECK(cudaGetLastError());
  int r[256];
  CHECK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++) EXPECT_EQ("rev", i, r[i], h[(i / 64) * 64 + 63 - i % 64]);
  CHECK(cudaFree(d0));
  return qa_done("edge_api");
}
