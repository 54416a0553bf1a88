// lint_prog.cu: a program with one kernel smemu runs and one it cannot
// (a sparse mma, which smemu does not model): smemu lint lists it, smemu
// run says where to look.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void good(int *p) { p[threadIdx.x] = 1; }
__global__ void bad(float *p) {
  unsigned a0 = __float_as_uint(p[0]), a1 = a0, b0 = a0, b1 = a0, e = 0;
  float d0, d1, d2, d3;
  asm volatile(
      "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, "
      "{%8,%9,%10,%11}, %12, 0x0;"
      : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1), "f"(0.f), "f"(0.f), "f"(0.f), "f"(0.f), "r"(e));
  p[threadIdx.x] = d0 + d1 + d2 + d3;
}
int main() {
  int *p;
  cudaMalloc(&p, 128);
  good<<<1, 32>>>(p);
  printf("good: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  bad<<<1, 32>>>((float *)p);
  printf("bad: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
