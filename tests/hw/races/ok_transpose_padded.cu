/* ok_transpose_padded: the same transpose with a 32 x 33 tile (the padding
 * column removes the bank conflicts). Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_transpose_padded(int *out, const int *in, int n)
{
  __shared__ int tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];     //@W
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];    //@R
}
