/* dynsmem.cu: dynamic shared memory above 48 KB. Without the opt-in
 * attribute the launch fails with invalid argument; with
 * cudaFuncAttributeMaxDynamicSharedMemorySize it runs, up to the
 * attribute's value; the attribute itself cannot exceed the opt-in limit
 * less the kernel's static shared bytes. */
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

/* Fills the whole dynamic array, then each thread sums a stripe of it. */
__global__ void fill_sum(unsigned *out, unsigned words)
{
  extern __shared__ unsigned big[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) big[i] = i * 2654435761u;
  __syncthreads();
  unsigned s = 0;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) s += big[words - 1 - i] >> 7;
  atomicAdd(out, s);
}

/* 16 KB static shared memory plus a dynamic array. */
__global__ void mixed(unsigned *out, unsigned words)
{
  __shared__ unsigned fixed[4096];
  extern __shared__ unsigned dyn[];
  fixed[threadIdx.x] = threadIdx.x;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) dyn[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) *out = fixed[blockDim.x - 1] + (words ? dyn[words - 1] : 0);
}

static unsigned expect(unsigned words)
{
  unsigned s = 0;
  for (unsigned i = 0; i < words; i++) s += (i * 2654435761u) >> 7;
  return s;
}

static void try_fill(unsigned *d, size_t bytes)
{
  unsigned words = (unsigned)(bytes / 4), h = 0;
  CHECK(cudaMemset(d, 0, 4));
  fill_sum<<<1, 256, bytes>>>(d, words);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) {
    CHECK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
    printf("fill_sum with %6zu bytes: %s\n", bytes, h == expect(words) ? "correct" : "WRONG");
  } else {
    printf("fill_sum with %6zu bytes: %s (%s)\n", bytes, cudaGetErrorName(e), cudaGetErrorString(e));
  }
}

static int maxdyn(const void *f)
{
  cudaFuncAttributes a;
  CHECK(cudaFuncGetAttributes(&a, f));
  return a.maxDynamicSharedSizeBytes;
}

int main(void)
{
  int optin = 0, perblock = 0;
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CHECK(cudaDeviceGetAttribute(&perblock, cudaDevAttrMaxSharedMemoryPerBlock, 0));
  printf("per block %d, opt-in %d\n", perblock, optin);
  unsigned *d;
  CHECK(cudaMalloc(&d, 4));

  printf("fill_sum max dynamic: %d\n", maxdyn((const void *)fill_sum));
  try_fill(d, 48 * 1024);
  try_fill(d, 48 * 1024 + 4);
  try_fill(d, 64 * 1024);

  CHECK(cudaFuncSetAttribute(fill_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  printf("after opting in to 100 KB: %d\n", maxdyn((const void *)fill_sum));
  try_fill(d, 64 * 1024);
  try_fill(d, 100 * 1024);
  try_fill(d, 100 * 1024 + 4);

  cudaError_t e = cudaFuncSetAttribute(fill_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1);
  printf("opt-in above the limit: %s; max dynamic still %d\n", cudaGetErrorName(e), maxdyn((const void *)fill_sum));
  cudaGetLastError();
  CHECK(cudaFuncSetAttribute(fill_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  try_fill(d, optin);
  try_fill(d, optin + 4);

  /* static bytes count against both limits */
  printf("mixed max dynamic: %d\n", maxdyn((const void *)mixed));
  unsigned h = 0;
  mixed<<<1, 128, 32 * 1024>>>(d, 8192);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
  printf("mixed with 32 KB: %u\n", h);
  mixed<<<1, 128, 32 * 1024 + 4>>>(d, 8193);
  e = cudaGetLastError();
  printf("mixed with 32 KB + 4: %s\n", cudaGetErrorName(e));
  e = cudaFuncSetAttribute(mixed, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - 16384 + 4);
  printf("mixed opt-in past the limit: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  CHECK(cudaFuncSetAttribute(mixed, cudaFuncAttributeMaxDynamicSharedMemorySize, optin - 16384));
  mixed<<<1, 128, optin - 16384>>>(d, (optin - 16384) / 4);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
  printf("mixed with the whole opt-in: %u\n", h);
  CHECK(cudaFree(d));
  return 0;
}
