// pipe.cu: cuda::pipeline with a block-scope cuda::pipeline_shared_state
// (multi-stage), checked against a CPU reference. nvcc lowers producer_commit
// to cp.async.mbarrier.arrive(.noinc).shared.b64 (smemu finding F8).
//   ./pipe unified      all 128 threads produce and consume, 3 stages
//   ./pipe partitioned  warp 0 produces, warps 1-3 consume, 4 stages
#include <cstdio>
#include <cstring>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;

#define TILE 512        /* ints per tile */
#define NT 12           /* tiles */
#define NTHR 128

__device__ __host__ static int work(const int *tile, int t, int tid) {
  int acc = t;
  for (int k = 0; k < 8; k++) acc += tile[(tid * 3 + k * 37) % TILE] * (k + 1);
  return acc;
}

__global__ void unified(const int *in, int *out) {
  const int S = 3;
  __shared__ __align__(16) int buf[S][TILE];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  int tid = threadIdx.x;
  for (int compute = 0, fetch = 0; compute < NT; compute++) {
    for (; fetch < NT && fetch < compute + S; fetch++) {
      pipe.producer_acquire();
      for (int i = tid * 4; i < TILE; i += NTHR * 4)
        cuda::memcpy_async(&buf[fetch % S][i], &in[fetch * TILE + i], cuda::aligned_size_t<16>(16), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    out[compute * NTHR + tid] = work(buf[compute % S], compute, tid);
    pipe.consumer_release();
  }
}

__global__ void partitioned(const int *in, int *out) {
  const int S = 4;
  __shared__ __align__(16) int buf[S][TILE];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> state;
  auto block = cg::this_thread_block();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  auto role = warp == 0 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  if (warp == 0) {
    for (int t = 0; t < NT; t++) {
      pipe.producer_acquire();
      for (int i = lane * 4; i < TILE; i += 32 * 4)
        cuda::memcpy_async(&buf[t % S][i], &in[t * TILE + i], cuda::aligned_size_t<16>(16), pipe);
      pipe.producer_commit();
    }
  } else {
    int c = threadIdx.x - 32;
    for (int t = 0; t < NT; t++) {
      pipe.consumer_wait();
      out[t * NTHR + c] = work(buf[t % S], t, c);
      pipe.consumer_release();
    }
  }
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "unified";
  bool part = !strcmp(m, "partitioned");
  static int h[NT * TILE], r[NT * NTHR];
  for (int i = 0; i < NT * TILE; i++) h[i] = (i * 2654435761u) >> 20;
  int *din, *dout;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof r);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof r);
  if (part) partitioned<<<1, NTHR>>>(din, dout); else unified<<<1, NTHR>>>(din, dout);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  int nthr = part ? NTHR - 32 : NTHR, bad = 0;
  for (int t = 0; t < NT; t++)
    for (int c = 0; c < nthr; c++)
      bad += r[t * NTHR + c] != work(&h[t * TILE], t, c);
  printf("pipe %s: sync=%s mismatches=%d -> %s\n", m, cudaGetErrorString(e), bad,
         e == cudaSuccess && !bad ? "PASS" : "FAIL");
  return e != cudaSuccess || bad;
}
