/* driver_ext.c: the driver API that Python's CUDA stacks reach through
 * cuda-bindings (numba-cuda; CuPy's RawModule), beyond driver.c's subset:
 * libraries and kernels (CUDA 12's context-independent loading: here a
 * library is a module and a kernel its function), cuLaunchKernelEx, the JIT
 * linker, more device, context, stream, event, memory and occupancy queries.
 * Each is a thin layer over driver.c's entry points or the runtime API of
 * this library, so there is still one device, one set of allocations and
 * one queue.
 *
 * The linker: smemu runs PTX, so "linking" PTX inputs yields PTX as the
 * image (cuLinkComplete's "cubin"), which cuModuleLoadData and
 * cuLibraryLoadData accept: one input as it is, several joined into one
 * module (ptx_link.c). Other inputs (cubins, archives, LTO-IR) are refused
 * with a message. */
#include "cu_abi.h"
#include "cudart/graph.h"
#include "mem/bytes.h"
#include "ptx_link.h"
#include "static_rt.h"
#include <stdlib.h>
#include <string.h>

/* Runtime errors as driver codes (the numbers agree where both exist). */
static CUresult cu(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidConfiguration:
  case cudaErrorInvalidDevicePointer:
  case cudaErrorInvalidHostPointer:
    return CUDA_ERROR_INVALID_VALUE;
  case cudaErrorInvalidDeviceFunction:
  case cudaErrorInvalidResourceHandle:
    return CUDA_ERROR_INVALID_HANDLE;
  default:
    return (CUresult)e;
  }
}

#define EXPORT RT_EXPORT CUresult

/* the prototypes -Wmissing-prototypes asks for: these are the ABI's */
#define P(decl) decl;
P(CUresult cuLibraryLoadData(CUlibrary *, const void *, int *, void **, unsigned, int *, void **, unsigned))
P(CUresult cuLibraryLoadFromFile(CUlibrary *, const char *, int *, void **, unsigned, int *, void **,
                                 unsigned))
P(CUresult cuLibraryUnload(CUlibrary))
P(CUresult cuLibraryGetKernel(CUkernel *, CUlibrary, const char *))
P(CUresult cuLibraryGetModule(CUmodule *, CUlibrary))
P(CUresult cuLibraryGetGlobal(CUdeviceptr *, size_t *, CUlibrary, const char *))
P(CUresult cuKernelGetFunction(CUfunction *, CUkernel))
P(CUresult cuKernelGetAttribute(int *, int, CUkernel, CUdevice))
P(CUresult cuKernelSetAttribute(int, int, CUkernel, CUdevice))
P(CUresult cuKernelSetCacheConfig(CUkernel, int, CUdevice))
P(CUresult cuKernelGetName(const char **, CUkernel))
P(CUresult cuKernelGetLibrary(CUlibrary *, CUkernel))
P(CUresult cuFuncGetName(const char **, CUfunction))
P(CUresult cuFuncGetModule(CUmodule *, CUfunction))
P(CUresult cuFuncSetCacheConfig(CUfunction, int))
P(CUresult cuFuncSetSharedMemConfig(CUfunction, int))
P(CUresult cuFuncIsLoaded(int *, CUfunction))
P(CUresult cuFuncLoad(CUfunction))
P(CUresult cuModuleGetLoadingMode(int *))
P(CUresult cuLaunchKernelEx(const void *, CUfunction, void **, void **))
P(CUresult cuLaunchCooperativeKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                     unsigned, CUstream, void **))
P(CUresult cuLinkCreate_v2(unsigned, int *, void **, void **))
P(CUresult cuLinkAddData_v2(void *, int, void *, size_t, const char *, unsigned, int *, void **))
P(CUresult cuLinkAddFile_v2(void *, int, const char *, unsigned, int *, void **))
P(CUresult cuLinkComplete(void *, void **, size_t *))
P(CUresult cuLinkDestroy(void *))
P(CUresult cuDeviceGetUuid_v2(unsigned char *, CUdevice))
P(CUresult cuDeviceGetUuid(unsigned char *, CUdevice))
P(CUresult cuDeviceGetPCIBusId(char *, int, CUdevice))
P(CUresult cuDeviceCanAccessPeer(int *, CUdevice, CUdevice))
P(CUresult cuDeviceGetP2PAttribute(int *, int, CUdevice, CUdevice))
P(CUresult cuDevicePrimaryCtxGetState(CUdevice, unsigned *, int *))
P(CUresult cuDevicePrimaryCtxReset_v2(CUdevice))
P(CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice, unsigned))
P(CUresult cuCtxGetApiVersion(CUcontext, unsigned *))
P(CUresult cuCtxGetFlags(unsigned *))
P(CUresult cuCtxSetFlags(unsigned))
P(CUresult cuCtxGetId(CUcontext, unsigned long long *))
P(CUresult cuCtxGetStreamPriorityRange(int *, int *))
P(CUresult cuCtxGetLimit(size_t *, int))
P(CUresult cuCtxSetLimit(int, size_t))
P(CUresult cuCtxGetCacheConfig(int *))
P(CUresult cuCtxSetCacheConfig(int))
P(CUresult cuCtxEnablePeerAccess(CUcontext, unsigned))
P(CUresult cuCtxDisablePeerAccess(CUcontext))
P(CUresult cuStreamCreateWithPriority(CUstream *, unsigned, int))
P(CUresult cuStreamQuery(CUstream))
P(CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned))
P(CUresult cuStreamAddCallback(CUstream, cudaStreamCallback_t, void *, unsigned))
P(CUresult cuLaunchHostFunc(CUstream, cudaHostFn_t, void *))
P(CUresult cuStreamGetPriority(CUstream, int *))
P(CUresult cuStreamGetFlags(CUstream, unsigned *))
P(CUresult cuStreamGetCtx(CUstream, CUcontext *))
P(CUresult cuStreamGetId(CUstream, unsigned long long *))
P(CUresult cuEventQuery(CUevent))
P(CUresult cuEventRecordWithFlags(CUevent, CUstream, unsigned))
P(CUresult cuMemHostAlloc(void **, size_t, unsigned))
P(CUresult cuMemAllocHost_v2(void **, size_t))
P(CUresult cuMemFreeHost(void *))
P(CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *, void *, unsigned))
P(CUresult cuMemHostRegister_v2(void *, size_t, unsigned))
P(CUresult cuMemHostUnregister(void *))
P(CUresult cuMemAllocManaged(CUdeviceptr *, size_t, unsigned))
P(CUresult cuMemGetAddressRange_v2(CUdeviceptr *, size_t *, CUdeviceptr))
P(CUresult cuPointerGetAttribute(void *, int, CUdeviceptr))
P(CUresult cuPointerGetAttributes(unsigned, int *, void **, CUdeviceptr))
P(CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *, CUfunction, int, size_t, unsigned))
P(CUresult cuOccupancyMaxPotentialBlockSize(int *, int *, CUfunction, size_t (*)(int), size_t, int))
P(CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *, int *, CUfunction, size_t (*)(int), size_t, int,
                                                     unsigned))
P(CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *, CUfunction, int, int))
P(CUresult cuProfilerStart(void))
P(CUresult cuProfilerStop(void))

/* ---- libraries and kernels ---- */

EXPORT cuLibraryLoadData(CUlibrary *lib, const void *code, int *jitOptions, void **jitValues, unsigned numJit,
                         int *libOptions, void **libValues, unsigned numLib) {
  (void)libOptions;
  (void)libValues;
  (void)numLib;
  return cuModuleLoadDataEx(lib, code, numJit, jitOptions, jitValues);
}
EXPORT cuLibraryLoadFromFile(CUlibrary *lib, const char *path, int *jitOptions, void **jitValues,
                             unsigned numJit, int *libOptions, void **libValues, unsigned numLib) {
  (void)jitOptions, (void)jitValues, (void)numJit, (void)libOptions, (void)libValues, (void)numLib;
  return cuModuleLoad(lib, path);
}
EXPORT cuLibraryUnload(CUlibrary lib) { return cuModuleUnload(lib); }
EXPORT cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name) {
  return cuModuleGetFunction(k, lib, name);
}
EXPORT cuLibraryGetModule(CUmodule *m, CUlibrary lib) {
  if (!m || !lib) return CUDA_ERROR_INVALID_VALUE;
  *m = lib;
  return CUDA_SUCCESS;
}
EXPORT cuLibraryGetGlobal(CUdeviceptr *p, size_t *n, CUlibrary lib, const char *name) {
  return cuModuleGetGlobal_v2(p, n, lib, name);
}
EXPORT cuKernelGetFunction(CUfunction *f, CUkernel k) {
  if (!f || !k) return CUDA_ERROR_INVALID_VALUE;
  *f = k;
  return CUDA_SUCCESS;
}
EXPORT cuKernelGetAttribute(int *v, int attr, CUkernel k, CUdevice dev) {
  (void)dev;
  return cuFuncGetAttribute(v, attr, k);
}
EXPORT cuKernelSetAttribute(int attr, int v, CUkernel k, CUdevice dev) {
  (void)dev;
  return cuFuncSetAttribute(k, attr, v);
}
EXPORT cuKernelSetCacheConfig(CUkernel k, int c, CUdevice dev) {
  (void)dev;
  return cuFuncSetCacheConfig(k, c);
}
EXPORT cuKernelGetName(const char **name, CUkernel k) { return cuFuncGetName(name, k); }
EXPORT cuKernelGetLibrary(CUlibrary *lib, CUkernel k) { return cuFuncGetModule(lib, k); }
EXPORT cuFuncGetName(const char **name, CUfunction f) {
  if (!name || !f) return CUDA_ERROR_INVALID_VALUE;
  *name = f->name;
  return CUDA_SUCCESS;
}
EXPORT cuFuncGetModule(CUmodule *m, CUfunction f) {
  if (!m || !f) return CUDA_ERROR_INVALID_VALUE;
  *m = f->m;
  return CUDA_SUCCESS;
}
EXPORT cuFuncSetCacheConfig(CUfunction f, int c) {
  return cu(cudaFuncSetCacheConfig(f, (enum cudaFuncCache)c));
}
EXPORT cuFuncSetSharedMemConfig(CUfunction f, int c) {
  (void)f, (void)c;
  return CUDA_SUCCESS; /* a hint the hardware since 5.x ignores */
}
EXPORT cuFuncIsLoaded(int *state, CUfunction f) {
  if (!state || !f) return CUDA_ERROR_INVALID_VALUE;
  *state = 1; /* CU_FUNCTION_LOADING_STATE_LOADED */
  return CUDA_SUCCESS;
}
EXPORT cuFuncLoad(CUfunction f) { return f ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }
EXPORT cuModuleGetLoadingMode(int *mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  *mode = 2; /* CU_MODULE_LAZY_LOADING: modules load on first use */
  return CUDA_SUCCESS;
}

/* CUlaunchConfig and CUlaunchAttribute (CUDA 12+): the attributes are
 * checked and stored as cudaLaunchKernelEx's (cudart/launch_attr.c). */
typedef struct {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int cooperative;
  } value;
} cu_launch_attr;
typedef struct {
  unsigned gx, gy, gz, bx, by, bz, shared;
  CUstream stream;
  cu_launch_attr *attrs;
  unsigned nattrs;
} cu_launch_config;

EXPORT cuLaunchKernelEx(const void *config, CUfunction f, void **params, void **extra) {
  const cu_launch_config *c = config;
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  cudaError_t e = rt_attrs_check(c->attrs, c->nattrs);
  if (e) return cu(e);
  uint32_t dims[3];
  rt_attrs_begin(c->attrs, c->nattrs, dims);
  CUresult r =
      cuLaunchKernel(f, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->shared, c->stream, params, extra);
  rt_attrs_end(r == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure, c->stream);
  return r;
}
EXPORT cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                 unsigned by, unsigned bz, unsigned shared, CUstream s, void **params) {
  cu_launch_attr a = {.id = 2 /* CU_LAUNCH_ATTRIBUTE_COOPERATIVE */, .value.cooperative = 1};
  cu_launch_config c = {gx, gy, gz, bx, by, bz, shared, s, &a, 1};
  return cuLaunchKernelEx(&c, f, params, NULL);
}

/* ---- the JIT linker: PTX inputs joined into one module ---- */

enum { CU_JIT_INPUT_PTX = 1, CU_JIT_INPUT_LIBRARY = 4 };
typedef struct link_state {
  char *ptx;
  int inputs;
} link_state;

EXPORT cuLinkCreate_v2(unsigned n, int *options, void **values, void **state) {
  (void)n, (void)options, (void)values;
  if (!state) return CUDA_ERROR_INVALID_VALUE;
  *state = calloc(1, sizeof(link_state));
  return *state ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
EXPORT cuLinkAddData_v2(void *state, int type, void *data, size_t size, const char *name, unsigned n,
                        int *options, void **values) {
  (void)n, (void)options, (void)values;
  link_state *l = state;
  if (!l || !data) return CUDA_ERROR_INVALID_VALUE;
  /* NVIDIA's device runtime (libcudadevrt.a, no PTX): its functions are
   * built in (core/devrt.c) */
  if (type == CU_JIT_INPUT_LIBRARY && rt_devrt_library(name)) return CUDA_SUCCESS;
  if (type != CU_JIT_INPUT_PTX) {
    rt_msg("cuLinkAddData: input %s is not PTX (type %d); smemu links PTX only", name ? name : "?", type);
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  size_t k = strnlen(data, size);
  char *ptx = malloc(k + 1);
  if (!ptx) return CUDA_ERROR_OUT_OF_MEMORY;
  memcpy(ptx, data, k);
  ptx[k] = 0;
  if (l->inputs++) {
    /* a further input joins the PTX so far (ptx_link.c) */
    char why[256];
    char *joined = rt_ptx_link(l->ptx, ptx, l->inputs, why, sizeof why);
    free(ptx);
    if (!joined) {
      rt_msg("cuLinkAddData: cannot link PTX input %s: %s", name ? name : "?", why);
      return CUDA_ERROR_NOT_SUPPORTED;
    }
    free(l->ptx);
    ptx = joined;
  }
  l->ptx = ptx;
  return CUDA_SUCCESS;
}
EXPORT cuLinkAddFile_v2(void *state, int type, const char *path, unsigned n, int *options, void **values) {
  if (!path) return CUDA_ERROR_FILE_NOT_FOUND;
  size_t len;
  int err;
  char *buf = file_read(path, &len, &err);
  if (err == FILE_NO_OPEN) return CUDA_ERROR_FILE_NOT_FOUND;
  if (!buf) return CUDA_ERROR_OUT_OF_MEMORY;
  CUresult r = cuLinkAddData_v2(state, type, buf, len + 1, path, n, options, values);
  free(buf);
  return r;
}
EXPORT cuLinkComplete(void *state, void **image, size_t *size) {
  link_state *l = state;
  if (!l || !image) return CUDA_ERROR_INVALID_VALUE;
  if (!l->ptx) {
    rt_msg("cuLinkComplete: nothing to link");
    return CUDA_ERROR_INVALID_VALUE;
  }
  *image = l->ptx;
  if (size) *size = strlen(l->ptx) + 1;
  return CUDA_SUCCESS;
}
EXPORT cuLinkDestroy(void *state) {
  link_state *l = state;
  if (l) free(l->ptx);
  free(l);
  return CUDA_SUCCESS;
}

/* ---- device and context ---- */

EXPORT cuDeviceGetUuid_v2(unsigned char *uuid, CUdevice dev) {
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  if (dev) return 101; /* CUDA_ERROR_INVALID_DEVICE */
  /* a fixed identity: "smemu" and the device number */
  static const unsigned char id[16] = {'s', 'm', 'e', 'm', 'u', 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0};
  memcpy(uuid, id, sizeof id);
  return CUDA_SUCCESS;
}
EXPORT cuDeviceGetUuid(unsigned char *uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }
EXPORT cuDeviceGetPCIBusId(char *id, int len, CUdevice dev) {
  if (!id || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (dev) return 101;
  snprintf(id, (size_t)len, "0000:00:00.0");
  return CUDA_SUCCESS;
}
EXPORT cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer) {
  (void)dev, (void)peer;
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  *can = 0; /* one device */
  return CUDA_SUCCESS;
}
EXPORT cuDeviceGetP2PAttribute(int *v, int attr, CUdevice a, CUdevice b) {
  /* one device: a link with itself or a device that does not exist is an
   * invalid device (the documentation), the checks cudart/peer.c makes */
  (void)a, (void)b, (void)attr;
  return v ? CUDA_ERROR_INVALID_DEVICE : CUDA_ERROR_INVALID_VALUE;
}
EXPORT cuDevicePrimaryCtxGetState(CUdevice dev, unsigned *flags, int *active) {
  if (dev) return 101;
  CUcontext c = NULL;
  if (flags) *flags = 0;
  if (active) *active = cuCtxGetCurrent(&c) == CUDA_SUCCESS && c;
  return CUDA_SUCCESS;
}
EXPORT cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  if (dev) return 101;
  static_rt_ctx_reset(); /* what cudaDeviceReset does (export_tables.c) */
  return CUDA_SUCCESS;
}
EXPORT cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags) {
  (void)flags;
  return dev ? 101 : CUDA_SUCCESS;
}
EXPORT cuCtxGetApiVersion(CUcontext c, unsigned *v) {
  (void)c;
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *v = 13000;
  return CUDA_SUCCESS;
}
EXPORT cuCtxGetFlags(unsigned *flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  *flags = 0;
  return CUDA_SUCCESS;
}
EXPORT cuCtxSetFlags(unsigned flags) {
  (void)flags;
  return CUDA_SUCCESS;
}
EXPORT cuCtxGetId(CUcontext c, unsigned long long *id) {
  (void)c;
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  *id = 1;
  return CUDA_SUCCESS;
}
EXPORT cuCtxGetStreamPriorityRange(int *least, int *greatest) {
  return cu(cudaDeviceGetStreamPriorityRange(least, greatest));
}
EXPORT cuCtxGetLimit(size_t *v, int limit) { return cu(cudaDeviceGetLimit(v, (enum cudaLimit)limit)); }
EXPORT cuCtxSetLimit(int limit, size_t v) { return cu(cudaDeviceSetLimit((enum cudaLimit)limit, v)); }
EXPORT cuCtxGetCacheConfig(int *c) {
  enum cudaFuncCache k;
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = cu(cudaDeviceGetCacheConfig(&k));
  *c = (int)k;
  return r;
}
EXPORT cuCtxSetCacheConfig(int c) { return cu(cudaDeviceSetCacheConfig((enum cudaFuncCache)c)); }
EXPORT cuCtxEnablePeerAccess(CUcontext c, unsigned flags) {
  (void)c, (void)flags;
  return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
}
EXPORT cuCtxDisablePeerAccess(CUcontext c) {
  (void)c;
  /* no peer was enabled: the answer an H200 gives the runtime's
   * cudaDeviceDisablePeerAccess (tests/hw/rtapi/small_api.out) */
  return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

/* ---- streams and events ---- */

EXPORT cuStreamCreateWithPriority(CUstream *s, unsigned flags, int prio) {
  return cu(cudaStreamCreateWithPriority(s, flags, prio));
}
EXPORT cuStreamQuery(CUstream s) { return cu(cudaStreamQuery(s)); }
EXPORT cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
  return cu(cudaStreamWaitEvent(s, e, flags));
}
EXPORT cuStreamAddCallback(CUstream s, cudaStreamCallback_t cb, void *data, unsigned flags) {
  /* CUstreamCallback has the runtime callback's shape (stream, status, data) */
  return cu(cudaStreamAddCallback(s, cb, data, flags));
}
EXPORT cuLaunchHostFunc(CUstream s, cudaHostFn_t fn, void *data) {
  return cu(cudaLaunchHostFunc(s, fn, data));
}
EXPORT cuStreamGetPriority(CUstream s, int *p) { return cu(cudaStreamGetPriority(s, p)); }
EXPORT cuStreamGetFlags(CUstream s, unsigned *f) { return cu(cudaStreamGetFlags(s, f)); }
EXPORT cuStreamGetCtx(CUstream s, CUcontext *c) {
  (void)s;
  return cuCtxGetCurrent(c);
}
EXPORT cuStreamGetId(CUstream s, unsigned long long *id) {
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  *id = (unsigned long long)(uintptr_t)s;
  return CUDA_SUCCESS;
}
EXPORT cuEventQuery(CUevent e) { return cu(cudaEventQuery(e)); }
EXPORT cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags) {
  (void)flags;
  return cu(cudaEventRecord(e, s));
}

/* ---- memory ---- */

#define DP(p) ((void *)(uintptr_t)(p))
EXPORT cuMemHostAlloc(void **p, size_t n, unsigned flags) { return cu(cudaHostAlloc(p, n, flags)); }
EXPORT cuMemAllocHost_v2(void **p, size_t n) { return cu(cudaMallocHost(p, n)); }
EXPORT cuMemFreeHost(void *p) { return cu(cudaFreeHost(p)); }
EXPORT cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned flags) {
  void *q = NULL;
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = cu(cudaHostGetDevicePointer(&q, p, flags));
  *d = (CUdeviceptr)(uintptr_t)q;
  return r;
}
EXPORT cuMemHostRegister_v2(void *p, size_t n, unsigned flags) { return cu(cudaHostRegister(p, n, flags)); }
EXPORT cuMemHostUnregister(void *p) { return cu(cudaHostUnregister(p)); }
EXPORT cuMemAllocManaged(CUdeviceptr *d, size_t n, unsigned flags) {
  void *p = NULL;
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = cu(cudaMallocManaged(&p, n, flags));
  *d = (CUdeviceptr)(uintptr_t)p;
  return r;
}
/* cuMemAllocAsync and cuMemFreeAsync are in driver_pool.c, with the pools. */
/* cuMemcpy, cuMemcpyAsync, the typed async copies and cuMemsetD8/D32Async
 * are in driver.c, range-checked. */
EXPORT cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p) {
  void *b = NULL;
  size_t n = 0;
  cudaError_t e = rt_begin(1);
  if (e) return cu(rt_end(e));
  smemu_status s = smemu_mem_lookup(rt.ctx, DP(p), &b, &n, NULL);
  rt_end(cudaSuccess);
  if (s != SMEMU_OK) return 1; /* CUDA_ERROR_INVALID_VALUE: not an allocation */
  if (base) *base = (CUdeviceptr)(uintptr_t)b;
  if (size) *size = n;
  return CUDA_SUCCESS;
}

/* CUpointer_attribute values and CUmemorytype */
enum {
  PA_CONTEXT = 1,
  PA_MEMORY_TYPE = 2,
  PA_DEVICE_POINTER = 3,
  PA_HOST_POINTER = 4,
  PA_SYNC_MEMOPS = 6,
  PA_BUFFER_ID = 7,
  PA_IS_MANAGED = 8,
  PA_DEVICE_ORDINAL = 9,
  PA_RANGE_START = 11,
  PA_RANGE_SIZE = 12,
  PA_MAPPED = 13
};

EXPORT cuPointerGetAttribute(void *data, int attr, CUdeviceptr p) {
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  CUresult r = cu(cudaPointerGetAttributes(&a, DP(p)));
  if (r) return r;
  int known = a.type != cudaMemoryTypeUnregistered;
  CUdeviceptr base = 0;
  size_t size = 0;
  if (known && cuMemGetAddressRange_v2(&base, &size, p) != CUDA_SUCCESS) known = 0;
  switch (attr) {
  case PA_CONTEXT:
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    return cuCtxGetCurrent(data);
  case PA_MEMORY_TYPE:
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    /* CU_MEMORYTYPE_HOST 1, DEVICE 2 (managed memory reports device) */
    *(unsigned *)data = a.type == cudaMemoryTypeHost ? 1 : 2;
    return CUDA_SUCCESS;
  case PA_DEVICE_POINTER:
  case PA_HOST_POINTER:
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    *(void **)data = DP(p);
    return CUDA_SUCCESS;
  case PA_SYNC_MEMOPS:
  case PA_MAPPED:
    *(int *)data = known;
    return CUDA_SUCCESS;
  case PA_BUFFER_ID:
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    *(unsigned long long *)data = base;
    return CUDA_SUCCESS;
  case PA_IS_MANAGED:
    *(int *)data = a.type == cudaMemoryTypeManaged;
    return CUDA_SUCCESS;
  case PA_DEVICE_ORDINAL:
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    *(int *)data = 0;
    return CUDA_SUCCESS;
  case PA_RANGE_START:
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    *(CUdeviceptr *)data = base;
    return CUDA_SUCCESS;
  case PA_RANGE_SIZE:
    if (!known) return CUDA_ERROR_INVALID_VALUE;
    *(size_t *)data = size;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}
EXPORT cuPointerGetAttributes(unsigned n, int *attrs, void **data, CUdeviceptr p) {
  if (!attrs || !data) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < n; i++) {
    /* like CUDA: an attribute that does not apply leaves its slot zeroed */
    if (cuPointerGetAttribute(data[i], attrs[i], p) != CUDA_SUCCESS && data[i]) {
      size_t w = attrs[i] == PA_MEMORY_TYPE || attrs[i] == PA_DEVICE_ORDINAL || attrs[i] == PA_IS_MANAGED ||
                         attrs[i] == PA_SYNC_MEMOPS || attrs[i] == PA_MAPPED
                     ? sizeof(int)
                     : sizeof(void *);
      memset(data[i], 0, w);
      /* no device: CU_DEVICE_INVALID, which cudaPointerGetAttributes
       * reports for unregistered memory (tests/hw/rtapi) */
      if (attrs[i] == PA_DEVICE_ORDINAL) *(int *)data[i] = -2;
    }
  }
  return CUDA_SUCCESS;
}

/* ---- occupancy ---- */

EXPORT cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, CUfunction f, int bs, size_t dyn,
                                                            unsigned fl) {
  (void)fl;
  return cuOccupancyMaxActiveBlocksPerMultiprocessor(n, f, bs, dyn);
}
/* The block size with the most resident threads per SM (the largest such),
 * and the grid that fills every SM with it: CUDA's search, step one warp. */
EXPORT cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGrid, int *blockSize, CUfunction f,
                                                 size_t (*dyn_of)(int), size_t dyn, int limit,
                                                 unsigned flags) {
  (void)flags;
  if (!minGrid || !blockSize || !f) return CUDA_ERROR_INVALID_VALUE;
  int maxt = 0, sms = 0;
  CUresult r = cuFuncGetAttribute(&maxt, 0 /* MAX_THREADS_PER_BLOCK */, f);
  if (!r) r = cuDeviceGetAttribute(&sms, 16 /* MULTIPROCESSOR_COUNT */, 0);
  if (r) return r;
  if (limit > 0 && limit < maxt) maxt = limit;
  int best = 0, best_bs = 0, best_blocks = 0;
  for (int bs = maxt - maxt % 32; bs > 0; bs -= 32) {
    int blocks = 0;
    r = cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, bs, dyn_of ? dyn_of(bs) : dyn);
    if (r) return r;
    if (blocks * bs > best) {
      best = blocks * bs;
      best_bs = bs;
      best_blocks = blocks;
    }
  }
  *blockSize = best_bs;
  *minGrid = best_blocks * sms;
  return CUDA_SUCCESS;
}
EXPORT cuOccupancyMaxPotentialBlockSize(int *minGrid, int *blockSize, CUfunction f, size_t (*dyn_of)(int),
                                        size_t dyn, int limit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(minGrid, blockSize, f, dyn_of, dyn, limit, 0);
}
EXPORT cuOccupancyAvailableDynamicSMemPerBlock(size_t *n, CUfunction f, int blocks, int bs) {
  return cu(cudaOccupancyAvailableDynamicSMemPerBlock(n, f, blocks, bs));
}

/* ---- what one emulated device has no use for ---- */

EXPORT cuProfilerStart(void) { return CUDA_SUCCESS; }
EXPORT cuProfilerStop(void) { return CUDA_SUCCESS; }
