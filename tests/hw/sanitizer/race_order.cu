// racecheck and the order of warps after a barrier: a store of the value
// already there by one warp and a read of it by the other, both ways, and
// a reduction in the style of a group normalisation: each warp folds its
// partial sums in shared memory without __syncwarp (hazards within a
// warp), then warp 0 reads the other warps' sums without a barrier
// (hazards between warps).
#include "san.cuh"

// thread 40 (warp 1) rewrites s[0] with the value it holds while thread 0 reads it
__global__ void rawSameOther(int *out)
{
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 40)
    s[0] = 1;
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void groupSums(float *out, const float *in)
{
  __shared__ float part[256];
  __shared__ float warpSum[8];
  int t = threadIdx.x, lane = t % 32, w = t / 32;
  part[t] = in[t];
  __syncthreads();
  for (int d = 16; d > 0; d /= 2) {
    if (lane < d)
      part[t] += part[t + d];
  }
  if (lane == 0)
    warpSum[w] = part[t];
  if (t == 0) {
    float s = 0;
    for (int i = 0; i < 8; i++)
      s += warpSum[i];
    out[0] = s;
  }
}

int main()
{
  int *out = 0;
  float *fo = 0, *fi = 0;
  CALL(cudaMalloc(&out, 64 * sizeof(int)));
  CALL(cudaMalloc(&fo, 16 * sizeof(float)));
  CALL(cudaMalloc(&fi, 256 * sizeof(float)));
  CALL(cudaMemset(fi, 0, 256 * sizeof(float)));
  rawSameOther<<<1, 64>>>(out);
  SYNC("rawSameOther");
  groupSums<<<1, 256>>>(fo, fi);
  SYNC("groupSums");
  CALL(cudaFree(out));
  CALL(cudaFree(fo));
  CALL(cudaFree(fi));
  return 0;
}
