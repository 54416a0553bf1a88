// __shared__ declared inside a __device__ function (one per block, shared by
// every call), float4 vector accesses of an extern __shared__ array, and two
// kernels whose extern __shared__ arrays have different names and types
// (both alias the dynamic area).
#include "qa.h"

__device__ int blockCounter()
{
  __shared__ int count; /* function-scope shared: one per block */
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  return count;
}

__global__ void vec4(const float4 *in, float4 *out, int *counts)
{
  extern __shared__ float4 v4[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  v4[t] = in[i];
  __syncthreads();
  float4 a = v4[blockDim.x - 1 - t];
  out[i] = make_float4(a.w, a.z, a.y, a.x);
  int c = blockCounter();
  if (t == 0) counts[blockIdx.x] = c;
}

__global__ void bytes(const unsigned char *in, unsigned *out)
{
  extern __shared__ unsigned char b8[];
  int t = threadIdx.x;
  b8[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (t < (int)blockDim.x / 4) {
    unsigned w = 0;
    for (int k = 0; k < 4; k++) w |= (unsigned)b8[4 * t + k] << (8 * k);
    out[blockIdx.x * blockDim.x / 4 + t] = w;
  }
}

int main()
{
  const int bs = 96, grid = 3, n = bs * grid;
  float4 h[n], o[n];
  for (int i = 0; i < n; i++) h[i] = make_float4(i, i + 0.5f, -i, 2 * i);
  float4 *d, *dout; int *dc, c[grid];
  CHECK(cudaMalloc(&d, sizeof h)); CHECK(cudaMalloc(&dout, sizeof o)); CHECK(cudaMalloc(&dc, sizeof c));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  vec4<<<grid, bs, bs * sizeof(float4)>>>(d, dout, dc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float4 a = h[(i / bs) * bs + bs - 1 - i % bs];
    EXPECT_EQ("x", i, o[i].x, a.w); EXPECT_EQ("y", i, o[i].y, a.z);
    EXPECT_EQ("z", i, o[i].z, a.y); EXPECT_EQ("w", i, o[i].w, a.x);
  }
  for (int b = 0; b < grid; b++) EXPECT_EQ("count", b, c[b], bs);
  unsigned char hb[n];
  unsigned ow[n / 4];
  for (int i = 0; i < n; i++) hb[i] = (unsigned char)(i * 11);
  unsigned char *db; unsigned *dw;
  CHECK(cudaMalloc(&db, sizeof hb)); CHECK(cudaMalloc(&dw, sizeof ow));
  CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
  bytes<<<grid, bs, bs>>>(db, dw);
  CHECK(cudaMemcpy(ow, dw, sizeof ow, cudaMemcpyDeviceToHost));
  for (int j = 0; j < n / 4; j++) {
    unsigned w = hb[4 * j] | hb[4 * j + 1] << 8 | hb[4 * j + 2] << 16 | (unsigned)hb[4 * j + 3] << 24;
    EXPECT_EQ("word", j, ow[j], w);
  }
  return qa_done("device_fn_shared");
}
