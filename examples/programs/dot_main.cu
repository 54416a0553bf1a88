/* dot_main.cu: the dot-product driver as a whole program: dotPartial
 * (examples/dot.cu) reduces each block's products in shared memory, the
 * host adds the partial sums and compares with a double-precision sum.
 *   nvcc -arch=sm_90 -cudart shared -o dot examples/programs/dot_main.cu */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "../dot.cu"

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                      \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

int main(void)
{
  const int n = 1 << 18, blocks = 32;
  std::vector<float> a(n), b(n), partial(blocks);
  unsigned s = 12345u;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    a[i] = (float)(s >> 8) / 16777216.0f - 0.5f;
    s = s * 1664525u + 1013904223u;
    b[i] = (float)(s >> 8) / 16777216.0f;
  }
  float *d_a, *d_b, *d_p;
  CHECK(cudaMalloc(&d_a, n * sizeof(float)));
  CHECK(cudaMalloc(&d_b, n * sizeof(float)));
  CHECK(cudaMalloc(&d_p, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  dotPartial<<<blocks, DOT_THREADS>>>(d_a, d_b, d_p, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(partial.data(), d_p, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  float gpu = 0.0f;
  for (int i = 0; i < blocks; i++) gpu += partial[i];
  double ref = 0.0;
  for (int i = 0; i < n; i++) ref += (double)a[i] * b[i];
  printf("partial[0] = %.9g, partial[%d] = %.9g\n", partial[0], blocks - 1, partial[blocks - 1]);
  printf("dot = %.9g (double reference %.6f)\n", gpu, ref);
  int ok = fabs(gpu - ref) <= 1e-3 * (1.0 + fabs(ref));
  printf("%s\n", ok ? "OK" : "MISMATCH");
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_p));
  return ok ? 0 : 1;
}
