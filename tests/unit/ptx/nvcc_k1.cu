#include <cstdio>
__constant__ float cf[4] = {1.0f, 2.5f, -3.0f, 0.125f};
__constant__ int ci[2][3] = {{1,2,3},{4,5,6}};
__device__ int gcount;
__device__ int *gptr = &gcount;
__device__ const char *msg = "hello";
extern __shared__ float dyn[];

__global__ void __launch_bounds__(256, 2) reduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] * cf[t & 3] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) { atomicAdd(out, s[0]); atomicAdd(gptr, ci[1][2]); }
}

__global__ void dynk(float *o) {
  dyn[threadIdx.x] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
  int v = __shfl_down_sync(0xffffffff, (int)o[0], 1);
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  o[1] = b;
  unsigned long long c = clock64();
  o[2] = (float)c;
  int x = atomicCAS((int*)o, 1, 2);
  o[3] = x;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void pk(int *o) {
  printf("tid %d fib %d\n", threadIdx.x, fib(threadIdx.x));
  o[threadIdx.x] = fib(threadIdx.x);
}

template <typename T, int N> __global__ void tk(T *a) {
  __shared__ T sh[N];
  sh[threadIdx.x % N] = a[threadIdx.x];
  __syncwarp();
  a[threadIdx.x] = sh[(threadIdx.x + 1) % N] * (T)2.5;
}
template __global__ void tk<double, 32>(double *);
template __global__ void tk<float, 64>(float *);

__global__ void vec(float4 *a, double2 *b) {
  float4 v = a[threadIdx.x];
  v.x += v.w; a[threadIdx.x + 1] = v;
  double2 d = b[threadIdx.x]; d.y = d.x * 1e-3; b[threadIdx.x] = d;
}
typedef int (*fp)(int);
__device__ int inc(int x) { return x + 1; }
__device__ int dec(int x) { return x - 1; }
__device__ fp fps[2] = {inc, dec};
__global__ void indirect(int *o, int s) { o[0] = fps[s & 1](o[1]); }
