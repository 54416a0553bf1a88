#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
extern "C" __device__ int __nvvm_read_ptx_sreg_tid_x();
__constant__ int tab[3][2] = {{1,2},{3,4},{5,6}};
__device__ int gv;
__device__ int gp2[2];
__device__ __attribute__((noinline)) int f(int x) { return x > 1 ? f(x-1)*x : 1; }
__global__ void k(int *o) {
  __shared__ int s[32];
  int t;
  t = __nvvm_read_ptx_sreg_tid_x();
  s[t] = tab[t%3][t&1];
  __nvvm_bar_sync(0);
  o[t] = f(s[31-t]) + gp2[1];
  __builtin_trap();
}
