/* warn_warp_war: one warp; after a __syncwarp each lane reads its
 * neighbour's slot, then overwrites its own with no __syncwarp between:
 * an intra-warp WAR hazard (a racecheck warning). */
#include "races.cuh"

extern "C" __global__ void warn_warp_war(int *out, const int *in, int n)
{
  __shared__ int s[32];
  volatile int *v = s;
  int lane = threadIdx.x & 31;
  v[lane] = in[lane];                            //@W0
  __syncwarp();
  int x = v[(lane + 1) & 31];                    //@R
  v[lane] = x * 2;                               //@W
  __syncwarp();
  out[lane] = x + v[lane ^ 1];                   //@R2
}
