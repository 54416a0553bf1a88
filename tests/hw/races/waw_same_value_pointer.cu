/* waw_same_value_pointer: every thread sets one shared pointer to the same
 * address (a 64-bit store of an equal value), the common "thread-shared
 * pointer" idiom without electing one thread; then all use it. */
#include "races.cuh"

extern "C" __global__ void waw_same_value_pointer(int *out, const int *in, int n)
{
  __shared__ int *p;
  int t = threadIdx.x;
  p = out + 64;                                  //@W
  __syncthreads();
  int *q = p;                                    //@R
  out[t] = q == out + 64 ? in[t] : -1;
}
