/* ok_named_barrier_groups: two groups of two warps, each synchronised by
 * its own named barrier (bar.sync 1, 64 and bar.sync 2, 64); every thread
 * reads what a thread of the other warp of its group wrote. Correct. */
#include "races.cuh"

extern "C" __global__ void ok_named_barrier_groups(int *out, const int *in, int n)
{
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 64)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  else
    asm volatile("bar.sync 2, 64;" ::: "memory");
  out[t] = s[t ^ 32];                            //@R
}
