/* war_same_value: after a barrier, warp 0 reads s[0..31]; then (flag)
 * warp 1 stores into them the values they already hold. A WAR between
 * warps whose write does not change memory. */
#include "races.cuh"

extern "C" __global__ void war_same_value(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  if (t < 32) {
    out[t] = s[lane];                            //@R
    races_signal(out);
  } else {
    races_wait(out);
    s[lane] = in[lane];                          //@W
  }
}
