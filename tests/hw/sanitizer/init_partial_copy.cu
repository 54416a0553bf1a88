// initcheck: a host-to-device copy of 100 of 128 floats; two blocks of 64
// read all 128. Expected: block 1 threads 36..63 (28 reads of 4 bytes).
#include "san.cuh"

__global__ void scaleKernel(float *out, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

int main()
{
  const int n = 128;
  float h[n];
  for (int i = 0; i < n; i++)
    h[i] = (float)i;
  float *in = 0, *out = 0;
  CALL(cudaMalloc(&in, n * sizeof(float)));
  CALL(cudaMalloc(&out, n * sizeof(float)));
  ADDR("in", in);
  ADDR("out", out);
  CALL(cudaMemcpy(in, h, 100 * sizeof(float), cudaMemcpyHostToDevice));
  scaleKernel<<<2, 64>>>(out, in, n);
  SYNC("scale");
  CALL(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("h[99] %g\n", h[99]);
  CALL(cudaFree(in));
  CALL(cudaFree(out));
  return 0;
}
