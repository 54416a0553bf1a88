/* funcattrs.cu: cudaFuncGetAttributes (static shared bytes, registers,
 * thread limit, versions, dynamic limit, carveout), cudaFuncSetAttribute,
 * cudaFuncSetCacheConfig, and the bank configuration of each generation. */
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

__global__ void plain(int *x) { x[threadIdx.x] *= 3; }

__global__ void tiles(float *x)
{
  __shared__ float a[32][33];
  __shared__ double b[64];
  a[threadIdx.y][threadIdx.x] = x[threadIdx.y * 32 + threadIdx.x];
  if (threadIdx.y == 0) b[threadIdx.x] = 1.0;
  __syncthreads();
  x[threadIdx.x * 32 + threadIdx.y] = a[threadIdx.x][threadIdx.y] + (float)b[threadIdx.y];
}

__global__ void __launch_bounds__(512) bounded(int *x) { x[threadIdx.x] = 0; }

static void show(const char *name, const void *f)
{
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, f));
  printf("%-8s shared %5zu, regs %2d, max threads %4d, ptx %d, binary %d, max dynamic %6d, carveout %d\n", name,
         a.sharedSizeBytes, a.numRegs, a.maxThreadsPerBlock, a.ptxVersion, a.binaryVersion,
         a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
}

int main(void)
{
  show("plain", (const void *)plain);
  show("tiles", (const void *)tiles);
  show("bounded", (const void *)bounded);

  CHECK(cudaFuncSetAttribute(tiles, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  CHECK(cudaFuncSetAttribute(tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, 20000));
  show("tiles", (const void *)tiles);
  cudaError_t e = cudaFuncSetAttribute(tiles, cudaFuncAttributePreferredSharedMemoryCarveout, 101);
  printf("carveout 101: %s\n", cudaGetErrorName(e));
  e = cudaFuncSetAttribute(tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, -1);
  printf("max dynamic -1: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  CHECK(cudaFuncSetCacheConfig(plain, cudaFuncCachePreferL1));
  CHECK(cudaFuncSetCacheConfig(tiles, cudaFuncCachePreferShared));
  e = cudaFuncGetAttributes(nullptr, (const void *)plain);
  printf("null attributes: %s\n", cudaGetErrorName(e));
  cudaFuncAttributes a;
  e = cudaFuncGetAttributes(&a, (const void *)main);
  printf("attributes of a host function: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  /* kernels still run with the preferences set */
  float *x, h[1024];
  CHECK(cudaMalloc(&x, sizeof h));
  for (int i = 0; i < 1024; i++) h[i] = (float)i;
  CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
  tiles<<<1, dim3(32, 32)>>>(x);
  CHECK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
  printf("transposed: %g %g %g\n", h[1], h[32], h[1023]);

  cudaSharedMemConfig sc;
  CHECK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  CHECK(cudaDeviceGetSharedMemConfig(&sc));
  printf("bank config after EightByte: %s\n", sc == cudaSharedMemBankSizeEightByte ? "EightByte" : "FourByte");
  CHECK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault));
  CHECK(cudaFree(x));
  return 0;
}
