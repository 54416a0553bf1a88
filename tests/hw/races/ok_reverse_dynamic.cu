/* ok_reverse_dynamic: the same reversal through dynamic shared memory (the
 * launch gives n * 4 bytes). Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_reverse_dynamic(int *out, const int *in, int n)
{
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  __syncthreads();
  out[t] = s[n - 1 - t];                         //@R
}
