// driver.cu: runs the reconvergence kernels of a cubin (or PTX) file made
// from reconv.ptx on the GPU, through the driver API, one block of 64
// threads each, and writes OUTDIR/KERNEL.bin (the raw output words,
// little-endian) and OUTDIR/KERNEL.txt (one line per probe and lane that
// was reached). Usage: driver MODULE OUTDIR [KERNEL...] (default: the
// kernels of reconv.cu)
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include "reconv_inputs.h"

#define RC_SLOTS 16
#define RC_FIELDS 5
#define RC_THREADS 64
#define RC_WORDS (RC_SLOTS * RC_THREADS * RC_FIELDS)

static const char *reconv_kernels[] = {"nested_if",    "nested3",      "sequential",  "loop_break",    "loop_continue",
                                "do_while",     "early_return", "switch_case", "call_divergent"};

static int check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS) return 0;
  const char *s = "?";
  cuGetErrorString(r, &s);
  fprintf(stderr, "driver: %s: %s\n", what, s);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: driver MODULE OUTDIR\n"); return 2; }
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUdeviceptr din, dout;
  static unsigned h[RC_WORDS];
  if (check(cuInit(0), "cuInit") || check(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      check(cuCtxCreate(&ctx, NULL, 0, dev), "cuCtxCreate") || check(cuModuleLoad(&mod, argv[1]), "cuModuleLoad") ||
      check(cuMemAlloc(&din, sizeof reconv_inputs), "cuMemAlloc") || check(cuMemAlloc(&dout, sizeof h), "cuMemAlloc") ||
      check(cuMemcpyHtoD(din, reconv_inputs, sizeof reconv_inputs), "cuMemcpyHtoD"))
    return 1;
  int bad = 0;
  const char **kernels = reconv_kernels;
  unsigned nkernels = sizeof reconv_kernels / sizeof *reconv_kernels;
  if (argc > 3) {
    kernels = (const char **)(argv + 3);
    nkernels = (unsigned)(argc - 3);
  }
  for (unsigned k = 0; k < nkernels; k++) {
    CUfunction fn;
    void *args[] = {&dout, &din};
    char path[4096];
    if (check(cuModuleGetFunction(&fn, mod, kernels[k]), kernels[k]) || check(cuMemsetD8(dout, 0x55, sizeof h), "memset") ||
        check(cuLaunchKernel(fn, 1, 1, 1, RC_THREADS, 1, 1, 0, NULL, args, NULL), kernels[k]) ||
        check(cuCtxSynchronize(), kernels[k]) || check(cuMemcpyDtoH(h, dout, sizeof h), "cuMemcpyDtoH")) {
      bad = 1;
      continue;
    }
    snprintf(path, sizeof path, "%s/%s.bin", argv[2], kernels[k]);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(h, sizeof h, 1, f) != 1) { perror(path); return 1; }
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.txt", argv[2], kernels[k]);
    f = fopen(path, "w");
    if (!f) { perror(path); return 1; }
    fprintf(f, "# probe lane: activemask ballot shfl match redux_add\n");
    for (int s = 0; s < RC_SLOTS; s++)
      for (int t = 0; t < RC_THREADS; t++) {
        const unsigned *o = h + (s * RC_THREADS + t) * RC_FIELDS;
        if (o[0] == 0x55555555u) continue;
        fprintf(f, "P%-2d %2d: %08x %08x %08x %08x %08x\n", s, t, o[0], o[1], o[2], o[3], o[4]);
      }
    fclose(f);
  }
  return bad;
}
