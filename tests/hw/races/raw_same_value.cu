/* raw_same_value: after a barrier, warp 0 stores into s[0..31] the values
 * they already hold; then (flag) warp 1 reads them. A RAW between warps
 * whose write did not change memory. */
#include "races.cuh"

extern "C" __global__ void raw_same_value(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  if (t < 32) {
    s[lane] = in[lane];                          //@W
    races_signal(out);
  } else {
    races_wait(out);
    out[t] = s[lane];                            //@R
  }
}
