// The barrier inside a bounds test: the block sums rows of a matrix whose
// last row is short, so in the last round only part of the block reaches
// __syncthreads; the rest skips it and then only leaves the kernel.
#include <cstdio>

constexpr int kThreads = 64;
constexpr int kRows = 8;
constexpr int kCount = kThreads * kRows - 24; // the last row has 40 elements

__global__ void column_sums(const int *in, int *total) {
  __shared__ int acc[kThreads];
  int t = threadIdx.x;
  acc[t] = 0;
  __syncthreads();
  for (int row = 0; row < kRows; row++) {
    int i = row * kThreads + t;
    if (i < kCount) {
      acc[t] += in[i];
      __syncthreads();
    }
  }
  if (t == 0) {
    int s = 0;
    for (int k = 0; k < kThreads; k++) s += acc[k];
    *total = s;
  }
}

int main() {
  int *in, *total, h = -1;
  cudaMalloc(&in, kCount * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMemset(in, 0, kCount * sizeof(int));
  column_sums<<<1, kThreads>>>(in, total);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, total, sizeof h, cudaMemcpyDeviceToHost);
  printf("column_sums: %s, total %d\n", cudaGetErrorName(e), h);
  cudaFree(in);
  cudaFree(total);
  return 0;
}
