/* unsupported.c: entry points of NVIDIA's runtime that smemu does not
 * implement (graphs, stream capture, arrays and textures, peer and IPC
 * memory, cooperative launches), so that a program calling one
 * gets a message naming it and cudaErrorNotSupported instead of the dynamic
 * linker's "undefined symbol". Also the few calls that are no-ops here
 * (profiler control). */
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

UNSUPPORTED(cudaGraphCreate)
UNSUPPORTED(cudaGraphInstantiate)
UNSUPPORTED(cudaGraphInstantiateWithFlags)
UNSUPPORTED(cudaGraphLaunch)
UNSUPPORTED(cudaGraphExecDestroy)
UNSUPPORTED(cudaGraphDestroy)
UNSUPPORTED(cudaGraphAddKernelNode)
UNSUPPORTED(cudaGraphAddMemcpyNode)
UNSUPPORTED(cudaStreamBeginCapture)
UNSUPPORTED(cudaStreamEndCapture)
UNSUPPORTED(cudaStreamIsCapturing)
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

RT_EXPORT cudaError_t cudaProfilerStart(void);
RT_EXPORT cudaError_t cudaProfilerStop(void);

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
