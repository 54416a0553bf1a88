// synccheck on sm_70+: half a warp skips a __syncthreads, then does
// nothing, writes, writes from some lanes, or loops and exits. One block
// of 64 threads per kernel (warp 1's lanes 16-31 skip).
#include "san.cuh"

// what every kernel does first: lanes 0-47 meet at the barrier, 48-63 skip it
__device__ __forceinline__ int skipHalf(int *s, const int *in)
{
  int t = threadIdx.x;
  s[t] = in[t];
  if (t < 48) {
    s[t] += 1;
    __syncthreads();
  }
  return t;
}

__global__ void skipThenExit(int *out, const int *in)
{
  __shared__ int s[64];
  int t = skipHalf(s, in);
  if (t == 0)
    out[0] = s[1];
}

__global__ void skipThenOddWrite(int *out, const int *in)
{
  __shared__ int s[64];
  int t = skipHalf(s, in);
  if (t & 1)
    out[t] = t;
}

__global__ void skipThenLoop(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = skipHalf(s, in);
  int x = 0;
  for (int i = 0; i < t * n; i++)
    x += i ^ t;
  if (x == -7)
    out[t] = x;
}

int main()
{
  int *out = 0, *in = 0;
  CALL(cudaMalloc(&out, 64 * sizeof(int)));
  CALL(cudaMalloc(&in, 64 * sizeof(int)));
  CALL(cudaMemset(in, 0, 64 * sizeof(int)));
  skipThenExit<<<1, 64>>>(out, in);
  SYNC("skipThenExit");
  skipThenOddWrite<<<1, 64>>>(out, in);
  SYNC("skipThenOddWrite");
  skipThenLoop<<<1, 64>>>(out, in, 3);
  SYNC("skipThenLoop");
  CALL(cudaFree(out));
  CALL(cudaFree(in));
  return 0;
}
