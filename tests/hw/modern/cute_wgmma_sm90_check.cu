// cute_wgmma_sm90_check.cu: runs the CuTe tutorial hopper/wgmma_sm90.cu
// (from the nvidia-cutlass wheel, unmodified: its main is renamed away)
// through both of its paths, NT (A and B MN-major, 128-byte swizzle) and
// TN (K-major, 128-byte swizzle): cp.async into a 3-stage pipeline, then
// wgmma.mma_async m64n64k16 f16 from shared-memory descriptors, and checks
// C = A * B against a CPU reference in float. The tutorial itself only
// prints a timing.
#define main wgmma_sm90_tutorial_main
#include "hopper/wgmma_sm90.cu"
#undef main
#include <cmath>
#include <cstdio>
#include <cstdlib>

static int run(char ta, char tb, int m, int n, int k) {
  thrust::host_vector<cute::half_t> hA(m * k), hB(n * k), hC(m * n);
  srand(1);
  for (auto &x : hA) x = static_cast<cute::half_t>(2 * (rand() / double(RAND_MAX)) - 1);
  for (auto &x : hB) x = static_cast<cute::half_t>(2 * (rand() / double(RAND_MAX)) - 1);
  for (auto &x : hC) x = static_cast<cute::half_t>(-1);
  thrust::device_vector<cute::half_t> dA = hA, dB = hB, dC = hC;
  cute::half_t alpha = static_cast<cute::half_t>(1.0f), beta = static_cast<cute::half_t>(0.0f);
  // NT: A is M x K column-major (ldA = m), B is N x K column-major (ldB = n);
  // TN: A is K-major (ldA = k), B is K-major (ldB = k). C is column-major.
  int ldA = ta == 'N' ? m : k, ldB = tb == 'T' ? n : k;
  gemm(ta, tb, m, n, k, alpha, dA.data().get(), ldA, dB.data().get(), ldB, beta, dC.data().get(), m);
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("launch failed: %s\n", cudaGetErrorString(e)); return 1; }
  thrust::host_vector<cute::half_t> out = dC;
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float ref = 0;
      for (int p = 0; p < k; p++) {
        float a = ta == 'N' ? float(hA[i + p * m]) : float(hA[i * k + p]);
        float b = tb == 'T' ? float(hB[j + p * n]) : float(hB[j * k + p]);
        ref += a * b;
      }
      double d = std::fabs(double(float(out[i + j * m])) - ref);
      // half accumulation of k terms of magnitude <= 1: a few half ulps of |C| <= k
      double tol = 1e-2 * std::sqrt((double)k) + 2e-3 * std::fabs(ref);
      if (d > worst) worst = d;
      if (d > tol && bad++ < 5) printf("C(%d,%d) = %g, reference %g\n", i, j, float(out[i + j * m]), ref);
    }
  printf("wgmma_sm90 %c%c %dx%dx%d: %d of %d results off the reference, largest difference %g\n", ta, tb, m, n, k, bad,
         m * n, worst);
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 128, n = argc > 2 ? atoi(argv[2]) : 128, k = argc > 3 ? atoi(argv[3]) : 128;
  return run('N', 'T', m, n, k) | run('T', 'N', m, n, k);
}
