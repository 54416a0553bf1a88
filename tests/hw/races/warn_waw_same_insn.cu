/* warn_waw_same_insn: all 32 lanes of one warp store to the same shared
 * word in one instruction. What racecheck says about lanes of a single
 * store is what this records (older tools gave a WAW warning). */
#include "races.cuh"

extern "C" __global__ void warn_waw_same_insn(int *out, const int *in, int n)
{
  __shared__ int s[1];
  int lane = threadIdx.x & 31;
  s[0] = in[lane];                               //@W
  __syncwarp();
  out[lane] = s[0];                              //@R
}
