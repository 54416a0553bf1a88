/* driver.c: the subset of the CUDA driver API that programs loading PTX
 * themselves use (NVRTC programs, JIT libraries): initialisation, the one
 * device, a context, modules from PTX text or a fatbinary, functions,
 * globals, memory, copies, launches with kernelParams or a packed `extra`
 * buffer, streams, events and error names. It shares the runtime's state,
 * so both APIs see one device, one set of allocations and one queue.
 * Exported from libcudart.so.13; libcuda.so.1 depends on it. */
#include "cu_abi.h"
#include "cudart/graph.h"
#include "mem/bytes.h"
#include "static_rt.h"
#include <stdlib.h>
#include <string.h>

/* The one context; its address is the handle. */
struct rt_ctx_st {
  int alive;
};
static struct rt_ctx_st the_ctx;
static int drv_init_called;
/* cuInit ran, or the runtime API did (it initialises the driver, as
 * CUDA's does: tests/hw/harden shows driver copies working without cuInit) */
#define drv_inited (drv_init_called || rt.driver_ready)
static _Thread_local CUcontext current;

/* The exported entry points (CUDA 13 names: cuMemAlloc is cuMemAlloc_v2, ...). */
CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *v);
CUresult cuDeviceGetCount(int *n);
CUresult cuDeviceGet(CUdevice *d, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuCtxCreate_v4(CUcontext *pctx, void *params, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult cuCtxGetDevice(CUdevice *dev);
CUresult cuCtxSynchronize(void);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction f, int blockSize,
                                                     size_t dynamicSMemSize);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int shared, CUstream stream,
                        void **kernelParams, void **extra);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n);
CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned int v, size_t n);
CUresult cuMemsetD16_v2(CUdeviceptr p, unsigned short v, size_t n);
CUresult cuMemsetD8Async(CUdeviceptr p, unsigned char v, size_t n, CUstream s);
CUresult cuMemsetD16Async(CUdeviceptr p, unsigned short v, size_t n, CUstream s);
CUresult cuMemsetD32Async(CUdeviceptr p, unsigned int v, size_t n, CUstream s);
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s);
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuStreamCreate(CUstream *s, unsigned int flags);
CUresult cuStreamDestroy_v2(CUstream s);
CUresult cuStreamSynchronize(CUstream s);
CUresult cuEventCreate(CUevent *e, unsigned int flags);
CUresult cuEventRecord(CUevent e, CUstream s);
CUresult cuEventSynchronize(CUevent e);
CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b);
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b);
CUresult cuEventDestroy_v2(CUevent e);

/* Driver codes are the runtime's numbers where both have the error. */
static CUresult to_cu(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidConfiguration:
  case cudaErrorInvalidMemcpyDirection:
  case cudaErrorInvalidPitchValue:
  case cudaErrorInvalidDevicePointer:
  case cudaErrorInvalidHostPointer:
    return CUDA_ERROR_INVALID_VALUE;
  case cudaErrorInvalidDeviceFunction:
    return CUDA_ERROR_INVALID_HANDLE;
  case cudaErrorInvalidSymbol:
    return CUDA_ERROR_NOT_FOUND;
  default:
    return (CUresult)e;
  }
}

static const struct {
  int code;
  const char *name;
} cu_names[] = {
#define CUERR(code, name) {code, #name},
#include "cu_errors.def"
#undef CUERR
};

RT_EXPORT CUresult cuGetErrorName(CUresult e, const char **s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof cu_names / sizeof cu_names[0]; i++)
    if (cu_names[i].code == e) {
      *s = cu_names[i].name;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

RT_EXPORT CUresult cuGetErrorString(CUresult e, const char **s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  const char *n;
  if (cuGetErrorName(e, &n)) {
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *s = e == 201   ? "invalid device context"
       : e == 500 ? "named symbol not found"
                  : cudaGetErrorString((cudaError_t)e);
  return CUDA_SUCCESS;
}

/* Enter a driver call: initialised, the device's context, no sticky error. */
static CUresult enter(void) {
  cudaError_t e = rt_begin(1);
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(e);
}

static CUresult leave(CUresult r) {
  pthread_mutex_unlock(&rt.lock);
  return r;
}

RT_EXPORT CUresult cuInit(unsigned int flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  cudaError_t e = rt_begin(1);
  if (!e) drv_init_called = 1;
  return leave(to_cu(e));
}

RT_EXPORT CUresult cuDriverGetVersion(int *v) {
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *v = 13000;
  return CUDA_SUCCESS;
}

RT_EXPORT CUresult cuDeviceGetCount(int *n) {
  CUresult r = enter();
  if (r == CUDA_SUCCESS && !n) r = CUDA_ERROR_INVALID_VALUE;
  if (r == CUDA_SUCCESS) *n = 1;
  return leave(r);
}

RT_EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  CUresult r = enter();
  if (r == CUDA_SUCCESS && !d) r = CUDA_ERROR_INVALID_VALUE;
  if (r == CUDA_SUCCESS && ordinal != 0) r = CUDA_ERROR_INVALID_DEVICE;
  if (r == CUDA_SUCCESS) *d = 0;
  return leave(r);
}

RT_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!name || len <= 0) return leave(CUDA_ERROR_INVALID_VALUE);
  if (dev != 0) return leave(CUDA_ERROR_INVALID_DEVICE);
  struct cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  snprintf(name, (size_t)len, "%s", p.name);
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice dev) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!v) return leave(CUDA_ERROR_INVALID_VALUE);
  if (dev != 0) return leave(CUDA_ERROR_INVALID_DEVICE);
  return leave(rt_device_attribute(attr, v) && rt_device_attribute_props(attr, v) ? CUDA_ERROR_INVALID_VALUE
                                                                                  : CUDA_SUCCESS);
}

RT_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!major || !minor) return leave(CUDA_ERROR_INVALID_VALUE);
  if (dev != 0) return leave(CUDA_ERROR_INVALID_DEVICE);
  *major = rt.arch.major;
  *minor = rt.arch.minor;
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!bytes) return leave(CUDA_ERROR_INVALID_VALUE);
  if (dev != 0) return leave(CUDA_ERROR_INVALID_DEVICE);
  *bytes = rt_total_memory();
  return leave(CUDA_SUCCESS);
}

/* ---- contexts: one, shared with the runtime ---- */

static CUresult ctx_create(CUcontext *pctx, CUdevice dev) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!pctx) return leave(CUDA_ERROR_INVALID_VALUE);
  if (dev != 0) return leave(CUDA_ERROR_INVALID_DEVICE);
  the_ctx.alive = 1;
  *pctx = current = &the_ctx;
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, void *params, unsigned int flags, CUdevice dev) {
  (void)params;
  (void)flags;
  return ctx_create(pctx, dev);
}

RT_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev) {
  (void)flags;
  return ctx_create(pctx, dev);
}

RT_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) { return ctx_create(pctx, dev); }

RT_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  CUresult r = enter();
  if (r == to_cu(rt.sticky)) r = CUDA_SUCCESS; /* teardown after a fault */
  if (!r && dev != 0) r = CUDA_ERROR_INVALID_DEVICE;
  return leave(r);
}

RT_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) {
  CUresult r = enter();
  if (r) return leave(r);
  if (ctx != &the_ctx) return leave(CUDA_ERROR_INVALID_CONTEXT);
  rt_drain();
  if (current == ctx) current = NULL;
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
  CUresult r = enter();
  if (!r && ctx && ctx != &the_ctx) r = CUDA_ERROR_INVALID_CONTEXT;
  if (!r) current = ctx;
  return leave(r);
}

RT_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx) {
  /* a thread's current context, even after a kernel fault (the static
   * runtime's cudaDeviceReset starts here) */
  CUresult r = enter();
  if (r == to_cu(rt.sticky)) r = CUDA_SUCCESS;
  if (!r && !pctx) r = CUDA_ERROR_INVALID_VALUE;
  if (!r) *pctx = current;
  return leave(r);
}

RT_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) { return cuCtxSetCurrent(ctx); }

RT_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx) {
  CUresult r = enter();
  if (!r && pctx) *pctx = current;
  if (!r) current = NULL;
  return leave(r);
}

RT_EXPORT CUresult cuCtxGetDevice(CUdevice *dev) {
  CUresult r = enter();
  if (!r && !dev) r = CUDA_ERROR_INVALID_VALUE;
  if (!r) *dev = 0;
  return leave(r);
}

RT_EXPORT CUresult cuCtxSynchronize(void) {
  CUresult r = enter();
  if (r) return leave(r);
  return leave(to_cu(rt_sync_all()));
}

/* ---- modules ---- */

static CUresult module_load(CUmodule *out, const void *image, const char *label, char *log, size_t logn) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!out || !image) return leave(CUDA_ERROR_INVALID_VALUE);
  /* nvcc's wrapper around a program's fatbinary (the static CUDA runtime
   * passes it): code of the program, labelled as registered code is */
  const void *inner = static_rt_unwrap(image);
  rt_module *m = rt_module_new(inner, inner != image ? NULL : label ? label : "cuModuleLoadData image");
  if (!m) return leave(CUDA_ERROR_OUT_OF_MEMORY);
  m->from_driver = 1;
  /* the static runtime hands an -rdc program's wrapper here too */
  if (inner != image && rt_module_rdc_wrapper(m, image) < 0) {
    rt_module_free(m);
    return leave(CUDA_ERROR_OUT_OF_MEMORY);
  }
  if (!m->img.ptx && !m->nparts) {
    if (log && logn) snprintf(log, logn, "%s", m->img.err);
    /* CuPy compiles to a cubin unless told otherwise: name its switch */
    rt_msg("cuModuleLoadData: %s; smemu runs PTX: load the PTX text (nvrtcGetPTX) or a fatbinary with PTX "
           "(CuPy: set CUPY_COMPILE_WITH_PTX=1, as smemu run does unless it is set)",
           m->img.err);
    rt_module_free(m);
    return leave(CUDA_ERROR_INVALID_IMAGE);
  }
  cudaError_t e = rt_module_load(m);
  if (e) {
    if (log && logn) snprintf(log, logn, "%s", smemu_errmsg(rt.ctx));
    rt_module_free(m);
    return leave(to_cu(e));
  }
  *out = m;
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return module_load(module, image, NULL, NULL, 0);
}

RT_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                      int *options, void **optionValues) {
  char *log = NULL;
  size_t logn = 0;
  for (unsigned i = 0; options && optionValues && i < numOptions; i++) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER) log = optionValues[i];
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) logn = (size_t)(uintptr_t)optionValues[i];
  }
  if (log && logn) log[0] = 0;
  return module_load(module, image, NULL, log, logn);
}

RT_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname) {
  if (!fname) return CUDA_ERROR_INVALID_VALUE;
  size_t n;
  int err;
  char *buf = file_read(fname, &n, &err); /* a read error loads what was read */
  if (err == FILE_NO_OPEN) return 301;    /* CUDA_ERROR_FILE_NOT_FOUND */
  if (!buf) return CUDA_ERROR_OUT_OF_MEMORY;
  CUresult r = module_load(module, buf, fname, NULL, 0);
  free(buf);
  return r;
}

/* m is a module cuModuleLoad* returned and not unloaded. */
static int module_valid(const rt_module *m) {
  for (const rt_module *p = rt.mods; p; p = p->next)
    if (p == m) return p->from_driver;
  return 0;
}

RT_EXPORT CUresult cuModuleUnload(CUmodule m) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!module_valid(m)) return leave(CUDA_ERROR_INVALID_HANDLE);
  rt_drain();
  rt_module_free(m);
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule m, const char *name) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!hfunc || !name) return leave(CUDA_ERROR_INVALID_VALUE);
  if (!module_valid(m)) return leave(CUDA_ERROR_INVALID_HANDLE);
  for (rt_func *f = rt.funcs; f; f = f->next)
    if (f->m == m && !strcmp(f->name, name)) {
      if (!f->k && f->why) return leave(to_cu(cudaErrorInvalidPtx));
      *hfunc = f;
      return leave(CUDA_SUCCESS);
    }
  smemu_kernel *k;
  cudaError_t e = rt_module_load(m); /* again after a cudaDeviceReset */
  if (e) return leave(to_cu(e));
  smemu_status ks = smemu_module_get_kernel(m->mod, name, &k);
  if (ks == SMEMU_ERR_NOT_FOUND) return leave(CUDA_ERROR_NOT_FOUND);
  if (ks != SMEMU_OK) {
    /* the kernel is there but does not decode: say why once, as the JIT
     * compiler's error would */
    rt_func *bad = rt_func_new(m, NULL, name);
    if (!bad) return leave(CUDA_ERROR_OUT_OF_MEMORY);
    bad->why = strdup(smemu_errmsg(rt.ctx));
    if (!bad->why) bad->why = strdup("it does not decode");
    rt_func_warn(bad);
    return leave(to_cu(cudaErrorInvalidPtx));
  }
  rt_func *f = rt_func_new(m, NULL, smemu_kernel_name(k));
  if (!f) return leave(CUDA_ERROR_OUT_OF_MEMORY);
  f->k = k;
  *hfunc = f;
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name) {
  CUresult r = enter();
  if (r) return leave(r);
  if (!name) return leave(CUDA_ERROR_INVALID_VALUE);
  if (!module_valid(m)) return leave(CUDA_ERROR_INVALID_HANDLE);
  void *p;
  size_t n;
  cudaError_t e = rt_module_load(m);
  if (e) return leave(to_cu(e));
  if (smemu_module_get_global(m->mod, name, &p, &n) != SMEMU_OK) return leave(CUDA_ERROR_NOT_FOUND);
  if (dptr) *dptr = (CUdeviceptr)(uintptr_t)p;
  if (bytes) *bytes = n;
  return leave(CUDA_SUCCESS);
}

/* ---- functions ---- */

RT_EXPORT CUresult cuFuncGetAttribute(int *v, int attrib, CUfunction f) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  struct cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, f);
  if (e) return to_cu(e);
  switch (attrib) {
  case 0:
    *v = a.maxThreadsPerBlock;
    break;
  case 1:
    *v = (int)a.sharedSizeBytes;
    break;
  case 2:
    *v = (int)a.constSizeBytes;
    break;
  case 3:
    *v = (int)a.localSizeBytes;
    break;
  case 4:
    *v = a.numRegs;
    break;
  case 5:
    *v = a.ptxVersion;
    break;
  case 6:
    *v = a.binaryVersion;
    break;
  case 7:
    *v = a.cacheModeCA;
    break;
  case 8:
    *v = a.maxDynamicSharedSizeBytes;
    break;
  case 9:
    *v = a.preferredShmemCarveout;
    break;
  case 10:
    *v = a.clusterDimMustBeSet;
    break;
  case 11:
    *v = a.requiredClusterWidth;
    break;
  case 12:
    *v = a.requiredClusterHeight;
    break;
  case 13:
    *v = a.requiredClusterDepth;
    break;
  case 14:
    *v = a.nonPortableClusterSizeAllowed;
    break;
  case 15:
    *v = a.clusterSchedulingPolicyPreference;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

RT_EXPORT CUresult cuFuncSetAttribute(CUfunction f, int attrib, int value) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaFuncSetAttribute(f, (enum cudaFuncAttribute)attrib, value));
}

RT_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction f, int blockSize,
                                                               size_t dynamicSMemSize) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynamicSMemSize));
}

RT_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                                  unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
                                  CUstream stream, void **kernelParams, void **extra) {
  CUresult r = enter();
  if (r) return leave(r);
  rt_func *fn = rt_func_by_host(f);
  if (!fn) return leave(CUDA_ERROR_INVALID_HANDLE);
  void **args = kernelParams;
  void **built = NULL;
  if (!args && extra) {
    /* extra = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}
     */
    const uint8_t *buf = NULL;
    size_t size = 0;
    for (int i = 0; extra[i] != (void *)0; i += 2) {
      if (extra[i] == (void *)1)
        buf = extra[i + 1];
      else if (extra[i] == (void *)2 && extra[i + 1])
        size = *(size_t *)extra[i + 1];
      else
        return leave(CUDA_ERROR_INVALID_VALUE);
    }
    smemu_kernel *k;
    cudaError_t e = rt_func_kernel(fn, &k);
    if (e) return leave(to_cu(e));
    int np = smemu_kernel_param_count(k);
    built = calloc((size_t)np + 1, sizeof *built);
    if (!built) return leave(CUDA_ERROR_OUT_OF_MEMORY);
    for (int i = 0; i < np; i++) {
      smemu_param_info pi;
      smemu_kernel_param(k, i, &pi);
      if (!buf || pi.offset + pi.size > size) {
        free(built);
        return leave(CUDA_ERROR_INVALID_VALUE);
      }
      built[i] = (void *)(buf + pi.offset);
    }
    args = built;
  }
  cudaError_t e = rt_launch(fn, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, args, shared, stream);
  free(built);
  return leave(to_cu(e));
}

/* ---- memory ---- */

RT_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  if (!dptr || !bytes) return CUDA_ERROR_INVALID_VALUE;
  void *p;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (!e) *dptr = (CUdeviceptr)(uintptr_t)p;
  return to_cu(e);
}

RT_EXPORT CUresult cuMemFree_v2(CUdeviceptr p) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaFree((void *)(uintptr_t)p));
}

RT_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemGetInfo(free_bytes, total));
}

RT_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice));
}

RT_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost));
}

RT_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToDevice));
}

RT_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemset((void *)(uintptr_t)p, v, n));
}

/* cuMemsetD16/D32: n elements of `width` bytes, aligned, inside one
 * allocation (n * width checked for overflow). */
static CUresult memset_n(CUdeviceptr p, uint32_t v, size_t n, size_t width, CUstream s, int async) {
  CUresult r = enter();
  if (r) return leave(r);
  if (async && !rt_stream_get(s)) return leave(CUDA_ERROR_INVALID_HANDLE);
  size_t bytes;
  if (!n) return leave(CUDA_SUCCESS);
  if (__builtin_mul_overflow(n, width, &bytes) || (p & (width - 1)) ||
      !rt_side_ok((void *)(uintptr_t)p, bytes, 1))
    return leave(CUDA_ERROR_INVALID_VALUE);
  int c = async ? rt_capture_memset((void *)(uintptr_t)p, v, (unsigned)width, bytes, n, 1, s)
                : (int)rt_capture_forbid(0, 1);
  if (c > 0 || (async && c == 0)) return leave(to_cu((cudaError_t)c));
  rt_drain();
  if (rt.sticky) return leave(to_cu(rt.sticky));
  for (size_t i = 0; i < n; i++) memcpy((uint8_t *)(uintptr_t)p + width * i, &v, width);
  smemu_mem_set_written(rt.ctx, (void *)(uintptr_t)p, bytes, 1);
  return leave(CUDA_SUCCESS);
}

RT_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned int v, size_t n) {
  return memset_n(p, v, n, 4, 0, 0);
}
RT_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr p, unsigned short v, size_t n) {
  return memset_n(p, v, n, 2, 0, 0);
}
RT_EXPORT CUresult cuMemsetD32Async(CUdeviceptr p, unsigned int v, size_t n, CUstream s) {
  return memset_n(p, v, n, 4, s, 1);
}
RT_EXPORT CUresult cuMemsetD16Async(CUdeviceptr p, unsigned short v, size_t n, CUstream s) {
  return memset_n(p, v, n, 2, s, 1);
}
RT_EXPORT CUresult cuMemsetD8Async(CUdeviceptr p, unsigned char v, size_t n, CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemsetAsync((void *)(uintptr_t)p, v, n, s));
}

/* Unified addressing: cuMemcpy is cudaMemcpyDefault; the typed copies
 * check their device sides like the runtime's. */
RT_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, cudaMemcpyDefault));
}
RT_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(
      cudaMemcpyAsync((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, cudaMemcpyDefault, s));
}
RT_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemcpyAsync((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice, s));
}
RT_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaMemcpyAsync(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost, s));
}
RT_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(
      cudaMemcpyAsync((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToDevice, s));
}

/* ---- streams and events ---- */

RT_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned int flags) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaStreamCreateWithFlags(s, flags));
}
RT_EXPORT CUresult cuStreamDestroy_v2(CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaStreamDestroy(s));
}
RT_EXPORT CUresult cuStreamSynchronize(CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaStreamSynchronize(s));
}
RT_EXPORT CUresult cuEventCreate(CUevent *e, unsigned int flags) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaEventCreateWithFlags(e, flags));
}
RT_EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaEventRecord(e, s));
}
RT_EXPORT CUresult cuEventSynchronize(CUevent e) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaEventSynchronize(e));
}
RT_EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaEventElapsedTime(ms, a, b));
}
RT_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  return cuEventElapsedTime_v2(ms, a, b);
}
RT_EXPORT CUresult cuEventDestroy_v2(CUevent e) {
  if (!drv_inited) return CUDA_ERROR_NOT_INITIALIZED;
  return to_cu(cudaEventDestroy(e));
}

/* cuGetProcAddress: driver_proc.c */

/* cuGetExportTable: export_tables.c */
