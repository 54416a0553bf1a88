// lib.cu: the other half of main.cu's program: the definitions it links to.
__device__ int bias = 1;

static __device__ __noinline__ int twice(int x) { return 4 * x; }

__device__ int scale(int x) { return 3 * x - 1; }

__device__ int lib_twice(int x) { return twice(x); }
