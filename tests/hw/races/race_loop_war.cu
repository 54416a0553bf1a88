/* race_loop_war: ok_shift_two_barriers without the second barrier: the next
 * round's write to a slot can come before a neighbour's read of it from the
 * round before. Across warps (threads 31/32 and 63/0) an error, RAW or WAR
 * by timing; within a warp a WAR warning. */
#include "races.cuh"

extern "C" __global__ void race_loop_war(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  int v = in[t];
  for (int it = 0; it < 2; it++) {
    s[t] = v;                                    //@W
    __syncthreads();
    v += s[(t + 1) % n];                         //@R
  }
  out[t] = v;
}
