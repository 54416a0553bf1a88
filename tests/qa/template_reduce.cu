// A kernel author's block reduction templated over the block size, with a
// volatile warp-synchronous tail (read, __syncwarp, write, as Volta+ needs),
// instantiated for 32..1024 threads; grid-stride input; CPU reference.
#include "qa.h"

template <unsigned BS>
__device__ void warpReduce(volatile int *s, unsigned tid)
{
  /* each step reads, then all lanes sync, then writes: lane tid's read of
   * s[tid + o] must come before lane tid + o's write of it */
  int v = s[tid];
#pragma unroll
  for (unsigned o = 32; o > 0; o >>= 1) {
    if (BS >= 2 * o) {
      v += s[tid + o];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  }
}

template <unsigned BS>
__global__ void reduce(const int *in, int *out, unsigned n)
{
  __shared__ int s[BS];
  unsigned tid = threadIdx.x;
  int sum = 0;
  for (unsigned i = blockIdx.x * BS * 2 + tid; i < n; i += BS * 2 * gridDim.x) {
    sum += in[i];
    if (i + BS < n) sum += in[i + BS];
  }
  s[tid] = sum;
  __syncthreads();
#pragma unroll
  for (unsigned w = BS / 2; w > 32; w >>= 1) {
    if (tid < w) s[tid] += s[tid + w];
    __syncthreads();
  }
  if (tid < 32) warpReduce<BS>(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

template <unsigned BS>
static void one(const int *d_in, int *d_out, unsigned n, long long want)
{
  const int grid = 7;
  reduce<BS><<<grid, BS>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  int h[grid];
  CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
  long long got = 0;
  for (int i = 0; i < grid; i++) got += h[i];
  EXPECT_EQ("sum", BS, got, want);
}

int main()
{
  const unsigned n = 100003;
  int *h = (int *)malloc(n * sizeof(int));
  unsigned seed = 3;
  long long want = 0;
  for (unsigned i = 0; i < n; i++) { h[i] = (int)(qa_lcg(&seed) % 1000) - 500; want += h[i]; }
  int *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, 64 * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
  one<64>(d_in, d_out, n, want);
  one<128>(d_in, d_out, n, want);
  one<256>(d_in, d_out, n, want);
  one<512>(d_in, d_out, n, want);
  one<1024>(d_in, d_out, n, want);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  free(h);
  return qa_done("template_reduce");
}
