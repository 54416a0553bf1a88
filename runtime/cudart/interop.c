/* interop.c: graphics interoperability (OpenGL, Direct3D, VDPAU, EGL
 * resources). The functions that register a resource live in the
 * graphics APIs' own headers and do not exist here, so no resource is ever
 * registered and every resource handle is invalid: an H200 (CUDA 13.0,
 * tests/hw/rtapi/small_api.out) answers cudaErrorInvalidResourceHandle for
 * unregistering or mapping the pointer of one, and an invalid value for
 * mapping no resources at all. The driver's names (cuGraphics*) share
 * these answers (driver/extras.c). */
#include "rt.h"

/* count resources at `resources`: none is invalid, any is unknown */
cudaError_t rt_graphics_map(int count, const void *resources) {
  return count <= 0 || !resources ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle;
}

RT_EXPORT cudaError_t cudaGraphicsUnregisterResource(void *resource);
RT_EXPORT cudaError_t cudaGraphicsResourceSetMapFlags(void *resource, unsigned int flags);
RT_EXPORT cudaError_t cudaGraphicsMapResources(int count, void **resources, cudaStream_t stream);
RT_EXPORT cudaError_t cudaGraphicsUnmapResources(int count, void **resources, cudaStream_t stream);
RT_EXPORT cudaError_t cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size, void *resource);
RT_EXPORT cudaError_t cudaGraphicsSubResourceGetMappedArray(void **array, void *resource,
                                                            unsigned int arrayIndex, unsigned int mipLevel);
RT_EXPORT cudaError_t cudaGraphicsResourceGetMappedMipmappedArray(void **mipmappedArray, void *resource);

static cudaError_t no_resource(void) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaGraphicsUnregisterResource(void *resource) { return no_resource(); }
cudaError_t cudaGraphicsResourceSetMapFlags(void *resource, unsigned int flags) { return no_resource(); }
cudaError_t cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size, void *resource) {
  return no_resource();
}
cudaError_t cudaGraphicsSubResourceGetMappedArray(void **array, void *resource, unsigned int arrayIndex,
                                                  unsigned int mipLevel) {
  return no_resource();
}
cudaError_t cudaGraphicsResourceGetMappedMipmappedArray(void **mipmappedArray, void *resource) {
  return no_resource();
}

cudaError_t cudaGraphicsMapResources(int count, void **resources, cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : rt_graphics_map(count, resources));
}

cudaError_t cudaGraphicsUnmapResources(int count, void **resources, cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : rt_graphics_map(count, resources));
}
