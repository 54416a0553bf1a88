/* sync_tail_first_warp: 64 threads; lanes 16-31 of warp 0 skip the
 * __syncthreads and exit; warp 1 and lanes 0-15 of warp 0 take it. */
#include "races.cuh"

extern "C" __global__ void sync_tail_first_warp(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t < 16 || t >= 32) {
    s[t] = in[t];                                //@W
    __syncthreads();                             //@BAR
    out[t] = s[t ^ 32];                          //@R
  }
}
