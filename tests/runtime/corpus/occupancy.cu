/* occupancy.cu: the occupancy calculator for kernels that differ in
 * registers (the counts ptxas wrote in the cubin), static and dynamic
 * shared memory and launch bounds, over block sizes; the block size it
 * suggests, and the dynamic shared memory available per block. Grid sizes
 * are printed per multiprocessor, which does not depend on the part. */
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

__global__ void light(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }

/* Many values live at once: ptxas needs many registers. */
__global__ void heavy(const float *in, float *out, int n)
{
  float v[48];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 48; k++) v[k] = in[(t + k * 97) % n];
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 48; k++) acc += v[k] * v[(k * 7 + 3) % 48];
#pragma unroll
  for (int k = 0; k < 48; k++) acc = acc * v[k] + v[47 - k];
  out[t % n] = acc;
}

__global__ void staticShared(float *x)
{
  __shared__ float tile[3072]; /* 12 KB */
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

__global__ void dynShared(float *x)
{
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void __launch_bounds__(256, 2) bounded(float *x) { x[threadIdx.x] *= 2.0f; }

template <typename K> static void table(const char *name, K kernel, size_t dyn)
{
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, kernel));
  printf("%-12s regs %3d, static shared %6zu, max threads %4d | dyn %6zu:", name, a.numRegs, a.sharedSizeBytes,
         a.maxThreadsPerBlock, dyn);
  const int sizes[] = {32, 64, 96, 128, 192, 256, 512, 768, 1024};
  for (int b : sizes) {
    int blocks = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, b, dyn));
    printf(" %d", blocks);
  }
  printf("\n");
}

int main(void)
{
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  table("light", light, 0);
  table("heavy", heavy, 0);
  table("staticShared", staticShared, 0);
  table("staticShared", staticShared, 20000);
  table("dynShared", dynShared, 0);
  table("dynShared", dynShared, 1024);
  table("dynShared", dynShared, 10000);
  table("dynShared", dynShared, 40000);
  table("bounded", bounded, 0);

  int grid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, light, 0, 0));
  printf("light: suggested block %d, blocks per SM %d\n", block, grid / sms);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, heavy, 0, 0));
  printf("heavy: suggested block %d, blocks per SM %d\n", block, grid / sms);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, dynShared, 16384, 0));
  printf("dynShared with 16 KB: suggested block %d, blocks per SM %d\n", block, grid / sms);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, staticShared, 0, 512));
  printf("staticShared limited to 512: suggested block %d, blocks per SM %d\n", block, grid / sms);

  size_t avail = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, dynShared, 2, 256));
  printf("dynShared: dynamic shared per block for 2 blocks of 256: %zu\n", avail);
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, dynShared, 8, 128));
  printf("dynShared: dynamic shared per block for 8 blocks of 128: %zu\n", avail);
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, staticShared, 4, 256));
  printf("staticShared: dynamic shared per block for 4 blocks of 256: %zu\n", avail);

  /* more than 48 KB per block once opted in */
  CHECK(cudaFuncSetAttribute(dynShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  table("dynShared", dynShared, 100 * 1024);
  table("dynShared", dynShared, 60 * 1024);
  CHECK(cudaFuncSetAttribute(dynShared, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  table("dynShared", dynShared, 10000);
  int blocks = -1;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, light, 0, 0);
  printf("block size 0: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  return 0;
}
