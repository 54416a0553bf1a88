// matrixMul.cu: C = A * B with A 320x640 and B 640x320, 32x32 shared tiles,
// launched 300 times as the SDK sample times it.
#include "common.cuh"
#include <cmath>
#include <vector>

#define T 32

__global__ void matrixMul(float *C, const float *A, const float *Bm, int wA, int wB) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int k0 = 0; k0 < wA; k0 += T) {
    As[ty][tx] = A[(by * T + ty) * wA + k0 + tx];
    Bs[ty][tx] = Bm[(k0 + ty) * wB + bx * T + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; k++) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[(by * T + ty) * wB + bx * T + tx] = sum;
}

int main() {
  const int hA = 320, wA = 640, wB = 320;
  std::vector<float> a(hA * wA), b(wA * wB), c(hA * wB);
  uint64_t seed = 7;
  for (auto &x : a) x = (rng(&seed) % 1000) / 1000.0f;
  for (auto &x : b) x = (rng(&seed) % 1000) / 1000.0f;
  float *dA, *dB, *dC;
  CK(cudaMalloc(&dA, a.size() * 4)); CK(cudaMalloc(&dB, b.size() * 4)); CK(cudaMalloc(&dC, c.size() * 4));
  CK(cudaMemcpy(dA, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  dim3 grid(wB / T, hA / T), block(T, T);
  for (int i = 0; i < 300; i++) matrixMul<<<grid, block>>>(dC, dA, dB, wA, wB);
  CK(cudaGetLastError());
  CK(cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < hA && ok; i++)
    for (int j = 0; j < wB && ok; j++) {
      double r = 0;
      for (int k = 0; k < wA; k++) r += (double)a[i * wA + k] * b[k * wB + j];
      ok = fabs(c[i * wB + j] - r) <= 1e-4 * fabs(r) + 1e-3;
    }
  return report("matrixMul 320x640*640x320 x300", ok);
}
