/* ok_transpose_naive: the transpose straight from global to global memory
 * (no shared memory at all). Correct: nothing to report. */
#include "races.cuh"

extern "C" __global__ void ok_transpose_naive(int *out, const int *in, int n)
{
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[x * n + y + j] = in[(y + j) * n + x];                     //@G
}
