/* race_write_atomic: warp 0 stores to 32 words with plain stores, then warp
 * 1 adds to them with shared atomics and no barrier between (warp 1
 * second). Records whether racecheck reports a plain write against an
 * atomic. */
#include "races.cuh"

extern "C" __global__ void race_write_atomic(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32) {
    s[lane] = in[lane];                          //@W
    races_signal(out);
  } else {
    races_wait(out);
    atomicAdd(&s[lane], 5);                      //@A
  }
  __syncthreads();
  out[t] = s[lane];                              //@R
}
