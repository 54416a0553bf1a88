/* race_raw: warp 0 writes 32 ints, warp 1 reads them with no barrier
 * between (warp 1 waits on a flag so the write comes first): a RAW hazard
 * between warps, a racecheck error. */
#include "races.cuh"

extern "C" __global__ void race_raw(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32) {
    s[lane] = in[lane];                          //@W
    races_signal(out);
  } else {
    races_wait(out);
    out[lane] = s[lane];                         //@R
  }
}
