/* matmul.cu: tiled matrix product C = A * B (row-major floats) with two
 * MM_TILE x MM_TILE shared tiles per block and two __syncthreads per tile:
 * a square kernel for sizes that are multiples of the tile, and a general
 * one that pads partial tiles with zeros. */

#define MM_TILE 16

/* C (n x n) = A (n x n) * B (n x n); n a multiple of MM_TILE, grid n/MM_TILE
 * squared, block MM_TILE x MM_TILE. */
__global__ void matmulTiled(const float *A, const float *B, float *C, int n)
{
  __shared__ float tileA[MM_TILE][MM_TILE];
  __shared__ float tileB[MM_TILE][MM_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * MM_TILE + ty;
  int col = blockIdx.x * MM_TILE + tx;
  float acc = 0.0f;
  for (int base = 0; base < n; base += MM_TILE) {
    tileA[ty][tx] = A[row * n + base + tx];
    tileB[ty][tx] = B[(base + ty) * n + col];
    __syncthreads(); /* both tiles complete before anyone reads them */
#pragma unroll
    for (int k = 0; k < MM_TILE; k++)
      acc += tileA[ty][k] * tileB[k][tx];
    __syncthreads(); /* everyone done with the tiles before they are refilled */
  }
  C[row * n + col] = acc;
}

/* C (m x p) = A (m x q) * B (q x p) for any sizes: grid ceil(p/MM_TILE) x
 * ceil(m/MM_TILE). Elements outside A or B load as 0 and threads outside C
 * store nothing, but every thread takes part in every barrier. */
__global__ void matmulTiledBounds(const float *A, const float *B, float *C, int m, int q, int p)
{
  __shared__ float tileA[MM_TILE][MM_TILE];
  __shared__ float tileB[MM_TILE][MM_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * MM_TILE + ty;
  int col = blockIdx.x * MM_TILE + tx;
  float acc = 0.0f;
  for (int base = 0; base < q; base += MM_TILE) {
    int ka = base + tx, kb = base + ty;
    tileA[ty][tx] = (row < m && ka < q) ? A[row * q + ka] : 0.0f;
    tileB[ty][tx] = (kb < q && col < p) ? B[kb * p + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < MM_TILE; k++)
      acc += tileA[ty][k] * tileB[k][tx];
    __syncthreads();
  }
  if (row < m && col < p)
    C[row * p + col] = acc;
}
