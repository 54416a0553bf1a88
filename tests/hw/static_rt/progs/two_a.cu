// Two translation units (two fatbinaries); this one has main.
#include <cstdio>
__global__ void ka(int *o) { o[threadIdx.x] = 1; }
void run_b(int *o);
int main() {
  int *d, h[2];
  cudaMalloc(&d, 8);
  ka<<<1, 1>>>(d);
  run_b(d);
  cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
  printf("a=%d b=%d\n", h[0], h[1]);
  return 0;
}
