/* launch_api.cu: launching without <<<>>>: cudaLaunchKernel with an
 * argument array, its C++ template, cudaLaunchKernelEx with a launch
 * configuration; kernels with many arguments of mixed sizes and alignments
 * and a struct with a 16-byte-aligned member. */
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

struct __align__(16) Vec4 {
  float x, y, z, w;
};

__global__ void many(double *out, char c, short s, int i, long long l, float f, double d, unsigned char u8,
                     Vec4 v, int i2, float f2, const double *bias)
{
  out[threadIdx.x] = c + s + i + (double)l + f + d + u8 + v.x + 2 * v.y + 3 * v.z + 4 * v.w + i2 + f2 +
                     bias[threadIdx.x] * threadIdx.x;
}

__global__ void saxpy(float a, const float *x, float *y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main(void)
{
  double *out, *bias, h[4], hb[4] = {0.5, 0.25, 0.125, 1.0};
  CHECK(cudaMalloc(&out, sizeof h));
  CHECK(cudaMalloc(&bias, sizeof hb));
  CHECK(cudaMemcpy(bias, hb, sizeof hb, cudaMemcpyHostToDevice));
  char c = 1;
  short s = -2;
  int i = 300;
  long long l = 1ll << 40;
  float f = 0.5f;
  double d = 0.25;
  unsigned char u8 = 200;
  Vec4 v = {1, 2, 3, 4};
  int i2 = -7;
  float f2 = 1.5f;
  void *args[] = {&out, &c, &s, &i, &l, &f, &d, &u8, &v, &i2, &f2, &bias};
  CHECK(cudaLaunchKernel((const void *)many, dim3(1), dim3(4), args, 0, 0));
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("many: %.3f %.3f %.3f %.3f\n", h[0], h[1], h[2], h[3]);

  const int n = 1000;
  float hx[n], hy[n], *x, *y;
  for (int k = 0; k < n; k++) hx[k] = (float)k, hy[k] = 1.0f;
  CHECK(cudaMalloc(&x, sizeof hx));
  CHECK(cudaMalloc(&y, sizeof hy));
  CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
  float a = 2.0f;
  int nn = n;
  void *sargs[] = {&a, &x, &y, &nn};
  CHECK(cudaLaunchKernel(saxpy, dim3((n + 127) / 128), dim3(128), sargs, 0, nullptr));

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 255) / 256);
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = 0;
  CHECK(cudaLaunchKernelEx(&cfg, saxpy, 0.5f, (const float *)x, y, n));
  CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
  printf("saxpy twice: y[0] %g, y[10] %g, y[999] %g\n", hy[0], hy[10], hy[999]);

  cudaError_t e = cudaLaunchKernel((const void *)saxpy, dim3(1), dim3(2048), sargs, 0, 0);
  printf("cudaLaunchKernel with 2048 threads: %s\n", cudaGetErrorName(e));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFree(out));
  CHECK(cudaFree(bias));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}
