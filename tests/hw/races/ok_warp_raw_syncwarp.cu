/* ok_warp_raw_syncwarp: one warp; each lane writes its slot, __syncwarp,
 * then reads its neighbour's slot. The __syncwarp orders the lanes. Correct:
 * no hazard (the same kernel without it is warn_warp_raw). */
#include "races.cuh"

extern "C" __global__ void ok_warp_raw_syncwarp(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  s[lane] = in[lane];                            //@W
  __syncwarp();
  out[lane] = s[(lane + 1) & 31];                //@R
}
