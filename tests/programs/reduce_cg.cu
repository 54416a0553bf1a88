/* reduce_cg.cu: a block reduction with cooperative groups: each 32-thread
 * tile reduces with cg::reduce, tile leaders meet in shared memory, the
 * block synchronises with block.sync(), and the first tile finishes. */
#include "prog.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduceCg(const int *in, long long *out, int n)
{
  __shared__ int partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = 0;
  for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n; i += gridDim.x * block.size())
    v += in[i];
  int tsum = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = tsum;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    int x = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0;
    x = cg::reduce(tile, x, cg::plus<int>());
    if (tile.thread_rank() == 0) out[blockIdx.x] = x;
  }
}

int main()
{
  const int n = 50000, threads = 192, blocks = 40;
  int *h = (int *)malloc(n * sizeof(int));
  long long hout[blocks];
  unsigned s = 3;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 200) - 100;
  int *d;
  long long *dout;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, sizeof hout));
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  reduceCg<<<blocks, threads>>>(d, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  int bad = 0;
  long long total = 0;
  for (int b = 0; b < blocks; b++) {
    long long ref = 0;
    for (int i = b * threads; i < n; i += blocks * threads)
      for (int j = 0; j < threads && i + j < n; j++) ref += h[i + j];
    bad += hout[b] != ref;
    total += hout[b];
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("reduce_cg", bad, "blocks %d sum %lld hash %08x", blocks, total, fnv(hout, 2 * blocks));
}
