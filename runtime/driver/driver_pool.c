/* driver_pool.c: the driver API's memory pools and stream-ordered
 * allocation (cuDeviceGetMemPool, cuMemPool*, cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync), which cuda-core allocates
 * through (hence numba-cuda). CUmemoryPool is cudaMemPool_t, the
 * CUmemPoolProps, CUmemAccessDesc and CUmemLocation structures and the
 * attribute and error numbers are the runtime's: each call is the runtime
 * call of pool.c. */
#include "cudart/pool.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef cudaMemPool_t CUmemoryPool;
typedef cudaStream_t CUstream;

/* Runtime errors as driver codes: the numbers pool.c returns agree
 * (invalid value 1, out of memory 2, invalid device 101, invalid handle
 * 400, not supported 801). */
static CUresult cu(cudaError_t e) { return (CUresult)e; }
#define DP(p) ((void *)(uintptr_t)(p))
#define EXPORT RT_EXPORT CUresult

/* the prototypes -Wmissing-prototypes asks for: these are the ABI's */
#define P(decl) decl;
P(CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *, CUdevice))
P(CUresult cuDeviceGetMemPool(CUmemoryPool *, CUdevice))
P(CUresult cuDeviceSetMemPool(CUdevice, CUmemoryPool))
P(CUresult cuMemGetDefaultMemPool(CUmemoryPool *, struct cudaMemLocation *, int))
P(CUresult cuMemGetMemPool(CUmemoryPool *, struct cudaMemLocation *, int))
P(CUresult cuMemSetMemPool(struct cudaMemLocation *, int, CUmemoryPool))
P(CUresult cuMemPoolCreate(CUmemoryPool *, const struct cudaMemPoolProps *))
P(CUresult cuMemPoolDestroy(CUmemoryPool))
P(CUresult cuMemPoolTrimTo(CUmemoryPool, size_t))
P(CUresult cuMemPoolSetAttribute(CUmemoryPool, int, void *))
P(CUresult cuMemPoolGetAttribute(CUmemoryPool, int, void *))
P(CUresult cuMemPoolSetAccess(CUmemoryPool, const struct cudaMemAccessDesc *, size_t))
P(CUresult cuMemPoolGetAccess(int *, CUmemoryPool, struct cudaMemLocation *))
P(CUresult cuMemAllocFromPoolAsync(CUdeviceptr *, size_t, CUmemoryPool, CUstream))
P(CUresult cuMemAllocAsync(CUdeviceptr *, size_t, CUstream))
P(CUresult cuMemFreeAsync(CUdeviceptr, CUstream))

EXPORT cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev) {
  return cu(cudaDeviceGetDefaultMemPool(pool, dev));
}
EXPORT cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) { return cu(cudaDeviceGetMemPool(pool, dev)); }
EXPORT cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) { return cu(cudaDeviceSetMemPool(dev, pool)); }
EXPORT cuMemGetDefaultMemPool(CUmemoryPool *pool, struct cudaMemLocation *loc, int type) {
  return cu(cudaMemGetDefaultMemPool(pool, loc, (enum cudaMemAllocationType)type));
}
EXPORT cuMemGetMemPool(CUmemoryPool *pool, struct cudaMemLocation *loc, int type) {
  return cu(cudaMemGetMemPool(pool, loc, (enum cudaMemAllocationType)type));
}
EXPORT cuMemSetMemPool(struct cudaMemLocation *loc, int type, CUmemoryPool pool) {
  return cu(cudaMemSetMemPool(loc, (enum cudaMemAllocationType)type, pool));
}
EXPORT cuMemPoolCreate(CUmemoryPool *pool, const struct cudaMemPoolProps *props) {
  return cu(cudaMemPoolCreate(pool, props));
}
EXPORT cuMemPoolDestroy(CUmemoryPool pool) { return cu(cudaMemPoolDestroy(pool)); }
EXPORT cuMemPoolTrimTo(CUmemoryPool pool, size_t keep) { return cu(cudaMemPoolTrimTo(pool, keep)); }
EXPORT cuMemPoolSetAttribute(CUmemoryPool pool, int attr, void *value) {
  return cu(cudaMemPoolSetAttribute(pool, (enum cudaMemPoolAttr)attr, value));
}
EXPORT cuMemPoolGetAttribute(CUmemoryPool pool, int attr, void *value) {
  return cu(cudaMemPoolGetAttribute(pool, (enum cudaMemPoolAttr)attr, value));
}
EXPORT cuMemPoolSetAccess(CUmemoryPool pool, const struct cudaMemAccessDesc *map, size_t count) {
  return cu(cudaMemPoolSetAccess(pool, map, count));
}
EXPORT cuMemPoolGetAccess(int *flags, CUmemoryPool pool, struct cudaMemLocation *loc) {
  return cu(cudaMemPoolGetAccess((enum cudaMemAccessFlags *)flags, pool, loc));
}

/* The driver's allocations are CUdeviceptr: pool NULL is the current pool. */
static CUresult alloc(CUdeviceptr *d, size_t n, CUmemoryPool h, int from_handle, CUstream s) {
  cudaError_t e = rt_begin(1);
  if (e) return cu(rt_end(e));
  if (!d) return cu(rt_end(cudaErrorInvalidValue));
  rt_pool *p = from_handle ? rt_pool_get(h) : rt_pool_current();
  if (!p) return cu(rt_end(cudaErrorInvalidValue));
  void *q = NULL;
  e = rt_pool_alloc(p, &q, n, s);
  *d = (CUdeviceptr)(uintptr_t)q;
  return cu(rt_end(e));
}
EXPORT cuMemAllocFromPoolAsync(CUdeviceptr *d, size_t n, CUmemoryPool pool, CUstream s) {
  return alloc(d, n, pool, 1, s);
}
EXPORT cuMemAllocAsync(CUdeviceptr *d, size_t n, CUstream s) { return alloc(d, n, NULL, 0, s); }
EXPORT cuMemFreeAsync(CUdeviceptr d, CUstream s) { return cu(cudaFreeAsync(DP(d), s)); }

/* cuda-core asks whether the stream is capturing before every pool
 * allocation. Without stream capture nothing ever is; weak, so that a
 * capture implementation's own definition takes its place. */
P(CUresult cuStreamIsCapturing(CUstream, int *))
__attribute__((weak)) EXPORT cuStreamIsCapturing(CUstream s, int *status) {
  cudaError_t e = rt_begin(1);
  if (e) return cu(rt_end(e));
  if (!status) return cu(rt_end(cudaErrorInvalidValue));
  if (!rt_stream_get(s)) return cu(rt_end(cudaErrorInvalidResourceHandle));
  *status = 0; /* CU_STREAM_CAPTURE_STATUS_NONE */
  return cu(rt_end(cudaSuccess));
}
