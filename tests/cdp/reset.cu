// reset.cu: device launches in three contexts, one after another
// (cudaDeviceReset between them): each round's child writes its value.
#include <cstdio>

__global__ void child(int *p, int v) { p[threadIdx.x] = v; }
__global__ void parent(int *p, int v) {
  if (threadIdx.x == 0) child<<<1, 4>>>(p, v);
}

int main() {
  for (int r = 0; r < 3; r++) {
    int *p, h[4];
    cudaMalloc(&p, sizeof h);
    parent<<<1, 2>>>(p, 7 + r);
    cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
    printf("round %d: %d %d %d %d\n", r, h[0], h[1], h[2], h[3]);
    cudaDeviceReset();
  }
  return 0;
}
