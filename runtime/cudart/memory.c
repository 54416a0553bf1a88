/* memory.c: device, pinned, managed and pitched allocations, copies and
 * fills, and __device__ / __constant__ variables by their host symbol.
 * Device pointers are host pointers smemu tracks (every kernel access is
 * bounds-checked against them); pinned and managed memory are tracked the
 * same way, so kernels may use them as on a machine with unified
 * addressing. Blocking copies and fills first run the queued work; the
 * asynchronous ones run in issue order too, at once. Every copy and fill is
 * range-checked first (bounds.c): out of its allocation it fails with
 * cudaErrorInvalidValue, as CUDA's does. */
#include "graph.h"
#include "rt.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* [p, p+n) lies inside one allocation the device can reach. */
static int dev_range(const void *p, size_t n) { return rt_side_ok(p, n, 1); }

static cudaError_t alloc_common(void **ptr, size_t size, int kind, unsigned flags) {
  cudaError_t e = rt_capture_forbid(0, 0);
  if (e) return e;
  /* compared without adding: a size near SIZE_MAX must not wrap past the check */
  if (kind != ALLOC_HOST && size > rt_total_memory() - rt.allocated) return cudaErrorMemoryAllocation;
  if (size > SIZE_MAX / 2) return cudaErrorMemoryAllocation;
  if (smemu_malloc(rt.ctx, ptr, size) != SMEMU_OK) return cudaErrorMemoryAllocation;
  /* fresh GPU memory reads as zeros in practice; programs come to rely on it */
  memset(*ptr, 0, size);
  /* the init check cannot see the host write pinned or managed memory */
  if (kind != ALLOC_DEVICE) smemu_mem_set_written(rt.ctx, *ptr, size, 1);
  if (rt_alloc_add(*ptr, size, kind, flags) < 0) {
    smemu_free(rt.ctx, *ptr);
    return cudaErrorMemoryAllocation;
  }
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!devPtr) return rt_end(cudaErrorInvalidValue);
  if (!size) {
    *devPtr = NULL;
    return rt_end(cudaSuccess);
  }
  return rt_end(alloc_common(devPtr, size, ALLOC_DEVICE, 0));
}

static cudaError_t free_kind(void *p, int kind1, int kind2) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!p) return rt_end(cudaSuccess);
  if ((e = rt_capture_forbid(0, 0))) return rt_end(e);
  rt_drain(); /* freeing waits for the work that may use the memory */
  if (rt.sticky) return rt_end(rt.sticky);
  rt_alloc *a = rt_alloc_find(p);
  if (!a || a->p != p || (a->kind != kind1 && a->kind != kind2)) return rt_end(cudaErrorInvalidValue);
  rt_alloc_remove(p);
  smemu_free(rt.ctx, p);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaFree(void *devPtr) { return free_kind(devPtr, ALLOC_DEVICE, ALLOC_MANAGED); }
RT_EXPORT cudaError_t cudaFreeHost(void *ptr) { return free_kind(ptr, ALLOC_HOST, ALLOC_HOST); }

RT_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!pHost || (flags & ~7u)) return rt_end(cudaErrorInvalidValue);
  if (!size) {
    *pHost = NULL;
    return rt_end(cudaSuccess);
  }
  return rt_end(alloc_common(pHost, size, ALLOC_HOST, flags));
}

RT_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size) { return cudaHostAlloc(ptr, size, 0); }

RT_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!devPtr || !size || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
    return rt_end(cudaErrorInvalidValue);
  return rt_end(alloc_common(devPtr, size, ALLOC_MANAGED, flags));
}

RT_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!devPtr || !pitch) return rt_end(cudaErrorInvalidValue);
  if (width > SIZE_MAX - 511) return rt_end(cudaErrorMemoryAllocation);
  size_t p = (width + 511) / 512 * 512;
  if (p && height > SIZE_MAX / p) return rt_end(cudaErrorMemoryAllocation);
  if (!p || !height) {
    *devPtr = NULL;
    *pitch = p;
    return rt_end(cudaSuccess);
  }
  e = alloc_common(devPtr, p * height, ALLOC_DEVICE, 0);
  if (!e) *pitch = p;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!pDevice || flags) return rt_end(cudaErrorInvalidValue);
  rt_alloc *a = rt_alloc_find(pHost);
  if (!a || (a->kind != ALLOC_HOST && a->kind != ALLOC_REGISTERED)) return rt_end(cudaErrorInvalidValue);
  *pDevice = pHost;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_alloc *a = rt_alloc_find(pHost);
  if (!pFlags || !a || (a->kind != ALLOC_HOST && a->kind != ALLOC_REGISTERED))
    return rt_end(cudaErrorInvalidValue);
  *pFlags = a->flags | cudaHostAllocMapped;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!ptr || !size) return rt_end(cudaErrorInvalidValue);
  rt_alloc *a = rt_alloc_find(ptr);
  /* device memory is not host memory (an H100 says so: tests/hw/rtapi) */
  if ((a && a->kind == ALLOC_DEVICE) || (!a && dev_range(ptr, 1))) return rt_end(cudaErrorInvalidValue);
  if (a) return rt_end(cudaErrorHostMemoryAlreadyRegistered);
  if (smemu_host_register(rt.ctx, ptr, size) != SMEMU_OK) return rt_end(cudaErrorHostMemoryAlreadyRegistered);
  if (rt_alloc_add(ptr, size, ALLOC_REGISTERED, flags) < 0) {
    smemu_host_unregister(rt.ctx, ptr);
    return rt_end(cudaErrorMemoryAllocation);
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaHostUnregister(void *ptr) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_alloc *a = rt_alloc_find(ptr);
  if (!a || a->p != ptr || a->kind != ALLOC_REGISTERED) return rt_end(cudaErrorHostMemoryNotRegistered);
  rt_drain();
  rt_alloc_remove(ptr);
  smemu_host_unregister(rt.ctx, ptr);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!free_bytes || !total) return rt_end(cudaErrorInvalidValue);
  *total = rt_total_memory();
  *free_bytes = *total > rt.allocated ? *total - rt.allocated : 0;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!attr) return rt_end(cudaErrorInvalidValue);
  memset(attr, 0, sizeof *attr);
  rt_alloc *a = rt_alloc_find(ptr);
  attr->device = 0;
  if (a && (a->kind == ALLOC_DEVICE || a->kind == ALLOC_MAPPED)) {
    attr->type = cudaMemoryTypeDevice;
    attr->devicePointer = (void *)ptr;
  } else if (a && a->kind == ALLOC_MANAGED) {
    attr->type = cudaMemoryTypeManaged;
    attr->devicePointer = attr->hostPointer = (void *)ptr;
  } else if (a) {
    attr->type = cudaMemoryTypeHost;
    attr->devicePointer = attr->hostPointer = (void *)ptr;
  } else if (dev_range(ptr, 1)) {
    attr->type = cudaMemoryTypeDevice; /* a __device__ variable */
    attr->devicePointer = (void *)ptr;
  } else {
    attr->type = cudaMemoryTypeUnregistered;
    attr->device = -2;
    attr->hostPointer = (void *)ptr;
  }
  return rt_end(cudaSuccess);
}

/* ---- copies ---- */

static cudaError_t copy(void *dst, const void *src, size_t n, int kind, cudaStream_t stream, int async) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (async && !rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if ((e = rt_check_copy(dst, src, n, kind))) return rt_end(e);
  int c = async ? rt_capture_memcpy(dst, src, n, kind, stream) : (int)rt_capture_forbid(0, 1);
  if (c > 0 || (async && c == 0)) return rt_end((cudaError_t)c);
  rt_drain();
  if (rt.sticky) return rt_end(rt.sticky);
  if (kind != cudaMemcpyHostToDevice) rt_san_copy_source(src, n, async ? "cudaMemcpyAsync" : "cudaMemcpy");
  if (n) smemu_memcpy(rt.ctx, dst, src, n);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
  return copy(dst, src, count, kind, 0, 0);
}

RT_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  return copy(dst, src, count, kind, stream, 1);
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h,
                          int kind, cudaStream_t stream, int async) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (async && !rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if (w > dpitch || w > spitch) return rt_end(cudaErrorInvalidPitchValue);
  if (!w || !h) return rt_end(cudaSuccess);
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return rt_end(cudaErrorInvalidMemcpyDirection);
  int to_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  int from_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  size_t dspan = rt_span(dpitch, w, h), sspan = rt_span(spitch, w, h);
  if (!dst || !src || dspan == SIZE_MAX || sspan == SIZE_MAX || !rt_side_ok(dst, dspan, to_dev) ||
      !rt_side_ok(src, sspan, from_dev))
    return rt_end(cudaErrorInvalidValue);
  int c = async ? rt_capture_memcpy2d(dst, dpitch, src, spitch, w, h, kind, stream)
                : (int)rt_capture_forbid(0, 1);
  if (c > 0 || (async && c == 0)) return rt_end((cudaError_t)c);
  rt_drain();
  if (rt.sticky) return rt_end(rt.sticky);
  for (size_t r = 0; r < h; r++)
    smemu_memcpy(rt.ctx, (char *)dst + r * dpitch, (const char *)src + r * spitch, w);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind) {
  return copy2d(dst, dpitch, src, spitch, width, height, kind, 0, 0);
}

RT_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                        size_t width, size_t height, enum cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  return copy2d(dst, dpitch, src, spitch, width, height, kind, stream, 1);
}

static cudaError_t fill(void *p, int value, size_t pitch, size_t w, size_t h, cudaStream_t stream,
                        int async) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (async && !rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if (!w || !h) return rt_end(cudaSuccess);
  if (w > pitch) return rt_end(cudaErrorInvalidValue);
  size_t span = rt_span(pitch, w, h);
  if (span == SIZE_MAX || !dev_range(p, span)) return rt_end(cudaErrorInvalidValue);
  int c =
      async ? rt_capture_memset(p, (unsigned)value, 1, pitch, w, h, stream) : (int)rt_capture_forbid(0, 1);
  if (c > 0 || (async && c == 0)) return rt_end((cudaError_t)c);
  rt_drain();
  if (rt.sticky) return rt_end(rt.sticky);
  for (size_t r = 0; r < h; r++) smemu_memset(rt.ctx, (char *)p + r * pitch, value, w);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  return fill(devPtr, value, count, count, 1, 0, 0);
}

RT_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
  return fill(devPtr, value, count, count, 1, stream, 1);
}

RT_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  return fill(devPtr, value, pitch, width, height, 0, 0);
}

RT_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                        cudaStream_t stream) {
  return fill(devPtr, value, pitch, width, height, stream, 1);
}

RT_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                           unsigned int flags, cudaStream_t stream) {
  (void)location;
  (void)flags;
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(count && !dev_range(devPtr, count) ? cudaErrorInvalidValue : cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                                    struct cudaMemLocation location) {
  (void)advice;
  (void)location;
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  return rt_end(count && !dev_range(devPtr, count) ? cudaErrorInvalidValue : cudaSuccess);
}

/* ---- symbols ---- */

/* The device range of `count` bytes at `offset` in the variable `symbol`. */
static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, void **p) {
  rt_var *v = rt_var_by_host(symbol);
  if (!v) return cudaErrorInvalidSymbol;
  size_t size;
  cudaError_t e = rt_var_addr(v, p, &size);
  if (e) return e;
  if (offset > size || count > size - offset) return cudaErrorInvalidValue;
  *p = (char *)*p + offset;
  return cudaSuccess;
}

/* A copy to (to = 1) or from the count bytes of a symbol at offset; other
 * is the other side, host or device. */
static cudaError_t symbol_copy(const void *symbol, void *other, size_t count, size_t offset, int kind,
                               cudaStream_t stream, int async, int to) {
  cudaError_t e = rt_begin(1);
  void *p;
  if (e) return rt_end(e);
  if (async && !rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if (kind != (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return rt_end(cudaErrorInvalidMemcpyDirection);
  if ((e = symbol_range(symbol, count, offset, &p))) return rt_end(e);
  if (count && !rt_side_ok(other, count, kind == cudaMemcpyDeviceToDevice))
    return rt_end(cudaErrorInvalidValue);
  void *dst = to ? p : other;
  const void *src = to ? other : p;
  int c = async ? rt_capture_memcpy(dst, src, count, kind, stream) : (int)rt_capture_forbid(0, 1);
  if (c > 0 || (async && c == 0)) return rt_end((cudaError_t)c);
  rt_drain();
  if (rt.sticky) return rt_end(rt.sticky);
  if (count) smemu_memcpy(rt.ctx, dst, src, count);
  return rt_end(cudaSuccess);
}

static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset, int kind,
                             cudaStream_t stream, int async) {
  return symbol_copy(symbol, (void *)src, count, offset, kind, stream, async, 1);
}

static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset, int kind,
                               cudaStream_t stream, int async) {
  return symbol_copy(symbol, dst, count, offset, kind, stream, async, 0);
}

RT_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind) {
  return to_symbol(symbol, src, count, offset, kind, 0, 0);
}

RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream) {
  return to_symbol(symbol, src, count, offset, kind, stream, 1);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind) {
  return from_symbol(dst, symbol, count, offset, kind, 0, 0);
}

RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind, cudaStream_t stream) {
  return from_symbol(dst, symbol, count, offset, kind, stream, 1);
}

RT_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!devPtr) return rt_end(cudaErrorInvalidValue);
  return rt_end(rt_var_addr(rt_var_by_host(symbol), devPtr, NULL));
}

RT_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  cudaError_t e = rt_begin(1);
  void *p;
  if (e) return rt_end(e);
  if (!size) return rt_end(cudaErrorInvalidValue);
  return rt_end(rt_var_addr(rt_var_by_host(symbol), &p, size));
}
