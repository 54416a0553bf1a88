// initcheck: a memset of half the buffer; the kernel reads all of it.
// Expected on the GPU: threads 16..31 read unwritten bytes (16 reads of 4).
#include "san.cuh"

__global__ void copyKernel(int *out, const int *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

int main()
{
  const int n = 32;
  int *in = 0, *out = 0;
  CALL(cudaMalloc(&in, n * sizeof(int)));
  CALL(cudaMalloc(&out, n * sizeof(int)));
  ADDR("in", in);
  ADDR("out", out);
  CALL(cudaMemset(in, 0, n * sizeof(int) / 2));
  copyKernel<<<1, n>>>(out, in, n);
  SYNC("copy");
  int h[n];
  CALL(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("h[0..15] sum %d\n", h[0] + h[5] + h[15]);
  CALL(cudaFree(in));
  CALL(cudaFree(out));
  return 0;
}
