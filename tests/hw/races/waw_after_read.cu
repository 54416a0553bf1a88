/* waw_after_read: after a barrier, warp 0 overwrites s[0..31]; then
 * (flag 0) warp 1 reads them, then (flag 1) warp 2 overwrites them with
 * other values: a RAW, a WAR and a WAW, all between warps. */
#include "races.cuh"

extern "C" __global__ void waw_after_read(int *out, const int *in, int n)
{
  __shared__ int s[32];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32)
    s[lane] = in[lane];                          //@W0
  __syncthreads();
  if (t < 32) {
    s[lane] = -in[lane];                         //@W1
    races_signal_n(out, 0);
  } else if (t < 64) {
    races_wait_n(out, 0);
    out[t] = s[lane];                            //@R
    races_signal_n(out, 1);
  } else {
    races_wait_n(out, 1);
    s[lane] = lane + 1000;                       //@W2
  }
}
