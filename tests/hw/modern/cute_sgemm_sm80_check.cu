// cute_sgemm_sm80_check.cu: runs the CuTe tutorial sgemm_sm80.cu (from the
// nvidia-cutlass wheel, unmodified: its main is renamed away) through its
// half-precision TN path (cp.async + ldmatrix + mma.sync m16n8k16) and
// checks C = A * B^T against a CPU reference in float. The tutorial itself
// only prints a timing.
#define main sgemm_sm80_tutorial_main
#include "sgemm_sm80.cu"
#undef main
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 128, n = argc > 2 ? atoi(argv[2]) : 128, k = argc > 3 ? atoi(argv[3]) : 64;
  thrust::host_vector<cute::half_t> hA(m * k), hB(n * k), hC(m * n);
  srand(1);
  for (auto &x : hA) x = static_cast<cute::half_t>(2 * (rand() / double(RAND_MAX)) - 1);
  for (auto &x : hB) x = static_cast<cute::half_t>(2 * (rand() / double(RAND_MAX)) - 1);
  for (auto &x : hC) x = static_cast<cute::half_t>(-1);
  thrust::device_vector<cute::half_t> dA = hA, dB = hB, dC = hC;
  cute::half_t alpha = static_cast<cute::half_t>(1.0f), beta = static_cast<cute::half_t>(0.0f);
  gemm('T', 'N', m, n, k, alpha, dA.data().get(), k, dB.data().get(), k, beta, dC.data().get(), m);
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("launch failed: %s\n", cudaGetErrorString(e)); return 1; }
  thrust::host_vector<cute::half_t> out = dC;
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float ref = 0;
      for (int p = 0; p < k; p++) ref += float(hA[i * k + p]) * float(hB[j * k + p]);
      double d = std::fabs(double(float(out[i + j * m])) - ref);
      // half accumulation of k terms of magnitude <= 1: a few half ulps of |C| <= k
      double tol = 1e-2 * std::sqrt((double)k) + 2e-3 * std::fabs(ref);
      if (d > worst) worst = d;
      if (d > tol && bad++ < 5) printf("C(%d,%d) = %g, reference %g\n", i, j, float(out[i + j * m]), ref);
    }
  printf("sgemm_sm80 TN %dx%dx%d: %d of %d results off the reference, largest difference %g\n", m, n, k, bad, m * n, worst);
  return bad ? 1 : 0;
}
