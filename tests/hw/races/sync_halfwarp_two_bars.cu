/* sync_halfwarp_two_bars: one warp; lanes 0-15 reach one __syncthreads and
 * lanes 16-31 another (if/else), so the warp is split between two
 * barriers. Which threads synccheck names, and how many, is recorded. */
#include "races.cuh"

extern "C" __global__ void sync_halfwarp_two_bars(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 16) {
    __syncthreads();                             //@BAR0
    out[t] = s[t + 16];                          //@R0
  } else {
    __syncthreads();                             //@BAR1
    out[t] = s[t - 16] + 1;                      //@R1
  }
}
