/* matmul_naive.cl: C = A * B (row-major floats) with one work-item per
 * element of C and every operand read from global memory: the starting point
 * that matmul_tiled.cl improves on with __local tiles.
 *
 * C (m x p) = A (m x q) * B (q x p). 2-D range: dimension 0 runs over the
 * columns of C, dimension 1 over its rows; the global size may be rounded up
 * to a multiple of the local size, so work-items outside C do nothing. */
__kernel void matmulNaive(__global const float *A, __global const float *B,
                          __global float *C, int m, int q, int p)
{
  int col = get_global_id(0);
  int row = get_global_id(1);
  if (row >= m || col >= p)
    return;
  float acc = 0.0f;
  for (int k = 0; k < q; k++)
    acc += A[row * q + k] * B[k * p + col];
  C[row * p + col] = acc;
}
