struct S { int a; int *p; char c; float f; };
__device__ int gv[4];
__device__ S s = {1, &gv[2], 'x', 1.5f};
__device__ S sa[2] = {{1, &gv[1], 'y', 2.0f}, {3, gv, 'z', -1.0f}};
__device__ __managed__ int mv = 3;
__device__ double dd[3] = {1.0, -2.5};
__device__ short hs[3] = {-1, 2};
__device__ unsigned long long big = 0xFFFFFFFFFFFFFFFFull;
__device__ long long neg = -9223372036854775807LL - 1;
#include <cuda_fp16.h>
__device__ __half hh[2] = {__half_raw{0x3c00}, __half_raw{0xc000}};
__global__ void k(int *o) { o[0] = s.a + *s.p + sa[1].c + mv + (int)dd[1] + hs[0] + (int)big + (int)neg + (int)(float)hh[1]; 
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %0, 0;\n\t@p st.global.u32 [%1], 7;\n\t}" :: "r"(o[1]), "l"(o)); }
