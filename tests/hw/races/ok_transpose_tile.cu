/* ok_transpose_tile: out = transpose(in) for an n x n int matrix through a
 * 32 x 32 shared tile (32 x 8 threads, 4 rows each), coalesced both ways,
 * no padding (bank conflicts, but no hazard). Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_transpose_tile(int *out, const int *in, int n)
{
  __shared__ int tile[32][32];
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
