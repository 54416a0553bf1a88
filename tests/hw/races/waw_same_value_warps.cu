/* waw_same_value_warps: warp 0 stores n to one shared word on one line,
 * then warp 1 stores the same n on another line (warp 1 waits on a flag),
 * no barrier: a WAW between warps whose values are equal. */
#include "races.cuh"

extern "C" __global__ void waw_same_value_warps(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  if (t < 32) {
    s[0] = n;                                    //@W0
    races_signal(out);
  } else {
    races_wait(out);
    s[0] = n;                                    //@W1
  }
  __syncthreads();
  out[t] = s[0];                                 //@R
}
