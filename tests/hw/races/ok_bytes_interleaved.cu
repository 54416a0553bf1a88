/* ok_bytes_interleaved: warp 0 writes the even bytes of 16 words, warp 1
 * the odd bytes of the same words, with no barrier between them; a barrier,
 * then everyone reads. Hazards are per byte, and no byte is touched by both
 * warps before the barrier. Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_bytes_interleaved(int *out, const int *in, int n)
{
  __shared__ unsigned char b[64];
  int t = threadIdx.x, lane = t & 31;
  if (t < 32) {
    b[2 * lane] = (unsigned char)in[t];          //@W0
    asm volatile("" ::: "memory");  /* keeps -O3 from merging the stores */
  } else {
    b[2 * lane + 1] = (unsigned char)in[t];      //@W1
    asm volatile("" ::: "memory");
  }
  __syncthreads();
  out[t] = b[t];                                 //@R
}
