/* race_atomic_read: warp 0 adds to 32 words with shared atomics, then warp
 * 1 reads them with plain loads and no barrier between (warp 1 second).
 * Records whether racecheck reports an atomic against a plain read. */
#include "races.cuh"

extern "C" __global__ void race_atomic_read(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[t] = 1;                                    //@Z
  __syncthreads();
  if (t < 32) {
    atomicAdd(&s[lane], in[lane]);               //@A
    races_signal(out);
  } else {
    races_wait(out);
    out[lane] = s[lane];                         //@R
  }
}
