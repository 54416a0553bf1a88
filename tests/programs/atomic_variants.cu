/* atomic_variants.cu: shared atomics other than add: atomicInc (wrapping
 * counter), atomicOr (a bit set of seen keys), atomicMax and atomicMin
 * (per-group extremes), results unused, and atomicExch whose result is used. */
#include "prog.h"

#define GROUPS 8

__global__ void variants(const unsigned *in, unsigned *out)
{
  __shared__ unsigned ring;
  __shared__ unsigned seen[4];
  __shared__ unsigned mx[GROUPS], mn[GROUPS];
  __shared__ unsigned last, zeroes;
  if (threadIdx.x == 0) ring = 0, last = 0, zeroes = 0;
  if (threadIdx.x < 4) seen[threadIdx.x] = 0;
  if (threadIdx.x < GROUPS) mx[threadIdx.x] = 0, mn[threadIdx.x] = 0xffffffffu;
  __syncthreads();
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicInc(&ring, 99u);
  atomicOr(&seen[(v >> 5) & 3], 1u << (v & 31));
  atomicMax(&mx[v % GROUPS], v);
  atomicMin(&mn[v % GROUPS], v);
  unsigned prev = atomicExch(&last, 1u);
  /* exactly one thread saw 0 from the exchange */
  if (prev == 0) atomicAdd(&zeroes, 1u);
  __syncthreads();
  unsigned *o = out + blockIdx.x * (2 + 4 + 2 * GROUPS);
  if (threadIdx.x == 0) o[0] = ring, o[1] = last + zeroes;
  if (threadIdx.x < 4) o[2 + threadIdx.x] = seen[threadIdx.x];
  if (threadIdx.x < GROUPS) o[6 + threadIdx.x] = mx[threadIdx.x], o[6 + GROUPS + threadIdx.x] = mn[threadIdx.x];
}

int main()
{
  const int blocks = 16, threads = 256, n = blocks * threads, per = 2 + 4 + 2 * GROUPS;
  unsigned *h = (unsigned *)malloc(n * 4), out[blocks * per];
  unsigned s = 33;
  for (int i = 0; i < n; i++) h[i] = lcg(&s) % 5000;
  unsigned *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  variants<<<blocks, threads>>>(d, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++) {
    unsigned ref[per];
    ref[0] = threads % 100; /* atomicInc wraps to 0 after 99 */
    ref[1] = 2;             /* the exchange's 1, plus the one thread that saw 0 */
    for (int k = 0; k < 4; k++) ref[2 + k] = 0;
    for (int g = 0; g < GROUPS; g++) ref[6 + g] = 0, ref[6 + GROUPS + g] = 0xffffffffu;
    for (int t = 0; t < threads; t++) {
      unsigned v = h[b * threads + t];
      ref[2 + ((v >> 5) & 3)] |= 1u << (v & 31);
      if (v > ref[6 + v % GROUPS]) ref[6 + v % GROUPS] = v;
      if (v < ref[6 + GROUPS + v % GROUPS]) ref[6 + GROUPS + v % GROUPS] = v;
    }
    for (int k = 0; k < per; k++) bad += out[b * per + k] != ref[k];
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("atomic_variants", bad, "ring %u hash %08x", out[0], fnv(out, blocks * per));
}
