/* external.c: external memory and semaphores (Vulkan, D3D, NvSci buffers
 * and fences shared with CUDA). The emulated device can import none, so no
 * handle of either kind ever exists. The answers of an H200 (CUDA 13.0,
 * tests/hw/rtapi/small_api.out) to arguments that are wrong on any device
 * are kept: an import with no handle type is an invalid value, and so is
 * destroying a handle that was never made; a well-formed import is not
 * supported here. Mapping and signalling stay stubs (runtime/entries.def).
 * The driver's names (cuImportExternal*, cuDestroyExternal*) share these
 * answers (driver/extras.c). */
#include "rt.h"

enum { MEMORY_TYPE_LAST = 8, SEMAPHORE_TYPE_LAST = 10 };

/* desc starts with its handle type (an enum, 1 .. last). */
cudaError_t rt_external_import(void *out, const void *desc, int last) {
  if (!out || !desc) return cudaErrorInvalidValue;
  int type = *(const int *)desc;
  if (type < 1 || type > last) return cudaErrorInvalidValue;
  return cudaErrorNotSupported;
}

RT_EXPORT cudaError_t cudaImportExternalMemory(void **extMem_out, const void *memHandleDesc);
RT_EXPORT cudaError_t cudaDestroyExternalMemory(void *extMem);
RT_EXPORT cudaError_t cudaImportExternalSemaphore(void **extSem_out, const void *semHandleDesc);
RT_EXPORT cudaError_t cudaDestroyExternalSemaphore(void *extSem);

/* An import (on a live context: rt_external_import's answer) and a
 * destruction (no handle exists: an invalid value). */
static cudaError_t import(void *out, const void *desc, int last) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : rt_external_import(out, desc, last));
}
static cudaError_t destroy(void) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : cudaErrorInvalidValue);
}

cudaError_t cudaImportExternalMemory(void **extMem_out, const void *memHandleDesc) {
  return import(extMem_out, memHandleDesc, MEMORY_TYPE_LAST);
}
cudaError_t cudaDestroyExternalMemory(void *extMem) { return destroy(); }
cudaError_t cudaImportExternalSemaphore(void **extSem_out, const void *semHandleDesc) {
  return import(extSem_out, semHandleDesc, SEMAPHORE_TYPE_LAST);
}
cudaError_t cudaDestroyExternalSemaphore(void *extSem) { return destroy(); }
