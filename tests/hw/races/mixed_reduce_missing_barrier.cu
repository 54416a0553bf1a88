/* mixed_reduce_missing_barrier: block reduction of 128 ints whose last
 * __syncthreads before the warp-synchronous (volatile) tail is missing.
 * Warp 1 adds s[t + 64] into s[32..63] (step A) and raises a flag; warp 0
 * does the same for s[0..31], waits for the flag and runs the tail, which
 * reads warp 1's slots with no barrier (errors, between warps) and its own
 * lanes' slots with no __syncwarp (warnings, within the warp). */
#include "races.cuh"

extern "C" __global__ void mixed_reduce_missing_barrier(int *out, const int *in, int n)
{
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@L
  __syncthreads();
  if (t < 64)
    s[t] += s[t + 64];                           //@A
  if (t >= 32 && t < 64)
    races_signal(out);
  if (t < 32) {
    races_wait(out);
    volatile int *v = s;
    v[t] += v[t + 32];                           //@B
    v[t] += v[t + 16];                           //@C
    v[t] += v[t + 8];                            //@D
    v[t] += v[t + 4];                            //@E
    v[t] += v[t + 2];                            //@F
    v[t] += v[t + 1];                            //@F1
    if (t == 0)
      out[0] = v[0];                             //@H
  }
}
