// cpasync.cu: asynchronous global-to-shared copies (cp.async, 4 and 16
// bytes) then a reversal through shared memory.
#include <cuda_pipeline.h>
extern "C" __global__ void cpasync(const float *g, float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t], &g[t], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = s[255 - t] * 2.0f;
}
extern "C" __global__ void cpasync16(const float4 *g, float4 *out) {
  __shared__ float4 s[64];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t], &g[t], sizeof(float4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = s[63 - t];
}
// elect.sync: every lane learns the leader, the lowest lane of the mask.
extern "C" __global__ void electLeader(int *out) {
  unsigned leader, pred;
  if (threadIdx.x >= 4) {
    asm volatile("{ .reg .pred p; elect.sync %0|p, %2; selp.u32 %1, 1, 0, p; }"
                 : "=r"(leader), "=r"(pred) : "r"(0xfffffff0u));
    out[threadIdx.x] = (int)(leader * 100 + pred);
  }
}
