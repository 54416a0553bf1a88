/* mixed_cg_reduce: a cooperative-groups block reduction (128 threads) that
 * forgets the block.sync() between the block step and the tile step, and
 * whose tile loop syncs the tile only between its write and the next read.
 * Warp 0 waits for warp 1's flag, so the tile step reads warp 1's slots
 * unordered (errors between warps) and each lane's write follows other
 * lanes' reads of the same slot with no tile.sync() (warnings). */
#include <cooperative_groups.h>
#include "races.cuh"
namespace cg = cooperative_groups;

extern "C" __global__ void mixed_cg_reduce(int *out, const int *in, int n)
{
  __shared__ int s[128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int t = block.thread_rank();
  s[t] = in[t];                                  //@L
  block.sync();
  if (t < 64)
    s[t] += s[t + 64];                           //@A
  if (tile.meta_group_rank() == 1)
    races_signal(out);
  if (tile.meta_group_rank() == 0) {
    races_wait(out);
    int v = s[t] + s[t + 32];                    //@B
#pragma unroll
    for (int k = 16; k > 0; k >>= 1) {
      s[t] = v;                                  //@TW
      tile.sync();
      v += s[t + k];                             //@TR
    }
    if (tile.thread_rank() == 0)
      out[0] = v;
  }
}
