/* ok_shift_two_barriers: three rounds of "write own slot, barrier, read the
 * neighbour's slot, barrier": the second barrier keeps the next round's
 * writes from overwriting a slot before it was read. Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_shift_two_barriers(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  int v = in[t];
  for (int it = 0; it < 3; it++) {
    s[t] = v;                                    //@W
    __syncthreads();
    v += s[(t + 1) % n];                         //@R
    __syncthreads();
  }
  out[t] = v;
}
