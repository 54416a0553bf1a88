// pipe1.cu: a one-stage cuda::pipeline with block-scope shared state, 64
// threads, each thread's element read back reversed (checked here). Its PTX
// puts mbarrier.init and a shared store on one line, which made smemu's SASS
// mapping divide by zero (SIGFPE) once producer_commit's
// cp.async.mbarrier.arrive loaded. No GPU recording: the program checks itself.
#include <cstdio>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;

__global__ void k(const int *in, int *out) {
  __shared__ int s[64];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  auto pipe = cuda::make_pipeline(cg::this_thread_block(), &state);
  pipe.producer_acquire();
  cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], cuda::aligned_size_t<4>(sizeof(int)), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[63 - threadIdx.x];
  pipe.consumer_release();
}

int main() {
  int h[64], r[64], *din, *dout, bad = 0;
  for (int i = 0; i < 64; i++) h[i] = 3 * i + 1;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 64>>>(din, dout);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; i++) bad += r[i] != h[63 - i];
  printf("pipe1: sync=%s mismatches=%d -> %s\n", cudaGetErrorString(e), bad, e == cudaSuccess && !bad ? "PASS" : "FAIL");
  return e != cudaSuccess || bad;
}
