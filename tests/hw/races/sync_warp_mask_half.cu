/* sync_warp_mask_half: all 32 lanes execute bar.warp.sync 0x0000ffff, so
 * lanes 16-31 name a mask without themselves. */
#include "races.cuh"

extern "C" __global__ void sync_warp_mask_half(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  asm volatile("bar.warp.sync %0;" :: "r"(0xffffu) : "memory");    //@BAR
  out[t] = s[t ^ 1];                             //@R
}
