/* sync_partial_block: only warp 0 calls __syncthreads; warp 1 skips it and
 * exits (exited threads count as arrived, so the GPU does not hang).
 * Undefined by the programming guide; records what synccheck says. */
#include "races.cuh"

extern "C" __global__ void sync_partial_block(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                                  //@W
  if (t < 32)
    __syncthreads();                             //@BAR
  out[t] = s[t];                                 //@R
}
