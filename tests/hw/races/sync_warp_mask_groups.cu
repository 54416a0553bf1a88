/* sync_warp_mask_groups: lanes 0-15 execute bar.warp.sync 0x0000ffff and
 * lanes 16-31 bar.warp.sync 0xffff0000 (each group names exactly itself):
 * valid on sm_70+, so no error is expected. */
#include "races.cuh"

extern "C" __global__ void sync_warp_mask_groups(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  unsigned mask = t < 16 ? 0x0000ffffu : 0xffff0000u;
  s[t] = in[t];                                  //@W
  asm volatile("bar.warp.sync %0;" :: "r"(mask) : "memory");      //@BAR
  out[t] = s[t ^ 1];                             //@R
}
