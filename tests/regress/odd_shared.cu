// odd_shared.cu: a block whose shared memory is not a whole number of words
// (one __shared__ bool): the race checker's per-byte shadow must cover the
// partly owned last word (found by tests/programs' last_block under
// --check races: a heap overflow). tests/regress/odd_shared.sh runs it.
__device__ unsigned ticket;

extern "C" __global__ void oddShared(int *result)
{
  __shared__ bool amLast;
  if (threadIdx.x == 0) amLast = ticket == 0;
  __syncthreads();
  if (amLast) result[threadIdx.x] = 1;
}
