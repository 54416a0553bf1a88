/* race_both.cu: an intentional race both ways: a block reduction whose
 * barrier after the first tree step is missing (a hazard between warps)
 * and whose last warp finishes warp-synchronously through volatile shared
 * memory without __syncwarp (hazards within a warp). */
#include "prog.h"

#define BLOCK 256

__global__ void reduceBothRaces(const int *in, int *out)
{
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  if (t < 128) s[t] += s[t + 128];
  /* __syncthreads() missing here: warps 0-1 read what warps 2-3 write */
  if (t < 64) s[t] += s[t + 64];
  __syncthreads();
  if (t < 32) {
    volatile int *v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main()
{
  const int blocks = 4, n = blocks * BLOCK;
  int *h = (int *)malloc(n * 4), o[blocks];
  for (int i = 0; i < n; i++) h[i] = i % 11;
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  reduceBothRaces<<<blocks, BLOCK>>>(d, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  /* not checked: the missing barrier makes the sums timing-dependent */
  return result("race_both", 0, "racy by design, input hash %08x", fnv(h, n));
}
