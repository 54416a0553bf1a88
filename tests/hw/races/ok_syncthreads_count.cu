/* ok_syncthreads_count: __syncthreads_count (bar.red.popc) is a barrier too:
 * writes before it, mirrored reads after it. Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_syncthreads_count(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  int odd = __syncthreads_count(in[t] & 1);
  out[t] = s[n - 1 - t] * 1000 + odd;            //@R
}
