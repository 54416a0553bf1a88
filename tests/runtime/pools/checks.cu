// checks.cu: smemu's checks see pool allocations like cudaMalloc's. Each
// mode makes one bug in memory from cudaMallocAsync / cudaMallocFromPoolAsync:
//   oob      a kernel writes one int past the end of a 100-int allocation
//            (inside the 512-byte unit the allocator rounds it to)
//   freed    a kernel reads an allocation after cudaFreeAsync (in stream order)
//   uninit   a kernel reads a fresh pool allocation nothing wrote (initcheck)
//   reused   the same, in memory the pool hands out again after a free
//   clean    none: the same calls done right
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void write_n(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}
__global__ void copy_n(const int *src, int *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "clean";
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  cudaMemPoolCreate(&pool, &props);
  int *a, *b;
  cudaMallocAsync((void **)&a, 256 * sizeof(int), s);
  cudaMallocFromPoolAsync((void **)&b, 256 * sizeof(int), pool, s);
  if (!strcmp(mode, "oob")) {
    int *c;
    cudaMallocAsync((void **)&c, 100 * sizeof(int), s);
    write_n<<<1, 128, 0, s>>>(c, 101);
  } else if (!strcmp(mode, "freed")) {
    write_n<<<1, 256, 0, s>>>(a, 256);
    cudaFreeAsync(a, s);
    copy_n<<<1, 256, 0, s>>>(a, b, 256);
  } else if (!strcmp(mode, "uninit")) {
    copy_n<<<1, 256, 0, s>>>(b, a, 256);
  } else if (!strcmp(mode, "reused")) {
    write_n<<<1, 256, 0, s>>>(b, 256);
    cudaFreeAsync(b, s);
    cudaMallocFromPoolAsync((void **)&b, 256 * sizeof(int), pool, s);
    copy_n<<<1, 256, 0, s>>>(b, a, 256);
  } else {
    write_n<<<1, 256, 0, s>>>(b, 256);
    copy_n<<<1, 256, 0, s>>>(b, a, 256);
  }
  cudaError_t e = cudaStreamSynchronize(s);
  printf("%s: %s\n", mode, cudaGetErrorName(e));
  if (strcmp(mode, "freed")) cudaFreeAsync(a, s);
  cudaFreeAsync(b, s);
  cudaStreamSynchronize(s);
  cudaMemPoolDestroy(pool);
  return 0;
}
