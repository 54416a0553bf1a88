// C++ in kernels: a templated kernel applying a functor and an extended
// __device__ lambda through a shared-memory staging buffer; a generic
// block reduction taking the operator as a template argument.
// qa-flags: --extended-lambda -std=c++17
#include "qa.h"

struct Saxpy {
  float a;
  __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct MaxOp { __device__ int operator()(int a, int b) const { return a > b ? a : b; } };
struct AddOp { __device__ int operator()(int a, int b) const { return a + b; } };

template <typename F>
__global__ void zipStaged(const float *x, const float *y, float *out, int n, F f)
{
  __shared__ float sx[128], sy[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  sx[threadIdx.x] = i < n ? x[i] : 0.f;
  sy[threadIdx.x] = i < n ? y[i] : 0.f;
  __syncthreads();
  int r = 127 - threadIdx.x; /* read a neighbour's element */
  int j = blockIdx.x * 128 + r;
  if (j < n) out[j] = f(sx[r], sy[r]);
}

template <typename Op, int BS>
__global__ void blockReduce(const int *in, int *out, int n, int ident, Op op)
{
  __shared__ int s[BS];
  int i = blockIdx.x * BS + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : ident;
  __syncthreads();
  for (int w = BS / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + w]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main()
{
  const int n = 1000;
  float x[n], y[n], o[n];
  int v[n];
  for (int i = 0; i < n; i++) { x[i] = (float)(i % 11); y[i] = (float)(i % 3) * 0.5f; v[i] = (i * 7919) % 1001 - 500; }
  float *dx, *dy, *dout; int *dv, *dr;
  CHECK(cudaMalloc(&dx, n * 4)); CHECK(cudaMalloc(&dy, n * 4)); CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMalloc(&dv, n * 4)); CHECK(cudaMalloc(&dr, 64 * 4));
  CHECK(cudaMemcpy(dx, x, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, v, n * 4, cudaMemcpyHostToDevice));
  int g = (n + 127) / 128;
  zipStaged<<<g, 128>>>(dx, dy, dout, n, Saxpy{2.5f});
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT_EQ("saxpy", i, o[i], 2.5f * x[i] + y[i]);
  float k = 3.f;
  zipStaged<<<g, 128>>>(dx, dy, dout, n, [=] __device__(float a, float b) { return a * b - k; });
  CHECK(cudaMemcpy(o, dout, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT_EQ("lambda", i, o[i], x[i] * y[i] - k);
  int r[64];
  blockReduce<MaxOp, 128><<<g, 128>>>(dv, dr, n, -1 << 30, MaxOp());
  CHECK(cudaMemcpy(r, dr, g * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < g; b++) {
    int m = -1 << 30;
    for (int i = b * 128; i < n && i < (b + 1) * 128; i++) m = v[i] > m ? v[i] : m;
    EXPECT_EQ("max", b, r[b], m);
  }
  blockReduce<AddOp, 128><<<g, 128>>>(dv, dr, n, 0, AddOp());
  CHECK(cudaMemcpy(r, dr, g * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < g; b++) {
    int s = 0;
    for (int i = b * 128; i < n && i < (b + 1) * 128; i++) s += v[i];
    EXPECT_EQ("sum", b, r[b], s);
  }
  return qa_done("lambda_functor");
}
