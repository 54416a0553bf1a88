// The first lane of each warp adds up its own warp's stores without a
// __syncwarp (hazards inside a warp); the block's barrier then orders the
// per-warp totals before thread 0 reads them.
#include <cstdio>

constexpr int kWarps = 3;
constexpr int kThreads = 32 * kWarps;

__global__ void warp_totals(const int *in, int *out) {
  __shared__ int vals[kThreads];
  __shared__ int per_warp[kWarps];
  int t = threadIdx.x, w = t / 32;
  vals[t] = in[t] - t;
  if (t % 32 == 0) {
    per_warp[w] = 0;
#pragma unroll 1
    for (int k = 0; k < 32; k++) per_warp[w] += vals[32 * w + k];
  }
  __syncthreads();
  if (t == 0) {
    int s = 0;
    for (int k = 0; k < kWarps; k++) s += per_warp[k];
    *out = s;
  }
}

int main() {
  int *in, *out, h = -1;
  cudaMalloc(&in, kThreads * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(in, 0, kThreads * sizeof(int));
  warp_totals<<<1, kThreads>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("warp_totals: %s, total %d\n", cudaGetErrorName(e), h);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
