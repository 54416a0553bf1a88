/* race_reverse_nobarrier: ok_reverse_static without its barrier. Each warp
 * reads the other warp's slots with nothing ordering them: hazards between
 * warps (errors) on the write and read lines. Whether each is RAW or WAR
 * depends on which warp gets there first, so only the pair is compared. */
#include "races.cuh"

extern "C" __global__ void race_reverse_nobarrier(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  out[t] = s[n - 1 - t];                         //@R
}
