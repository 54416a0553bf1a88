// Errors inside device functions: an uninitialised read and an
// out-of-bounds write two inlined calls deep (compute-sanitizer names the
// innermost line and prints the call sites as device frames), and the same
// write through a function kept out of line.
#include "san.cuh"

__device__ __forceinline__ void storeAt(int *p, int i, int v)
{
  p[i] = v;
}

__device__ __forceinline__ void fillFrom(int *p, int n)
{
  storeAt(p, n + threadIdx.x, 1);
}

__device__ __forceinline__ int loadAt(const int *p, int i)
{
  return p[i];
}

__device__ __noinline__ void storeOutOfLine(int *p, int i)
{
  p[i] = i;
}

__global__ void inlinedRead(int *out, const int *p)
{
  out[threadIdx.x] = loadAt(p, threadIdx.x);
}

__global__ void inlinedOverrun(int *p, int n)
{
  fillFrom(p, n);
}

__global__ void calledOverrun(int *p, int n)
{
  storeOutOfLine(p, n + threadIdx.x);
}

int main()
{
  int *p = 0, *out = 0;
  CALL(cudaMalloc(&p, 400));
  CALL(cudaMalloc(&out, 400));
  ADDR("p", p);
  ADDR("out", out);
  inlinedRead<<<1, 2>>>(out, p);
  SYNC("inlinedRead");
  inlinedOverrun<<<1, 2>>>(p, 1 << 24);
  SYNC("inlinedOverrun");
  calledOverrun<<<1, 2>>>(p, 1 << 24);
  SYNC("calledOverrun");
  CALL(cudaFree(p));
  CALL(cudaFree(out));
  return 0;
}
