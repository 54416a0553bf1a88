/* waw_same_value_widths: warp 0 stores the 32-bit word 0x00050005 (n = 5)
 * to s[0] and s[1]; then (flag) warp 1 stores the 16-bit value 5 to the low
 * halfword of s[0] (equal bytes) and the 16-bit value 6 to the low halfword
 * of s[1] (different bytes), one lane each, no barrier. */
#include "races.cuh"

extern "C" __global__ void waw_same_value_widths(int *out, const int *in, int n)
{
  __shared__ int s[2];
  int t = threadIdx.x;
  if (t < 32) {
    if (t < 2)
      s[t] = n | (n << 16);                      //@W0
    races_signal(out);
  } else {
    races_wait(out);
    short *h = (short *)s;
    if (t < 34)
      h[2 * (t - 32)] = (short)(n + (t - 32));   //@W1
  }
  __syncthreads();
  out[t] = s[t & 1];                             //@R
}
