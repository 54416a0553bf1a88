// warp_scan.cu: an inclusive block-wide prefix sum built from warp scans
// (__shfl_up_sync with lane = threadIdx.x % warpSize), the warps' totals kept
// in a static __shared__ array of 1024/32 entries and scanned by the first
// warp. Checked against a sequential CPU scan of each block.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int warpScan(int v) {
  int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize; d *= 2) {
    int t = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += t;
  }
  return v;
}

__global__ void blockScan(const int *in, int *out) {
  __shared__ int warpTotals[1024 / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int v = warpScan(in[i]);
  if (lane == warpSize - 1) warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int nwarps = blockDim.x / warpSize;
    int t = lane < nwarps ? warpTotals[lane] : 0;
    t = warpScan(t);
    if (lane < nwarps) warpTotals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warpTotals[warp - 1];
  out[i] = v;
}

int main() {
  const int threads = 512, blocks = 6, n = threads * blocks;
  int *h = (int *)malloc(n * sizeof(int)), *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = (i * 13) % 11 - 3;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  blockScan<<<blocks, threads>>>(din, dout);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; b++) {
    int acc = 0;
    for (int k = b * threads; k < (b + 1) * threads; k++) {
      acc += h[k];
      if (got[k] != acc) {
        printf("FAIL: element %d is %d, expected %d\n", k, got[k], acc);
        return 1;
      }
    }
  }
  printf("PASS: %d blocks of %d scanned\n", blocks, threads);
  return 0;
}
