/* global_last_block: the "last block" reduction (threadFenceReduction):
 * each block reduces its 64 inputs, thread 0 stores the partial sum,
 * __threadfence(), then takes a ticket with atomicAdd on a counter
 * (out[8100]); the block that draws the last ticket sums the partials the
 * other blocks wrote. The fence before the atomic orders the writes: no
 * race. */
#include "races.cuh"

extern "C" __global__ void global_last_block(int *out, const int *in, int n)
{
  __shared__ int s[64];
  __shared__ int last;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];                //@L
  __syncthreads();
  for (int k = 32; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];                          //@S
    __syncthreads();
  }
  if (t == 0) {
    out[blockIdx.x] = s[0];                      //@G1
    __threadfence();
    unsigned ticket = atomicAdd((unsigned *)&out[8100], 1u);
    last = ticket == gridDim.x - 1;              //@LW
  }
  __syncthreads();
  if (last && t == 0) {                          //@LR
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; b++)
      sum += ((volatile int *)out)[b];           //@G2
    out[100] = sum;                              //@G3
    out[8100] = 0;                               //@G4
  }
}
