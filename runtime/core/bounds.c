/* bounds.c: the range checks every copy and fill makes before it touches
 * memory. A side of a copy that lies in memory smemu tracks
 * (device, pinned, managed or registered memory, a module variable) must
 * stay inside that allocation, whatever the copy's kind says, so that
 * cudaMemcpyDefault, pinned and registered buffers are checked as well as
 * device pointers; a side that must be device memory must be tracked; the
 * rest is the program's own host memory, which only the program knows.
 * Out of range is cudaErrorInvalidValue, as CUDA returns. Every size
 * computation checks for overflow, so no huge count wraps into a pass. */
#include "rt.h"

int rt_side_ok(const void *p, size_t n, int device) {
  void *base;
  size_t size;
  if (!p) return 0;
  if (smemu_mem_lookup(rt.ctx, p, &base, &size, NULL) != SMEMU_OK) return !device;
  size_t off = (size_t)((uintptr_t)p - (uintptr_t)base);
  return off <= size && n <= size - off;
}

int rt_region_ok(const void *p, size_t lo, size_t hi, int device) {
  void *base;
  size_t size;
  if (!p || hi < lo) return 0;
  if (smemu_mem_lookup(rt.ctx, p, &base, &size, NULL) != SMEMU_OK)
    return !device && (uintptr_t)p <= UINTPTR_MAX - hi;
  size_t off = (size_t)((uintptr_t)p - (uintptr_t)base);
  return hi <= size && off <= size - hi;
}

size_t rt_span(size_t pitch, size_t w, size_t h) {
  if (!h || !w) return 0;
  if (h - 1 > 0 && pitch > (SIZE_MAX - w) / (h - 1)) return SIZE_MAX;
  return pitch * (h - 1) + w;
}

cudaError_t rt_check_copy(void *dst, const void *src, size_t n, int kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  if (!n) return cudaSuccess;
  if (!dst || !src || n == SIZE_MAX) return cudaErrorInvalidValue;
  int to_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  int from_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (!rt_side_ok(dst, n, to_dev) || !rt_side_ok(src, n, from_dev)) return cudaErrorInvalidValue;
  return cudaSuccess;
}
