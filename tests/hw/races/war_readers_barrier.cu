/* war_readers_barrier: both warps read s[0..31] before a barrier (RA);
 * after it warp 0 reads them again (RB), then (flag) warp 1 reads them (RC)
 * and each lane overwrites the word it read (W). Only RB -> W is a hazard
 * (between warps); RA is ordered by the barrier and RC is the writing
 * thread's own read. */
#include "races.cuh"

extern "C" __global__ void war_readers_barrier(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  int a = s[lane];                               //@RA
  __syncthreads();
  if (t < 32) {
    out[t] = a + s[lane];                        //@RB
    races_signal(out);
  } else {
    races_wait(out);
    int v = s[lane];                             //@RC
    s[lane] = v + a;                             //@W
    out[t] = v;
  }
}
