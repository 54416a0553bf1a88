// lint_prog.cu: a program with one kernel smemu runs and one it cannot
// (a tld4 gather on a cube texture, which smemu does not model): smemu lint lists it, smemu
// run says where to look.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void good(int *p) { p[threadIdx.x] = 1; }
__global__ void bad(float *p, unsigned long long tex) {
  float d0, d1, d2, d3, c = p[0];
  asm volatile("tld4.r.cube.v4.f32.f32 {%0,%1,%2,%3}, [%4, {%5,%6,%7,%8}];"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "l"(tex), "f"(c), "f"(c), "f"(c), "f"(0.f));
  p[threadIdx.x] = d0 + d1 + d2 + d3;
}
int main() {
  int *p;
  cudaMalloc(&p, 128);
  good<<<1, 32>>>(p);
  printf("good: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  bad<<<1, 32>>>((float *)p, 0);
  printf("bad: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
