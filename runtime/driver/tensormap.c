/* tensormap.c: the driver's tensor-map entry points (cuTensorMapEncodeTiled,
 * cuTensorMapEncodeIm2col, cuTensorMapReplaceAddress) over smemu's
 * encoding (src/async/tensormap.c, through include/smemu.h), and the
 * runtime's way to reach driver entry points, cudaGetDriverEntryPoint /
 * cudaGetDriverEntryPointByVersion, which CUTLASS and CuTe use to find
 * cuTensorMapEncodeTiled without linking libcuda. A refused map says why
 * on stderr (unless SMEMU_QUIET); the driver itself says nothing. */
#include "cu_abi.h"
#include <stdint.h>

RT_EXPORT CUresult cuTensorMapEncodeTiled(CUtensorMap *map, int dtype, uint32_t rank, void *addr,
                                          const uint64_t *dim, const uint64_t *strides, const uint32_t *box,
                                          const uint32_t *estrides, int interleave, int swizzle, int l2,
                                          int oob);
RT_EXPORT CUresult cuTensorMapEncodeIm2col(CUtensorMap *map, int dtype, uint32_t rank, void *addr,
                                           const uint64_t *dim, const uint64_t *strides, const int *lower,
                                           const int *upper, uint32_t cpp, uint32_t ppc,
                                           const uint32_t *estrides, int interleave, int swizzle, int l2,
                                           int oob);
RT_EXPORT CUresult cuTensorMapReplaceAddress(CUtensorMap *map, void *addr);
RT_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags,
                                              int *status);
RT_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int version,
                                                       unsigned long long flags, int *status);

static CUresult said(const char *fn, CUresult rc, const char *msg) {
  if (rc) rt_msg("%s: CUDA_ERROR_INVALID_VALUE: %s", fn, msg);
  return rc;
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *map, int dtype, uint32_t rank, void *addr, const uint64_t *dim,
                                const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
                                int interleave, int swizzle, int l2, int oob) {
  char msg[256];
  return said("cuTensorMapEncodeTiled",
              smemu_tensormap_encode_tiled(map, dtype, rank, addr, dim, strides, box, estrides, interleave,
                                           swizzle, l2, oob, msg, sizeof msg),
              msg);
}

CUresult cuTensorMapEncodeIm2col(CUtensorMap *map, int dtype, uint32_t rank, void *addr, const uint64_t *dim,
                                 const uint64_t *strides, const int *lower, const int *upper, uint32_t cpp,
                                 uint32_t ppc, const uint32_t *estrides, int interleave, int swizzle, int l2,
                                 int oob) {
  char msg[256];
  return said("cuTensorMapEncodeIm2col",
              smemu_tensormap_encode_im2col(map, dtype, rank, addr, dim, strides, lower, upper, cpp, ppc,
                                            estrides, interleave, swizzle, l2, oob, msg, sizeof msg),
              msg);
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *map, void *addr) {
  char msg[256];
  return said("cuTensorMapReplaceAddress", smemu_tensormap_replace_address(map, addr, msg, sizeof msg), msg);
}

/* cudaDriverEntryPointQueryResult */
enum { ENTRY_SUCCESS = 0, ENTRY_SYMBOL_NOT_FOUND = 1 };

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int version,
                                             unsigned long long flags, int *status) {
  (void)version;
  (void)flags;
  if (!symbol || !fn) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  *fn = rt_driver_symbol(symbol);
  if (status) *status = *fn ? ENTRY_SUCCESS : ENTRY_SYMBOL_NOT_FOUND;
  /* the runtime answers success with a status of "not found" */
  return cudaSuccess;
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags, int *status) {
  return cudaGetDriverEntryPointByVersion(symbol, fn, 13000, flags, status);
}
