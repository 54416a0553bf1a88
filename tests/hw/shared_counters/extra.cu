// extra.cu: runs the kernels of tests/cli/generic.cu and tests/cli/cpasync.cu
// on a GPU and prints their outputs, for record.sh to profile with Nsight
// Compute: does a generic load that lands in shared memory count as a
// shared request, and how are cp.async's shared writes counted?
#include <cstdio>
#include "../../cli/generic.cu"
#include "../../cli/cpasync.cu"

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
  float *f, *g, h[1024];
  int *o, hi[32];
  CK(cudaMalloc(&f, 4096)); CK(cudaMalloc(&g, 4096)); CK(cudaMalloc(&o, 128));
  for (int i = 0; i < 1024; i++) h[i] = (float)i;
  CK(cudaMemcpy(f, h, 4096, cudaMemcpyHostToDevice));
  CK(cudaMemset(g, 0, 4096));
  genericStride<<<1, 32>>>(g, 1);
  CK(cudaMemcpy(h, g, 128, cudaMemcpyDeviceToHost));
  printf("genericStride(shared): %g %g %g\n", h[0], h[1], h[31]);
  genericStride<<<1, 32>>>(g, 0);
  CK(cudaDeviceSynchronize());
  cpasync<<<1, 256>>>(f, g);
  CK(cudaMemcpy(h, g, 1024, cudaMemcpyDeviceToHost));
  printf("cpasync: %g %g %g\n", h[0], h[1], h[255]);
  cpasync16<<<1, 64>>>((const float4 *)f, (float4 *)g);
  CK(cudaMemcpy(h, g, 1024, cudaMemcpyDeviceToHost));
  printf("cpasync16: %g %g %g %g\n", h[0], h[1], h[2], h[3]);
  CK(cudaMemset(o, 0, 128));
  electLeader<<<1, 32>>>(o);
  CK(cudaMemcpy(hi, o, 128, cudaMemcpyDeviceToHost));
  printf("electLeader:");
  for (int i = 0; i < 8; i++) printf(" %d", hi[i]);
  printf("\n");
  return 0;
}
