/* test_driver.h: how the driver API's cmocka tests (tests/unit/test_*.c)
 * reach build/runtime/libcuda.so.1: opened with dlopen, its functions found
 * through cuGetProcAddress as cuda-bindings finds them. Include after
 * cmocka.h and test_util.h. */
#ifndef SMEMU_TEST_DRIVER_H
#define SMEMU_TEST_DRIVER_H

#include <dlfcn.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static void *drv; /* build/runtime/libcuda.so.1 */

/* A driver function by name, as CUDA 13.0 asks for it; it must exist. */
static inline void *proc(const char *name) {
  CUresult (*gpa)(const char *, void **, int, unsigned long long, int *) = dlsym(drv, "cuGetProcAddress_v2");
  void *p = NULL;
  int status = -1;
  assert_non_null(gpa);
  assert_int_equal(gpa(name, &p, 13000, 0, &status), 0);
  assert_int_equal(status, 0);
  assert_non_null(p);
  return p;
}
#define CU(name, ...) ((CUresult(*)(__VA_ARGS__))proc(#name))

/* Opens the build's libcudart.so.13 first, so that libcuda.so.1's
 * dependency is smemu's, then libcuda.so.1 as drv; drv is NULL on failure. */
static inline void *tu_open_driver(void) {
  char path[PATH_MAX + 64];
  if (!tu_open_cudart()) return NULL;
  snprintf(path, sizeof path, "%s/runtime/libcuda.so.1", tu_build_dir());
  return drv = dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* cuInit and device 0's primary context made current; 0 when all worked. */
static inline int tu_driver_context(void) {
  void *ctx = NULL;
  return CU(cuInit, unsigned)(0) || CU(cuDevicePrimaryCtxRetain, void **, int)(&ctx, 0) ||
         CU(cuCtxSetCurrent, void *)(ctx);
}

#endif
