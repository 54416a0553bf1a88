// wmma_api.cu: GEMMs through the C++ nvcuda::wmma API (fragments staged
// through shared memory and straight from global memory), checked against
// a CPU reference. Inputs are small multiples of powers of two, so every
// product and sum is exact in the accumulator type: the results must equal
// the reference exactly. Prints one line per GEMM and exits 1 on a mismatch.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("error %s line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

enum { M = 64, N = 64, K = 32 };

// C (MxN, row-major, f32) = A (MxK, row-major, half) * B (KxN, col-major, half)
// + C; one warp per 16x16 tile, A and B tiles staged in shared memory.
__global__ void gemm_h(const half *A, const half *B, float *C) {
  __shared__ half sa[16 * 16], sb[16 * 16];
  int tm = blockIdx.y * 16, tn = blockIdx.x * 16, l = threadIdx.x;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, C + tm * N + tn, N, wmma::mem_row_major);
  for (int k = 0; k < K; k += 16) {
    for (int i = l; i < 256; i += 32) {
      sa[i] = A[(tm + i / 16) * K + k + i % 16];
      sb[i] = B[(tn + i / 16) * K + k + i % 16];  // column i/16 of the tile
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::load_matrix_sync(a, sa, 16);
    wmma::load_matrix_sync(b, sb, 16);
    wmma::mma_sync(acc, a, b, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(C + tm * N + tn, acc, N, wmma::mem_row_major);
}

// The same with m32n8k16 tiles, A column-major from global, half results.
__global__ void gemm_h32x8(const half *At, const half *B, half *C) {
  int tm = blockIdx.y * 32, tn = blockIdx.x * 8;
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  for (int k = 0; k < K; k += 16) {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> b;
    wmma::load_matrix_sync(a, At + k * M + tm, M);  // At is A stored column-major
    wmma::load_matrix_sync(b, B + tn * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + tn * M + tm, acc, M, wmma::mem_col_major);
}

// Integer: s8 m8n32k16, A row-major, B row-major, s32 results.
__global__ void gemm_s8(const signed char *A, const signed char *Br, int *C) {
  int tm = blockIdx.y * 8, tn = blockIdx.x * 32;
  wmma::fragment<wmma::accumulator, 8, 32, 16, int> acc;
  wmma::fill_fragment(acc, 7);
  for (int k = 0; k < K; k += 16) {
    wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::row_major> b;
    wmma::load_matrix_sync(a, A + tm * K + k, K);
    wmma::load_matrix_sync(b, Br + k * N + tn, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + tm * N + tn, acc, N, wmma::mem_row_major);
}

// f64 m8n8k4.
__global__ void gemm_d(const double *A, const double *B, double *C) {
  int tm = blockIdx.y * 8, tn = blockIdx.x * 8;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::fill_fragment(acc, 0.5);
  for (int k = 0; k < K; k += 4) {
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
    wmma::load_matrix_sync(a, A + tm * K + k, K);
    wmma::load_matrix_sync(b, B + tn * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + tm * N + tn, acc, N, wmma::mem_row_major);
}

static float val(int i, int j, int s) { return (float)(((i * 7 + j * 13 + s) % 9) - 4) / 4.0f; }

int main() {
  static half hA[M * K], hB[N * K], hAt[M * K], hCh[M * N];
  static float fA[M * K], fB[N * K], hC[M * N];
  static signed char iA[M * K], iB[K * N];
  static int iC[M * N];
  static double dA[M * K], dB[N * K], dC[M * N];
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++) {
      fA[i * K + k] = val(i, k, 1);
      hA[i * K + k] = __float2half(fA[i * K + k]);
      hAt[k * M + i] = hA[i * K + k];
      iA[i * K + k] = (signed char)((i * 31 + k * 17) % 255 - 127);
      dA[i * K + k] = fA[i * K + k];
    }
  for (int j = 0; j < N; j++)
    for (int k = 0; k < K; k++) {
      fB[j * K + k] = val(k, j, 2);
      hB[j * K + k] = __float2half(fB[j * K + k]);
      iB[k * N + j] = (signed char)((j * 11 + k * 29) % 255 - 127);
      dB[j * K + k] = fB[j * K + k];
    }
  for (int i = 0; i < M * N; i++) hC[i] = (float)(i % 5) - 2.0f;
  half *gA, *gB, *gAt, *gCh;
  float *gC;
  signed char *giA, *giB;
  int *giC;
  double *gdA, *gdB, *gdC;
  CK(cudaMalloc(&gA, sizeof hA)); CK(cudaMalloc(&gB, sizeof hB)); CK(cudaMalloc(&gAt, sizeof hAt));
  CK(cudaMalloc(&gCh, sizeof hCh)); CK(cudaMalloc(&gC, sizeof hC));
  CK(cudaMalloc(&giA, sizeof iA)); CK(cudaMalloc(&giB, sizeof iB)); CK(cudaMalloc(&giC, sizeof iC));
  CK(cudaMalloc(&gdA, sizeof dA)); CK(cudaMalloc(&gdB, sizeof dB)); CK(cudaMalloc(&gdC, sizeof dC));
  CK(cudaMemcpy(gA, hA, sizeof hA, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(gB, hB, sizeof hB, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(gAt, hAt, sizeof hAt, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(gC, hC, sizeof hC, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(giA, iA, sizeof iA, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(giB, iB, sizeof iB, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(gdA, dA, sizeof dA, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(gdB, dB, sizeof dB, cudaMemcpyHostToDevice));
  gemm_h<<<dim3(N / 16, M / 16), 32>>>(gA, gB, gC);
  gemm_h32x8<<<dim3(N / 8, M / 32), 32>>>(gAt, gB, gCh);
  gemm_s8<<<dim3(N / 32, M / 8), 32>>>(giA, giB, giC);
  gemm_d<<<dim3(N / 8, M / 8), 32>>>(gdA, gdB, gdC);
  CK(cudaDeviceSynchronize());
  static float outC[M * N];
  CK(cudaMemcpy(outC, gC, sizeof outC, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hCh, gCh, sizeof hCh, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(iC, giC, sizeof iC, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(dC, gdC, sizeof dC, cudaMemcpyDeviceToHost));
  int bad[4] = {0, 0, 0, 0};
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      long is = 7;
      for (int k = 0; k < K; k++) {
        s += (double)fA[i * K + k] * fB[j * K + k];
        is += (long)iA[i * K + k] * iB[k * N + j];
      }
      if (outC[i * N + j] != (float)(s + hC[i * N + j])) bad[0]++;
      if (__half2float(hCh[j * M + i]) != (float)s) bad[1]++;
      if (iC[i * N + j] != is) bad[2]++;
      if (dC[i * N + j] != s + 0.5) bad[3]++;
    }
  const char *names[4] = {"m16n16k16 f16->f32 (shared)", "m32n8k16 f16->f16 (col-major)", "m8n32k16 s8->s32",
                          "m8n8k4 f64"};
  int rc = 0;
  for (int t = 0; t < 4; t++) {
    printf("%s: %s (%d mismatches)\n", names[t], bad[t] ? "FAIL" : "ok", bad[t]);
    rc |= bad[t] != 0;
  }
  return rc;
}
