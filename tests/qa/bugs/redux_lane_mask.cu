// cg::reduce over thread_block_tile<16>: each half-warp passes its own
// membermask (0x0000ffff, 0xffff0000) to redux.sync. smemu takes lane 0's
// mask for the whole warp and traps lane 16 ("not in the membermask").
// smemu exec tests/qa/bugs/redux_lane_mask.cu --kernel tileSum --grid 1 --block 32 --arg buf:s32:32:iota:print
// expected: out[0..15] = 120, out[16..31] = 376
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tileSum(int *io)
{
  auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
  io[threadIdx.x] = cg::reduce(t16, io[threadIdx.x], cg::plus<int>());
}
