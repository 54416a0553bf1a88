// edge_main.cu: runs edge() from edge.cu on the GPU and writes the results
// (64 unsigned 64-bit values, little-endian) to the file given.
#include <cstdio>
#include <cstring>
#include "edge_inputs.h"
#include "edge.cu"

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: edge OUT.bin\n"); return 2; }
  unsigned long long *dout, *din, h[64];
  if (cudaMalloc(&dout, sizeof h) || cudaMalloc(&din, sizeof edge_inputs)) return 1;
  cudaMemset(dout, 0, sizeof h);
  cudaMemcpy(din, edge_inputs, sizeof edge_inputs, cudaMemcpyHostToDevice);
  edge<<<1, 64>>>(dout, din);
  cudaError_t e = cudaDeviceSynchronize();
  if (e) { fprintf(stderr, "edge: %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(h, sizeof h, 1, f) != 1) return 1;
  fclose(f);
  for (int i = 0; i < 64; i++) printf("%2d %016llx\n", i, h[i]);
  return 0;
}
