/* scan_blelloch.cu: the work-efficient (Blelloch) exclusive scan of 512
 * elements per block by 256 threads: up-sweep, clear, down-sweep, with one
 * padding word every 32 elements so the strided tree steps avoid bank
 * conflicts; a second kernel without the padding shows the conflicts. */
#include "prog.h"

#define N 512
#define LOG_BANKS 5
#define PAD(i) ((i) >> LOG_BANKS)

template <bool PADDED>
__global__ void scanBlelloch(const unsigned *in, unsigned *out)
{
  __shared__ unsigned temp[N + N / 32];
  int t = threadIdx.x;
  const unsigned *src = in + blockIdx.x * N;
  int ai = t, bi = t + N / 2;
  int pa = PADDED ? PAD(ai) : 0, pb = PADDED ? PAD(bi) : 0;
  temp[ai + pa] = src[ai];
  temp[bi + pb] = src[bi];
  int off = 1;
  for (int d = N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
      if (PADDED) a += PAD(a), b += PAD(b);
      temp[b] += temp[a];
    }
    off *= 2;
  }
  if (t == 0) temp[N - 1 + (PADDED ? PAD(N - 1) : 0)] = 0;
  for (int d = 1; d < N; d *= 2) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int a = off * (2 * t + 1) - 1, b = off * (2 * t + 2) - 1;
      if (PADDED) a += PAD(a), b += PAD(b);
      unsigned x = temp[a];
      temp[a] = temp[b];
      temp[b] += x;
    }
  }
  __syncthreads();
  out[blockIdx.x * N + ai] = temp[ai + pa];
  out[blockIdx.x * N + bi] = temp[bi + pb];
}

int main()
{
  const int blocks = 12, n = blocks * N;
  unsigned *h = (unsigned *)malloc(n * 4), *o1 = (unsigned *)malloc(n * 4), *o2 = (unsigned *)malloc(n * 4);
  unsigned s = 43;
  for (int i = 0; i < n; i++) h[i] = lcg(&s) % 1000;
  unsigned *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  scanBlelloch<true><<<blocks, N / 2>>>(d, dout);
  CHECK(cudaMemcpy(o1, dout, n * 4, cudaMemcpyDeviceToHost));
  scanBlelloch<false><<<blocks, N / 2>>>(d, dout);
  CHECK(cudaMemcpy(o2, dout, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++) {
    unsigned acc = 0;
    for (int i = 0; i < N; i++) {
      bad += o1[b * N + i] != acc || o2[b * N + i] != acc;
      acc += h[b * N + i];
    }
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("scan_blelloch", bad, "last %u hash %08x", o1[n - 1], fnv(o1, n));
}
