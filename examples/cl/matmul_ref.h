/* matmul_ref.h: the CPU reference of the OpenCL matrix products (include
 * after cl_example.h). */
#ifndef SMEMU_CL_MATMUL_REF_H
#define SMEMU_CL_MATMUL_REF_H

/* C (m x p) = A (m x q) * B (q x p), each element an fmaf chain over
 * k = 0..q-1: the order of every kernel's k loop. The tiled kernels' zero
 * padding adds fma(x, 0, acc) = acc exactly (acc starts at +0, and
 * round-to-nearest never turns a sum into -0 unless both terms are -0).
 * The sizes come from the launch's arguments: A, B, C, then n (square) or
 * m, q, p. */
static void clx_matmul_reference(const clx_case *c, float *const host[CLX_MAX_ARGS], float *want)
{
  const float *A = host[0], *B = host[1];
  int m = (int)c->args[3].n, q = m, p = m, i, j, k;
  if (c->args[4].kind == CLX_S32) {
    q = (int)c->args[4].n;
    p = (int)c->args[5].n;
  }
  for (i = 0; i < m; i++)
    for (j = 0; j < p; j++) {
      float acc = 0.0f;
      for (k = 0; k < q; k++) acc = fmaf(A[(size_t)i * q + k], B[(size_t)k * p + j], acc);
      want[(size_t)i * p + j] = acc;
    }
}
#endif
