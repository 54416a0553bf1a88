/* sync_oddeven_two_bars: one warp; even lanes reach one __syncthreads and
 * odd lanes another (if/else on t & 1). */
#include "races.cuh"

extern "C" __global__ void sync_oddeven_two_bars(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t & 1) {
    __syncthreads();                             //@BAR0
    out[t] = s[t ^ 1];                           //@R0
  } else {
    __syncthreads();                             //@BAR1
    out[t] = s[t ^ 1] + 1;                       //@R1
  }
}
