/* race_warp.cu: an intentional warp-level race: the last warp of a tree
 * reduction runs "warp-synchronously" without volatile or __syncwarp, the
 * pre-Volta idiom: lanes read a neighbour's word that the same instruction
 * step of another lane writes (hazards within one warp). */
#include "prog.h"

#define BLOCK 128

__global__ void reduceWarpRace(const int *in, int *out)
{
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int k = BLOCK / 2; k > 32; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    /* no __syncwarp between these steps: lane t reads s[t + k] while
       lane t + k may write it */
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main()
{
  const int blocks = 4, n = blocks * BLOCK;
  int *h = (int *)malloc(n * 4), o[blocks];
  for (int i = 0; i < n; i++) h[i] = i % 13;
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  reduceWarpRace<<<blocks, BLOCK>>>(d, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  /* not checked: without volatile the compiler may keep s[t] in a register */
  return result("race_warp", 0, "racy by design, input hash %08x", fnv(h, n));
}
