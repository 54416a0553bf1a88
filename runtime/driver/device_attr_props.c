/* device_attr_props.c: the device attributes that only cudaDeviceProp
 * holds (texture and surface limits, NUMA, RDMA and interop flags), for
 * cuDeviceGetAttribute. NVIDIA's static CUDA runtime builds its
 * cudaDeviceProp from 111 attributes at start-up and stops with
 * cudaErrorInitializationError when the driver refuses one
 * (tests/hw/static_rt); answering from smemu's own cudaDeviceProp gives a
 * static program the properties a -cudart shared build sees. */
#include "rt.h"
#include "static_rt.h"
#include <stddef.h>

#define F(attr, field)                                                                                       \
  { attr, offsetof(struct cudaDeviceProp, field) }

/* CUdevice_attribute -> int field of cudaDeviceProp */
static const struct {
  int attr;
  size_t off;
} fields[] = {
    F(21, maxTexture1D),
    F(22, maxTexture2D[0]),
    F(23, maxTexture2D[1]),
    F(24, maxTexture3D[0]),
    F(25, maxTexture3D[1]),
    F(26, maxTexture3D[2]),
    F(27, maxTexture2DLayered[0]),
    F(28, maxTexture2DLayered[1]),
    F(29, maxTexture2DLayered[2]),
    F(42, maxTexture1DLayered[0]),
    F(43, maxTexture1DLayered[1]),
    F(45, maxTexture2DGather[0]),
    F(46, maxTexture2DGather[1]),
    F(47, maxTexture3DAlt[0]),
    F(48, maxTexture3DAlt[1]),
    F(49, maxTexture3DAlt[2]),
    F(52, maxTextureCubemap),
    F(53, maxTextureCubemapLayered[0]),
    F(54, maxTextureCubemapLayered[1]),
    F(55, maxSurface1D),
    F(56, maxSurface2D[0]),
    F(57, maxSurface2D[1]),
    F(58, maxSurface3D[0]),
    F(59, maxSurface3D[1]),
    F(60, maxSurface3D[2]),
    F(61, maxSurface1DLayered[0]),
    F(62, maxSurface1DLayered[1]),
    F(63, maxSurface2DLayered[0]),
    F(64, maxSurface2DLayered[1]),
    F(65, maxSurface2DLayered[2]),
    F(66, maxSurfaceCubemap),
    F(67, maxSurfaceCubemapLayered[0]),
    F(68, maxSurfaceCubemapLayered[1]),
    F(70, maxTexture2DLinear[0]),
    F(71, maxTexture2DLinear[1]),
    F(72, maxTexture2DLinear[2]),
    F(73, maxTexture2DMipmap[0]),
    F(74, maxTexture2DMipmap[1]),
    F(77, maxTexture1DMipmap),
    F(112, sparseCudaArraySupported),
    F(113, hostRegisterReadOnlySupported),
    F(114, timelineSemaphoreInteropSupported),
    F(116, gpuDirectRDMASupported),
    F(117, gpuDirectRDMAFlushWritesOptions),
    F(118, gpuDirectRDMAWritesOrdering),
    F(119, memoryPoolSupportedHandleTypes),
    F(121, deferredMappingCudaArraySupported),
    F(125, ipcEventSupported),
    F(129, unifiedFunctionPointers),
    F(130, deviceNumaConfig),
    F(131, deviceNumaId),
    F(133, mpsEnabled),
    F(134, hostNumaId),
    F(139, gpuPciDeviceID),
    F(140, gpuPciSubsystemID),
    F(143, hostNumaMultinodeIpcSupported),
};

/* CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, deprecated and gone
 * from CUDA 13's cudaDeviceProp, but still answered by the driver (CuPy's
 * getDeviceProperties asks for it): 2^28 as a compute capability 9.0 part
 * reports it, 2^27 before, as the programming guide's table of earlier
 * generations gives it. */
#define ATTR_TEXTURE1D_LINEAR_WIDTH 69

int rt_device_attribute_props(int attr, int *v) {
  if (attr == ATTR_TEXTURE1D_LINEAR_WIDTH) {
    *v = rt.arch.major >= 9 ? 1 << 28 : 1 << 27;
    return 0;
  }
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    if (fields[i].attr == attr) {
      struct cudaDeviceProp p;
      if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return -1;
      *v = *(const int *)((const char *)&p + fields[i].off);
      return 0;
    }
  return -1;
}
