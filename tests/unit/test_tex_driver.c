/* test_tex_driver.c: arrays, copies and texture/surface objects through
 * the driver API (runtime/array_driver.c), as JIT libraries reach them
 * (build/runtime/libcuda.so.1, cuGetProcAddress): a 3D-described 2D float
 * array filled with cuMemcpy2D, read back with cuMemcpy3D, sampled by a
 * PTX kernel through cuTexObjectCreate (texel centres give the texels
 * back; the point between four centres their mean), and written through a
 * surface object; descriptors round-trip and bad arguments are refused. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* (cmocka needs the headers above first) */
#include <cmocka.h>
#include "../runtime/test_util.h"

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static void *drv;

static void *proc(const char *name) {
  CUresult (*gpa)(const char *, void **, int, unsigned long long, int *) = dlsym(drv, "cuGetProcAddress_v2");
  void *p = NULL;
  int status = -1;
  assert_non_null(gpa);
  assert_int_equal(gpa(name, &p, 13000, 0, &status), 0);
  assert_non_null(p);
  return p;
}
#define CU(name, ...) ((CUresult(*)(__VA_ARGS__))proc(#name))

typedef struct {
  size_t Width, Height, Depth;
  int Format;
  unsigned NumChannels, Flags;
} A3D;
typedef struct {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
} M2D;
typedef struct {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray, *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray, *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
} M3D;
typedef struct {
  int resType;
  union {
    void *hArray;
    struct {
      CUdeviceptr devPtr;
      int format;
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    int reserved[32];
  } res;
  unsigned flags;
} RES;
typedef struct {
  int addressMode[3], filterMode;
  unsigned flags, maxAnisotropy;
  int mipmapFilterMode;
  float bias, minc, maxc, border[4];
  int reserved[12];
} TEX;

static const char *ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd7, [s];\n  ld.param.u64 %rd2, [in];\n"
    "  ld.param.u64 %rd3, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd4, %r1, 8;\n  add.s64 %rd5, %rd2, %rd4;\n"
    "  ld.global.v2.f32 {%f1, %f2}, [%rd5];\n"
    "  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd6, %rd3, %rd4;\n  st.global.f32 [%rd6], %f3;\n"
    "  shl.b32 %r2, %r1, 2;\n  mov.u32 %r3, 1;\n"
    "  sust.b.2d.b32.trap [%rd7, {%r2, %r3}], {%r1};\n"
    "  ret;\n}\n";

static void test_driver_textures(void **state) {
  (void)state;
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/runtime/libcudart.so.13", tu_build_dir());
  assert_non_null(dlopen(path, RTLD_NOW | RTLD_LOCAL));
  snprintf(path, sizeof path, "%s/runtime/libcuda.so.1", tu_build_dir());
  assert_non_null(drv = dlopen(path, RTLD_NOW | RTLD_LOCAL));
  void *ctx = NULL;
  assert_int_equal(CU(cuInit, unsigned)(0), 0);
  assert_int_equal(CU(cuDevicePrimaryCtxRetain, void **, int)(&ctx, 0), 0);
  assert_int_equal(CU(cuCtxSetCurrent, void *)(ctx), 0);

  /* a 4 x 2 float array, surface-capable */
  A3D ad = {4, 2, 0, 0x20 /* FLOAT */, 1, 0x02 /* SURFACE_LDST */};
  void *arr = NULL;
  assert_int_equal(CU(cuArray3DCreate, void **, const A3D *)(&arr, &ad), 0);
  A3D back;
  assert_int_equal(CU(cuArray3DGetDescriptor, A3D *, void *)(&back, arr), 0);
  assert_true(back.Width == 4 && back.Height == 2 && back.Depth == 0 && back.Format == 0x20 &&
              back.NumChannels == 1 && back.Flags == 2);
  A3D bad = {4, 2, 0, 0x77, 1, 0};
  void *none = NULL;
  assert_int_equal(CU(cuArray3DCreate, void **, const A3D *)(&none, &bad), 1);

  float img[8] = {1, 2, 3, 4, 10, 20, 30, 40}, got[8] = {0};
  M2D c2 = {0};
  c2.srcMemoryType = 1, c2.srcHost = img, c2.srcPitch = 16;
  c2.dstMemoryType = 3, c2.dstArray = arr;
  c2.WidthInBytes = 16, c2.Height = 2;
  assert_int_equal(CU(cuMemcpy2D, const M2D *)(&c2), 0);
  c2.dstXInBytes = 4; /* one texel too far right */
  assert_int_equal(CU(cuMemcpy2D, const M2D *)(&c2), 1);
  M3D c3 = {0};
  c3.srcMemoryType = 3, c3.srcArray = arr;
  c3.dstMemoryType = 1, c3.dstHost = got, c3.dstPitch = 16, c3.dstHeight = 2;
  c3.WidthInBytes = 16, c3.Height = 2, c3.Depth = 1;
  assert_int_equal(CU(cuMemcpy3D, const M3D *)(&c3), 0);
  assert_memory_equal(got, img, sizeof img);

  RES r = {0};
  r.resType = 0;
  r.res.hArray = arr;
  TEX td = {0};
  td.addressMode[0] = td.addressMode[1] = 1; /* clamp */
  td.filterMode = 1;                         /* linear */
  unsigned long long tex = 0, surf = 0;
  assert_int_equal(CU(cuTexObjectCreate, unsigned long long *, const RES *, const TEX *,
                      const void *)(&tex, &r, &td, NULL),
                   0);
  assert_int_equal(CU(cuSurfObjectCreate, unsigned long long *, const RES *)(&surf, &r), 0);
  RES rb;
  assert_int_equal(CU(cuTexObjectGetResourceDesc, RES *, unsigned long long)(&rb, tex), 0);
  assert_true(rb.resType == 0 && rb.res.hArray == arr);
  TEX tb;
  assert_int_equal(CU(cuTexObjectGetTextureDesc, TEX *, unsigned long long)(&tb, tex), 0);
  assert_true(tb.filterMode == 1 && tb.addressMode[1] == 1 && tb.flags == 0);

  void *mod = NULL, *f = NULL;
  assert_int_equal(CU(cuModuleLoadData, void **, const void *)(&mod, ptx), 0);
  assert_int_equal(CU(cuModuleGetFunction, void **, void *, const char *)(&f, mod, "k"), 0);
  /* texel centres, and the point between the four texels (1..2, 0..1) */
  float xy[8] = {0.5f, 0.5f, 3.5f, 1.5f, 2.f, 1.f, 1.5f, 0.5f};
  CUdeviceptr din = 0, dout = 0;
  assert_int_equal(CU(cuMemAlloc, CUdeviceptr *, size_t)(&din, sizeof xy), 0);
  assert_int_equal(CU(cuMemAlloc, CUdeviceptr *, size_t)(&dout, 16), 0);
  assert_int_equal(CU(cuMemcpyHtoD, CUdeviceptr, const void *, size_t)(din, xy, sizeof xy), 0);
  void *params[] = {&tex, &surf, &din, &dout};
  assert_int_equal(CU(cuLaunchKernel, void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                      unsigned, void *, void **, void **)(f, 1, 1, 1, 4, 1, 1, 0, NULL, params, NULL),
                   0);
  float out[4];
  assert_int_equal(CU(cuMemcpyDtoH, void *, CUdeviceptr, size_t)(out, dout, sizeof out), 0);
  assert_true(out[0] == 1.f && out[1] == 40.f && out[2] == (2.f + 3.f + 20.f + 30.f) / 4 && out[3] == 2.f);
  /* the surface store wrote row 1 with the lane numbers (as float bits) */
  uint32_t row[4];
  assert_int_equal(CU(cuMemcpyAtoH, void *, void *, size_t, size_t)(row, arr, 16, 16), 0);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(row[i], i);

  assert_int_equal(CU(cuTexObjectDestroy, unsigned long long)(tex), 0);
  assert_int_equal(CU(cuTexObjectDestroy, unsigned long long)(tex), 1);
  assert_int_equal(CU(cuSurfObjectDestroy, unsigned long long)(surf), 0);
  assert_int_equal(CU(cuArrayDestroy, void *)(arr), 0);
  assert_int_equal(CU(cuArrayDestroy, void *)(arr), 1);

  /* an object whose array was freed reads nothing: the launch faults
   * (an illegal address, sticky), the process does not crash */
  assert_int_equal(CU(cuArray3DCreate, void **, const A3D *)(&arr, &ad), 0);
  r.res.hArray = arr;
  assert_int_equal(CU(cuTexObjectCreate, unsigned long long *, const RES *, const TEX *,
                      const void *)(&tex, &r, &td, NULL),
                   0);
  assert_int_equal(CU(cuSurfObjectCreate, unsigned long long *, const RES *)(&surf, &r), 0);
  assert_int_equal(CU(cuArrayDestroy, void *)(arr), 0);
  assert_int_equal(CU(cuLaunchKernel, void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                      unsigned, void *, void **, void **)(f, 1, 1, 1, 4, 1, 1, 0, NULL, params, NULL),
                   0);
  /* asked for at version 13000, cuCtxSynchronize is the form that names
   * its context (cudaTypedefs.h: PFN_cuCtxSynchronize_v13000); NULL means
   * the current one */
  assert_int_equal(CU(cuCtxSynchronize, void *)(NULL), 700);
  assert_int_equal(CU(cuTexObjectDestroy, unsigned long long)(tex), 700); /* the sticky error */
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_driver_textures)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
