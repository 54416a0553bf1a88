/* race_war: all threads fill s, a barrier; then warp 0 reads warp 1's
 * slots while warp 1 overwrites them with no barrier between (warp 1 waits
 * on a flag so the read comes first): a WAR hazard between warps, an error. */
#include "races.cuh"

extern "C" __global__ void race_war(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W0
  __syncthreads();
  if (t < 32) {
    out[t] = s[t + 32];                          //@R
    races_signal(out);
  } else {
    races_wait(out);
    s[t] = -in[t];                               //@W
  }
}
