/* race_write_atomic: warp 0 stores to 32 words with plain stores, then warp
 * 1 adds to them with shared atomics and no barrier between (warp 1
 * second). Records whether racecheck reports a plain write against an
 * atomic. The atomic is inline PTX so that its line is this file's. */
#include "races.cuh"

extern "C" __global__ void race_write_atomic(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[lane]);
  int old;
  if (t < 32) {
    s[lane] = in[lane];                          //@W
    races_signal(out);
  } else {
    races_wait(out);
    asm volatile("atom.shared.add.u32 %0, [%1], 5;" : "=r"(old) : "r"(a) : "memory");       //@A
    out[lane] = old;
  }
  __syncthreads();
  out[t + 64] = s[lane];                         //@R
}
