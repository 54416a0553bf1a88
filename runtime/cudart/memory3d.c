/* memory3d.c: 3D copies and fills of linear memory (cudaMemcpy3D with
 * pitched pointers, cudaMemset3D) and peer copies, which on the one
 * emulated device are device-to-device copies. A 3D region is depth
 * slices of height rows of width bytes; row y of slice z of a pitched
 * pointer starts at ((pos.z + z) * ysize + pos.y + y) * pitch + pos.x. The
 * whole span a region covers is range-checked (bounds.c) before anything
 * is touched; copies with an array on a side are array.c's. */
#include "graph.h"
#include "rt.h"
#include <string.h>

/* The byte range [*lo, *hi) of a region relative to the pointer, or -1
 * when an offset overflows. */
static int region(const struct cudaPitchedPtr *pp, const struct cudaPos *pos, const struct cudaExtent *ex,
                  size_t *lo, size_t *hi) {
  size_t first, last, a, b;
  if (__builtin_mul_overflow(pos->z, pp->ysize, &a) || __builtin_add_overflow(a, pos->y, &a) ||
      __builtin_mul_overflow(a, pp->pitch, &first) || __builtin_add_overflow(first, pos->x, &first))
    return -1;
  if (__builtin_add_overflow(pos->z, ex->depth - 1, &a) || __builtin_mul_overflow(a, pp->ysize, &a) ||
      __builtin_add_overflow(a, pos->y, &a) || __builtin_add_overflow(a, ex->height - 1, &a) ||
      __builtin_mul_overflow(a, pp->pitch, &b) || __builtin_add_overflow(b, pos->x, &last) ||
      __builtin_add_overflow(last, ex->width, &last))
    return -1;
  *lo = first;
  *hi = last;
  return 0;
}

static char *row(const struct cudaPitchedPtr *pp, const struct cudaPos *pos, size_t y, size_t z) {
  return (char *)pp->ptr + ((pos->z + z) * pp->ysize + pos->y + y) * pp->pitch + pos->x;
}

static cudaError_t copy3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, int async) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (async && !rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if (!p) return rt_end(cudaErrorInvalidValue);
  if (p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault)
    return rt_end(cudaErrorInvalidMemcpyDirection);
  if (p->srcArray || p->dstArray) return rt_end(rt_copy3d_array(p)); /* array.c */
  const struct cudaExtent *ex = &p->extent;
  if (!ex->width || !ex->height || !ex->depth) return rt_end(cudaSuccess);
  if (!p->srcPtr.ptr || !p->dstPtr.ptr || ex->width > p->srcPtr.pitch || ex->width > p->dstPtr.pitch ||
      (ex->depth > 1 && (p->srcPtr.ysize < ex->height || p->dstPtr.ysize < ex->height)))
    return rt_end(cudaErrorInvalidValue);
  size_t slo, shi, dlo, dhi;
  int to_dev = p->kind == cudaMemcpyHostToDevice || p->kind == cudaMemcpyDeviceToDevice;
  int from_dev = p->kind == cudaMemcpyDeviceToHost || p->kind == cudaMemcpyDeviceToDevice;
  /* the region must lie in the allocation its pointer is in */
  if (region(&p->srcPtr, &p->srcPos, ex, &slo, &shi) < 0 ||
      region(&p->dstPtr, &p->dstPos, ex, &dlo, &dhi) < 0 ||
      !rt_region_ok(p->srcPtr.ptr, slo, shi, from_dev) || !rt_region_ok(p->dstPtr.ptr, dlo, dhi, to_dev))
    return rt_end(cudaErrorInvalidValue);
  int c = async ? rt_capture_copy3d(p, stream) : (int)rt_capture_forbid(0, 1);
  if (c > 0 || (async && c == 0)) return rt_end((cudaError_t)c);
  rt_drain();
  if (rt.sticky) return rt_end(rt.sticky);
  for (size_t z = 0; z < ex->depth; z++)
    for (size_t y = 0; y < ex->height; y++)
      memmove(row(&p->dstPtr, &p->dstPos, y, z), row(&p->srcPtr, &p->srcPos, y, z), ex->width);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) { return copy3d(p, 0, 0); }
RT_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
  return copy3d(p, stream, 1);
}

static cudaError_t fill3d(struct cudaPitchedPtr pp, int value, struct cudaExtent ex, cudaStream_t stream,
                          int async) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (async && !rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if (!ex.width || !ex.height || !ex.depth) return rt_end(cudaSuccess);
  struct cudaPos origin = {0, 0, 0};
  size_t lo, hi;
  if (!pp.ptr || ex.width > pp.pitch || (ex.depth > 1 && pp.ysize < ex.height) ||
      region(&pp, &origin, &ex, &lo, &hi) < 0 || !rt_region_ok(pp.ptr, lo, hi, 1))
    return rt_end(cudaErrorInvalidValue);
  int c = 0;
  /* captured: slices whose rows follow each other (height == ysize) are
   * one memset node of height * depth rows, as an H200 captures it
   * (tests/runtime/graphs/capture.cu); others a node per slice, in order */
  if (async && (ex.depth == 1 || ex.height == pp.ysize))
    c = rt_capture_memset(pp.ptr, (unsigned)value, 1, pp.pitch, ex.width, ex.height * ex.depth, stream);
  else
    for (size_t z = 0; async && z < ex.depth && c <= 0; z++)
      c = rt_capture_memset((char *)pp.ptr + z * pp.ysize * pp.pitch, (unsigned)value, 1, pp.pitch, ex.width,
                            ex.height, stream);
  if (!async) c = (int)rt_capture_forbid(0, 1);
  if (c > 0 || (async && c == 0)) return rt_end((cudaError_t)c);
  rt_drain();
  if (rt.sticky) return rt_end(rt.sticky);
  for (size_t z = 0; z < ex.depth; z++)
    for (size_t y = 0; y < ex.height; y++) memset(row(&pp, &origin, y, z), value, ex.width);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent) {
  return fill3d(pitchedDevPtr, value, extent, 0, 0);
}
RT_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                        struct cudaExtent extent, cudaStream_t stream) {
  return fill3d(pitchedDevPtr, value, extent, stream, 1);
}

/* One device: device 0 to device 0 is an ordinary device copy. */
static cudaError_t peer(void *dst, int dd, const void *src, int sd, size_t n, cudaStream_t stream,
                        int async) {
  if (dd != 0 || sd != 0) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidDevice);
  }
  return async ? cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, stream)
               : cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice);
}

RT_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
  return peer(dst, dstDevice, src, srcDevice, count, 0, 0);
}
RT_EXPORT cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                          size_t count, cudaStream_t stream) {
  return peer(dst, dstDevice, src, srcDevice, count, stream, 1);
}

/* Pitched linear memory for width x height x depth bytes: height * depth
 * rows of cudaMallocPitch's pitch. */
RT_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent) {
  if (!pitchedDevPtr || (extent.depth && extent.height > SIZE_MAX / extent.depth)) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  void *p = NULL;
  size_t pitch = 0;
  cudaError_t e = cudaMallocPitch(&p, &pitch, extent.width, extent.height * extent.depth);
  if (e) return e;
  *pitchedDevPtr = (struct cudaPitchedPtr){p, pitch, extent.width, extent.height};
  return cudaSuccess;
}
