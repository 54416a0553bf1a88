// Multi-file program (whole-program mode, -rdc=false): this file holds main
// and its own kernel and __constant__; multifile_part.cu holds another
// kernel, a __constant__ of the same name (file-local) and a host wrapper.
// qa-extra: multifile_part.cu
#include "qa.h"

__constant__ int coef[4];
void partScan(const int *d_in, int *d_out, int n, const int *offsets4); /* in multifile_part.cu */

__global__ void weigh(int *p, int n)
{
  __shared__ int s[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  s[threadIdx.x] = i < n ? p[i] : 0;
  __syncthreads();
  int v = s[threadIdx.x ^ 1] * coef[threadIdx.x & 3];
  if (i < n) p[i] = v;
}

int main()
{
  const int n = 1000;
  int h[n], c[4] = {1, 2, 3, 4}, off[4] = {100, 200, 300, 400};
  for (int i = 0; i < n; i++) h[i] = i % 50;
  int *d, *d2;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&d2, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(coef, c, sizeof c));
  weigh<<<(n + 255) / 256, 256>>>(d, n);
  CHECK(cudaGetLastError());
  partScan(d, d2, n, off);
  int o[n];
  CHECK(cudaMemcpy(o, d2, n * 4, cudaMemcpyDeviceToHost));
  int w[n];
  for (int i = 0; i < n; i++) w[i] = ((i ^ 1) < n ? h[i ^ 1] : 0) * c[i & 3];
  /* part: per 128-block inclusive scan plus offset[block % 4] */
  for (int i = 0; i < n; i++) {
    int s = 0;
    for (int k = i - i % 128; k <= i; k++) s += w[k];
    EXPECT_EQ("scan", i, o[i], s + off[(i / 128) % 4]);
  }
  return qa_done("multifile");
}
