// __constant__ and __device__ symbols: cudaMemcpyToSymbol with an offset,
// cudaMemcpyFromSymbol, cudaGetSymbolAddress/Size, a __device__ array
// initialised statically; a polynomial table staged from constant to shared.
#include "qa.h"

__constant__ float poly[16];
__constant__ int shift[2];
__device__ int counter;
__device__ int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

__global__ void evalPoly(const float *x, float *y, int n)
{
  __shared__ float c[16];
  __shared__ int tb[8];
  if (threadIdx.x < 16) c[threadIdx.x] = poly[threadIdx.x];
  if (threadIdx.x < 8) tb[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i], acc = 0.f;
    for (int k = 15; k >= 0; k--) acc = acc * v + c[k];
    y[i] = acc + (float)(tb[i % 8] << shift[1]);
    atomicAdd(&counter, 1);
  }
}

int main()
{
  const int n = 777;
  float c[16], x[n], y[n];
  for (int k = 0; k < 16; k++) c[k] = (k % 3) - 1.0f;
  for (int i = 0; i < n; i++) x[i] = (float)(i % 5) * 0.5f - 1.f;
  int sh[2] = {9, 2}, zero = 0;
  CHECK(cudaMemcpyToSymbol(poly, c, 8 * sizeof(float)));
  CHECK(cudaMemcpyToSymbol(poly, c + 8, 8 * sizeof(float), 8 * sizeof(float)));
  CHECK(cudaMemcpyToSymbol(shift, sh, sizeof sh));
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
  size_t sz = 0;
  CHECK(cudaGetSymbolSize(&sz, table));
  EXPECT_EQ("symbol size", 0, (int)sz, 32);
  int *tp = 0;
  CHECK(cudaGetSymbolAddress((void **)&tp, table));
  int seven = 7;
  CHECK(cudaMemcpy(tp + 3, &seven, 4, cudaMemcpyHostToDevice)); /* table[3] = 7 */
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * 4));
  CHECK(cudaMalloc(&dy, n * 4));
  CHECK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
  evalPoly<<<(n + 127) / 128, 128>>>(dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y, dy, n * 4, cudaMemcpyDeviceToHost));
  int cnt = -1, tb[8];
  float back[16];
  CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
  CHECK(cudaMemcpyFromSymbol(tb, table, sizeof tb));
  CHECK(cudaMemcpyFromSymbol(back, poly, sizeof back));
  EXPECT_EQ("counter", 0, cnt, n);
  int tref[8] = {3, 1, 4, 7, 5, 9, 2, 6};
  for (int k = 0; k < 8; k++) EXPECT_EQ("table", k, tb[k], tref[k]);
  for (int k = 0; k < 16; k++) EXPECT_EQ("poly", k, back[k], c[k]);
  for (int i = 0; i < n; i++) {
    float acc = 0.f;
    for (int k = 15; k >= 0; k--) acc = acc * x[i] + c[k];
    EXPECT_EQ("y", i, y[i], acc + (float)(tref[i % 8] << 2));
  }
  return qa_done("symbols");
}
