/* driver_proc.c: cuGetProcAddress, how cuda-bindings (cuda-python, hence
 * numba-cuda and CuPy) and NVIDIA's static CUDA runtime (linked into every
 * program nvcc builds by default) find every driver entry point. A symbol
 * resolves to this library's own export with the highest ABI suffix (_v4,
 * _v3, _v2, then the plain name) that the caller's version has: a suffix
 * whose signature changed counts only from the CUDA version that brought
 * it (the static runtime asks for cuCtxCreate at version 3020 and means
 * cuCtxCreate_v2). The private tables the static runtime needs beside
 * these are in export_tables.c. */
#include "cu_abi.h"
#include "rt.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags,
                             int *status);
CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags);

/* Suffixed entry points whose signature differs from the older name's,
 * and the CUDA version (1000 * major + 10 * minor) that introduced them
 * (cuda.h's history). Where only the behaviour changed (cuDevicePrimary-
 * CtxRelease_v2, ...) the newest serves every caller. */
static const struct {
  const char *name;
  int since;
} introduced[] = {
    {"cuCtxCreate_v4", 12050},
    {"cuCtxCreate_v3", 11040},
    {"cuGetProcAddress_v2", 12000},
    {"cuCtxGetDevice_v2", 13000},
    {"cuCtxSynchronize_v2", 13000},
    {"cuStreamGetCtx_v2", 12050},
    {"cuStreamGetCaptureInfo_v3", 12030},
    {"cuStreamGetCaptureInfo_v2", 11030},
    {"cuMemAdvise_v2", 12020},
    {"cuMemPrefetchAsync_v2", 12020},
    {"cuGraphExecUpdate_v2", 12000},
    {"cuGraphGetEdges_v2", 12030},
    {"cuGraphNodeGetDependencies_v2", 12030},
    {"cuGraphNodeGetDependentNodes_v2", 12030},
    {"cuGraphAddDependencies_v2", 12030},
    {"cuGraphRemoveDependencies_v2", 12030},
    {"cuStreamUpdateCaptureDependencies_v2", 12030},
    {"cuGraphAddNode_v2", 12030},
    {"cuStreamBeginCaptureToGraph_v2", 13000},
    {"cuMemcpyBatchAsync_v2", 13000},
    {"cuMemcpy3DBatchAsync_v2", 13000},
    {"cuGraphInstantiate_v2", 12000},
    {"cuGraphKernelNodeGetParams_v2", 12000},
    {"cuGraphKernelNodeSetParams_v2", 12000},
    {"cuGraphExecKernelNodeSetParams_v2", 12000},
    {"cuGraphAddKernelNode_v2", 12000},
};

/* The version that introduced a suffixed name; 0 when any caller means it. */
static int since(const char *name) {
  for (size_t i = 0; i < sizeof introduced / sizeof introduced[0]; i++)
    if (!strcmp(introduced[i].name, name)) return introduced[i].since;
  return 0;
}

/* This library, for dlsym. */
static void *self(void) {
  static void *h;
  Dl_info info;
  if (!h && dladdr((void *)&since, &info) && info.dli_fname)
    h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  return h;
}

/* The export for symbol as a caller of `version` means it (0: the newest);
 * *too_old when only a newer version has it. A stub (runtime/entries.def)
 * gives way to an implemented older version of the same function:
 * cuCtxSynchronize before a stubbed cuCtxSynchronize_v2. A symbol with
 * only stubs resolves to the newest, so its caller gets "not supported"
 * rather than "not found". */
static void *lookup(const char *symbol, int version, int *too_old) {
  void *h = self(), *stub = NULL;
  static const char *const suffix[] = {"_v4", "_v3", "_v2", ""};
  char name[256];
  *too_old = 0;
  for (size_t i = 0; h && i < sizeof suffix / sizeof suffix[0]; i++) {
    if (snprintf(name, sizeof name, "%s%s", symbol, suffix[i]) >= (int)sizeof name) break;
    void *f = dlsym(h, name);
    if (!f) continue;
    if (version > 0 && since(name) > version) {
      *too_old = 1;
      continue;
    }
    if (!rt_is_stub(name) && !rt_old_name_is_stub(name)) {
      *too_old = 0;
      return f;
    }
    if (!stub) stub = f;
  }
  if (stub) *too_old = 0;
  return stub;
}

void *rt_driver_symbol(const char *symbol) {
  int too_old;
  return lookup(symbol, 0, &too_old);
}

RT_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags,
                                       int *status) {
  /* flags: the per-thread default stream variants are the same functions
   * here (one queue serves every stream) */
  (void)flags;
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  if (!*symbol) {
    /* the static runtime's first question; NVIDIA's driver answers success
     * with no function (tests/hw/static_rt) */
    *pfn = NULL;
    return CUDA_SUCCESS;
  }
  int too_old;
  /* a library smemu does not provide (cuBLAS, cuFFT, ...): its runtime
   * finds no driver, and the library fails with its own error code */
  if (rt_nv_library_refused_at(__builtin_return_address(0))) {
    *pfn = NULL;
    if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
  }
  *pfn = lookup(symbol, version, &too_old);
  if (status)
    *status = *pfn      ? CU_GET_PROC_ADDRESS_SUCCESS
              : too_old ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                        : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

RT_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}
