/* extras.c: the driver's names for what cudart/ implements in the small
 * areas (stream attributes, parameter layout, user objects, the log,
 * library enumeration, peers, cluster occupancy) and the CUDA 13 versions
 * of context calls that name their context. Each is a thin layer over the
 * runtime's code, so both APIs see one set of objects; results are the
 * driver's codes (the numbers agree where both have the error). */
#include "cu_abi.h"
#include <string.h>

#define EXPORT RT_EXPORT CUresult
typedef struct {
  char reserved[64];
} ipc_bytes; /* CUipcMemHandle, CUipcEventHandle: passed by value */
#define P(decl) decl;
P(CUresult cuStreamGetAttribute(CUstream, int, void *))
P(CUresult cuStreamSetAttribute(CUstream, int, const void *))
P(CUresult cuStreamCopyAttributes(CUstream, CUstream))
P(CUresult cuStreamGetDevice(CUstream, CUdevice *))
P(CUresult cuStreamGetCtx_v2(CUstream, CUcontext *, void **))
P(CUresult cuCtxGetDevice(CUdevice *))
P(CUresult cuCtxGetDevice_v2(CUdevice *, CUcontext))
P(CUresult cuCtxSynchronize(void))
P(CUresult cuCtxSynchronize_v2(CUcontext))
P(CUresult cuCtxResetPersistingL2Cache(void))
P(CUresult cuFuncGetParamInfo(CUfunction, size_t, size_t *, size_t *))
P(CUresult cuKernelGetParamInfo(CUkernel, size_t, size_t *, size_t *))
P(CUresult cuUserObjectCreate(cudaUserObject_t *, void *, cudaHostFn_t, unsigned, unsigned))
P(CUresult cuUserObjectRetain(cudaUserObject_t, unsigned))
P(CUresult cuUserObjectRelease(cudaUserObject_t, unsigned))
P(CUresult cuLogsRegisterCallback(cudaLogsCallback_t, void *, cudaLogsCallbackHandle *))
P(CUresult cuLogsUnregisterCallback(cudaLogsCallbackHandle))
P(CUresult cuLogsCurrent(cudaLogIterator *, unsigned))
P(CUresult cuLogsDumpToFile(cudaLogIterator *, const char *, unsigned))
P(CUresult cuLogsDumpToMemory(cudaLogIterator *, char *, size_t *, unsigned))
P(CUresult cuLibraryGetKernelCount(unsigned *, CUlibrary))
P(CUresult cuLibraryEnumerateKernels(CUkernel *, unsigned, CUlibrary))
P(CUresult cuModuleGetFunctionCount(unsigned *, CUmodule))
P(CUresult cuModuleEnumerateFunctions(CUfunction *, unsigned, CUmodule))
P(CUresult cuLibraryGetManaged(CUdeviceptr *, size_t *, CUlibrary, const char *))
P(CUresult cuLibraryGetGlobal(CUdeviceptr *, size_t *, CUlibrary, const char *))
P(CUresult cuLibraryGetUnifiedFunction(void **, CUlibrary, const char *))
P(CUresult cuDeviceGetP2PAtomicCapabilities(unsigned *, const int *, unsigned, CUdevice, CUdevice))
P(CUresult cuDeviceGetByPCIBusId(CUdevice *, const char *))
P(CUresult cuMemcpy(CUdeviceptr, CUdeviceptr, size_t))
P(CUresult cuMemcpyAsync(CUdeviceptr, CUdeviceptr, size_t, CUstream))
P(CUresult cuMemcpyPeer(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t))
P(CUresult cuMemcpyPeerAsync(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t, CUstream))
P(CUresult cuOccupancyMaxPotentialClusterSize(int *, CUfunction, const void *))
P(CUresult cuOccupancyMaxActiveClusters(int *, CUfunction, const void *))
P(CUresult cuIpcGetMemHandle(void *, CUdeviceptr))
P(CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *, ipc_bytes, unsigned))
P(CUresult cuIpcCloseMemHandle(CUdeviceptr))
P(CUresult cuIpcGetEventHandle(void *, CUevent))
P(CUresult cuIpcOpenEventHandle(CUevent *, ipc_bytes))
P(CUresult cuImportExternalMemory(void **, const void *))
P(CUresult cuDestroyExternalMemory(void *))
P(CUresult cuImportExternalSemaphore(void **, const void *))
P(CUresult cuDestroyExternalSemaphore(void *))
P(CUresult cuGraphicsUnregisterResource(void *))
P(CUresult cuGraphicsSubResourceGetMappedArray(void **, void *, unsigned, unsigned))
P(CUresult cuGraphicsResourceGetMappedMipmappedArray(void **, void *))
P(CUresult cuGraphicsResourceGetMappedPointer_v2(CUdeviceptr *, size_t *, void *))
P(CUresult cuGraphicsResourceSetMapFlags_v2(void *, unsigned))
P(CUresult cuGraphicsMapResources(unsigned, void **, CUstream))
P(CUresult cuGraphicsUnmapResources(unsigned, void **, CUstream))
P(CUresult cuCtxRecordEvent(CUcontext, CUevent))
P(CUresult cuCtxWaitEvent(CUcontext, CUevent))
P(CUresult cuCtxGetSharedMemConfig(int *))
P(CUresult cuCtxSetSharedMemConfig(int))
P(CUresult cuModuleLoadData(CUmodule *, const void *))
P(CUresult cuModuleLoadFatBinary(CUmodule *, const void *))
P(CUresult cuDeviceGetProperties(void *, CUdevice))
P(CUresult cuDeviceRegisterAsyncNotification(CUdevice, cudaAsyncCallback, void *,
                                             cudaAsyncCallbackHandle_t *))
P(CUresult cuDeviceUnregisterAsyncNotification(CUdevice, cudaAsyncCallbackHandle_t))

/* The runtime's error as the driver's code. */
static CUresult cu(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidResourceHandle:
  case cudaErrorInvalidDeviceFunction:
    return CUDA_ERROR_INVALID_HANDLE;
  case cudaErrorSymbolNotFound:
    return CUDA_ERROR_NOT_FOUND;
  case cudaErrorInitializationError:
    return CUDA_ERROR_NOT_INITIALIZED;
  default:
    return (CUresult)e;
  }
}

/* Run a runtime-side helper under the lock, without touching the runtime's
 * last error (driver calls have none). */
#define LOCKED(expr)                                                                                         \
  do {                                                                                                       \
    rt_begin(0);                                                                                             \
    cudaError_t e_ = (expr);                                                                                 \
    pthread_mutex_unlock(&rt.lock);                                                                          \
    return cu(e_);                                                                                           \
  } while (0)

/* ---- streams ---- */

EXPORT cuStreamGetAttribute(CUstream s, int attr, void *value) {
  return cu(cudaStreamGetAttribute(s, attr, value));
}
EXPORT cuStreamSetAttribute(CUstream s, int attr, const void *value) {
  return cu(cudaStreamSetAttribute(s, attr, value));
}
EXPORT cuStreamCopyAttributes(CUstream dst, CUstream src) { return cu(cudaStreamCopyAttributes(dst, src)); }
EXPORT cuStreamGetDevice(CUstream s, CUdevice *dev) { return cu(cudaStreamGetDevice(s, dev)); }
/* no green contexts: *greenCtx is NULL, the stream's context the one there is */
EXPORT cuStreamGetCtx_v2(CUstream s, CUcontext *ctx, void **greenCtx) {
  if (!ctx && !greenCtx) return CUDA_ERROR_INVALID_VALUE;
  int dev;
  CUresult r = cu(cudaStreamGetDevice(s, &dev));
  if (r) return r;
  if (greenCtx) *greenCtx = NULL;
  return ctx ? cuCtxGetCurrent(ctx) : CUDA_SUCCESS;
}

/* ---- contexts: the one there is, or the current one for NULL ---- */

static CUresult ctx_ok(CUcontext c) {
  CUcontext cur = NULL;
  CUresult r = cuCtxGetCurrent(&cur);
  if (r) return r;
  if (!c) return cur ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
  return c == cur ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

EXPORT cuCtxGetDevice_v2(CUdevice *dev, CUcontext c) {
  CUresult r = ctx_ok(c);
  return r ? r : cuCtxGetDevice(dev);
}
EXPORT cuCtxSynchronize_v2(CUcontext c) {
  CUresult r = ctx_ok(c);
  return r ? r : cuCtxSynchronize();
}
EXPORT cuCtxResetPersistingL2Cache(void) { return cu(cudaCtxResetPersistingL2Cache()); }
/* All work of the context is the one queue: recording in the legacy stream
 * comes after all of it, and later work already waits for earlier work. */
EXPORT cuCtxRecordEvent(CUcontext c, CUevent ev) {
  CUresult r = ctx_ok(c);
  return r ? r : cu(cudaEventRecord(ev, cudaStreamLegacy));
}
EXPORT cuCtxWaitEvent(CUcontext c, CUevent ev) {
  CUresult r = ctx_ok(c);
  if (r) return r;
  rt_begin(0);
  r = rt_event_get(ev) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
  pthread_mutex_unlock(&rt.lock);
  return r;
}
/* CUsharedconfig is cudaSharedMemConfig (0 default, 1 four-byte, 2 eight-byte) */
EXPORT cuCtxGetSharedMemConfig(int *config) {
  if (!config) return CUDA_ERROR_INVALID_VALUE;
  enum cudaSharedMemConfig c;
  CUresult r = cu(cudaDeviceGetSharedMemConfig(&c));
  if (!r) *config = (int)c;
  return r;
}
EXPORT cuCtxSetSharedMemConfig(int config) {
  return cu(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)config));
}

/* ---- devices ---- */

/* CUdevprop (deprecated): ten ints of device attributes 1..14. */
EXPORT cuDeviceGetProperties(void *prop, CUdevice dev) {
  if (!prop) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  static const int attrs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
  int v[14];
  for (int i = 0; i < 14; i++) {
    CUresult r = cuDeviceGetAttribute(&v[i], attrs[i], dev);
    if (r) return r;
  }
  memcpy(prop, v, sizeof v);
  return CUDA_SUCCESS;
}
EXPORT cuDeviceRegisterAsyncNotification(CUdevice dev, cudaAsyncCallback fn, void *data,
                                         cudaAsyncCallbackHandle_t *h) {
  return cu(cudaDeviceRegisterAsyncNotification(dev, fn, data, h));
}
EXPORT cuDeviceUnregisterAsyncNotification(CUdevice dev, cudaAsyncCallbackHandle_t h) {
  return cu(cudaDeviceUnregisterAsyncNotification(dev, h));
}

/* ---- functions, kernels, libraries ---- */

EXPORT cuModuleLoadFatBinary(CUmodule *m, const void *fatCubin) { return cuModuleLoadData(m, fatCubin); }

EXPORT cuFuncGetParamInfo(CUfunction f, size_t i, size_t *offset, size_t *size) {
  if (!f || (!offset && !size)) return CUDA_ERROR_INVALID_VALUE;
  LOCKED(rt_func_param_info(f, i, offset, size));
}
EXPORT cuKernelGetParamInfo(CUkernel k, size_t i, size_t *offset, size_t *size) {
  return cuFuncGetParamInfo(k, i, offset, size);
}

/* A module or library made by the driver API, or NULL. */
static rt_module *driver_module(const void *h) {
  for (rt_module *m = rt.mods; m; m = m->next)
    if (m == h && m->from_driver) return m;
  return NULL;
}

EXPORT cuLibraryGetKernelCount(unsigned *count, CUlibrary lib) {
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  rt_begin(0);
  rt_module *m = driver_module(lib);
  cudaError_t e = m ? rt_library_kernels(m, count, NULL, 0) : cudaErrorInvalidResourceHandle;
  pthread_mutex_unlock(&rt.lock);
  return cu(e);
}
EXPORT cuLibraryEnumerateKernels(CUkernel *kernels, unsigned n, CUlibrary lib) {
  if (!kernels || !n) return CUDA_ERROR_INVALID_VALUE;
  rt_begin(0);
  rt_module *m = driver_module(lib);
  cudaError_t e = m ? rt_library_kernels(m, NULL, kernels, n) : cudaErrorInvalidResourceHandle;
  pthread_mutex_unlock(&rt.lock);
  return cu(e);
}
EXPORT cuModuleGetFunctionCount(unsigned *count, CUmodule m) { return cuLibraryGetKernelCount(count, m); }
EXPORT cuModuleEnumerateFunctions(CUfunction *f, unsigned n, CUmodule m) {
  return cuLibraryEnumerateKernels(f, n, m);
}
/* __managed__ variables are device addresses the host uses as they are:
 * the static runtime asks for them here and gets the global; any other
 * variable is not found, as on the GPU */
EXPORT cuLibraryGetManaged(CUdeviceptr *p, size_t *bytes, CUlibrary lib, const char *name) {
  CUresult r = cuLibraryGetGlobal(p, bytes, lib, name);
  if (r) return r;
  return smemu_module_global_is_managed(((rt_module *)lib)->mod, name) ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
EXPORT cuLibraryGetUnifiedFunction(void **fptr, CUlibrary lib, const char *symbol) {
  return cu(cudaLibraryGetUnifiedFunction(fptr, (cudaLibrary_t)lib, symbol));
}

/* ---- user objects and the log ---- */

EXPORT cuUserObjectCreate(cudaUserObject_t *out, void *ptr, cudaHostFn_t destroy, unsigned refs,
                          unsigned flags) {
  LOCKED(rt_userobj_create(out, ptr, destroy, refs, flags));
}
EXPORT cuUserObjectRetain(cudaUserObject_t o, unsigned count) { LOCKED(rt_userobj_retain(o, count)); }
EXPORT cuUserObjectRelease(cudaUserObject_t o, unsigned count) { LOCKED(rt_userobj_release(o, count)); }

EXPORT cuLogsRegisterCallback(cudaLogsCallback_t fn, void *data, cudaLogsCallbackHandle *out) {
  return cu(rt_log_register(fn, data, out));
}
EXPORT cuLogsUnregisterCallback(cudaLogsCallbackHandle h) { return cu(rt_log_unregister(h)); }
EXPORT cuLogsCurrent(cudaLogIterator *it, unsigned flags) {
  if (!it || flags) return CUDA_ERROR_INVALID_VALUE;
  *it = rt_log_current();
  return CUDA_SUCCESS;
}
EXPORT cuLogsDumpToFile(cudaLogIterator *it, const char *path, unsigned flags) {
  return cu(cudaLogsDumpToFile(it, path, flags));
}
EXPORT cuLogsDumpToMemory(cudaLogIterator *it, char *buf, size_t *size, unsigned flags) {
  if (!buf || !size || flags) return CUDA_ERROR_INVALID_VALUE;
  size_t n = rt_log_dump(it, buf, *size);
  *size = n == (size_t)-1 ? 0 : n;
  return n == (size_t)-1 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

/* ---- peers and device lookup ---- */

EXPORT cuDeviceGetP2PAtomicCapabilities(unsigned *caps, const int *ops, unsigned count, CUdevice src,
                                        CUdevice dst) {
  return cu(cudaDeviceGetP2PAtomicCapabilities(caps, ops, count, src, dst));
}
EXPORT cuDeviceGetByPCIBusId(CUdevice *dev, const char *id) { return cu(cudaDeviceGetByPCIBusId(dev, id)); }

/* Both contexts are the one context: a copy within it. */
EXPORT cuMemcpyPeer(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n) {
  if (!dctx || !sctx) return CUDA_ERROR_INVALID_CONTEXT;
  CUresult r = ctx_ok(dctx);
  if (!r) r = ctx_ok(sctx);
  return r ? r : cuMemcpy(dst, src, n);
}
EXPORT cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n,
                         CUstream s) {
  if (!dctx || !sctx) return CUDA_ERROR_INVALID_CONTEXT;
  CUresult r = ctx_ok(dctx);
  if (!r) r = ctx_ok(sctx);
  return r ? r : cuMemcpyAsync(dst, src, n, s);
}

/* ---- cluster occupancy: CUlaunchConfig as cudaLaunchConfig_t ---- */

typedef struct {
  unsigned gx, gy, gz, bx, by, bz, shared;
  CUstream stream;
  void *attrs;
  unsigned nattrs;
} cu_config;

static int to_config(const void *config, cudaLaunchConfig_t *out) {
  const cu_config *c = config;
  if (!c) return 0;
  memset(out, 0, sizeof *out);
  out->gridDim = (dim3){c->gx, c->gy, c->gz};
  out->blockDim = (dim3){c->bx, c->by, c->bz};
  out->dynamicSmemBytes = c->shared;
  out->stream = c->stream;
  out->attrs = c->attrs;
  out->numAttrs = c->nattrs;
  return 1;
}

EXPORT cuOccupancyMaxPotentialClusterSize(int *size, CUfunction f, const void *config) {
  cudaLaunchConfig_t c;
  if (!to_config(config, &c)) return CUDA_ERROR_INVALID_VALUE;
  return cu(cudaOccupancyMaxPotentialClusterSize(size, f, &c));
}
EXPORT cuOccupancyMaxActiveClusters(int *n, CUfunction f, const void *config) {
  cudaLaunchConfig_t c;
  if (!to_config(config, &c)) return CUDA_ERROR_INVALID_VALUE;
  return cu(cudaOccupancyMaxActiveClusters(n, f, &c));
}

/* ---- interprocess handles, external resources, graphics (cudart/ipc.c,
 * external.c, interop.c say why these answers) ---- */

#define DPTR(p) ((void *)(uintptr_t)(p))

EXPORT cuIpcGetMemHandle(void *h, CUdeviceptr p) { LOCKED(rt_ipc_get_mem(h, DPTR(p))); }
EXPORT cuIpcOpenMemHandle_v2(CUdeviceptr *p, ipc_bytes h, unsigned flags) {
  if (!p || (flags & ~1u)) return CUDA_ERROR_INVALID_VALUE;
  LOCKED(rt_ipc_open(&h));
}
EXPORT cuIpcCloseMemHandle(CUdeviceptr p) { return CUDA_ERROR_INVALID_VALUE; }
EXPORT cuIpcGetEventHandle(void *h, CUevent ev) { LOCKED(rt_ipc_get_event(h, ev)); }
EXPORT cuIpcOpenEventHandle(CUevent *ev, ipc_bytes h) {
  if (!ev) return CUDA_ERROR_INVALID_VALUE;
  LOCKED(rt_ipc_open(&h));
}

EXPORT cuImportExternalMemory(void **out, const void *desc) { return cu(rt_external_import(out, desc, 8)); }
EXPORT cuDestroyExternalMemory(void *m) { return CUDA_ERROR_INVALID_VALUE; }
EXPORT cuImportExternalSemaphore(void **out, const void *desc) {
  return cu(rt_external_import(out, desc, 10));
}
EXPORT cuDestroyExternalSemaphore(void *s) { return CUDA_ERROR_INVALID_VALUE; }

EXPORT cuGraphicsUnregisterResource(void *r) { return CUDA_ERROR_INVALID_HANDLE; }
EXPORT cuGraphicsSubResourceGetMappedArray(void **a, void *r, unsigned i, unsigned l) {
  return CUDA_ERROR_INVALID_HANDLE;
}
EXPORT cuGraphicsResourceGetMappedMipmappedArray(void **a, void *r) { return CUDA_ERROR_INVALID_HANDLE; }
EXPORT cuGraphicsResourceGetMappedPointer_v2(CUdeviceptr *p, size_t *n, void *r) {
  return CUDA_ERROR_INVALID_HANDLE;
}
EXPORT cuGraphicsResourceSetMapFlags_v2(void *r, unsigned flags) { return CUDA_ERROR_INVALID_HANDLE; }
EXPORT cuGraphicsMapResources(unsigned count, void **r, CUstream s) {
  return cu(rt_graphics_map((int)count, r));
}
EXPORT cuGraphicsUnmapResources(unsigned count, void **r, CUstream s) {
  return cu(rt_graphics_map((int)count, r));
}
