/* unsupported.c: the few calls that are no-ops here (profiler control) and
 * the stream-ordered allocator, which maps onto the ordinary one since all
 * work runs in issue order. What is not implemented at all is stubbed from
 * runtime/entries.def (core/stubs.c). */
#include "cudart/graph.h"
#include "rt.h"

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
