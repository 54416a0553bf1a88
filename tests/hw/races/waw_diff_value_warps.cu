/* waw_diff_value_warps: as waw_same_value_warps, but warp 1 stores n + 1:
 * a WAW between warps with different values. */
#include "races.cuh"

extern "C" __global__ void waw_diff_value_warps(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  if (t < 32) {
    s[0] = n;                                    //@W0
    races_signal(out);
  } else {
    races_wait(out);
    s[0] = n + 1;                                //@W1
  }
  __syncthreads();
  out[t] = s[0];                                 //@R
}
