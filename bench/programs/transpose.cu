// transpose.cu: 1024x1024 float transposes through a 32x32 shared tile,
// 100 times with the tile read by column (32-way bank conflicts) and 100
// times with the tile padded to 33 columns (none).
#include "common.cuh"
#include <vector>

#define D 1024
#define T 32
#define RO 8

template <int P>
__global__ void transpose(float *out, const float *in) {
  __shared__ float tile[T][T + P];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += RO) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * D + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += RO) out[(y + j) * D + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <int P>
static bool run(const char *name, float *out, const float *in, const std::vector<float> &h) {
  for (int i = 0; i < 100; i++) transpose<P><<<dim3(D / T, D / T), dim3(T, RO)>>>(out, in);
  CK(cudaGetLastError());
  std::vector<float> got(D * D);
  CK(cudaMemcpy(got.data(), out, D * D * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < D && ok; i++)
    for (int j = 0; j < D && ok; j++) ok = got[j * D + i] == h[i * D + j];
  return report(name, ok) == 0;
}

int main() {
  std::vector<float> h(D * D);
  uint64_t seed = 9;
  for (auto &x : h) x = (float)rng(&seed);
  float *in, *out;
  CK(cudaMalloc(&in, D * D * 4)); CK(cudaMalloc(&out, D * D * 4));
  CK(cudaMemcpy(in, h.data(), D * D * 4, cudaMemcpyHostToDevice));
  bool ok = run<0>("transpose 1024 tile x100", out, in, h);
  ok &= run<1>("transpose 1024 padded x100", out, in, h);
  return ok ? 0 : 1;
}
