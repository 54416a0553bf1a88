/* sync_nonaligned_halves: one warp; lanes 0-15 and 16-31 execute two
 * different barrier.sync 0 instructions (the non-.aligned form, which
 * sm_70+ allows in divergent code): the barrier completes with 32 threads. */
#include "races.cuh"

extern "C" __global__ void sync_nonaligned_halves(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 16) {
    asm volatile("barrier.sync 0;" ::: "memory");  //@BAR0
    out[t] = s[31 - t];                          //@R0
  } else {
    asm volatile("barrier.sync 0;" ::: "memory");  //@BAR1
    out[t] = s[31 - t] + 1;                      //@R1
  }
}
