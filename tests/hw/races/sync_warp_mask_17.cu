/* sync_warp_mask_17: threads 0-16 execute bar.warp.sync 0x0000ffff; thread
 * 16 names a mask without itself, the other 15 lanes skip it. */
#include "races.cuh"

extern "C" __global__ void sync_warp_mask_17(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < n)
    asm volatile("bar.warp.sync %0;" :: "r"(0xffffu) : "memory");  //@BAR
  out[t] = s[t];                                 //@R
}
