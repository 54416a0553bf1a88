// main.cu, with pairs.cu: a program of two modules (two translation
// units), each with a kernel whose shared accesses ptxas may merge, for
// sass_ahead.sh.
#include <cstdio>

void run_pairs(float *o);

__global__ void reverse(float *o) {
  __shared__ float s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = s[31 - threadIdx.x];
}

int main() {
  float *o, h[32];
  cudaMalloc(&o, sizeof h);
  reverse<<<1, 32>>>(o);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  int bad = h[0] != 31;
  run_pairs(o);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  bad |= h[1] != 5; /* s[2] + s[3] */
  printf("%s\n", bad ? "FAIL" : "OK");
  return bad;
}
