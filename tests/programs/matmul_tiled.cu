/* matmul_tiled.cu: C = A * B with 16x16 shared tiles of A and B, the
 * inner product over each tile pair between two barriers; sizes are not
 * multiples of the tile, so edge tiles are padded with zeros. */
#include "prog.h"

#define T 16

__global__ void matmul(const float *A, const float *B, float *C, int m, int k, int n)
{
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.f;
  for (int t0 = 0; t0 < k; t0 += T) {
    As[threadIdx.y][threadIdx.x] = row < m && t0 + threadIdx.x < k ? A[row * k + t0 + threadIdx.x] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = col < n && t0 + threadIdx.y < k ? B[(t0 + threadIdx.y) * n + col] : 0.f;
    __syncthreads();
    for (int i = 0; i < T; i++) acc += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = acc;
}

int main()
{
  const int m = 70, k = 50, n = 90;
  float *a = (float *)malloc(m * k * 4), *b = (float *)malloc(k * n * 4), *c = (float *)malloc(m * n * 4);
  unsigned s = 67;
  /* small integers: products and sums are exact, so order does not matter */
  for (int i = 0; i < m * k; i++) a[i] = (float)(lcg(&s) % 9) - 4.f;
  for (int i = 0; i < k * n; i++) b[i] = (float)(lcg(&s) % 7) - 3.f;
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, m * k * 4));
  CHECK(cudaMalloc(&db, k * n * 4));
  CHECK(cudaMalloc(&dc, m * n * 4));
  CHECK(cudaMemcpy(da, a, m * k * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, k * n * 4, cudaMemcpyHostToDevice));
  dim3 grid((n + T - 1) / T, (m + T - 1) / T), block(T, T);
  matmul<<<grid, block>>>(da, db, dc, m, k, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c, dc, m * n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  double total = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float r = 0.f;
      for (int q = 0; q < k; q++) r += a[i * k + q] * b[q * n + j];
      bad += c[i * n + j] != r;
      total += c[i * n + j];
    }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  return result("matmul_tiled", bad, "%dx%dx%d sum %.0f hash %08x", m, k, n, total, fnv(c, m * n));
}
