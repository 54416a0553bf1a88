/* war_reader_own_warp: after a barrier, lane 0 of warp 0 reads s[0]; then
 * (flag) lane 1 of warp 1 reads s[0] and lane 0 of warp 1 overwrites it
 * with no __syncwarp: a WAR between warps (error) and one within warp 1
 * (warning) on the same word. */
#include "races.cuh"

extern "C" __global__ void war_reader_own_warp(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  if (t < 32) {
    if (t == 0)
      out[0] = s[0];                             //@R0
    races_signal(out);
  } else {
    races_wait(out);
    if (lane == 1)
      out[1] = s[0];                             //@R1
    if (lane == 0)
      s[0] = -1;                                 //@W
  }
}
