/* warn_reduce_volatile_tail: the classic pre-Volta warp-synchronous tail:
 * volatile shared accesses and no __syncwarp. Gives the right sum on the
 * GPU, but lanes of one warp read what other lanes wrote with nothing
 * ordering them: intra-warp hazards (racecheck warnings) on sm_70+. */
#include "races.cuh"

extern "C" __global__ void warn_reduce_volatile_tail(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  __syncthreads();
  if (t < 32) {
    volatile int *v = s;
    v[t] += v[t + 32];                           //@A
    v[t] += v[t + 16];                           //@B
    v[t] += v[t + 8];                            //@C
    v[t] += v[t + 4];                            //@D
    v[t] += v[t + 2];                            //@E
    v[t] += v[t + 1];                            //@F
    if (t == 0)
      out[0] = v[0];                             //@R
  }
}
