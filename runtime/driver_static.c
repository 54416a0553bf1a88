/* driver_static.c: driver entry points NVIDIA's static CUDA runtime calls
 * for runtime functions smemu's own runtime implements directly: pitched
 * allocations, 2D copies and fills (cudaMallocPitch, cudaMemcpy2D,
 * cudaMemset2D), host allocation flags, the bank-size configuration,
 * managed variables of a library, parameter layouts, cluster occupancy,
 * 3D copies, prefetches and advice for managed memory. Each one is the
 * corresponding runtime function of smemu on the same state, so that a
 * static program sees what a -cudart shared build sees. */
#include "rt.h"
#include "static_rt.h"
#include <pthread.h>
#include <stdint.h>
#include <string.h>

typedef int CUresult;
typedef uintptr_t CUdeviceptr;
typedef void *CUlibrary;
typedef void *CUstream;
enum { CU_OK = 0, CU_INVALID_VALUE = 1, CU_INVALID_HANDLE = 400, CU_NOT_SUPPORTED = 801 };

CUresult cuLibraryGetGlobal(CUdeviceptr *p, size_t *n, CUlibrary lib, const char *name);

/* Runtime errors as driver codes (the numbers agree where both exist;
 * the runtime maps the driver's codes back). */
static CUresult cu(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidConfiguration:
  case cudaErrorInvalidPitchValue:
  case cudaErrorInvalidMemcpyDirection:
  case cudaErrorInvalidDevicePointer:
  case cudaErrorInvalidHostPointer:
    return CU_INVALID_VALUE;
  case cudaErrorInvalidDeviceFunction:
  case cudaErrorInvalidResourceHandle:
    return CU_INVALID_HANDLE;
  default:
    return (CUresult)e;
  }
}

#define EXPORT RT_EXPORT CUresult
#define P(decl) decl;
P(CUresult cuLibraryGetManaged(CUdeviceptr *, size_t *, CUlibrary, const char *))
P(CUresult cuCtxGetSharedMemConfig(int *))
P(CUresult cuCtxSetSharedMemConfig(int))
P(CUresult cuMemAllocPitch_v2(CUdeviceptr *, size_t *, size_t, size_t, unsigned))
P(CUresult cuMemcpy2D_v2(const void *))
P(CUresult cuMemcpy2DUnaligned_v2(const void *))
P(CUresult cuMemcpy2DAsync_v2(const void *, CUstream))
P(CUresult cuMemsetD2D8_v2(CUdeviceptr, size_t, unsigned char, size_t, size_t))
P(CUresult cuMemsetD2D8Async(CUdeviceptr, size_t, unsigned char, size_t, size_t, CUstream))
P(CUresult cuMemHostGetFlags(unsigned *, void *))
P(CUresult cuFuncGetParamInfo(void *, size_t, size_t *, size_t *))
P(CUresult cuKernelGetParamInfo(void *, size_t, size_t *, size_t *))
P(CUresult cuOccupancyMaxActiveClusters(int *, void *, const void *))
P(CUresult cuMemcpy3D_v2(const void *))
P(CUresult cuMemcpy3DAsync_v2(const void *, CUstream))
P(CUresult cuMemPrefetchAsync_v2(CUdeviceptr, size_t, struct cudaMemLocation, unsigned, CUstream))
P(CUresult cuMemAdvise_v2(CUdeviceptr, size_t, int, struct cudaMemLocation))
P(CUresult cuStreamAttachMemAsync(CUstream, CUdeviceptr, size_t, unsigned))
P(CUresult cuOccupancyMaxPotentialClusterSize(int *, void *, const void *))

/* __managed__ variables: device addresses the host uses as they are */
EXPORT cuLibraryGetManaged(CUdeviceptr *p, size_t *n, CUlibrary lib, const char *name) {
  return cuLibraryGetGlobal(p, n, lib, name);
}

/* CUsharedconfig and cudaSharedMemConfig have the same values */
EXPORT cuCtxGetSharedMemConfig(int *config) {
  if (!config) return CU_INVALID_VALUE;
  enum cudaSharedMemConfig c;
  cudaError_t e = cudaDeviceGetSharedMemConfig(&c);
  if (!e) *config = (int)c;
  return cu(e);
}

EXPORT cuCtxSetSharedMemConfig(int config) {
  return cu(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)config));
}

EXPORT cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t width, size_t height, unsigned elem) {
  if (!p || !pitch || (elem != 4 && elem != 8 && elem != 16)) return CU_INVALID_VALUE;
  void *d = NULL;
  cudaError_t e = cudaMallocPitch(&d, pitch, width, height);
  if (!e) *p = (CUdeviceptr)d;
  return cu(e);
}

/* CUDA_MEMCPY2D (cuda.h) */
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
} cu_memcpy2d;

enum { MT_HOST = 1, MT_DEVICE = 2, MT_ARRAY = 3, MT_UNIFIED = 4 };

/* One side of a 2D copy: its first byte; 0 when the memory type is not
 * one this copy takes (arrays are another entry point's). */
static int side(int type, const void *host, CUdeviceptr dev, size_t x, size_t y, size_t pitch,
                const char **p) {
  const char *base = type == MT_HOST                           ? host
                     : type == MT_DEVICE || type == MT_UNIFIED ? (const char *)dev
                                                               : NULL;
  if (!base) return 0;
  *p = base + y * pitch + x;
  return 1;
}

static CUresult copy2d(const void *params, CUstream s, int async) {
  const cu_memcpy2d *c = params;
  if (!c) return CU_INVALID_VALUE;
  const char *src, *dst;
  if (c->srcMemoryType == MT_ARRAY || c->dstMemoryType == MT_ARRAY) {
    rt_msg("2D copies to or from CUDA arrays are not supported");
    return CU_NOT_SUPPORTED;
  }
  if (!side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch, &src) ||
      !side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch, &dst))
    return CU_INVALID_VALUE;
  enum cudaMemcpyKind kind = cudaMemcpyDefault;
  if (c->srcMemoryType != MT_UNIFIED && c->dstMemoryType != MT_UNIFIED)
    kind = (enum cudaMemcpyKind)((c->srcMemoryType == MT_DEVICE) * 2 + (c->dstMemoryType == MT_DEVICE));
  cudaError_t e =
      async ? cudaMemcpy2DAsync((void *)dst, c->dstPitch, src, c->srcPitch, c->WidthInBytes, c->Height, kind,
                                (cudaStream_t)s)
            : cudaMemcpy2D((void *)dst, c->dstPitch, src, c->srcPitch, c->WidthInBytes, c->Height, kind);
  return cu(e);
}

EXPORT cuMemcpy2D_v2(const void *params) { return copy2d(params, NULL, 0); }
EXPORT cuMemcpy2DUnaligned_v2(const void *params) { return copy2d(params, NULL, 0); }
EXPORT cuMemcpy2DAsync_v2(const void *params, CUstream s) { return copy2d(params, s, 1); }

EXPORT cuMemsetD2D8_v2(CUdeviceptr p, size_t pitch, unsigned char v, size_t w, size_t h) {
  return cu(cudaMemset2D((void *)p, pitch, v, w, h));
}

EXPORT cuMemsetD2D8Async(CUdeviceptr p, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s) {
  return cu(cudaMemset2DAsync((void *)p, pitch, v, w, h, (cudaStream_t)s));
}

EXPORT cuMemHostGetFlags(unsigned *flags, void *p) { return cu(cudaHostGetFlags(flags, p)); }

/* A kernel parameter's offset and size in the parameter buffer. */
EXPORT cuFuncGetParamInfo(void *f, size_t index, size_t *offset, size_t *size) {
  if (!offset && !size) return CU_INVALID_VALUE;
  smemu_kernel *k = NULL;
  cudaError_t e = rt_begin(1);
  rt_func *fn = e ? NULL : rt_func_by_host(f);
  if (!e && !fn) e = cudaErrorInvalidResourceHandle;
  if (!e) e = rt_func_kernel(fn, &k);
  CUresult r = cu(e);
  if (!r && (int)index >= smemu_kernel_param_count(k)) r = CU_INVALID_VALUE;
  if (!r) {
    smemu_param_info pi;
    smemu_kernel_param(k, (int)index, &pi);
    if (offset) *offset = pi.offset;
    if (size) *size = pi.size;
  }
  pthread_mutex_unlock(&rt.lock);
  return r;
}

EXPORT cuKernelGetParamInfo(void *k, size_t index, size_t *offset, size_t *size) {
  return cuFuncGetParamInfo(k, index, offset, size);
}

/* CUlaunchConfig (cuda.h): the runtime's cudaLaunchConfig_t with the
 * dimensions spelled out; the attributes have the same layout. */
typedef struct {
  unsigned gx, gy, gz, bx, by, bz, shared;
  CUstream stream;
  cudaLaunchAttribute *attrs;
  unsigned nattrs;
} cu_launch_config;

static int runtime_config(const void *config, cudaLaunchConfig_t *c) {
  const cu_launch_config *d = config;
  if (!d) return 0;
  memset(c, 0, sizeof *c);
  c->gridDim = (dim3){d->gx, d->gy, d->gz};
  c->blockDim = (dim3){d->bx, d->by, d->bz};
  c->dynamicSmemBytes = d->shared;
  c->stream = (cudaStream_t)d->stream;
  c->attrs = d->attrs;
  c->numAttrs = d->nattrs;
  return 1;
}

EXPORT cuOccupancyMaxActiveClusters(int *n, void *f, const void *config) {
  cudaLaunchConfig_t c;
  if (!runtime_config(config, &c)) return CU_INVALID_VALUE;
  return cu(cudaOccupancyMaxActiveClusters(n, f, &c));
}

EXPORT cuOccupancyMaxPotentialClusterSize(int *size, void *f, const void *config) {
  cudaLaunchConfig_t c;
  if (!runtime_config(config, &c)) return CU_INVALID_VALUE;
  return cu(cudaOccupancyMaxPotentialClusterSize(size, f, &c));
}

/* CUDA_MEMCPY3D (cuda.h) */
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
} cu_memcpy3d;

/* A 3D copy between linear memories as cudaMemcpy3D's parameters. */
static CUresult copy3d(const void *params, CUstream s, int async) {
  const cu_memcpy3d *c = params;
  if (!c) return CU_INVALID_VALUE;
  if (c->srcMemoryType == MT_ARRAY || c->dstMemoryType == MT_ARRAY) {
    rt_msg("3D copies to or from CUDA arrays are not supported");
    return CU_NOT_SUPPORTED;
  }
  const char *src, *dst;
  /* the sides' first bytes: positions go into cudaMemcpy3D's srcPos/dstPos */
  if (!side(c->srcMemoryType, c->srcHost, c->srcDevice, 0, 0, 0, &src) ||
      !side(c->dstMemoryType, c->dstHost, c->dstDevice, 0, 0, 0, &dst))
    return CU_INVALID_VALUE;
  struct cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPos = (struct cudaPos){c->srcXInBytes, c->srcY, c->srcZ};
  p.srcPtr = (struct cudaPitchedPtr){(void *)src, c->srcPitch, c->WidthInBytes, c->srcHeight};
  p.dstPos = (struct cudaPos){c->dstXInBytes, c->dstY, c->dstZ};
  p.dstPtr = (struct cudaPitchedPtr){(void *)dst, c->dstPitch, c->WidthInBytes, c->dstHeight};
  p.extent = (struct cudaExtent){c->WidthInBytes, c->Height, c->Depth};
  p.kind = cudaMemcpyDefault;
  if (c->srcMemoryType != MT_UNIFIED && c->dstMemoryType != MT_UNIFIED)
    p.kind = (enum cudaMemcpyKind)((c->srcMemoryType == MT_DEVICE) * 2 + (c->dstMemoryType == MT_DEVICE));
  return cu(async ? cudaMemcpy3DAsync(&p, (cudaStream_t)s) : cudaMemcpy3D(&p));
}

EXPORT cuMemcpy3D_v2(const void *params) { return copy3d(params, NULL, 0); }
EXPORT cuMemcpy3DAsync_v2(const void *params, CUstream s) { return copy3d(params, s, 1); }

/* CUmemLocation and cudaMemLocation have the same layout */
EXPORT cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, struct cudaMemLocation loc, unsigned flags,
                             CUstream s) {
  return cu(cudaMemPrefetchAsync((const void *)p, n, loc, flags, (cudaStream_t)s));
}

EXPORT cuMemAdvise_v2(CUdeviceptr p, size_t n, int advice, struct cudaMemLocation loc) {
  return cu(cudaMemAdvise((const void *)p, n, advice, loc));
}

/* Which streams may touch a managed allocation: one device, one queue, so
 * only the arguments are checked (a live stream, the start of a managed
 * allocation, a length of 0 or the whole of it, a known flag). */
EXPORT cuStreamAttachMemAsync(CUstream s, CUdeviceptr p, size_t length, unsigned flags) {
  cudaError_t e = rt_begin(1);
  CUresult r = cu(e);
  if (!r && !rt_stream_get((cudaStream_t)s)) r = CU_INVALID_HANDLE;
  rt_alloc *a = r ? NULL : rt_alloc_find((const void *)p);
  if (!r && (!a || a->kind != ALLOC_MANAGED || (length && length != a->size) ||
             (flags != 1 && flags != 2 && flags != 4)))
    r = CU_INVALID_VALUE;
  pthread_mutex_unlock(&rt.lock);
  return r;
}
