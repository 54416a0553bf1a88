/* memory.c: the driver's pitched allocation, 2D fills and managed-memory
 * hints over the runtime's (cudart/memory.c), so both APIs share one set of
 * allocations. A 2D fill of 16- or 32-bit values is one fill per row. */
#include "cu_abi.h"

#define EXPORT RT_EXPORT CUresult
#define P(decl) decl;
P(CUresult cuMemAllocPitch_v2(CUdeviceptr *, size_t *, size_t, size_t, unsigned))
P(CUresult cuMemsetD2D8_v2(CUdeviceptr, size_t, unsigned char, size_t, size_t))
P(CUresult cuMemsetD2D16_v2(CUdeviceptr, size_t, unsigned short, size_t, size_t))
P(CUresult cuMemsetD2D32_v2(CUdeviceptr, size_t, unsigned, size_t, size_t))
P(CUresult cuMemsetD2D8Async(CUdeviceptr, size_t, unsigned char, size_t, size_t, CUstream))
P(CUresult cuMemsetD2D16Async(CUdeviceptr, size_t, unsigned short, size_t, size_t, CUstream))
P(CUresult cuMemsetD2D32Async(CUdeviceptr, size_t, unsigned, size_t, size_t, CUstream))
P(CUresult cuMemsetD16_v2(CUdeviceptr, unsigned short, size_t))
P(CUresult cuMemsetD16Async(CUdeviceptr, unsigned short, size_t, CUstream))
P(CUresult cuMemsetD32Async(CUdeviceptr, unsigned, size_t, CUstream))
P(CUresult cuMemHostGetFlags(unsigned *, void *))
P(CUresult cuMemPrefetchAsync_v2(CUdeviceptr, size_t, struct cudaMemLocation, unsigned, CUstream))
P(CUresult cuMemAdvise_v2(CUdeviceptr, size_t, int, struct cudaMemLocation))
P(CUresult cuStreamAttachMemAsync(CUstream, CUdeviceptr, size_t, unsigned))

static CUresult cu(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidResourceHandle:
    return CUDA_ERROR_INVALID_HANDLE;
  case cudaErrorInvalidPitchValue:
  case cudaErrorInvalidDevicePointer:
    return CUDA_ERROR_INVALID_VALUE;
  default:
    return (CUresult)e;
  }
}

#define DP(p) ((void *)(uintptr_t)(p))

/* ElementSizeBytes is 4, 8 or 16 (the documented values); the pitch is
 * the runtime's. */
EXPORT cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t w, size_t h, unsigned elem) {
  if (!dptr || !pitch || (elem != 4 && elem != 8 && elem != 16)) return CUDA_ERROR_INVALID_VALUE;
  void *p = NULL;
  CUresult r = cu(cudaMallocPitch(&p, pitch, w, h));
  if (!r) *dptr = (CUdeviceptr)(uintptr_t)p;
  return r;
}

EXPORT cuMemsetD2D8_v2(CUdeviceptr p, size_t pitch, unsigned char v, size_t w, size_t h) {
  return cu(cudaMemset2D(DP(p), pitch, v, w, h));
}
EXPORT cuMemsetD2D8Async(CUdeviceptr p, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s) {
  return cu(cudaMemset2DAsync(DP(p), pitch, v, w, h, s));
}

/* Rows of w elements of `size` bytes, pitch bytes apart. */
static CUresult rows(CUdeviceptr p, size_t pitch, unsigned v, size_t w, size_t h, unsigned size, int async,
                     CUstream s) {
  if (h > 1 && pitch < w * size) return CUDA_ERROR_INVALID_VALUE;
  for (size_t y = 0; y < h; y++) {
    CUdeviceptr row = p + y * pitch;
    CUresult r = size == 2 ? (async ? cuMemsetD16Async(row, (unsigned short)v, w, s)
                                    : cuMemsetD16_v2(row, (unsigned short)v, w))
                           : (async ? cuMemsetD32Async(row, v, w, s) : cuMemsetD32_v2(row, v, w));
    if (r) return r;
  }
  return CUDA_SUCCESS;
}

EXPORT cuMemsetD2D16_v2(CUdeviceptr p, size_t pitch, unsigned short v, size_t w, size_t h) {
  return rows(p, pitch, v, w, h, 2, 0, NULL);
}
EXPORT cuMemsetD2D32_v2(CUdeviceptr p, size_t pitch, unsigned v, size_t w, size_t h) {
  return rows(p, pitch, v, w, h, 4, 0, NULL);
}
EXPORT cuMemsetD2D16Async(CUdeviceptr p, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s) {
  return rows(p, pitch, v, w, h, 2, 1, s);
}
EXPORT cuMemsetD2D32Async(CUdeviceptr p, size_t pitch, unsigned v, size_t w, size_t h, CUstream s) {
  return rows(p, pitch, v, w, h, 4, 1, s);
}

EXPORT cuMemHostGetFlags(unsigned *flags, void *p) { return cu(cudaHostGetFlags(flags, p)); }

/* CUmemLocation is cudaMemLocation (type, id) */
EXPORT cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, struct cudaMemLocation loc, unsigned flags,
                             CUstream s) {
  return cu(cudaMemPrefetchAsync(DP(p), n, loc, flags, s));
}
EXPORT cuMemAdvise_v2(CUdeviceptr p, size_t n, int advice, struct cudaMemLocation loc) {
  return cu(cudaMemAdvise(DP(p), n, advice, loc));
}
EXPORT cuStreamAttachMemAsync(CUstream s, CUdeviceptr p, size_t n, unsigned flags) {
  return cu(cudaStreamAttachMemAsync(s, DP(p), n, flags));
}
