// Threads that return early before a __syncthreads(): on Volta and later an
// exited thread no longer takes part in the barrier, so the rest proceed;
// the block's tail (n not a multiple of the block) exits at the top. A
// shared-memory sum over the live threads; CPU reference.
#include "qa.h"

__global__ void partial(const int *in, int *out, int n)
{
  __shared__ int s[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  s[t] = 0;
  __syncthreads();
  if (i >= n) return; /* the tail of the last block exits here */
  s[t] = in[i];
  __syncthreads();
  if (t == 0) {
    int a = 0;
    for (int k = 0; k < 256; k++) a += s[k];
    out[blockIdx.x] = a;
  }
}

int main()
{
  const int n = 1000, nb = (n + 255) / 256;
  int h[n], o[nb];
  for (int i = 0; i < n; i++) h[i] = i % 13;
  int *d, *dout;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  partial<<<nb, 256>>>(d, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  for (int b = 0; b < nb; b++) {
    int a = 0;
    for (int i = b * 256; i < n && i < (b + 1) * 256; i++) a += h[i];
    EXPECT_EQ("sum", b, o[b], a);
  }
  return qa_done("exited_threads");
}
