// structarg.cu: a child launched from the device with a pointer and a
// 36-byte struct argument (a 44-byte parameter buffer, not a power of two) and dynamic shared memory declared `extern
// __shared__` in the child's translation unit, which no unit defines
// (nvlink gives it the dynamic shared window). Each child thread stores
// the struct's fields through shared memory; the host checks them against
// the values the parent passed (arithmetic of block and thread indices).
#include <cstdio>
struct Wide { /* nine ints: 36 bytes, 4-byte aligned */
  int base, step, n, extra, pad[5];
};
static_assert(sizeof(Wide) == 36, "nine ints");
extern __shared__ int smem[];
__global__ void child(int *out, Wide w) {
  int t = threadIdx.x;
  smem[t] = w.base + w.step * t + w.extra;
  __syncthreads();
  if (t < w.n) out[t] = smem[w.n - 1 - t];
}
__global__ void parent(int *out, int n) {
  if (threadIdx.x == 0) {
    Wide w = {100 * (int)blockIdx.x, 3, n, 7, {0, 0, 0, 0, 0}};
    child<<<1, n, n * sizeof(int)>>>(out + blockIdx.x * n, w);
  }
}
int main() {
  const int blocks = 3, n = 32;
  int *d, h[blocks * n];
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  parent<<<blocks, 32>>>(d, n);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < n; t++)
      bad += h[b * n + t] != 100 * b + 3 * (n - 1 - t) + 7;
  printf("structarg: sizeof(Wide) %d, %s, %d wrong -> %s\n", (int)sizeof(Wide), cudaGetErrorString(e), bad,
         bad ? "FAIL" : "OK");
  return 0;
}
