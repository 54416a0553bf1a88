/* hist256.cu: a 256-bin byte histogram where each thread reads a 32-bit
 * word and counts its four bytes into shared bins (atomicAdd, result
 * unused); bins are cleared and merged by a strided loop. */
#include "prog.h"

__global__ void hist256(const unsigned *in, int nwords, unsigned *bins)
{
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
    unsigned w = in[i];
    atomicAdd(&local[w & 0xff], 1u);
    atomicAdd(&local[(w >> 8) & 0xff], 1u);
    atomicAdd(&local[(w >> 16) & 0xff], 1u);
    atomicAdd(&local[w >> 24], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main()
{
  const int nwords = 1 << 14;
  unsigned *h = (unsigned *)malloc(nwords * 4);
  unsigned s = 9;
  for (int i = 0; i < nwords; i++) {
    unsigned r = lcg(&s);
    /* a text-like skew: many words repeat a byte */
    h[i] = i % 4 == 0 ? (r & 0xff) * 0x01010101u : r ^ (lcg(&s) << 24);
  }
  unsigned *d, *dbins, out[256], ref[256] = {0};
  CHECK(cudaMalloc(&d, nwords * 4));
  CHECK(cudaMalloc(&dbins, sizeof out));
  CHECK(cudaMemcpy(d, h, nwords * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dbins, 0, sizeof out));
  hist256<<<32, 128>>>(d, nwords, dbins);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dbins, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < nwords; i++)
    for (int k = 0; k < 4; k++) ref[(h[i] >> (8 * k)) & 0xff]++;
  int bad = 0;
  unsigned total = 0;
  for (int b = 0; b < 256; b++) bad += out[b] != ref[b], total += out[b];
  CHECK(cudaFree(d));
  CHECK(cudaFree(dbins));
  return result("hist256", bad, "total %u bin0 %u hash %08x", total, out[0], fnv(out, 256));
}
