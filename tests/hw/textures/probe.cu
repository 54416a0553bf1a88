#include <cuda_runtime.h>
#include <stdio.h>
__global__ void k_plain(float *o) { o[threadIdx.x] = threadIdx.x; }
__global__ void k_tex(cudaTextureObject_t t, float *o) { o[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }
__global__ void k_surf(cudaSurfaceObject_t s, float *o) { o[threadIdx.x] = surf1Dread<float>(s, threadIdx.x * 4); }
__global__ void k_txq(cudaTextureObject_t t, int *o) { int r; asm("txq.width.b32 %0, [%1];" : "=r"(r) : "l"(t)); o[0] = r; }
int main() {
  float *d; cudaMalloc(&d, 4096);
  k_plain<<<1, 32>>>(d);
  printf("plain: %s %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
  cudaResourceDesc r = {}; r.resType = cudaResourceTypeLinear; r.res.linear.devPtr = d;
  r.res.linear.desc = cudaCreateChannelDesc<float>(); r.res.linear.sizeInBytes = 1024;
  cudaTextureDesc td = {}; cudaTextureObject_t t;
  printf("create: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &td, NULL)));
  printf("handle: %llu\n", (unsigned long long)t);
  k_tex<<<1, 32>>>(t, d + 512);
  printf("tex: %s %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
  k_txq<<<1, 1>>>(t, (int *)d + 512);
  printf("txq: %s %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
  cudaArray_t a; cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  printf("array: %s\n", cudaGetErrorName(cudaMallocArray(&a, &fd, 32, 0, cudaArraySurfaceLoadStore)));
  cudaResourceDesc ra = {}; ra.resType = cudaResourceTypeArray; ra.res.array.array = a;
  cudaSurfaceObject_t s;
  printf("surf create: %s %llu\n", cudaGetErrorName(cudaCreateSurfaceObject(&s, &ra)), (unsigned long long)s);
  k_surf<<<1, 32>>>(s, d + 512);
  printf("surf: %s %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
  k_plain<<<1, 32>>>(d);
  printf("plain again: %s %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
