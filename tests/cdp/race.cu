// race.cu: the parent writes a value after launching a child that reads
// it: the child may see either value (the launch orders only the writes
// made before it).
#include <cstdio>

__global__ void child(const int *x, int *seen) { *seen = *x; }

__global__ void parent(int *x, int *seen) {
  *x = 1;
  child<<<1, 1>>>(x, seen);
  *x = 2;
}

int main() {
  int *x, *seen, s = -1;
  cudaMalloc(&x, sizeof(int));
  cudaMalloc(&seen, sizeof(int));
  parent<<<1, 1>>>(x, seen);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&s, seen, sizeof s, cudaMemcpyDeviceToHost);
  printf("race: sync %d, child saw %s\n", (int)e, s == 1 || s == 2 ? "1 or 2" : "something else");
  return 0;
}
