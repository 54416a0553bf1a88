/* sync_divergent_warp: one warp; lanes 0-15 call __syncthreads inside an
 * if, lanes 16-31 skip it and exit. bar.sync is .aligned: every lane of a
 * warp must execute it. synccheck: "Divergent thread(s) in warp". */
#include "races.cuh"

extern "C" __global__ void sync_divergent_warp(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 16)
    __syncthreads();                             //@BAR
  out[t] = s[t];                                 //@R
}
