/* block_scan.cu: a cub-style block scan: each thread owns 4 consecutive
 * items (blocked arrangement), scans them in registers, the warps scan the
 * thread totals with shuffles, the 4 warp aggregates go through shared
 * memory and each thread adds the ones before its warp (a loop ptxas
 * reads with one wide LDS); then a blocked-to-striped exchange through
 * shared memory (4 consecutive stores per thread, read back by stride)
 * writes the result coalesced. Inclusive, then exclusive (2 launches). */
#include "../../programs/prog.h"

#define BLOCK 128
#define ITEMS 4
#define WARPS (BLOCK / 32)
#define TILE (BLOCK * ITEMS)

template <bool EXCLUSIVE>
__global__ void block_scan(const int *in, int *out)
{
  __shared__ int wagg[WARPS];
  __shared__ int xch[TILE];
  const int *p = in + blockIdx.x * TILE;
  int t = threadIdx.x, lane = t % 32, warp = t / 32;
  int v[ITEMS];
  /* striped load (coalesced), exchanged to blocked through shared */
  for (int i = 0; i < ITEMS; i++) xch[i * BLOCK + t] = p[i * BLOCK + t];
  __syncthreads();
  for (int i = 0; i < ITEMS; i++) v[i] = xch[t * ITEMS + i];
  __syncthreads();
  int run = 0;
  for (int i = 0; i < ITEMS; i++) {
    run += v[i];
    v[i] = EXCLUSIVE ? run - v[i] : run;
  }
  int x = run;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) wagg[warp] = x;
  __syncthreads();
  int pre = x - run;
  for (int w = 0; w < WARPS; w++)
    if (w < warp) pre += wagg[w];
  /* blocked to striped through shared, then a coalesced store */
  for (int i = 0; i < ITEMS; i++) xch[t * ITEMS + i] = v[i] + pre;
  __syncthreads();
  for (int i = 0; i < ITEMS; i++) out[blockIdx.x * TILE + i * BLOCK + t] = xch[i * BLOCK + t];
}

int main()
{
  const int blocks = 12, n = blocks * TILE;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  unsigned s = 11;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 100) - 40;
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  int bad = 0;
  unsigned hs[2];
  for (int ex = 0; ex < 2; ex++) {
    if (ex) block_scan<true><<<blocks, BLOCK>>>(d, dout);
    else block_scan<false><<<blocks, BLOCK>>>(d, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
      int run = 0;
      for (int i = 0; i < TILE; i++) {
        int x = h[b * TILE + i];
        bad += o[b * TILE + i] != (ex ? run : run + x);
        run += x;
      }
    }
    hs[ex] = fnv(o, n);
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("block_scan", bad, "inclusive %08x exclusive %08x", hs[0], hs[1]);
}
