/* compact_warpagg.cu: stream compaction with warp-aggregated atomics: in
 * each warp the lanes that keep an element elect a leader, which reserves
 * space for all of them with one shared atomicAdd; the offset is broadcast
 * with __shfl_sync and each lane writes its element to a shared buffer;
 * the block then reserves global space once and copies the buffer out. */
#include "prog.h"

#define BLOCK 256

__device__ unsigned warpReserve(unsigned *counter, bool keep)
{
  unsigned active = __activemask();
  unsigned mask = __ballot_sync(active, keep);
  int lane = threadIdx.x % warpSize;
  int leader = __ffs(mask) - 1;
  unsigned base = 0;
  if (lane == leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(active, base, leader < 0 ? 0 : leader);
  return base + __popc(mask & ((1u << lane) - 1));
}

__global__ void compact(const int *in, int n, int *out, unsigned *total)
{
  __shared__ int buf[BLOCK];
  __shared__ unsigned count, gbase;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int v = i < n ? in[i] : 0;
  bool keep = i < n && v % 3 == 0;
  unsigned slot = warpReserve(&count, keep);
  if (keep) buf[slot] = v;
  __syncthreads();
  if (threadIdx.x == 0) gbase = atomicAdd(total, count);
  __syncthreads();
  if (threadIdx.x < count) out[gbase + threadIdx.x] = buf[threadIdx.x];
}

int main()
{
  const int n = 20000, blocks = (n + BLOCK - 1) / BLOCK;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  unsigned s = 73;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 1000);
  int *d, *dout;
  unsigned *dtotal, total;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dtotal, 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dtotal, 0, 4));
  compact<<<blocks, BLOCK>>>(d, n, dout, dtotal);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&total, dtotal, 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  /* blocks finish in any order: compare as multisets (counts of values) */
  static unsigned ch[1000], cr[1000];
  unsigned rn = 0;
  for (int i = 0; i < n; i++)
    if (h[i] % 3 == 0) cr[h[i]]++, rn++;
  int bad = total != rn;
  for (unsigned i = 0; i < total && i < (unsigned)n; i++) {
    if (o[i] < 0 || o[i] >= 1000) bad++;
    else ch[o[i]]++;
  }
  for (int v = 0; v < 1000; v++) bad += ch[v] != cr[v];
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dtotal));
  return result("compact_warpagg", bad, "kept %u of %d hash %08x", total, n, fnv(ch, 1000));
}
