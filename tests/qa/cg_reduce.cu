// Cooperative groups as the CUDA guide teaches them: thread_block,
// tiled_partition (static 16 and 4, dynamic 8), cg::reduce with plus/max,
// shfl_down on a tile, block.sync() and cg::sync(); CPU reference.
#include "qa.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ int tileSum(cg::thread_group g, int *tmp, int v)
{
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    tmp[lane] = v;
    g.sync();
    if (lane < i) v += tmp[lane + i];
    g.sync();
  }
  return v;
}

__global__ void cgKernel(const int *in, int *sums, int *maxs, int *tile8, int *shfl4, int n)
{
  cg::thread_block block = cg::this_thread_block();
  __shared__ int part[256 / 16];
  __shared__ int pmax[256 / 16];
  __shared__ int scratch[256];
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  int s = cg::reduce(t16, v, cg::plus<int>());
  int m = cg::reduce(t16, v, cg::greater<int>());
  if (t16.thread_rank() == 0) { part[t16.meta_group_rank()] = s; pmax[t16.meta_group_rank()] = m; }
  cg::sync(block);
  if (block.thread_rank() == 0) {
    int a = 0, b = -2147483647;
    for (int k = 0; k < (int)t16.meta_group_size(); k++) { a += part[k]; b = max(b, pmax[k]); }
    sums[blockIdx.x] = a;
    maxs[blockIdx.x] = b;
  }
  /* dynamic partition of 8 through shared scratch */
  cg::thread_group t8 = cg::tiled_partition(block, 8);
  int base = block.thread_rank() - t8.thread_rank();
  int s8 = tileSum(t8, scratch + base, v);
  if (t8.thread_rank() == 0) tile8[i / 8] = s8;
  block.sync();
  /* static tile of 4 with shfl_down */
  cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(block);
  int x = v;
  for (int o = 2; o > 0; o /= 2) x += t4.shfl_down(x, o);
  if (t4.thread_rank() == 0) shfl4[i / 4] = x;
}

int main()
{
  const int bs = 256, grid = 9, n = bs * grid - 37;
  int *h = (int *)malloc(bs * grid * 4);
  unsigned seed = 7;
  for (int i = 0; i < bs * grid; i++) h[i] = i < n ? (int)(qa_lcg(&seed) % 2001) - 1000 : 0;
  int *d, *ds, *dm, *d8, *d4;
  CHECK(cudaMalloc(&d, bs * grid * 4));
  CHECK(cudaMalloc(&ds, grid * 4));
  CHECK(cudaMalloc(&dm, grid * 4));
  CHECK(cudaMalloc(&d8, bs * grid / 8 * 4));
  CHECK(cudaMalloc(&d4, bs * grid / 4 * 4));
  CHECK(cudaMemcpy(d, h, bs * grid * 4, cudaMemcpyHostToDevice));
  cgKernel<<<grid, bs>>>(d, ds, dm, d8, d4, n);
  CHECK(cudaGetLastError());
  int hs[grid], hm[grid];
  int *h8 = (int *)malloc(bs * grid / 8 * 4), *h4 = (int *)malloc(bs * grid / 4 * 4);
  CHECK(cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hm, dm, sizeof hm, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h8, d8, bs * grid / 8 * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h4, d4, bs * grid / 4 * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < grid; b++) {
    int s = 0, m = -2147483647;
    for (int k = 0; k < bs; k++) { s += h[b * bs + k]; m = m > h[b * bs + k] ? m : h[b * bs + k]; }
    EXPECT_EQ("sum", b, hs[b], s);
    EXPECT_EQ("max", b, hm[b], m);
  }
  for (int t = 0; t < bs * grid / 8; t++) {
    int s = 0;
    for (int k = 0; k < 8; k++) s += h[t * 8 + k];
    EXPECT_EQ("tile8", t, h8[t], s);
  }
  for (int t = 0; t < bs * grid / 4; t++) {
    int s = 0;
    for (int k = 0; k < 4; k++) s += h[t * 4 + k];
    EXPECT_EQ("tile4", t, h4[t], s);
  }
  return qa_done("cg_reduce");
}
