// block_reduce.cu: a block sum reduction whose shared memory is sized with
// warpSize: each warp reduces with shuffles, lane 0 stores the warp's sum in
// a dynamic shared array of blockDim.x / warpSize ints (the host reads
// warpSize from cudaGetDeviceProperties), then the first warp reduces those.
// Checked against a CPU sum per block, for several block sizes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int warpSum(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__global__ void blockSums(const int *in, int *out, int n) {
  extern __shared__ int warpPartial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int v = warpSum(i < n ? in[i] : 0);
  if (lane == 0) warpPartial[warp] = v;
  __syncthreads();
  int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  if (warp == 0) {
    v = lane < nwarps ? warpPartial[lane] : 0;
    v = warpSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  const int n = 10000;
  int *h = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = (i * 31) % 97 - 40;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  static const int sizes[] = {32, 96, 256, 1024};
  for (int s = 0; s < 4; s++) {
    int threads = sizes[s], blocks = (n + threads - 1) / threads;
    size_t shared = (threads / p.warpSize) * sizeof(int);
    blockSums<<<blocks, threads, shared>>>(din, dout, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      printf("FAIL: block %d: %s\n", threads, cudaGetErrorString(e));
      return 1;
    }
    cudaMemcpy(got, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) {
      int want = 0;
      for (int k = b * threads; k < (b + 1) * threads && k < n; k++) want += h[k];
      if (got[b] != want) {
        printf("FAIL: blockDim %d block %d sum %d, expected %d\n", threads, b, got[b], want);
        return 1;
      }
    }
    printf("blockDim %4d: %3d blocks, %zu bytes of shared memory: sums agree\n", threads, blocks, shared);
  }
  printf("PASS: warpSize %d\n", p.warpSize);
  return 0;
}
