/* transpose.cu: out-of-place transpose of a height x width row-major float
 * matrix into width x height. Blocks of TILE_DIM x BLOCK_ROWS threads each
 * move one TILE_DIM x TILE_DIM tile, every thread TILE_DIM / BLOCK_ROWS rows. */

#define TILE_DIM 32
#define BLOCK_ROWS 8

/* Baseline without shared memory: reads are coalesced, writes are strided. */
__global__ void transposeNaive(float *odata, const float *idata, int width, int height)
{
  int col = blockIdx.x * TILE_DIM + threadIdx.x;
  int row0 = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    odata[col * height + row0 + r] = idata[(row0 + r) * width + col];
}

/* Stages the tile in shared memory so that both the global reads and the
 * global writes go along rows. Reading a tile column hits one bank 32 times
 * (word stride 32): a 32-way bank conflict on every load of the second loop. */
__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height)
{
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int tx = threadIdx.x, ty = threadIdx.y;
  int inCol = blockIdx.x * TILE_DIM + tx;
  int inRow = blockIdx.y * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    tile[ty + r][tx] = idata[(inRow + r) * width + inCol];
  __syncthreads();
  /* the output tile sits at the mirrored block position */
  int outCol = blockIdx.y * TILE_DIM + tx;
  int outRow = blockIdx.x * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    odata[(outRow + r) * height + outCol] = tile[tx][ty + r];
}

/* Same with one padding column: a tile column now has word stride 33, so
 * the 32 lanes of a warp fall in 32 different banks. */
__global__ void transposeNoBankConflicts(float *odata, const float *idata, int width, int height)
{
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int inCol = blockIdx.x * TILE_DIM + tx;
  int inRow = blockIdx.y * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    tile[ty + r][tx] = idata[(inRow + r) * width + inCol];
  __syncthreads();
  int outCol = blockIdx.y * TILE_DIM + tx;
  int outRow = blockIdx.x * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    odata[(outRow + r) * height + outCol] = tile[tx][ty + r];
}
