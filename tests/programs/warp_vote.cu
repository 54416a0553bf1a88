/* warp_vote.cu: warp-synchronous primitives around shared memory: each
 * warp counts its positive values with __ballot_sync/__popc, finds lanes
 * holding equal keys with __match_any_sync, broadcasts with __shfl_sync,
 * and the warp leaders publish results in shared memory. */
#include "prog.h"

__global__ void vote(const int *in, unsigned *out)
{
  __shared__ unsigned positives[8], groups[8], firstKey[8];
  int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned pos = __ballot_sync(0xffffffffu, v > 0);
  unsigned same = __match_any_sync(0xffffffffu, v & 7);
  /* a lane is a group leader if it is the lowest lane with its key */
  unsigned leaders = __ballot_sync(0xffffffffu, (__ffs(same) - 1) == lane);
  int first = __shfl_sync(0xffffffffu, v, 0);
  if (lane == 0) {
    positives[wid] = __popc(pos);
    groups[wid] = __popc(leaders);
    firstKey[wid] = (unsigned)first;
  }
  __syncthreads();
  if (threadIdx.x < blockDim.x / warpSize) {
    unsigned *o = out + (blockIdx.x * 8 + threadIdx.x) * 3;
    o[0] = positives[threadIdx.x];
    o[1] = groups[threadIdx.x];
    o[2] = firstKey[threadIdx.x];
  }
}

int main()
{
  const int blocks = 10, threads = 256, n = blocks * threads;
  int *h = (int *)malloc(n * 4);
  unsigned out[blocks * 8 * 3];
  unsigned s = 71;
  for (int i = 0; i < n; i++) h[i] = (int)(lcg(&s) % 41) - 20;
  int *d;
  unsigned *dout;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dout, sizeof out));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  vote<<<blocks, threads>>>(d, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int w = 0; w < n / 32; w++) {
    unsigned p = 0, keys = 0;
    for (int l = 0; l < 32; l++) {
      int v = h[w * 32 + l];
      p += v > 0;
      keys |= 1u << (v & 7);
    }
    bad += out[w * 3] != p || out[w * 3 + 1] != (unsigned)__builtin_popcount(keys) ||
           out[w * 3 + 2] != (unsigned)h[w * 32];
  }
  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  return result("warp_vote", bad, "hash %08x", fnv(out, blocks * 8 * 3));
}
