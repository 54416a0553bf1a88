// One extern __shared__ buffer carved into arrays of several types (double,
// float, short, char) with explicit alignment; the sizes come from the
// launch. Each block computes per-block stats of its slice; CPU reference.
#include "qa.h"
#include <cstdint>

__device__ __forceinline__ size_t alignUp(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

__global__ void carve(const float *in, double *sums, float *maxs, int *negs, int n)
{
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned bs = blockDim.x;
  size_t off = 0;
  double *sd = (double *)(smem + off); off = alignUp(off + bs * sizeof(double), 16);
  float *sf = (float *)(smem + off); off = alignUp(off + bs * sizeof(float), 8);
  short *ss = (short *)(smem + off); off = alignUp(off + bs * sizeof(short), 4);
  char *sc = (char *)(smem + off);
  int i = blockIdx.x * bs + threadIdx.x;
  float v = i < n ? in[i] : -INFINITY;
  sd[threadIdx.x] = i < n ? (double)v : 0.0;
  sf[threadIdx.x] = v;
  ss[threadIdx.x] = (short)(i < n && v < 0.f);
  sc[threadIdx.x] = (char)(threadIdx.x & 0x7f);
  __syncthreads();
  for (unsigned w = bs / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) {
      sd[threadIdx.x] += sd[threadIdx.x + w];
      sf[threadIdx.x] = fmaxf(sf[threadIdx.x], sf[threadIdx.x + w]);
      ss[threadIdx.x] += ss[threadIdx.x + w];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sd[0];
    maxs[blockIdx.x] = sf[0];
    negs[blockIdx.x] = ss[0] + (sc[bs - 1] == (char)((bs - 1) & 0x7f) ? 0 : 1000);
  }
}

int main()
{
  const int n = 5000, bs = 128, grid = (n + bs - 1) / bs;
  float *h = (float *)malloc(n * sizeof(float));
  unsigned seed = 11;
  for (int i = 0; i < n; i++) h[i] = (float)((int)(qa_lcg(&seed) % 20001) - 10000) / 64.0f;
  float *d_in, *d_max; double *d_sum; int *d_neg;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_sum, grid * sizeof(double)));
  CHECK(cudaMalloc(&d_max, grid * sizeof(float)));
  CHECK(cudaMalloc(&d_neg, grid * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
  size_t shm = 0;
  shm = ((shm + bs * 8) + 15) & ~(size_t)15;
  shm = ((shm + bs * 4) + 7) & ~(size_t)7;
  shm = ((shm + bs * 2) + 3) & ~(size_t)3;
  shm += bs;
  carve<<<grid, bs, shm>>>(d_in, d_sum, d_max, d_neg, n);
  CHECK(cudaGetLastError());
  double *hs = (double *)malloc(grid * sizeof(double));
  float *hm = (float *)malloc(grid * sizeof(float));
  int *hn = (int *)malloc(grid * sizeof(int));
  CHECK(cudaMemcpy(hs, d_sum, grid * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hm, d_max, grid * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hn, d_neg, grid * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < grid; b++) {
    double s = 0; float m = -INFINITY; int ng = 0;
    for (int i = b * bs; i < n && i < (b + 1) * bs; i++) { s += h[i]; m = fmaxf(m, h[i]); ng += h[i] < 0; }
    EXPECT_EQ("sum", b, hs[b], s); /* values are multiples of 1/64: exact */
    EXPECT_EQ("max", b, hm[b], m);
    EXPECT_EQ("negs", b, hn[b], ng);
  }
  return qa_done("extern_carve");
}
