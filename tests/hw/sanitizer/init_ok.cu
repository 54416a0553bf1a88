// Nothing wrong: every byte read was written (memset, host copy, kernel),
// everything is freed. initcheck and memcheck --leak-check full: 0 errors.
#include "san.cuh"

__global__ void fill(int *p, int v)
{
  p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void add3(int *out, const int *a, const int *b, const int *c)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + b[i] + c[i];
}

int main()
{
  const int n = 256;
  int h[n];
  for (int i = 0; i < n; i++)
    h[i] = i;
  int *a = 0, *b = 0, *c = 0, *out = 0;
  CALL(cudaMalloc(&a, n * sizeof(int)));
  CALL(cudaMalloc(&b, n * sizeof(int)));
  CALL(cudaMalloc(&c, n * sizeof(int)));
  CALL(cudaMalloc(&out, n * sizeof(int)));
  CALL(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
  CALL(cudaMemsetAsync(b, 0, sizeof h, 0));
  fill<<<2, 128>>>(c, 7);
  add3<<<2, 128>>>(out, a, b, c);
  SYNC("add3");
  CALL(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("h[255] %d\n", h[255]);
  CALL(cudaFree(a));
  CALL(cudaFree(b));
  CALL(cudaFree(c));
  CALL(cudaFree(out));
  return 0;
}
