/* warn_warp_raw: one warp; each lane writes its slot and reads its
 * neighbour's with no __syncwarp between: an intra-warp RAW hazard
 * (a racecheck warning, "warp level programming"). */
#include "races.cuh"

extern "C" __global__ void warn_warp_raw(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  s[lane] = in[lane];                            //@W
  out[lane] = s[(lane + 1) & 31];                //@R
}
