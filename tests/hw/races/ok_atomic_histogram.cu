/* ok_atomic_histogram: a 16-bin histogram of in[0..n) with shared atomics
 * (zeroed, a barrier, atomics, a barrier, read). Atomics do not race with
 * atomics. Correct: no hazard. (atomicAdd is inlined from CUDA's
 * device_atomic_functions.hpp: its PTX line is that header's.) */
#include "races.cuh"

extern "C" __global__ void ok_atomic_histogram(int *out, const int *in, int n)
{
  __shared__ int h[16];
  int t = threadIdx.x;
  if (t < 16)
    h[t] = 0;                                    //@Z
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[in[i] & 15], 1);
  __syncthreads();
  if (t < 16)
    atomicAdd(&out[t], h[t]);                    //@R
}
