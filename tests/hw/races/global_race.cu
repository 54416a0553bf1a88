/* global_race: warp 0 writes 32 ints of global memory, warp 1 reads them
 * with no barrier (warp 1 second). A RAW race, but on global memory, which
 * racecheck does not track: it reports nothing. */
#include "races.cuh"

extern "C" __global__ void global_race(int *out, const int *in, int n)
{
  int t = threadIdx.x, lane = t & 31;
  if (t < 32) {
    out[lane] = in[lane];                        //@G1
    races_signal(out);
  } else {
    races_wait(out);
    out[32 + lane] = out[lane];                  //@G2
  }
}
