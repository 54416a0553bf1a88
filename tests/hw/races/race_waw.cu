/* race_waw: lane 0 of warp 0 and lane 0 of warp 1 write the same word on
 * two lines with no barrier between (warp 1 second): a WAW hazard between
 * warps, an error. */
#include "races.cuh"

extern "C" __global__ void race_waw(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  if (t < 32) {
    if (t == 0)
      s[0] = in[0];                              //@W0
    races_signal(out);
  } else {
    races_wait(out);
    if (t == 32)
      s[0] = in[1];                              //@W1
  }
  __syncthreads();
  out[t] = s[0];                                 //@R
}
