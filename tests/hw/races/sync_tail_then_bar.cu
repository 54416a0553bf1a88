/* sync_tail_then_bar: 64 threads, n = 48; threads t < n take a
 * __syncthreads inside the if, and then everyone takes a second one after
 * it: lanes 16-31 of warp 1 are at the second barrier while the others are
 * at the first. */
#include "races.cuh"

extern "C" __global__ void sync_tail_then_bar(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < n) {
    __syncthreads();                             //@BAR0
    out[t] = s[63 - t];                          //@R0
  }
  __syncthreads();                               //@BAR1
  out[64 + t] = s[t];                            //@R1
}
