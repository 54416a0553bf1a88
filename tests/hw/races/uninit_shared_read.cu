/* uninit_shared_read: only warp 0 writes s; after a barrier every thread
 * reads the mirrored slot, so warp 0 reads slots nobody wrote. No hazard
 * (racecheck); records what initcheck says about shared memory. */
#include "races.cuh"

extern "C" __global__ void uninit_shared_read(int *out, const int *in, int n)
{
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t < 32)
    s[t] = in[t];                                //@W
  __syncthreads();
  out[t] = s[63 - t];                            //@R
}
