// warp_reduce.cu: a warp-shuffle sum reduction written with warpSize, as
// tutorials write it. Each warp sums its 32 elements; the program checks
// every warp's sum against a CPU loop and prints PASS or the first mismatch.
// `smemu exec` runs the kernel too (tests/warpsize.sh): with iota input,
// warp w's sum is 32*32*w + 496.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void warpSums(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % warpSize == 0) out[i / warpSize] = v;
}

int main() {
  const int n = 4096, threads = 256, warps = n / 32;
  int *h = (int *)malloc(n * sizeof(int)), got[n / 32];
  for (int i = 0; i < n; i++) h[i] = (i * 7919) % 1000 - 500;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, warps * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  warpSums<<<n / threads, threads>>>(din, dout, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
  for (int w = 0; w < warps; w++) {
    int want = 0;
    for (int k = 0; k < 32; k++) want += h[w * 32 + k];
    if (got[w] != want) {
      printf("FAIL: warp %d sum %d, expected %d\n", w, got[w], want);
      return 1;
    }
  }
  printf("PASS: %d warp sums\n", warps);
  return 0;
}
