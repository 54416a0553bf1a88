/* war_readers_two_warps: after a barrier, warp 0 reads s[0..31]; then
 * (flag) warp 1 reads the same words and each lane overwrites the word it
 * read. Warp 0's read -> warp 1's write is a WAR between warps; warp 1's
 * own read of the word is the last read before the write, so a checker
 * that keeps only the last reader misses the hazard. */
#include "races.cuh"

extern "C" __global__ void war_readers_two_warps(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  if (t < 32) {
    out[t] = s[lane];                            //@R0
    races_signal(out);
  } else {
    races_wait(out);
    int v = s[lane];                             //@R1
    s[lane] = v + 1;                             //@W
    out[t] = v;
  }
}
