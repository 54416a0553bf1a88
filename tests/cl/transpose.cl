/* transpose.cl: the OpenCL twins of examples/transpose.cu's shared-memory
 * transposes (TILE_DIM 32, BLOCK_ROWS 8), for comparing bank reports where
 * there are conflicts: a tile column has word stride 32 (one bank, 32-way
 * conflicts) or, padded, 33 (none). Local size 32 x 8; one work-group per
 * 32 x 32 tile of the height x width input. */

#define TILE_DIM 32
#define BLOCK_ROWS 8

__kernel void transposeCoalesced(__global float *odata, __global const float *idata,
                                 int width, int height)
{
  __local float tile[TILE_DIM][TILE_DIM];
  int tx = get_local_id(0), ty = get_local_id(1);
  int inCol = get_group_id(0) * TILE_DIM + tx;
  int inRow = get_group_id(1) * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    tile[ty + r][tx] = idata[(inRow + r) * width + inCol];
  barrier(CLK_LOCAL_MEM_FENCE);
  int outCol = get_group_id(1) * TILE_DIM + tx;
  int outRow = get_group_id(0) * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    odata[(outRow + r) * height + outCol] = tile[tx][ty + r];
}

__kernel void transposeNoBankConflicts(__global float *odata, __global const float *idata,
                                       int width, int height)
{
  __local float tile[TILE_DIM][TILE_DIM + 1];
  int tx = get_local_id(0), ty = get_local_id(1);
  int inCol = get_group_id(0) * TILE_DIM + tx;
  int inRow = get_group_id(1) * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    tile[ty + r][tx] = idata[(inRow + r) * width + inCol];
  barrier(CLK_LOCAL_MEM_FENCE);
  int outCol = get_group_id(1) * TILE_DIM + tx;
  int outRow = get_group_id(0) * TILE_DIM + ty;
  for (int r = 0; r < TILE_DIM; r += BLOCK_ROWS)
    odata[(outRow + r) * height + outCol] = tile[tx][ty + r];
}
