/* waw_same_value_bytes: warp 0 stores bytes 0x07 to s[0..3] (chars), then
 * (flag) warp 1 stores the 32-bit word 0x07070707 over them: the same bytes
 * written at a different width, no barrier. */
#include "races.cuh"

extern "C" __global__ void waw_same_value_bytes(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int t = threadIdx.x;
  if (t < 32) {
    if (t < 4)
      ((char *)s)[t] = (char)n;                  //@W0
    races_signal(out);
  } else {
    races_wait(out);
    if (t == 32)
      s[0] = n * 0x01010101;                     //@W1
  }
  __syncthreads();
  out[t] = s[0];                                 //@R
}
