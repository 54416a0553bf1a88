// main.cu: half of a separately compiled program (nvcc -rdc=true): the
// kernel calls scale() and reads bias, both defined in lib.cu, and has a
// private helper twice() whose name lib.cu uses for a different function.
#include <cstdio>

extern __device__ int scale(int x);
extern __device__ int bias;
extern __device__ int lib_twice(int x);

static __device__ __noinline__ int twice(int x) { return x + x; }

__global__ void apply(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale(in[i]) + bias + twice(i) + lib_twice(i);
}

int main() {
  const int n = 1000;
  int h_in[n], h_out[n];
  for (int i = 0; i < n; i++) h_in[i] = i * 7 - 300;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  int b = 11;
  cudaMemcpyToSymbol(bias, &b, sizeof b);
  apply<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  cudaError_t e = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; i++) {
    // scale(x) = 3x - 1 (lib.cu); twice here is 2i, lib's twice is 4i
    int want = 3 * h_in[i] - 1 + 11 + 2 * i + 4 * i;
    if (h_out[i] != want && bad++ < 5) printf("out[%d] = %d, want %d\n", i, h_out[i], want);
  }
  printf(bad ? "FAIL: %d wrong\n" : "rdc ok%.0d\n", bad);
  return bad != 0;
}
