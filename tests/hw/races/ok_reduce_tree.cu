/* ok_reduce_tree: a block sum by tree reduction with __syncthreads after
 * every step, down to one element. Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_reduce_tree(int *out, const int *in, int n)
{
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];        //@W
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];                          //@S
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];                      //@R
}
