// The pre-Volta warp-synchronous reduction tail (volatile, no __syncwarp),
// still common in old code: it computes the right sum here, but on Volta+
// lanes of one warp race (lane t reads s[t+o] that lane t+o writes), which
// racecheck reports as warnings (hazards within a warp). smemu must too.
// qa-expect: ^Warning: Race reported between (Read|Write) access at .*planted_volatile.cu:(1[1-6]|27)
// qa-expect: RACECHECK SUMMARY: [1-9][0-9]* hazards? displayed \(0 errors, [1-9][0-9]* warnings?\)
#include "qa.h"

__device__ void warpReduce(volatile int *s, int t)
{
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__global__ void reduce(const int *in, int *out)
{
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  if (t < 64) s[t] += s[t + 64];
  __syncthreads();
  if (t < 32) warpReduce(s, t);
  if (t == 0) out[blockIdx.x] = s[0];
}

int main()
{
  int h[256], o[2];
  for (int i = 0; i < 256; i++) h[i] = i;
  int *d, *dout;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMalloc(&dout, sizeof o));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  reduce<<<2, 128>>>(d, dout);
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  EXPECT_EQ("sum", 0, o[0], 127 * 128 / 2);
  EXPECT_EQ("sum", 1, o[1], 128 * 128 + 127 * 128 / 2);
  return qa_done("planted_volatile");
}
