/* sync_halfwarp_two_bars_2w: two warps; warp 0 and lanes 0-15 of warp 1
 * reach one __syncthreads, lanes 16-31 of warp 1 another. */
#include "races.cuh"

extern "C" __global__ void sync_halfwarp_two_bars_2w(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 48) {
    __syncthreads();                             //@BAR0
    out[t] = s[63 - t];                          //@R0
  } else {
    __syncthreads();                             //@BAR1
    out[t] = s[63 - t] + 1;                      //@R1
  }
}
