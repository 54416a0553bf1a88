/* symbols.cu: __device__, __constant__ and __managed__ variables reached
 * from the host: cudaMemcpyToSymbol / FromSymbol with offsets,
 * cudaGetSymbolAddress and cudaGetSymbolSize, initialised variables, a
 * struct, a namespaced variable, and the errors of a copy past the end and
 * of a wrong direction. */
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

struct Params {
  int n;
  float scale;
  double bias;
};

__constant__ float coeffs[16];
__constant__ Params params;
__device__ int counter;
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ unsigned long long big = 0x123456789abcdefull;
__managed__ int managed_total;
namespace ns {
__device__ int value = 42;
}

__global__ void apply(float *out)
{
  int i = threadIdx.x;
  if (i < params.n) {
    out[i] = coeffs[i % 16] * params.scale + (float)params.bias + table[i % 8];
    atomicAdd(&counter, 1);
    atomicAdd(&managed_total, i);
  }
  if (i == 0) ns::value += 1;
}

int main(void)
{
  float c[16];
  for (int i = 0; i < 16; i++) c[i] = 0.5f * i;
  CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
  float tail[4] = {100, 200, 300, 400};
  CHECK(cudaMemcpyToSymbol(coeffs, tail, sizeof tail, 12 * sizeof(float)));
  Params p = {40, 2.0f, 0.25};
  CHECK(cudaMemcpyToSymbol(params, &p, sizeof p));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice));
  managed_total = 0;

  float *out;
  CHECK(cudaMalloc(&out, 64 * sizeof(float)));
  apply<<<1, 64>>>(out);
  CHECK(cudaDeviceSynchronize());
  float h[64];
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("out[0] = %g, out[13] = %g, out[39] = %g\n", h[0], h[13], h[39]);
  int cnt = -1, v = -1;
  CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
  CHECK(cudaMemcpyFromSymbol(&v, ns::value, sizeof v));
  printf("counter = %d, ns::value = %d, managed_total = %d\n", cnt, v, managed_total);

  float t[3];
  CHECK(cudaMemcpyFromSymbol(t, table, sizeof t, 5 * sizeof(float), cudaMemcpyDeviceToHost));
  printf("table[5..7] = %g %g %g\n", t[0], t[1], t[2]);
  unsigned long long b = 0;
  CHECK(cudaMemcpyFromSymbol(&b, big, sizeof b));
  printf("big = 0x%llx\n", b);

  /* the address of a variable is an ordinary device pointer */
  float *tp;
  size_t tsize = 0, csize = 0, psize = 0;
  CHECK(cudaGetSymbolAddress((void **)&tp, table));
  CHECK(cudaGetSymbolSize(&tsize, table));
  CHECK(cudaGetSymbolSize(&csize, coeffs));
  CHECK(cudaGetSymbolSize(&psize, params));
  CHECK(cudaMemcpy(tp + 1, c + 3, sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyFromSymbol(t, table, 2 * sizeof(float)));
  printf("sizes: table %zu, coeffs %zu, params %zu; table[0..1] = %g %g\n", tsize, csize, psize, t[0], t[1]);
  float *cp;
  CHECK(cudaGetSymbolAddress((void **)&cp, coeffs));
  CHECK(cudaMemcpy(t, cp + 12, 2 * sizeof(float), cudaMemcpyDeviceToHost));
  printf("coeffs[12..13] through the address: %g %g\n", t[0], t[1]);
  /* device-to-device into a symbol */
  CHECK(cudaMemcpyToSymbol(table, out, 2 * sizeof(float), 6 * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpyFromSymbol(t, table, 2 * sizeof(float), 6 * sizeof(float)));
  printf("table[6..7] = %g %g\n", t[0], t[1]);

  /* errors */
  cudaError_t e = cudaMemcpyToSymbol(coeffs, c, sizeof c, 4);
  printf("copy past the end: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  e = cudaMemcpyToSymbol(coeffs, c, 4, 0, cudaMemcpyDeviceToHost);
  printf("wrong direction: %s\n", cudaGetErrorName(e));
  e = cudaMemcpyFromSymbol(c, coeffs, 4, 0, cudaMemcpyHostToDevice);
  printf("wrong direction back: %s\n", cudaGetErrorName(e));
  cudaError_t first = cudaGetLastError(), second = cudaGetLastError();
  printf("last error: %s, then %s\n", cudaGetErrorName(first), cudaGetErrorName(second));
  CHECK(cudaFree(out));
  return 0;
}
