/* sync_warp_mask: one warp; every lane executes bar.warp.sync with a mask
 * that leaves out lane 31, so lane 31 names a mask without itself.
 * synccheck: "Invalid arguments". */
#include "races.cuh"

extern "C" __global__ void sync_warp_mask(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x;
  unsigned mask = 0xffffffffu >> (32 - n);
  s[t] = in[t];                                  //@W
  asm volatile("bar.warp.sync %0;" :: "r"(mask) : "memory");      //@BAR
  out[t] = s[t];                                 //@R
}
