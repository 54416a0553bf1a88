// kernels.cuh: what contend.cu and sweep.cu share: the addend, the CAS
// loop, the flag chain, error checks and the ONLY filter of their command
// lines. Each program defines prog_name before including it.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The value thread t adds: a multiple of 0.25 below 3, so that every sum of
// up to 2^20 of them is exact in float and the result does not depend on
// the order in which the atomics land.
__device__ __host__ static float addend(unsigned t) { return 1.0f + (float)(t & 7) * 0.25f; }

// Float add by an atomicCAS loop, as code written before native float
// atomics does; returns the number of CAS attempts.
__device__ static unsigned cas_add(float *p, float v) {
  int *a = (int *)p;
  int old = *a, assumed;
  unsigned n = 0;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __float_as_int(v + __int_as_float(assumed)));
    n++;
  } while (assumed != old);
  return n;
}

// Warps take turns: warp w waits until the flag says w, then passes it on.
__global__ void flag_chain(int *out, unsigned *iters) {
  __shared__ volatile int flag;
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t, w = t >> 5;
  if (t == 0) flag = 0;
  __syncthreads();
  unsigned n = 0;
  while (flag != (int)w) n++;
  __syncwarp();
  if ((t & 31) == 0) flag = (int)w + 1;
  iters[g] = n;
  __syncthreads();
  if (t == 0) out[blockIdx.x] = flag;
}

static void ck(cudaError_t e, const char *what) {
  if (e != cudaSuccess) { fprintf(stderr, "%s: %s: %s\n", prog_name, what, cudaGetErrorString(e)); exit(1); }
}

// The sum, minimum and maximum of n iteration counts.
static void iters_stats(const unsigned *it, unsigned n, unsigned long long *sum, unsigned *mn, unsigned *mx) {
  *sum = 0;
  *mn = ~0u;
  *mx = 0;
  for (unsigned i = 0; i < n; i++) {
    *sum += it[i];
    if (it[i] < *mn) *mn = it[i];
    if (it[i] > *mx) *mx = it[i];
  }
}

static const char *only;
// ONLY is a comma-separated list of name prefixes.
static int want(const char *name) {
  if (!only) return 1;
  for (const char *p = only; *p;) {
    size_t n = strcspn(p, ",");
    if (n && strncmp(name, p, n) == 0) return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

