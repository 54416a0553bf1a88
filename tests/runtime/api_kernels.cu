/* api_kernels.cu: the kernels and variables tests/unit/test_runtime_api.c
 * registers by hand (as nvcc's host code would) from api_kernels.ptx, so
 * that the runtime's API is tested without nvcc. Regenerate the PTX with
 *   nvcc -arch=sm_90 -ptx -lineinfo -o tests/runtime/api_kernels.ptx tests/runtime/api_kernels.cu
 *   sed -i "s|\"[^\"]*/tests/runtime/|\"tests/runtime/|" tests/runtime/api_kernels.ptx */
#include <cassert>
#include <cstdio>

__device__ int dev_var = 5;
__constant__ float cst[4];
__device__ int dev_array[16];

extern "C" __global__ void add_one(int *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}

extern "C" __global__ void dyn_fill(int *x, int n)
{
  extern __shared__ int s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = i * 3;
  __syncthreads();
  if (threadIdx.x == 0) x[0] = s[n - 1];
}

extern "C" __global__ void stat_shared(int *x)
{
  __shared__ int s[1024];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  x[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(64) bounded(int *x) { x[threadIdx.x] = 7; }

extern "C" __global__ void use_vars(int *out)
{
  out[0] = dev_var + (int)cst[1];
  dev_array[threadIdx.x % 16] = threadIdx.x;
}

extern "C" __global__ void say(int v)
{
  if (threadIdx.x == 0) printf("say %d\n", v);
}

extern "C" __global__ void check(int v) { assert(v == 0); }

extern "C" __global__ void write_to(int *p) { p[threadIdx.x] = 1; }
