// simd_main.cu: runs simd() of simd.cu on the GPU for 64 lanes on inputs
// a[i] = i * 2654435761 (high bits) and writes the 24 x 64 results.
#include <cstdio>
#include "simd.cu"
int main(int argc, char **argv) {
  unsigned h[128], *da, *dout, out[NOPS * 64];
  for (unsigned i = 0; i < 128; i++) h[i] = (i * 2654435761u) ^ (i << 7);
  if (cudaMalloc(&da, sizeof h) || cudaMalloc(&dout, sizeof out)) return 1;
  cudaMemcpy(da, h, sizeof h, cudaMemcpyHostToDevice);
  simd<<<1, 64>>>(da, dout);
  if (cudaDeviceSynchronize()) return 1;
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(out, sizeof out, 1, f) != 1) return 1;
  fclose(f);
  printf("simd: %u %u %u\n", out[0], out[64 * 4], out[64 * 22]);
  return 0;
}
