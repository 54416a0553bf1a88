/* sync_else_bar_only: one warp; lanes 0-15 store and skip the barrier,
 * lanes 16-31 take a __syncthreads in the else branch. */
#include "races.cuh"

extern "C" __global__ void sync_else_bar_only(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 16) {
    out[t] = s[t ^ 1] * 3;                       //@R0
  } else {
    __syncthreads();                             //@BAR
    out[t] = s[t - 16];                          //@R1
  }
}
