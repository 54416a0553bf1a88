// Warp intrinsics beside shared memory, built -rdc=false explicitly:
// warpSize, __activemask in a divergent branch, __match_any_sync grouping
// equal keys, __reduce_add_sync / __reduce_max_sync, __syncwarp with a
// partial mask, __ldg, __nanosleep; per-warp results through shared.
// qa-flags: -rdc=false
#include "qa.h"

__global__ void misc(const int *keys, int *groupSize, int *redAdd, int *redMax, unsigned *active, int *lanesOut)
{
  __shared__ int s[4][32];
  int t = threadIdx.x, lane = t % warpSize, w = t / warpSize;
  int k = __ldg(&keys[blockIdx.x * blockDim.x + t]);
  unsigned same = __match_any_sync(0xffffffffu, k);
  s[w][lane] = __popc(same);
  int ra = __reduce_add_sync(0xffffffffu, k);
  unsigned rm = __reduce_max_sync(0xffffffffu, (unsigned)k);
  if (lane < 10) {
    __nanosleep(100);
    active[(blockIdx.x * blockDim.x + t) / warpSize] = __activemask();
  }
  if (lane < 16) {
    s[w][lane] += 1000; /* lanes 0..15 only, then they sync among themselves */
    __syncwarp(0x0000ffffu);
    lanesOut[blockIdx.x * blockDim.x + t] = s[w][15 - lane];
  }
  __syncwarp();
  int i = blockIdx.x * blockDim.x + t;
  groupSize[i] = s[w][lane];
  if (lane == 0) { redAdd[i / 32] = ra; redMax[i / 32] = (int)rm; }
}

int main()
{
  const int bs = 128, grid = 2, n = bs * grid, nw = n / 32;
  int keys[n], gs[n], ra[nw], rm[nw], lo[n];
  unsigned act[nw];
  for (int i = 0; i < n; i++) keys[i] = (i * 7) % 5 + (i / 32) * 10;
  int *dk, *dg, *da, *dm, *dl; unsigned *dact;
  CHECK(cudaMalloc(&dk, sizeof keys)); CHECK(cudaMalloc(&dg, sizeof gs)); CHECK(cudaMalloc(&da, sizeof ra));
  CHECK(cudaMalloc(&dm, sizeof rm)); CHECK(cudaMalloc(&dl, sizeof lo)); CHECK(cudaMalloc(&dact, sizeof act));
  CHECK(cudaMemcpy(dk, keys, sizeof keys, cudaMemcpyHostToDevice));
  int ws = 0;
  CHECK(cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0));
  EXPECT_EQ("warpSize", 0, ws, 32);
  misc<<<grid, bs>>>(dk, dg, da, dm, dact, dl);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(gs, dg, sizeof gs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ra, da, sizeof ra, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rm, dm, sizeof rm, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(act, dact, sizeof act, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(lo, dl, sizeof lo, cudaMemcpyDeviceToHost));
  for (int w = 0; w < nw; w++) {
    int a = 0, m = 0;
    for (int l = 0; l < 32; l++) { a += keys[w * 32 + l]; m = keys[w * 32 + l] > m ? keys[w * 32 + l] : m; }
    EXPECT_EQ("reduce_add", w, ra[w], a);
    EXPECT_EQ("reduce_max", w, rm[w], m);
    EXPECT_EQ("activemask", w, act[w], 0x3ffu);
    for (int l = 0; l < 32; l++) {
      int c = 0;
      for (int j = 0; j < 32; j++) c += keys[w * 32 + j] == keys[w * 32 + l];
      EXPECT_EQ("match", w * 32 + l, gs[w * 32 + l], c + (l < 16 ? 1000 : 0));
      if (l < 16) {
        int m2 = 15 - l, c2 = 0;
        for (int j = 0; j < 32; j++) c2 += keys[w * 32 + j] == keys[w * 32 + m2];
        EXPECT_EQ("partial", w * 32 + l, lo[w * 32 + l], c2 + 1000);
      }
    }
  }
  return qa_done("warp_misc");
}
