/* ok_reduce_syncwarp_tail: tree reduction with __syncthreads down to 64
 * elements, then the first warp finishes with a __syncwarp between every
 * read and every write of the tail (the sm_70+ way). Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_reduce_syncwarp_tail(int *out, const int *in, int n)
{
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];        //@W
  __syncthreads();
  for (int k = blockDim.x / 2; k > 32; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];                          //@S
    __syncthreads();
  }
  if (t < 32) {
    int v = s[t] + s[t + 32];                    //@T
    for (int k = 16; k > 0; k >>= 1) {
      __syncwarp();
      s[t] = v;                                  //@TW
      __syncwarp();
      v += s[t + k];                             //@TR
    }
    if (t == 0)
      out[blockIdx.x] = v;
  }
}
