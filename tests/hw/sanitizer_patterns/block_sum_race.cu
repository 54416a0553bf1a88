// Thread 0 adds up what the block's threads stored in shared memory, with
// no barrier between the stores and its reads: hazards between warps.
#include <cstdio>

constexpr int kThreads = 96;

__global__ void block_total(const int *in, int *out) {
  __shared__ int part[kThreads];
  int t = threadIdx.x;
  part[t] = 2 * in[t] + 1;
  if (t == 0) {
    int s = 0;
#pragma unroll 1
    for (int k = 0; k < kThreads; k++) s += part[k];
    *out = s;
  }
}

int main() {
  int *in, *out, h = -1;
  cudaMalloc(&in, kThreads * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(in, 0, kThreads * sizeof(int));
  block_total<<<1, kThreads>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("block_total: %s, total %d\n", cudaGetErrorName(e), h);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
