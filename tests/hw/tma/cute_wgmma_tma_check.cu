// cute_wgmma_tma_check.cu: runs the CuTe tutorial hopper/wgmma_tma_sm90.cu
// (from the nvidia-cutlass wheel, unmodified: its main is renamed away)
// once, NT half precision (TMA loads with the 128B swizzle, an mbarrier
// pipeline, wgmma), and checks C = A * B^T against a CPU reference. The
// tutorial itself only prints a timing.
#define main wgmma_tma_tutorial_main
#include "hopper/wgmma_tma_sm90.cu"
#undef main
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 128, n = argc > 2 ? atoi(argv[2]) : 128, k = argc > 3 ? atoi(argv[3]) : 128;
  thrust::host_vector<cute::half_t> hA(m * k), hB(n * k), hC(m * n);
  srand(1);
  for (auto &x : hA) x = static_cast<cute::half_t>((rand() % 5) - 2);
  for (auto &x : hB) x = static_cast<cute::half_t>((rand() % 5) - 2);
  for (auto &x : hC) x = static_cast<cute::half_t>(-1);
  thrust::device_vector<cute::half_t> dA = hA, dB = hB, dC = hC;
  cute::half_t alpha = static_cast<cute::half_t>(1.0f), beta = static_cast<cute::half_t>(0.0f);
  // NT: A is m x k with stride m (column-major), B is n x k with stride n
  gemm('N', 'T', m, n, k, alpha, dA.data().get(), m, dB.data().get(), n, beta, dC.data().get(), m);
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { printf("launch failed: %s\n", cudaGetErrorString(e)); return 1; }
  thrust::host_vector<cute::half_t> out = dC;
  int bad = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float ref = 0;
      for (int p = 0; p < k; p++) ref += float(hA[i + p * m]) * float(hB[j + p * n]);
      float got = float(out[i + j * m]);
      if (got != ref && bad++ < 5) printf("C(%d,%d) = %g, reference %g\n", i, j, got, ref);
    }
  printf("wgmma_tma_sm90 NT %dx%dx%d: %d of %d results off the reference\n", m, n, k, bad, m * n);
  return bad ? 1 : 0;
}
