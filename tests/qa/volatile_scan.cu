// Warp-synchronous code the old way: a per-warp inclusive scan on a
// volatile shared array with a 16-element zero pad (Sengupta et al.), lanes
// kept in step by __syncwarp; warp totals combined; multi-block scan with a
// second pass adding block offsets (three kernels). CPU reference.
#include "qa.h"

__device__ int warpScan(volatile int *s, int lane, int v)
{
  /* s points at this warp's 48-element window: 16 zeros then 32 values */
  s[lane] = 0;
  __syncwarp();
  volatile int *p = s + 16 + lane;
  *p = v;
  __syncwarp();
  for (int o = 1; o < 32; o *= 2) {
    int t = p[-o];
    __syncwarp();
    *p = v = v + t;
    __syncwarp();
  }
  return v;
}

__global__ void scanBlocks(const int *in, int *out, int *sums, int n)
{
  __shared__ int win[8][48];
  __shared__ int wtot[8];
  int t = threadIdx.x, lane = t & 31, w = t >> 5, i = blockIdx.x * 256 + t;
  int v = i < n ? in[i] : 0;
  v = warpScan(win[w], lane, v);
  if (lane == 31) wtot[w] = v;
  __syncthreads();
  if (w == 0) {
    int x = lane < 8 ? wtot[lane] : 0;
    for (int o = 1; o < 8; o *= 2) { int y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }
    if (lane < 8) wtot[lane] = x;
  }
  __syncthreads();
  if (w > 0) v += wtot[w - 1];
  if (i < n) out[i] = v;
  if (t == 255) sums[blockIdx.x] = v;
}

__global__ void scanSums(int *sums, int nb)
{
  __shared__ int s[1024];
  int t = threadIdx.x;
  s[t] = t < nb ? sums[t] : 0;
  __syncthreads();
  for (int o = 1; o < 1024; o *= 2) {
    int x = t >= o ? s[t - o] : 0;
    __syncthreads();
    s[t] += x;
    __syncthreads();
  }
  if (t < nb) sums[t] = s[t];
}

__global__ void addOffsets(int *out, const int *sums, int n)
{
  int i = blockIdx.x * 256 + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += sums[blockIdx.x - 1];
}

int main()
{
  const int n = 100000, nb = (n + 255) / 256;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  unsigned seed = 31;
  for (int i = 0; i < n; i++) h[i] = (int)(qa_lcg(&seed) % 21) - 10;
  int *d, *dout, *ds;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&dout, n * 4)); CHECK(cudaMalloc(&ds, nb * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  scanBlocks<<<nb, 256>>>(d, dout, ds, n);
  scanSums<<<1, 1024>>>(ds, nb);
  addOffsets<<<nb, 256>>>(dout, ds, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  int s = 0;
  for (int i = 0; i < n; i++) { s += h[i]; EXPECT_EQ("scan", i, o[i], s); }
  return qa_done("volatile_scan");
}
