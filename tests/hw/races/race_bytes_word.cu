/* race_bytes_word: warp 0 stores 32 single bytes (8 words), then warp 1
 * loads those 8 words as ints with no barrier between (warp 1 second): a RAW
 * hazard between warps on every byte, an error. */
#include "races.cuh"

extern "C" __global__ void race_bytes_word(int *out, const int *in, int n)
{
  __shared__ int w[8];
  unsigned char *b = (unsigned char *)w;
  int t = threadIdx.x, lane = t & 31;
  if (t < 32) {
    b[lane] = (unsigned char)in[lane];           //@W
    races_signal(out);
  } else {
    races_wait(out);
    if (lane < 8)
      out[lane] = w[lane];                       //@R
  }
}
