/* matmul_tiled.cl: C = A * B (row-major floats) through __local memory: each
 * work-group stages a TILE x TILE block of A and one of B, waits at a barrier,
 * multiplies them out of local memory and waits again before the tiles are
 * refilled. The OpenCL counterpart of examples/matmul.cu (same tile, same
 * access pattern), so the two bank reports can be compared.
 *
 * Launch: local size TILE x TILE, one work-group per TILE x TILE block of C
 * (dimension 0: columns, dimension 1: rows). */

#ifndef TILE
#define TILE 16
#endif

/* C (n x n) = A (n x n) * B (n x n), n a multiple of TILE; the tiles are
 * static __local arrays. */
__kernel void matmulTiled(__global const float *A, __global const float *B,
                          __global float *C, int n)
{
  __local float tileA[TILE][TILE];
  __local float tileB[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float acc = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    tileA[ty][tx] = A[row * n + base + tx];
    tileB[ty][tx] = B[(base + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE); /* both tiles complete before anyone reads them */
    for (int k = 0; k < TILE; k++)
      acc += tileA[ty][k] * tileB[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE); /* everyone done with the tiles before they are refilled */
  }
  C[row * n + col] = acc;
}

/* C (m x p) = A (m x q) * B (q x p) for any sizes: the global size is rounded
 * up to whole tiles; elements outside A or B load as 0 and work-items outside
 * C store nothing, but every work-item reaches every barrier. */
__kernel void matmulTiledBounds(__global const float *A, __global const float *B,
                                __global float *C, int m, int q, int p)
{
  __local float tileA[TILE][TILE];
  __local float tileB[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_global_id(1), col = get_global_id(0);
  float acc = 0.0f;
  for (int base = 0; base < q; base += TILE) {
    int ka = base + tx, kb = base + ty;
    tileA[ty][tx] = (row < m && ka < q) ? A[row * q + ka] : 0.0f;
    tileB[ty][tx] = (kb < q && col < p) ? B[kb * p + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; k++)
      acc += tileA[ty][k] * tileB[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < p)
    C[row * p + col] = acc;
}

/* matmulTiled with the tiles allocated by the host instead: two __local
 * pointer arguments of TILE * TILE floats each (clSetKernelArg(k, 4,
 * TILE * TILE * sizeof(float), NULL), and the same for argument 5). */
__kernel void matmulTiledArgs(__global const float *A, __global const float *B,
                              __global float *C, int n,
                              __local float *tileA, __local float *tileB)
{
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float acc = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    tileA[ty * TILE + tx] = A[row * n + base + tx];
    tileB[ty * TILE + tx] = B[(base + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; k++)
      acc += tileA[ty * TILE + k] * tileB[k * TILE + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
