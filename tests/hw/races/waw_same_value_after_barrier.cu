/* waw_same_value_after_barrier: s[0..31] is filled and a barrier passed;
 * then warp 0 and (flag) warp 1 both store to s[0..31] the values they
 * already hold: two writes, no barrier, memory never changes. */
#include "races.cuh"

extern "C" __global__ void waw_same_value_after_barrier(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  if (t < 32) {
    s[lane] = in[lane];                          //@W1
    races_signal(out);
  } else {
    races_wait(out);
    s[lane] = in[lane];                          //@W2
  }
  __syncthreads();
  out[t] = s[lane];                              //@R
}
