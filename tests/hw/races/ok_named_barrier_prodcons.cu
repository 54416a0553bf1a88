/* ok_named_barrier_prodcons: producer warps 0-1 write shared memory and
 * bar.arrive on barrier 1 (128 threads); consumer warps 2-3 bar.sync on it
 * and read. Correct by the PTX memory model (bar.arrive orders the writes
 * before it); whether racecheck models bar.arrive is what this records. */
#include "races.cuh"

extern "C" __global__ void ok_named_barrier_prodcons(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t < 64) {
    s[t] = in[t] * 3;                            //@W
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[t - 64] = s[127 - t];                    //@R
  }
}
