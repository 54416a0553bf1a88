// initcheck: 16-byte loads. 64 floats, a memset of the first 62; thread t
// reads the float4 at t. Expected: thread 15 (floats 60..63) only, size 16.
#include "san.cuh"

__global__ void sumVec(float *out, const float4 *in)
{
  int t = threadIdx.x;
  float4 v = in[t];
  out[t] = v.x + v.y + v.z + v.w;
}

int main()
{
  float4 *in = 0;
  float *out = 0;
  CALL(cudaMalloc(&in, 64 * sizeof(float)));
  CALL(cudaMalloc(&out, 16 * sizeof(float)));
  ADDR("in", in);
  ADDR("out", out);
  CALL(cudaMemset(in, 0, 62 * sizeof(float)));
  sumVec<<<1, 16>>>(out, in);
  SYNC("sumVec");
  CALL(cudaFree(in));
  CALL(cudaFree(out));
  return 0;
}
