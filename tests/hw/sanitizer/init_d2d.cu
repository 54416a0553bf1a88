// initcheck and copies of unwritten memory: a buffer with its first half
// set is copied device to device whole, and the copy is read by a kernel
// (does unwritten-ness travel with the copy?); then the source is copied
// back to the host whole (is the host API copy reported?).
#include "san.cuh"

__global__ void readAll(int *out, const int *in)
{
  out[threadIdx.x] = in[threadIdx.x];
}

int main()
{
  int *src = 0, *dst = 0, *out = 0;
  CALL(cudaMalloc(&src, 32 * sizeof(int)));
  CALL(cudaMalloc(&dst, 32 * sizeof(int)));
  CALL(cudaMalloc(&out, 32 * sizeof(int)));
  ADDR("src", src);
  ADDR("dst", dst);
  ADDR("out", out);
  CALL(cudaMemset(src, 0, 16 * sizeof(int)));
  CALL(cudaMemcpy(dst, src, 32 * sizeof(int), cudaMemcpyDeviceToDevice));
  readAll<<<1, 32>>>(out, dst);
  SYNC("readAll");
  int h[32];
  CALL(cudaMemcpy(h, src, sizeof h, cudaMemcpyDeviceToHost));
  printf("h[0] %d\n", h[0]);
  CALL(cudaFree(src));
  CALL(cudaFree(dst));
  CALL(cudaFree(out));
  return 0;
}
