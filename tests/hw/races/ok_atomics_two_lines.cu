/* ok_atomics_two_lines: two warps update the same shared words with
 * atomics on two different source lines and no barrier between them.
 * Atomics do not race with atomics. Correct: no hazard. (atomicAdd and
 * atomicMax are inlined from CUDA's headers: their PTX lines are the
 * headers'.) */
#include "races.cuh"

extern "C" __global__ void ok_atomics_two_lines(int *out, const int *in, int n)
{
  __shared__ int s[2];
  int t = threadIdx.x;
  if (t < 2)
    s[t] = 0;                                    //@Z
  __syncthreads();
  if (t < 32)
    atomicAdd(&s[0], in[t]);
  else
    atomicAdd(&s[0], 2 * in[t]);
  atomicMax(&s[1], in[t]);
  __syncthreads();
  if (t == 0)
    out[0] = s[0] + s[1];                        //@R
}
