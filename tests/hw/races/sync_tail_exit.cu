/* sync_tail_exit: the bounds-checked kernel shape: if (t < n) { ...
 * __syncthreads(); ... } with n = 48 of 64 threads, so lanes 16-31 of the
 * last warp skip the barrier and exit. */
#include "races.cuh"

extern "C" __global__ void sync_tail_exit(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t < n) {
    s[t] = in[t];                                //@W
    __syncthreads();                             //@BAR
    out[t] = s[n - 1 - t];                       //@R
  }
}
