/* race_waw_same_line: lane 0 of each of four warps writes the same word
 * on one line with no barrier: WAW hazards between warps (errors), the two
 * accesses on the same line. */
#include "races.cuh"

extern "C" __global__ void race_waw_same_line(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  if ((t & 31) == 0)
    s[0] = in[t];                                //@W
  __syncthreads();
  out[t] = s[0];                                 //@R
}
