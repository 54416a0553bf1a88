/* waw_same_value_one_thread_differs: 64 threads store to one shared word
 * in one instruction; all store n except thread 40, which stores n + 1. */
#include "races.cuh"

extern "C" __global__ void waw_same_value_one_thread_differs(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  s[0] = t == 40 ? n + 1 : n;                    //@W
  __syncthreads();
  out[t] = s[0];                                 //@R
}
