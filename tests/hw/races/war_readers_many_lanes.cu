/* war_readers_many_lanes: after a barrier, every lane of warp 0 and of
 * warp 1 reads s[0]; then (flag) lane 0 of warp 2 overwrites it: WAR
 * hazards from both reading warps (errors). */
#include "races.cuh"

extern "C" __global__ void war_readers_many_lanes(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  if (t == 0)
    s[0] = in[0];                                //@W0
  __syncthreads();
  if (t < 32) {
    out[t] = s[0] + t;                           //@R0
    races_signal_n(out, 0);
  } else if (t < 64) {
    races_wait_n(out, 0);
    out[t] = s[0] - t;                           //@R1
    races_signal_n(out, 1);
  } else {
    races_wait_n(out, 1);
    if (t == 64)
      s[0] = 0;                                  //@W
  }
}
