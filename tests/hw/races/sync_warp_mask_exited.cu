/* sync_warp_mask_exited: lanes 0-15 execute bar.warp.sync 0x0001ffff
 * naming lane 16, which has exited (n = 16). */
#include "races.cuh"

extern "C" __global__ void sync_warp_mask_exited(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t >= n)
    return;
  s[t] = in[t];                                  //@W
  asm volatile("bar.warp.sync %0;" :: "r"(0x1ffffu) : "memory");  //@BAR
  out[t] = s[t ^ 1];                             //@R
}
