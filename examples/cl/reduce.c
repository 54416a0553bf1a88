/* reduce.c: runs the local-memory reductions of examples/cl/reduce.cl:
 * reduceSequential (2^18 floats, local size 256) and reduceInterleaved
 * (100000 floats, local size 128, the last group zero-padded), each with a
 * __local float * scratch argument of local-size floats. Every group's sum
 * must match, bit for bit, a CPU tree that adds in the kernel's order; the OK
 * lines give the bank figures (the interleaved tree has conflicts, the
 * sequential one none). Prints SKIP without clang-14 and libclc-14. */
#include "smemu.h"
#include "clc.h"
#include "cl_example.h"

/* The kernels' trees over each group's elements (0 past n), in their order. */
static void reference(const clx_case *c, float *const host[CLX_MAX_ARGS], float *want)
{
  const float *in = host[0];
  uint32_t n = (uint32_t)c->args[3].n, L = c->local[0], groups = c->global[0] / L;
  int seq = strcmp(c->kernel, "reduceSequential") == 0;
  float *s = (float *)malloc(L * sizeof(float));
  uint32_t g, i, st;
  if (!s) return; /* want keeps its garbage and the comparison fails */
  for (g = 0; g < groups; g++) {
    for (i = 0; i < L; i++) s[i] = g * L + i < n ? in[g * L + i] : 0.0f;
    if (seq) {
      for (st = L / 2; st > 0; st >>= 1)
        for (i = 0; i < st; i++) s[i] += s[i + st];
    } else {
      for (st = 1; st < L; st *= 2)
        for (i = 0; 2 * st * i < L; i++) s[2 * st * i] += s[2 * st * i + st];
    }
    want[g] = s[0];
  }
  free(s);
}

int main(int argc, char **argv)
{
  return clx_main(argc, argv, "cl_reduce", reference);
}
