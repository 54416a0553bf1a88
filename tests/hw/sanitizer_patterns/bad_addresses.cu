// Two faulting kernels: a 4-byte store one byte into a __device__
// variable (misaligned), and a store to an address no allocation holds,
// made inside an inlined __device__ function. An allocation is never
// freed (a leak at exit).
#include <cstdio>

__device__ int word;

__global__ void store_misaligned() { *(int *)((char *)&word + 1) = 7; }

__device__ __forceinline__ void poke(int v) { *(int *)0x7654320 = v; }

__global__ void store_wild(int v) { poke(v); }

int main() {
  void *kept;
  cudaMalloc(&kept, 2048);
  store_misaligned<<<1, 1>>>();
  printf("store_misaligned: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  store_wild<<<1, 1>>>(42);
  printf("store_wild: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
