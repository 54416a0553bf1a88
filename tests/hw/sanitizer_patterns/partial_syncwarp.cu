// __syncwarp with a mask that leaves out a lane which calls it: the mask
// names lanes 0..15 but lanes 0..16 take the branch.
#include <cstdio>

__global__ void half_warp(int *out) {
  __shared__ int vals[32];
  int lane = threadIdx.x;
  unsigned low = __ballot_sync(0xffffffffu, lane < 16);
  if (lane <= 16) {
    vals[lane] = 3 * lane;
    __syncwarp(low);
    if (lane == 0) {
      int s = 0;
      for (int k = 0; k < 16; k++) s += vals[k];
      *out = s;
    }
  }
  __syncthreads();
}

int main() {
  int *out, h = -1;
  cudaMalloc(&out, sizeof(int));
  half_warp<<<1, 32>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("half_warp: %s, sum %d\n", cudaGetErrorName(e), h);
  cudaFree(out);
  return 0;
}
