/* race_fence: race_raw with __threadfence_block() after the write and
 * before the read. A fence orders one thread's accesses; it is not a
 * barrier: still a RAW hazard between warps, an error. */
#include "races.cuh"

extern "C" __global__ void race_fence(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32) {
    s[lane] = in[lane];                          //@W
    __threadfence_block();
    races_signal(out);
  } else {
    races_wait(out);
    __threadfence_block();
    out[lane] = s[lane];                         //@R
  }
}
