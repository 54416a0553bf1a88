/* compact_agg.cu: stream compaction into shared buffers, three ways:
 * (1) atomicAdd(&count, 1) with the slot used (ptxas aggregates it over
 * the warp itself); (2) atomicAdd(&count, len) with a per-lane length (a
 * variable amount, slot used); (3) four buckets by key (addresses differ
 * across the warp). The block copies its buffer out with one global
 * atomicAdd; the host compares as multisets. */
#include "../../programs/prog.h"

#define BLOCK 256
#define NV 1024

__global__ void compact_one(const int *in, int n, int *out, unsigned *total)
{
  __shared__ int buf[BLOCK];
  __shared__ unsigned count, gbase;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int v = i < n ? in[i] : -1;
  if (v >= 0 && v % 3 == 0) buf[atomicAdd(&count, 1u)] = v;
  __syncthreads();
  if (threadIdx.x == 0) gbase = atomicAdd(total, count);
  __syncthreads();
  if (threadIdx.x < count) out[gbase + threadIdx.x] = buf[threadIdx.x];
}

/* each kept element v writes (v % 4) + 1 copies */
__global__ void compact_var(const int *in, int n, int *out, unsigned *total)
{
  __shared__ int buf[BLOCK * 4];
  __shared__ unsigned count, gbase;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int v = i < n ? in[i] : -1;
  if (v >= 0 && v % 3 == 0) {
    unsigned len = v % 4 + 1;
    unsigned at = atomicAdd(&count, len);
    for (unsigned j = 0; j < len; j++) buf[at + j] = v;
  }
  __syncthreads();
  if (threadIdx.x == 0) gbase = atomicAdd(total, count);
  __syncthreads();
  for (unsigned j = threadIdx.x; j < count; j += BLOCK) out[gbase + j] = buf[j];
}

__global__ void compact_bucket(const int *in, int n, int *out, unsigned *total)
{
  __shared__ int buf[4][BLOCK];
  __shared__ unsigned count[4], gbase;
  if (threadIdx.x < 4) count[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int v = i < n ? in[i] : -1;
  if (v >= 0 && v % 3 == 0) {
    int b = v & 3;
    buf[b][atomicAdd(&count[b], 1u)] = v;
  }
  __syncthreads();
  if (threadIdx.x == 0) gbase = atomicAdd(total, count[0] + count[1] + count[2] + count[3]);
  __syncthreads();
  unsigned at = gbase;
  for (int b = 0; b < 4; b++) {
    if (threadIdx.x < count[b]) out[at + threadIdx.x] = buf[b][threadIdx.x];
    at += count[b];
  }
}

int main()
{
  const int n = 6000, blocks = (n + BLOCK - 1) / BLOCK;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 16);
  unsigned s = 91;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % NV);
  int *d, *dout;
  unsigned *dt, total;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, n * 16));
  CHECK(cudaMalloc(&dt, 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[3];
  for (int k = 0; k < 3; k++) {
    CHECK(cudaMemset(dt, 0, 4));
    if (k == 0) compact_one<<<blocks, BLOCK>>>(d, n, dout, dt);
    if (k == 1) compact_var<<<blocks, BLOCK>>>(d, n, dout, dt);
    if (k == 2) compact_bucket<<<blocks, BLOCK>>>(d, n, dout, dt);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&total, dt, 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(o, dout, n * 16, cudaMemcpyDeviceToHost));
    static unsigned ch[NV], cr[NV];
    memset(ch, 0, sizeof ch);
    memset(cr, 0, sizeof cr);
    unsigned rn = 0;
    for (int i = 0; i < n; i++)
      if (h[i] % 3 == 0) {
        unsigned c = k == 1 ? h[i] % 4 + 1 : 1;
        cr[h[i]] += c, rn += c;
      }
    bad += total != rn;
    for (unsigned i = 0; i < total && i < (unsigned)n * 4; i++) {
      if (o[i] < 0 || o[i] >= NV) bad++;
      else ch[o[i]]++;
    }
    for (int v = 0; v < NV; v++) bad += ch[v] != cr[v];
    hs[k] = fnv(ch, NV);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dt));
  return result("compact_agg", bad, "%08x %08x %08x", hs[0], hs[1], hs[2]);
}
