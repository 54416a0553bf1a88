/* sync_divergent_warp_2w: two warps; threads t < 48 call __syncthreads
 * inside an if, lanes 16-31 of warp 1 skip it and go on (they do not
 * exit before the join). */
#include "races.cuh"

extern "C" __global__ void sync_divergent_warp_2w(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < n)
    __syncthreads();                             //@BAR
  out[t] = s[t];                                 //@R
}
