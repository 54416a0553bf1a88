// NVVM at -O0 (-Xcicc -O0: unoptimised PTX with allocas and
// local-memory traffic, but no debug info) of a tiled matrix product with shared tiles
// and a bitonic sort in shared memory.
// qa-flags: -Xcicc -O0 -Xptxas -O0
#include "qa.h"

#define TS 16
__global__ void matmul(const float *A, const float *B, float *C, int n)
{
  __shared__ float As[TS][TS], Bs[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
  float acc = 0.f;
  for (int t = 0; t < (n + TS - 1) / TS; t++) {
    As[ty][tx] = row < n && t * TS + tx < n ? A[row * n + t * TS + tx] : 0.f;
    Bs[ty][tx] = col < n && t * TS + ty < n ? B[(t * TS + ty) * n + col] : 0.f;
    __syncthreads();
    for (int k = 0; k < TS; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = acc;
}

__global__ void bitonic(int *d)
{
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = d[blockIdx.x * 256 + t];
  __syncthreads();
  for (int k = 2; k <= 256; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int p = t ^ j;
      if (p > t) {
        bool up = (t & k) == 0;
        if ((s[t] > s[p]) == up) { int x = s[t]; s[t] = s[p]; s[p] = x; }
      }
      __syncthreads();
    }
  d[blockIdx.x * 256 + t] = s[t];
}

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main()
{
  const int n = 37;
  float A[n * n], Bm[n * n], C[n * n];
  for (int i = 0; i < n * n; i++) { A[i] = (float)(i % 7) - 3.f; Bm[i] = (float)(i % 5) - 2.f; }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, sizeof A)); CHECK(cudaMalloc(&dB, sizeof Bm)); CHECK(cudaMalloc(&dC, sizeof C));
  CHECK(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, Bm, sizeof Bm, cudaMemcpyHostToDevice));
  matmul<<<dim3((n + TS - 1) / TS, (n + TS - 1) / TS), dim3(TS, TS)>>>(dA, dB, dC, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost));
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      float s = 0.f;
      for (int k = 0; k < n; k++) s += A[r * n + k] * Bm[k * n + c];
      EXPECT_EQ("C", r * n + c, C[r * n + c], s);
    }
  const int m = 256 * 3;
  int h[m], o[m];
  unsigned seed = 29;
  for (int i = 0; i < m; i++) h[i] = (int)(qa_lcg(&seed) % 100000) - 50000;
  int *d;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  bitonic<<<3, 256>>>(d);
  CHECK(cudaMemcpy(o, d, sizeof o, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 3; b++) qsort(h + b * 256, 256, 4, cmp);
  for (int i = 0; i < m; i++) EXPECT_EQ("sorted", i, o[i], h[i]);
  return qa_done("cicc_O0");
}
