// initcheck: many reports. Two blocks of 128 threads read an unwritten
// buffer (256 reads of 4 bytes); recorded with the default print limit and
// with --print-limit 3.
#include "san.cuh"

__global__ void readAll(int *out, const int *in)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1;
}

int main()
{
  int *in = 0, *out = 0;
  CALL(cudaMalloc(&in, 256 * sizeof(int)));
  CALL(cudaMalloc(&out, 256 * sizeof(int)));
  ADDR("in", in);
  ADDR("out", out);
  readAll<<<2, 128>>>(out, in);
  SYNC("readAll");
  CALL(cudaFree(in));
  CALL(cudaFree(out));
  return 0;
}
