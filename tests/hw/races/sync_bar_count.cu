/* sync_bar_count: two warps call bar.sync 1, n with n = 48 from the
 * launch: a thread count that is not a multiple of the warp size (PTX
 * requires one). synccheck: "Invalid arguments" (or what it says). */
#include "races.cuh"

extern "C" __global__ void sync_bar_count(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  asm volatile("bar.sync 1, %0;" :: "r"(n) : "memory");           //@BAR
  out[t] = s[t];                                 //@R
}
