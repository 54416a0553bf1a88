/* library.c: the runtime's library and kernel API (cudaLibraryLoadData,
 * cudaLibraryGetKernel, cudaGetKernel, ...). A library is a module loaded
 * as the driver's cuLibraryLoadData loads it (PTX text, a fatbinary or a
 * cubin carrying PTX; driver/driver_ext.c), a kernel its function: the
 * handle cudaLaunchKernel, cudaFuncGetAttributes and the occupancy
 * calculator accept like a registered kernel's host stub. */
#include "cu_abi.h"
#include <string.h>

CUresult cuLibraryLoadData(CUlibrary *, const void *, int *, void **, unsigned, int *, void **, unsigned);
CUresult cuLibraryLoadFromFile(CUlibrary *, const char *, int *, void **, unsigned, int *, void **, unsigned);
CUresult cuLibraryUnload(CUlibrary);
CUresult cuLibraryGetKernel(CUkernel *, CUlibrary, const char *);
CUresult cuLibraryGetGlobal(CUdeviceptr *, size_t *, CUlibrary, const char *);

/* A driver result as the runtime's error: the numbers agree, but for the
 * driver's "not found", which the runtime calls a missing symbol, and a
 * file that does not exist. */
static cudaError_t from_cu(CUresult r) {
  switch (r) {
  case CUDA_ERROR_NOT_FOUND:
    return cudaErrorSymbolNotFound;
  case CUDA_ERROR_FILE_NOT_FOUND:
    return cudaErrorInvalidValue;
  default:
    return (cudaError_t)r;
  }
}

/* The module of a library handle, or NULL. */
static rt_module *library(cudaLibrary_t lib) {
  for (rt_module *m = rt.mods; m; m = m->next)
    if ((void *)m == (void *)lib && m->from_driver) return m;
  return NULL;
}

RT_EXPORT cudaError_t cudaLibraryLoadData(cudaLibrary_t *library_out, const void *code, int *jitOptions,
                                          void **jitOptionsValues, unsigned int numJitOptions,
                                          int *libraryOptions, void **libraryOptionValues,
                                          unsigned int numLibraryOptions) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!library_out || !code) return rt_end(cudaErrorInvalidValue);
  CUlibrary l = NULL;
  e = from_cu(cuLibraryLoadData(&l, code, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                                libraryOptionValues, numLibraryOptions));
  if (!e) *library_out = (cudaLibrary_t)l;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t *library_out, const char *fileName,
                                              int *jitOptions, void **jitOptionsValues,
                                              unsigned int numJitOptions, int *libraryOptions,
                                              void **libraryOptionValues, unsigned int numLibraryOptions) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!library_out || !fileName) return rt_end(cudaErrorInvalidValue);
  CUlibrary l = NULL;
  e = from_cu(cuLibraryLoadFromFile(&l, fileName, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                                    libraryOptionValues, numLibraryOptions));
  if (!e) *library_out = (cudaLibrary_t)l;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaLibraryUnload(cudaLibrary_t lib) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!library(lib)) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(from_cu(cuLibraryUnload((CUlibrary)lib)));
}

RT_EXPORT cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t lib, const char *name) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!pKernel || !name) return rt_end(cudaErrorInvalidValue);
  if (!library(lib)) return rt_end(cudaErrorInvalidResourceHandle);
  CUkernel k = NULL;
  e = from_cu(cuLibraryGetKernel(&k, (CUlibrary)lib, name));
  if (!e) *pKernel = (cudaKernel_t)k;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes, cudaLibrary_t lib, const char *name) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if ((!dptr && !bytes) || !name) return rt_end(cudaErrorInvalidValue);
  if (!library(lib)) return rt_end(cudaErrorInvalidResourceHandle);
  CUdeviceptr p = 0;
  size_t n = 0;
  e = from_cu(cuLibraryGetGlobal(&p, &n, (CUlibrary)lib, name));
  if (!e && dptr) *dptr = (void *)(uintptr_t)p;
  if (!e && bytes) *bytes = n;
  return rt_end(e);
}

/* __managed__ variables of a loaded library: the PTX loader keeps none
 * apart from globals, so none is found, as for a library without any. */
RT_EXPORT cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes, cudaLibrary_t lib, const char *name) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if ((!dptr && !bytes) || !name) return rt_end(cudaErrorInvalidValue);
  if (!library(lib)) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(cudaErrorSymbolNotFound);
}

/* Unified function pointers need cudaDeviceProp::unifiedFunctionPointers;
 * asked for a kernel's name an H200 answers invalid value (tests/hw/rtapi/
 * small_api.out), and so does the emulated device for every name. */
RT_EXPORT cudaError_t cudaLibraryGetUnifiedFunction(void **fptr, cudaLibrary_t lib, const char *symbol) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!fptr || !symbol) return rt_end(cudaErrorInvalidValue);
  if (!library(lib)) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(cudaErrorInvalidValue);
}

/* The library's kernels in module order, as rt_func handles (made on first
 * use, like cuLibraryGetKernel's). */
cudaError_t rt_library_kernels(rt_module *m, unsigned *count, rt_func **out, unsigned max) {
  cudaError_t e = rt_module_load(m);
  if (e) return e;
  int n = m->mod ? smemu_module_kernel_count(m->mod) : 0;
  if (count) *count = (unsigned)n;
  for (int i = 0; out && i < n && (unsigned)i < max; i++) {
    const char *name = smemu_kernel_name(smemu_module_kernel(m->mod, i));
    CUkernel k = NULL;
    CUresult r = cuLibraryGetKernel(&k, m, name);
    if (r) return from_cu(r);
    out[i] = k;
  }
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!count) return rt_end(cudaErrorInvalidValue);
  rt_module *m = library(lib);
  if (!m) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(rt_library_kernels(m, count, NULL, 0));
}

RT_EXPORT cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels, unsigned int numKernels,
                                                  cudaLibrary_t lib) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!kernels || !numKernels) return rt_end(cudaErrorInvalidValue);
  rt_module *m = library(lib);
  if (!m) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(rt_library_kernels(m, NULL, (rt_func **)kernels, numKernels));
}

RT_EXPORT cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr,
                                                      int value, int device) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  rt_end(cudaSuccess);
  return cudaFuncSetAttribute((const void *)kernel, attr, value);
}

/* The kernel handle of a registered kernel's host stub (a program's
 * __global__ function): the same rt_func the launch takes. */
RT_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr) {
  rt_begin(0);
  if (!kernelPtr) return rt_end(cudaErrorInvalidValue);
  rt_func *f = rt_func_by_host(entryFuncAddr);
  if (!f) return rt_end(cudaErrorInvalidDeviceFunction); /* an H200's answer for a host function */
  *kernelPtr = (cudaKernel_t)f;
  return rt_end(cudaSuccess);
}
