/* test_driver_pool_link.c: the driver API's memory pools
 * (runtime/driver_pool.c, as cuda-core allocates: cuDeviceGetMemPool,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync, cuMemPoolGetAttribute) and the
 * JIT linker joining PTX inputs (runtime/ptx_link.c), through
 * build/runtime/libcuda.so.1 and cuGetProcAddress as cuda-bindings reaches
 * them. Results are checked against arithmetic stated with each. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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

static int setup(void **state) {
  (void)state;
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/runtime/libcudart.so.13", tu_build_dir());
  if (!dlopen(path, RTLD_NOW | RTLD_LOCAL)) return -1;
  snprintf(path, sizeof path, "%s/runtime/libcuda.so.1", tu_build_dir());
  drv = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!drv) {
    fprintf(stderr, "needs build/runtime/libcuda.so.1 (run from the repository root)\n");
    return -1;
  }
  void *ctx = NULL;
  if (CU(cuInit, unsigned)(0) || CU(cuDevicePrimaryCtxRetain, void **, int)(&ctx, 0) ||
      CU(cuCtxSetCurrent, void *)(ctx))
    return -1;
  return 0;
}

static uint64_t pool_attr(void *pool, int attr) {
  uint64_t v = 0;
  assert_int_equal(CU(cuMemPoolGetAttribute, void *, int, void *)(pool, attr, &v), 0);
  return v;
}

/* The current pool is the default one; allocations from it count as used
 * (bytes asked) and reserved (32 MiB granules, as an H200 reports), are
 * device memory, and come back at the same address after a free. */
static void test_pool(void **state) {
  (void)state;
  void *pool = NULL, *def = NULL, *s = NULL;
  assert_int_equal(CU(cuDeviceGetMemPool, void **, int)(&pool, 0), 0);
  assert_int_equal(CU(cuDeviceGetDefaultMemPool, void **, int)(&def, 0), 0);
  assert_ptr_equal(pool, def);
  assert_int_equal(CU(cuDeviceGetMemPool, void **, int)(&pool, 1), 101); /* CUDA_ERROR_INVALID_DEVICE */
  assert_int_equal(CU(cuStreamCreate, void **, unsigned)(&s, 0), 0);
  int capturing = -1;
  assert_int_equal(CU(cuStreamIsCapturing, void *, int *)(s, &capturing), 0);
  assert_int_equal(capturing, 0);

  CUdeviceptr a = 0, b = 0;
  assert_int_equal(CU(cuMemAllocFromPoolAsync, CUdeviceptr *, size_t, void *, void *)(&a, 3000, pool, s), 0);
  assert_int_equal(pool_attr(pool, 7), 3000);     /* used */
  assert_int_equal(pool_attr(pool, 5), 32 << 20); /* reserved */
  unsigned type = 0;
  assert_int_equal(CU(cuPointerGetAttribute, void *, int, CUdeviceptr)(&type, 2, a), 0);
  assert_int_equal(type, 2); /* CU_MEMORYTYPE_DEVICE */
  assert_int_equal(CU(cuMemsetD32Async, CUdeviceptr, unsigned, size_t, void *)(a, 7, 750, s), 0);
  unsigned back[750];
  assert_int_equal(CU(cuMemcpyDtoHAsync, void *, CUdeviceptr, size_t, void *)(back, a, sizeof back, s), 0);
  assert_int_equal(CU(cuStreamSynchronize, void *)(s), 0);
  for (int i = 0; i < 750; i++) assert_int_equal(back[i], 7);
  /* past the end: a copy of 3004 bytes from a 3000-byte allocation */
  assert_int_equal(CU(cuMemcpyDtoHAsync, void *, CUdeviceptr, size_t, void *)(back, a, 3004, s), 1);
  assert_int_equal(CU(cuMemFreeAsync, CUdeviceptr, void *)(a, s), 0);
  assert_int_equal(pool_attr(pool, 7), 0);
  assert_int_equal(CU(cuMemAllocAsync, CUdeviceptr *, size_t, void *)(&b, 3000, s), 0);
  assert_true(b == a);
  assert_int_equal(CU(cuMemFreeAsync, CUdeviceptr, void *)(b, s), 0);
  assert_int_equal(CU(cuMemFreeAsync, CUdeviceptr, void *)(b, s), 1); /* twice */
  /* released at the synchronisation: the threshold is 0 */
  assert_int_equal(CU(cuStreamSynchronize, void *)(s), 0);
  assert_int_equal(pool_attr(pool, 5), 0);
  assert_int_equal(pool_attr(pool, 6), 32 << 20); /* the high mark stays */
  assert_int_equal(CU(cuMemAllocFromPoolAsync, CUdeviceptr *, size_t, void *, void *)(&a, 16, NULL, s), 1);
  assert_int_equal(CU(cuMemPoolDestroy, void *)(def), 1); /* the default pool stays */
  assert_int_equal(CU(cuStreamDestroy, void *)(s), 0);
  /* bad input: errors, never a crash */
  int flags = 0, loc[2] = {1, 0};
  assert_int_equal(CU(cuMemPoolGetAccess, int *, void *, void *)(NULL, pool, loc), 1);
  assert_int_equal(CU(cuMemPoolGetAccess, int *, void *, void *)(&flags, pool, NULL), 1);
  assert_int_equal(CU(cuMemPoolGetAccess, int *, void *, void *)(&flags, (void *)loc, loc), 1); /* no pool */
  assert_int_equal(CU(cuMemPoolGetAccess, int *, void *, void *)(&flags, pool, loc), 0);
  assert_int_equal(flags, 3); /* read and write */
  assert_int_equal(CU(cuMemPoolSetAccess, void *, const void *, size_t)(pool, NULL, 5), 1);
  assert_int_equal(CU(cuMemPoolSetAttribute, void *, int, void *)(pool, 4, NULL), 1);
  assert_int_equal(CU(cuMemPoolSetAttribute, void *, int, void *)(pool, 0, &flags), 1);
  assert_int_equal(CU(cuMemPoolGetAttribute, void *, int, void *)((void *)loc, 7, &flags), 1);
  assert_int_equal(CU(cuMemPoolTrimTo, void *, size_t)(NULL, 0), 1);
  assert_int_equal(CU(cuMemPoolCreate, void **, const void *)(&s, NULL), 1);
  assert_int_equal(CU(cuMemAllocAsync, CUdeviceptr *, size_t, void *)(NULL, 16, NULL), 1);
  assert_int_equal(CU(cuMemAllocAsync, CUdeviceptr *, size_t, void *)(&a, 16, s), 400); /* s is destroyed */
  assert_int_equal(CU(cuMemAllocAsync, CUdeviceptr *, size_t, void *)(&a, 16, (void *)loc), 400);
  assert_int_equal(CU(cuMemFreeAsync, CUdeviceptr, void *)((CUdeviceptr)(uintptr_t)loc, NULL), 1);
}

/* The kernel's module calls triple(), which the second module defines;
 * both have a local helper(): the first's adds 1, the second's (renamed
 * when joined) multiplies by 3. x[i] becomes helper1(triple(x[i])) =
 * 3 x[i] + 1. */
static const char kernel_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                                 ".extern .func (.param .b32 r) triple(.param .b32 x);\n"
                                 ".func (.param .b32 r) helper(.param .b32 x)\n{\n .reg .b32 %h<3>;\n"
                                 " ld.param.b32 %h1, [x];\n add.s32 %h2, %h1, 1;\n st.param.b32 [r], %h2;\n ret;\n}\n"
                                 ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
                                 " .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n .reg .pred %q;\n"
                                 " ld.param.u64 %rd1, [p];\n ld.param.u32 %r1, [n];\n mov.u32 %r2, %tid.x;\n"
                                 " setp.ge.u32 %q, %r2, %r1;\n @%q bra DONE;\n cvta.to.global.u64 %rd1, %rd1;\n"
                                 " mul.wide.u32 %rd2, %r2, 4;\n add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r3, [%rd3];\n"
                                 " {\n .param .b32 a;\n .param .b32 b;\n st.param.b32 [a], %r3;\n"
                                 " call (b), triple, (a);\n ld.param.b32 %r4, [b];\n }\n"
                                 " {\n .param .b32 c;\n .param .b32 d;\n st.param.b32 [c], %r4;\n"
                                 " call (d), helper, (c);\n ld.param.b32 %r5, [d];\n }\n"
                                 " st.global.u32 [%rd3], %r5;\nDONE:\n ret;\n}\n";
static const char funcs_ptx[] = "//\n// the second input\n//\n.version 8.3\n.target sm_90\n.address_size 64\n"
                                ".func (.param .b32 r) helper(.param .b32 x)\n{\n .reg .b32 %h<3>;\n"
                                " ld.param.b32 %h1, [x];\n mul.lo.s32 %h2, %h1, 3;\n st.param.b32 [r], %h2;\n ret;\n}\n"
                                ".visible .func (.param .b32 r) triple(.param .b32 x)\n{\n .reg .b32 %t<3>;\n"
                                " ld.param.b32 %t1, [x];\n {\n .param .b32 a;\n .param .b32 b;\n"
                                " st.param.b32 [a], %t1;\n call (b), helper, (a);\n ld.param.b32 %t2, [b];\n }\n"
                                " st.param.b32 [r], %t2;\n ret;\n}\n";

static void test_link_two_inputs(void **state) {
  (void)state;
  void *ls = NULL, *image = NULL, *mod = NULL, *f = NULL;
  size_t size = 0;
  typedef CUresult (*add_fn)(void *, int, void *, size_t, const char *, unsigned, int *, void **);
  assert_int_equal(CU(cuLinkCreate, unsigned, int *, void **, void **)(0, NULL, NULL, &ls), 0);
  assert_int_equal(((add_fn)proc("cuLinkAddData"))(ls, 1, (void *)kernel_ptx, sizeof kernel_ptx, "k", 0, NULL, NULL),
                   0);
  assert_int_equal(((add_fn)proc("cuLinkAddData"))(ls, 1, (void *)funcs_ptx, sizeof funcs_ptx, "f", 0, NULL, NULL),
                   0);
  /* the same definitions once more: triple defined twice */
  assert_int_equal(((add_fn)proc("cuLinkAddData"))(ls, 1, (void *)funcs_ptx, sizeof funcs_ptx, "f", 0, NULL, NULL),
                   801);
  assert_int_equal(CU(cuLinkComplete, void *, void **, size_t *)(ls, &image, &size), 0);
  assert_non_null(strstr(image, ".version 8.3")); /* the higher of the two */
  assert_int_equal(CU(cuModuleLoadData, void **, const void *)(&mod, image), 0);
  assert_int_equal(CU(cuLinkDestroy, void *)(ls), 0);
  assert_int_equal(CU(cuModuleGetFunction, void **, void *, const char *)(&f, mod, "k"), 0);

  enum { N = 100 };
  int host[N], back[N];
  for (int i = 0; i < N; i++) host[i] = 5 * i - 40;
  CUdeviceptr d = 0;
  assert_int_equal(CU(cuMemAlloc, CUdeviceptr *, size_t)(&d, sizeof host), 0);
  assert_int_equal(CU(cuMemcpyHtoD, CUdeviceptr, const void *, size_t)(d, host, sizeof host), 0);
  unsigned n = N;
  void *params[] = {&d, &n};
  assert_int_equal(CU(cuLaunchKernel, void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                      void *, void **, void **)(f, 1, 1, 1, 128, 1, 1, 0, NULL, params, NULL),
                   0);
  assert_int_equal(CU(cuMemcpyDtoH, void *, CUdeviceptr, size_t)(back, d, sizeof back), 0);
  for (int i = 0; i < N; i++) assert_int_equal(back[i], 3 * host[i] + 1);
  assert_int_equal(CU(cuMemFree, CUdeviceptr)(d), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pool),
      cmocka_unit_test(test_link_two_inputs),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
