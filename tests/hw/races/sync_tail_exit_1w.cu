/* sync_tail_exit_1w: sync_tail_exit in a one-warp block (n = 16 of 32):
 * half of the only warp skips the barrier and exits. */
#include "races.cuh"

extern "C" __global__ void sync_tail_exit_1w(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < n) {
    s[t] = in[t];                                //@W
    __syncthreads();                             //@BAR
    out[t] = s[n - 1 - t];                       //@R
  }
}
