/* race_atomic_read: warp 0 adds to 32 words with shared atomics, then warp
 * 1 reads them with plain loads and no barrier between (warp 1 second).
 * Records whether racecheck reports an atomic against a plain read. The
 * atomic is inline PTX so that its line is this file's (atomicAdd would be
 * attributed to CUDA's device_atomic_functions.hpp). */
#include "races.cuh"

extern "C" __global__ void race_atomic_read(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[lane]);
  int old;
  if (t < 32)
    s[t] = 1;                                    //@Z
  __syncthreads();
  if (t < 32) {
    asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(a), "r"(in[lane]) : "memory"); //@A
    out[32 + lane] = old;
    races_signal(out);
  } else {
    races_wait(out);
    out[lane] = s[lane];                         //@R
  }
}
