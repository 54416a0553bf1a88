// cudaLaunchKernelEx (C++ template over cudaLaunchKernelExC) with a dynamic
// shared size, the occupancy API with a block-size-dependent shared size
// (cudaOccupancyMaxPotentialBlockSizeVariableSMem), and a kernel whose
// dynamic shared size depends on the block size chosen.
#include "qa.h"

__global__ void rotate(const int *in, int *out, int n, int k)
{
  extern __shared__ int buf[];
  int bs = blockDim.x, i = blockIdx.x * bs + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : -1;
  __syncthreads();
  int j = (threadIdx.x + k) % bs;
  if (i < n && blockIdx.x * bs + j < n) out[i] = buf[j];
  else if (i < n) out[i] = -2;
}

struct SmemPerBlock { __host__ __device__ size_t operator()(int bs) const { return (size_t)bs * sizeof(int); } };

int main()
{
  const int n = 5000, k = 5;
  int *h = (int *)malloc(n * 4), *o = (int *)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = i * 3 + 1;
  int *d, *dout;
  CHECK(cudaMalloc(&d, n * 4)); CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice));
  int minGrid = 0, bs = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid, &bs, rotate, SmemPerBlock(), 0));
  EXPECT_EQ("bs in range", 0, bs >= 32 && bs <= 1024 && bs % 32 == 0, 1);
  EXPECT_EQ("minGrid>0", 0, minGrid > 0, 1);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + bs - 1) / bs);
  cfg.blockDim = dim3(bs);
  cfg.dynamicSmemBytes = bs * sizeof(int);
  cfg.stream = 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = 0;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, rotate, (const int *)d, dout, n, k));
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int b = i / bs, j = (i % bs + k) % bs, src = b * bs + j;
    EXPECT_EQ("rot", i, o[i], src < n ? h[src] : -2);
  }
  return qa_done("launch_ex");
}
