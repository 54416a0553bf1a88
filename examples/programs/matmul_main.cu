/* matmul_main.cu: the tiled matrix-product driver as a whole program: a
 * square product with matmulTiled and a rectangular one with
 * matmulTiledBounds (examples/matmul.cu), both checked against the host.
 *   nvcc -arch=sm_90 -cudart shared -o matmul examples/programs/matmul_main.cu */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "../matmul.cu"

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                      \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

static unsigned seed = 2024u;
static float rnd(void)
{
  seed = seed * 1664525u + 1013904223u;
  return (float)(seed >> 8) / 16777216.0f - 0.5f;
}

/* C (m x p) = A (m x q) * B (q x p) on the GPU; checks and prints a digest. */
static int run(const char *what, int m, int q, int p, bool square)
{
  std::vector<float> A((size_t)m * q), B((size_t)q * p), C((size_t)m * p);
  for (auto &x : A) x = rnd();
  for (auto &x : B) x = rnd();
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(MM_TILE, MM_TILE);
  dim3 grid((p + MM_TILE - 1) / MM_TILE, (m + MM_TILE - 1) / MM_TILE);
  if (square)
    matmulTiled<<<grid, block>>>(dA, dB, dC, m);
  else
    matmulTiledBounds<<<grid, block>>>(dA, dB, dC, m, q, p);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double maxerr = 0.0, digest = 0.0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < p; j++) {
      double ref = 0.0;
      for (int k = 0; k < q; k++) ref += (double)A[(size_t)i * q + k] * B[(size_t)k * p + j];
      double err = fabs(ref - C[(size_t)i * p + j]);
      if (err > maxerr) maxerr = err;
      digest += C[(size_t)i * p + j] * (double)((i * 31 + j * 17) % 101);
    }
  int ok = maxerr < 1e-3;
  printf("%s %dx%dx%d: C[0][0] = %.9g, C[%d][%d] = %.9g, digest %.6f: %s\n", what, m, q, p, C[0], m - 1,
         p - 1, C[(size_t)m * p - 1], digest, ok ? "OK" : "MISMATCH");
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  return ok;
}

int main(void)
{
  int ok = run("matmulTiled", 128, 128, 128, true);
  ok &= run("matmulTiledBounds", 100, 70, 90, false);
  return ok ? 0 : 1;
}
