// pdl.cu: programmatic dependent launch: the secondary grid is launched
// with programmatic stream serialization and waits for the primary with
// cudaGridDependencySynchronize (griddepcontrol.wait); the primary lets it
// start with cudaTriggerProgrammaticLaunchCompletion
// (griddepcontrol.launch_dependents). out[i] = 3 * i + 1 when the wait
// orders the secondary's reads after the primary's writes.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void primary(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 3 * i;
  cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void secondary(const int *a, int *out, int n) {
  cudaGridDependencySynchronize();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + 1;
}
int main() {
  const int n = 1000;
  int *a, *out;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  primary<<<(n + 127) / 128, 128>>>(a, n);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((n + 127) / 128);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&cfg, secondary, (const int *)a, out, n);
  int h[n];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 3 * i + 1;
  printf("pdl: launch %s, %d wrong -> %s\n", cudaGetErrorString(e), bad, bad || e ? "FAIL" : "PASS");
  return bad || e;
}
