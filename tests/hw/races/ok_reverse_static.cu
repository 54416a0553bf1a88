/* ok_reverse_static: reverses n ints through a static __shared__ array with
 * a barrier between the writes and the reads. Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_reverse_static(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  __syncthreads();
  out[t] = s[n - 1 - t];                         //@R
}
