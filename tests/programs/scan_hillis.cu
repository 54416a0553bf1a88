/* scan_hillis.cu: an inclusive Hillis-Steele scan of each block's 256
 * elements with two shared buffers (ping-pong), one barrier per step. */
#include "prog.h"

#define N 256

__global__ void scanHillis(const int *in, int *out)
{
  __shared__ int buf[2][N];
  int t = threadIdx.x, pout = 0, pin = 1;
  buf[pout][t] = in[blockIdx.x * N + t];
  __syncthreads();
  for (int off = 1; off < N; off *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    buf[pout][t] = t >= off ? buf[pin][t] + buf[pin][t - off] : buf[pin][t];
    __syncthreads();
  }
  out[blockIdx.x * N + t] = buf[pout][t];
}

int main()
{
  const int blocks = 20, n = blocks * N;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  unsigned s = 41;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 64) - 20;
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  scanHillis<<<blocks, N>>>(d, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++) {
    int acc = 0;
    for (int i = 0; i < N; i++) acc += h[b * N + i], bad += o[b * N + i] != acc;
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("scan_hillis", bad, "last %d hash %08x", o[n - 1], fnv(o, n));
}
