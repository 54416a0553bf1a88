/* waw_same_value_block: all 64 threads (two warps) store the same value
 * (the kernel argument n) to one shared word in one instruction, no barrier
 * between the stores. racecheck compares the incoming value with the
 * current one, so after the first store every store is of an equal value. */
#include "races.cuh"

extern "C" __global__ void waw_same_value_block(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  s[0] = n;                                      //@W
  __syncthreads();
  out[t] = s[0];                                 //@R
}
