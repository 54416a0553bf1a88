/* templates.cu: templated kernels instantiated for several types and
 * compile-time sizes, functors passed by value, a recursive template
 * unrolling a reduction, and a kernel taking a struct by value. */
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

template <typename T> struct Affine {
  T a, b;
  __device__ T operator()(T x) const { return a * x + b; }
};
template <typename T> struct Square {
  __device__ T operator()(T x) const { return x * x; }
};

template <typename T, typename F> __global__ void transform(T *x, int n, F f)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = f(x[i]);
}

/* Sum<N>::of(s) adds s[0..N) by halves, unrolled at compile time. */
template <int N> struct Sum {
  template <typename T> __device__ static T of(const T *s) { return Sum<N / 2>::of(s) + Sum<N - N / 2>::of(s + N / 2); }
};
template <> struct Sum<1> {
  template <typename T> __device__ static T of(const T *s) { return s[0]; }
};

template <typename T, int BLOCK> __global__ void block_sum(const T *x, T *out)
{
  __shared__ T s[BLOCK];
  s[threadIdx.x] = x[blockIdx.x * BLOCK + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = Sum<BLOCK>::of(s);
}

template <typename T> static void run(const char *name, T a, T b)
{
  const int n = 256;
  T h[n], *d, *sums, hs[4];
  for (int i = 0; i < n; i++) h[i] = (T)(i % 13);
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&sums, 4 * sizeof(T)));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  transform<<<(n + 63) / 64, 64>>>(d, n, Affine<T>{a, b});
  transform<<<(n + 63) / 64, 64>>>(d, n, Square<T>());
  block_sum<T, 64><<<4, 64>>>(d, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost));
  printf("%-8s x[1] = %g, x[255] = %g, block sums %g %g %g %g\n", name, (double)h[1], (double)h[255],
         (double)hs[0], (double)hs[1], (double)hs[2], (double)hs[3]);
  CHECK(cudaFree(d));
  CHECK(cudaFree(sums));
}

struct Config {
  int n;
  float w[3];
  double scale;
  char tag;
};

__global__ void with_struct(Config c, float *out)
{
  int i = threadIdx.x;
  if (i < c.n) out[i] = (float)((c.w[0] + c.w[1] * i + c.w[2] * i * i) * c.scale) + (float)c.tag;
}

int main(void)
{
  run<int>("int", 3, -2);
  run<unsigned>("unsigned", 2u, 1u);
  run<float>("float", 0.5f, 0.25f);
  run<double>("double", 1.5, -0.125);
  Config c = {10, {1.0f, 0.5f, 0.25f}, 2.0, 'A'};
  float *d, h[10];
  CHECK(cudaMalloc(&d, sizeof h));
  with_struct<<<1, 32>>>(c, d);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("struct by value: %g %g %g\n", h[0], h[1], h[9]);
  CHECK(cudaFree(d));
  return 0;
}
