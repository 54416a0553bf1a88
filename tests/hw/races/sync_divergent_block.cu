/* sync_divergent_block: warp 0 and warp 1 reach two different
 * __syncthreads instructions (both barrier 0). The GPU counts them as one
 * barrier; synccheck: "Divergent thread(s) in block". */
#include "races.cuh"

extern "C" __global__ void sync_divergent_block(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 32) {
    asm volatile("" ::: "memory");
    __syncthreads();                             //@BAR0
    out[t] = s[t] + 1;                           //@R0
  } else {
    __syncthreads();                             //@BAR1
    out[t] = s[t] * 2;                           //@R1
  }
}
