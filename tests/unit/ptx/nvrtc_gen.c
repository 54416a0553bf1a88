/* nvrtc_gen.c: prints the PTX NVRTC makes of a small kernel (see regen.sh). */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
static const char *src =
"extern \"C\" __global__ void saxpy(float a, const float *x, float *y, unsigned n) {\n"
"  __shared__ float tile[128];\n"
"  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
"  tile[threadIdx.x] = i < n ? x[i] : 0.f;\n"
"  __syncthreads();\n"
"  if (i < n) y[i] = a * tile[threadIdx.x ^ 1] + y[i];\n"
"  unsigned m = __activemask(); if (i == 0) y[0] = __popc(m) + __shfl_xor_sync(m, y[1], 1);\n"
"}\n";
int main(void) {
  nvrtcProgram p; nvrtcCreateProgram(&p, src, "saxpy.cu", 0, NULL, NULL);
  const char *opts[] = {"--gpu-architecture=compute_90", "-lineinfo"};
  if (nvrtcCompileProgram(p, 2, opts) != NVRTC_SUCCESS) { size_t n; nvrtcGetProgramLogSize(p, &n); char *l = malloc(n); nvrtcGetProgramLog(p, l); puts(l); return 1; }
  size_t n; nvrtcGetPTXSize(p, &n); char *b = malloc(n); nvrtcGetPTX(p, b); fwrite(b, 1, n - 1, stdout); return 0;
}
