/* ok_matmul_tiled: C = A * B for n x n ints (n a multiple of 16; A is in[0
 * .. n*n), B follows it), 16 x 16 tiles in shared memory, a barrier after
 * loading a tile and one before overwriting it. Correct: no hazard. */
#include "races.cuh"

#define TILE 16

extern "C" __global__ void ok_matmul_tiled(int *out, const int *in, int n)
{
  __shared__ int As[TILE][TILE];
  __shared__ int Bs[TILE][TILE];
  const int *A = in, *B = in + n * n;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  int acc = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[ty][tx] = A[row * n + k0 + tx];           //@WA
    Bs[ty][tx] = B[(k0 + ty) * n + col];         //@WB
    __syncthreads();
    for (int k = 0; k < TILE; k++)
      acc += As[ty][k] * Bs[k][tx];              //@R
    __syncthreads();
  }
  out[row * n + col] = acc;
}
