/* warp_reduce.cu: warp-level primitives: a shuffle-down reduction, a
 * butterfly (xor) reduction, ballots with population counts, match and
 * broadcast, and a block reduction built from them. */
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

__device__ float warp_sum(float v)
{
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__device__ int warp_max(int v)
{
  for (int m = 1; m < 32; m <<= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, m));
  return v;
}

__global__ void block_reduce(const float *in, float *out, int n)
{
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

__global__ void votes(const int *in, int *out)
{
  int lane = threadIdx.x;
  int v = in[lane];
  unsigned even = __ballot_sync(0xffffffffu, v % 2 == 0);
  int big = __any_sync(0xffffffffu, v > 90);
  int all = __all_sync(0xffffffffu, v >= 0);
  int mx = warp_max(v);
  int first = __shfl_sync(0xffffffffu, v, 0);
  unsigned same = __match_any_sync(0xffffffffu, v % 4);
  if (lane == 5) {
    out[0] = (int)even;
    out[1] = __popc(even);
    out[2] = big;
    out[3] = all;
    out[4] = mx;
    out[5] = first;
    out[6] = (int)same;
  }
}

int main(void)
{
  const int n = 2000, threads = 256, blocks = (n + threads - 1) / threads;
  float h[n], sums[blocks];
  for (int i = 0; i < n; i++) h[i] = (float)((i * 37) % 101) * 0.125f;
  float *d, *ds;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&ds, sizeof sums));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  block_reduce<<<blocks, threads>>>(d, ds, n);
  CHECK(cudaMemcpy(sums, ds, sizeof sums, cudaMemcpyDeviceToHost));
  float total = 0.0f;
  for (int b = 0; b < blocks; b++) total += sums[b];
  printf("block sums: %g %g ... %g, total %g\n", sums[0], sums[1], sums[blocks - 1], total);

  int in[32], out[7], *di, *dout;
  for (int i = 0; i < 32; i++) in[i] = (i * 29 + 3) % 95;
  CHECK(cudaMalloc(&di, sizeof in));
  CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMemcpy(di, in, sizeof in, cudaMemcpyHostToDevice));
  votes<<<1, 32>>>(di, dout);
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  printf("ballot even 0x%08x (%d lanes), any>90 %d, all>=0 %d, max %d, lane0 %d, match 0x%08x\n", out[0], out[1],
         out[2], out[3], out[4], out[5], out[6]);
  CHECK(cudaFree(d));
  CHECK(cudaFree(ds));
  CHECK(cudaFree(di));
  CHECK(cudaFree(dout));
  return 0;
}
