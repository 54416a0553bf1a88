/* unsupported.c: entry points of NVIDIA's runtime that smemu does not
 * implement (arrays and textures, peer and IPC
 * memory, cooperative launches, memory pools), so that a program calling one
 * gets a message naming it and cudaErrorNotSupported instead of the dynamic
 * linker's "undefined symbol". Also the few calls that are no-ops here
 * (profiler control) and the stream-ordered allocator, which maps onto the
 * ordinary one since all work runs in issue order. */
#include "graph.h"
#include "rt.h"

/* Each stub is called with the real function's arguments and ignores them:
 * on x86-64 the caller owns its argument registers and stack. */
#define UNSUPPORTED(name)                                                          \
  RT_EXPORT cudaError_t name(void);                                                \
  cudaError_t name(void) {                                                         \
    static int said;                                                               \
    rt_begin(0);                                                                   \
    if (!said++) rt_msg(#name " is not supported by smemu's runtime");            \
    return rt_end(cudaErrorNotSupported);                                          \
  }

UNSUPPORTED(cudaMallocArray)
UNSUPPORTED(cudaMalloc3D)
UNSUPPORTED(cudaMalloc3DArray)
UNSUPPORTED(cudaFreeArray)
UNSUPPORTED(cudaMemcpy2DToArray)
UNSUPPORTED(cudaMemcpy2DFromArray)
UNSUPPORTED(cudaMemcpyToArray)
UNSUPPORTED(cudaMemcpyFromArray)
UNSUPPORTED(cudaCreateChannelDesc)
UNSUPPORTED(cudaCreateTextureObject)
UNSUPPORTED(cudaDestroyTextureObject)
UNSUPPORTED(cudaCreateSurfaceObject)
UNSUPPORTED(cudaDestroySurfaceObject)
UNSUPPORTED(cudaDeviceEnablePeerAccess)
UNSUPPORTED(cudaDeviceDisablePeerAccess)
UNSUPPORTED(cudaIpcGetMemHandle)
UNSUPPORTED(cudaIpcOpenMemHandle)
UNSUPPORTED(cudaIpcCloseMemHandle)
UNSUPPORTED(cudaIpcGetEventHandle)
UNSUPPORTED(cudaIpcOpenEventHandle)
UNSUPPORTED(cudaLaunchCooperativeKernel)
UNSUPPORTED(cudaMallocFromPoolAsync)
UNSUPPORTED(cudaMemPoolCreate)
UNSUPPORTED(cudaDeviceGetDefaultMemPool)
UNSUPPORTED(cudaDeviceGetMemPool)
UNSUPPORTED(cudaMemPoolSetAttribute)
UNSUPPORTED(cudaMemPoolTrimTo)

RT_EXPORT cudaError_t cudaProfilerStart(void);
RT_EXPORT cudaError_t cudaProfilerStop(void);
RT_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
RT_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream) {
  rt_begin(0);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  int c = rt_capture_malloc(devPtr, size, stream);
  if (c >= 0) return rt_end((cudaError_t)c);
  rt_end(cudaSuccess);
  return cudaMalloc(devPtr, size);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream) {
  rt_begin(0);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  int c = rt_capture_free(devPtr, stream);
  if (c >= 0) return rt_end((cudaError_t)c);
  rt_end(cudaSuccess);
  return cudaFree(devPtr);
}
