/* memcpy_batch.c: cudaMemcpyBatchAsync and the driver's cuMemcpyBatchAsync:
 * a batch of pointer-to-pointer copies in stream order. The checks are the
 * documented ones: every copy has an attribute (attrsIdxs starts at 0,
 * increases and stays below count; numAttrs at most count), each attribute
 * names a source access order, and the stream is not the legacy NULL
 * stream. The copies then run in order, each as cudaMemcpyAsync with the
 * direction inferred (copies within a batch have no order, so any order is
 * one CUDA allows); the locations are hints with nothing to act on. */
#include "cu_abi.h"
#include <string.h>

typedef struct memcpy_attr {
  int src_access_order; /* cudaMemcpySrcAccessOrder: 1 stream, 2 during the call, 3 any */
  struct cudaMemLocation src_hint, dst_hint;
  unsigned flags;
} memcpy_attr;

enum { ORDER_FIRST = 1, ORDER_LAST = 3 };

static cudaError_t check_batch(const void *const *dsts, const void *const *srcs, const size_t *sizes,
                               size_t count, const memcpy_attr *attrs, const size_t *idx, size_t nattrs,
                               cudaStream_t stream) {
  if (!count || !dsts || !srcs || !sizes || !attrs || !idx || !nattrs || nattrs > count)
    return cudaErrorInvalidValue;
  if (!stream || stream == cudaStreamLegacy) return cudaErrorInvalidValue;
  if (idx[0] != 0) return cudaErrorInvalidValue;
  for (size_t i = 0; i < nattrs; i++) {
    if (i && idx[i] <= idx[i - 1]) return cudaErrorInvalidValue;
    if (idx[i] >= count) return cudaErrorInvalidValue;
    if (attrs[i].src_access_order < ORDER_FIRST || attrs[i].src_access_order > ORDER_LAST)
      return cudaErrorInvalidValue;
  }
  if (!rt_stream_get(stream)) return cudaErrorInvalidResourceHandle;
  return cudaSuccess;
}

static cudaError_t run_batch(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t count,
                             const void *attrs, const size_t *idx, size_t nattrs, cudaStream_t stream) {
  cudaError_t e = check_batch((const void *const *)dsts, srcs, sizes, count, attrs, idx, nattrs, stream);
  for (size_t i = 0; !e && i < count; i++)
    if (sizes[i]) e = rt_check_copy(dsts[i], srcs[i], sizes[i], cudaMemcpyDefault);
  rt_end(e);
  for (size_t i = 0; !e && i < count; i++)
    if (sizes[i]) e = cudaMemcpyAsync(dsts[i], srcs[i], sizes[i], cudaMemcpyDefault, stream);
  return e;
}

RT_EXPORT cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                           size_t count, void *attrs, size_t *attrsIdxs, size_t numAttrs,
                                           cudaStream_t stream);
RT_EXPORT CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                         void *attrs, size_t *attrsIdxs, size_t numAttrs, CUstream stream);

cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                 size_t count, void *attrs, size_t *attrsIdxs, size_t numAttrs,
                                 cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  return run_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream);
}

CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, void *attrs,
                               size_t *attrsIdxs, size_t numAttrs, CUstream stream) {
  cudaError_t e = rt_begin(1);
  if (e) return (CUresult)rt_end(e);
  /* CUdeviceptr is the pointer's value, the same size as a pointer here */
  e = run_batch((void *const *)dsts, (const void *const *)srcs, sizes, count, attrs, attrsIdxs, numAttrs,
                stream);
  return e == cudaErrorInvalidResourceHandle ? CUDA_ERROR_INVALID_HANDLE : (CUresult)e;
}
