// memcheck: many threads out of bounds. 64 threads read in[t + 40] of 64
// ints: threads 24..63 read past the end (40 reads of 4 bytes). Recorded
// with the default print limit and with --print-limit 5.
#include "san.cuh"

__global__ void shiftRead(int *out, const int *in)
{
  int t = threadIdx.x;
  out[t] = in[t + 40];
}

int main()
{
  int *in = 0, *out = 0;
  CALL(cudaMalloc(&in, 64 * sizeof(int)));
  CALL(cudaMalloc(&out, 64 * sizeof(int)));
  ADDR("in", in);
  ADDR("out", out);
  CALL(cudaMemset(in, 0, 64 * sizeof(int)));
  shiftRead<<<1, 64>>>(out, in);
  SYNC("shiftRead");
  CALL(cudaFree(in));
  CALL(cudaFree(out));
  return 0;
}
