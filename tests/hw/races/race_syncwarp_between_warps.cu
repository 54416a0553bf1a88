/* race_syncwarp_between_warps: race_raw with a __syncwarp after the write
 * and before the read. __syncwarp orders the lanes of one warp only: still
 * a RAW hazard between warps, an error. */
#include "races.cuh"

extern "C" __global__ void race_syncwarp_between_warps(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32) {
    s[lane] = in[lane];                          //@W
    __syncwarp();
    races_signal(out);
  } else {
    races_wait(out);
    __syncwarp();
    out[lane] = s[lane];                         //@R
  }
}
