// cudaLaunchCooperativeKernel with grid.sync() between two phases (each
// block reduces in shared memory, then block 0 combines after the grid
// barrier); the occupancy API says the grid fits.
#include "qa.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void twoPhase(const int *in, int *partial, int *total, int n)
{
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[128];
  int t = threadIdx.x, acc = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
  s[t] = acc;
  __syncthreads();
  for (int w = 64; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (blockIdx.x == 0) {
    s[t] = t < (int)gridDim.x ? partial[t] : 0;
    __syncthreads();
    for (int w = 64; w > 0; w >>= 1) {
      if (t < w) s[t] += s[t + w];
      __syncthreads();
    }
    if (t == 0) *total = s[0];
  }
}

int main()
{
  const int n = 10000;
  int *h = (int *)malloc(n * 4);
  long long want = 0;
  for (int i = 0; i < n; i++) { h[i] = i % 97; want += h[i]; }
  int *d, *dp, *dt;
  CHECK(cudaMalloc(&d, n * 4));
  CHECK(cudaMalloc(&dp, 128 * 4));
  CHECK(cudaMalloc(&dt, 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  int coop = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  EXPECT_EQ("cooperativeLaunch attr", 0, coop, 1);
  int perSM = 0, sms = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, twoPhase, 128, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int blocks = 16;
  EXPECT_EQ("fits", 0, blocks <= perSM * sms, 1);
  int nn = n;
  void *args[] = {&d, &dp, &dt, &nn};
  CHECK(cudaLaunchCooperativeKernel((void *)twoPhase, dim3(blocks), dim3(128), args, 0, 0));
  int tot = 0;
  CHECK(cudaMemcpy(&tot, dt, 4, cudaMemcpyDeviceToHost));
  EXPECT_EQ("total", 0, (long long)tot, want);
  return qa_done("coop_launch");
}
