// texref.cu: module-scope .texref/.surfref bound through the driver's
// legacy calls (cuModuleGetTexRef, cuTexRefSet*, cuModuleGetSurfRef,
// cuSurfRefSetArray), which CUDA 13's cuda.h still declares (deprecated).
// The module is texref.ptx (hand-written PTX, loaded with
// cuModuleLoadData). Prints each call's status and the kernel's outputs.
//   nvcc -o texref texref.cu -lcuda ; ./texref texref.ptx
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CK(x) do { CUresult r_ = (x); printf("%s = %d\n", #x, (int)r_); } while (0)

int main(int argc, char **argv) {
  FILE *f = fopen(argc > 1 ? argv[1] : "texref.ptx", "rb");
  if (!f) { printf("no ptx\n"); return 1; }
  static char ptx[1 << 16];
  size_t n = fread(ptx, 1, sizeof ptx - 1, f);
  ptx[n] = 0;
  fclose(f);
  CUdevice dev;
  CUcontext ctx;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CUresult r = cuModuleLoadData(&mod, ptx);
  printf("cuModuleLoadData = %d\n", (int)r);
  if (r) return 1;
  // a 2D float array 8x4: texel (x, y) = 10*y + x + 0.5
  float img[4][8];
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++) img[y][x] = 10.0f * y + x + 0.5f;
  CUDA_ARRAY_DESCRIPTOR ad;
  memset(&ad, 0, sizeof ad);
  ad.Width = 8; ad.Height = 4; ad.Format = CU_AD_FORMAT_FLOAT; ad.NumChannels = 1;
  CUarray arr;
  CK(cuArrayCreate(&arr, &ad));
  CUDA_MEMCPY2D cp;
  memset(&cp, 0, sizeof cp);
  cp.srcMemoryType = CU_MEMORYTYPE_HOST; cp.srcHost = img; cp.srcPitch = 8 * 4;
  cp.dstMemoryType = CU_MEMORYTYPE_ARRAY; cp.dstArray = arr;
  cp.WidthInBytes = 8 * 4; cp.Height = 4;
  CK(cuMemcpy2D(&cp));
  CUtexref tp, tl, t1;
  CK(cuModuleGetTexRef(&tp, mod, "tex_point"));
  CK(cuModuleGetTexRef(&tl, mod, "tex_lin"));
  CK(cuModuleGetTexRef(&t1, mod, "tex_buf"));
  CK(cuTexRefSetArray(tp, arr, CU_TRSA_OVERRIDE_FORMAT));
  CK(cuTexRefSetFilterMode(tp, CU_TR_FILTER_MODE_POINT));
  CK(cuTexRefSetAddressMode(tp, 0, CU_TR_ADDRESS_MODE_CLAMP));
  CK(cuTexRefSetAddressMode(tp, 1, CU_TR_ADDRESS_MODE_CLAMP));
  CK(cuTexRefSetFlags(tp, 0));
  CK(cuTexRefSetArray(tl, arr, CU_TRSA_OVERRIDE_FORMAT));
  CK(cuTexRefSetFilterMode(tl, CU_TR_FILTER_MODE_LINEAR));
  CK(cuTexRefSetAddressMode(tl, 0, CU_TR_ADDRESS_MODE_WRAP));
  CK(cuTexRefSetAddressMode(tl, 1, CU_TR_ADDRESS_MODE_WRAP));
  CK(cuTexRefSetFlags(tl, CU_TRSF_NORMALIZED_COORDINATES));
  // linear memory: 64 ints i*3+1, read with tex.1d.s32 (tex1Dfetch)
  CUdeviceptr lin;
  int li[64];
  for (int i = 0; i < 64; i++) li[i] = i * 3 + 1;
  CK(cuMemAlloc(&lin, sizeof li));
  CK(cuMemcpyHtoD(lin, li, sizeof li));
  size_t off = 99;
  CK(cuTexRefSetAddress(&off, t1, lin, sizeof li));
  printf("offset %zu\n", off);
  CK(cuTexRefSetFormat(t1, CU_AD_FORMAT_SIGNED_INT32, 1));
  // a surface: 8x4 u32 array, surfref bound to it
  CUDA_ARRAY3D_DESCRIPTOR sd;
  memset(&sd, 0, sizeof sd);
  sd.Width = 8; sd.Height = 4; sd.Depth = 0; sd.Format = CU_AD_FORMAT_UNSIGNED_INT32; sd.NumChannels = 1;
  sd.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUarray sarr;
  CK(cuArray3DCreate(&sarr, &sd));
  unsigned su[4][8];
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++) su[y][x] = 100 * y + x;
  cp.srcHost = su; cp.dstArray = sarr;
  CK(cuMemcpy2D(&cp));
  CUsurfref sr;
  CK(cuModuleGetSurfRef(&sr, mod, "surf"));
  CK(cuSurfRefSetArray(sr, sarr, 0));
  CUfunction fn;
  CK(cuModuleGetFunction(&fn, mod, "k"));
  CUdeviceptr out;
  CK(cuMemAlloc(&out, 32 * 8 * 4));
  CK(cuMemsetD32(out, 0, 32 * 8));
  void *args[] = {&out};
  CK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
  CK(cuCtxSynchronize());
  unsigned h[32 * 8];
  CK(cuMemcpyDtoH(h, out, sizeof h));
  for (int t = 0; t < 32; t++) {
    printf("t %d", t);
    for (int i = 0; i < 8; i++) printf(" %08x", h[t * 8 + i]);
    printf("\n");
  }
  // the surface after the kernel's stores
  cp.srcMemoryType = CU_MEMORYTYPE_ARRAY; cp.srcArray = sarr; cp.srcHost = 0;
  cp.dstMemoryType = CU_MEMORYTYPE_HOST; cp.dstHost = su; cp.dstPitch = 8 * 4; cp.dstArray = 0;
  CK(cuMemcpy2D(&cp));
  for (int y = 0; y < 4; y++) {
    printf("surf %d", y);
    for (int x = 0; x < 8; x++) printf(" %u", su[y][x]);
    printf("\n");
  }
  return 0;
}
