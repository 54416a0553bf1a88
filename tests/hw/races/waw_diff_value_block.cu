/* waw_diff_value_block: as waw_same_value_block, but every thread stores
 * its own index: WAW with different values within and between warps. */
#include "races.cuh"

extern "C" __global__ void waw_diff_value_block(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  s[0] = t;                                      //@W
  __syncthreads();
  out[t] = s[0] == n ? 1 : 2;                    //@R
}
