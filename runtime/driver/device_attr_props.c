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
/* the 2 or 3 elements of an array field, for consecutive attributes */
#define F2(attr, field) F(attr, field[0]), F((attr) + 1, field[1])
#define F3(attr, field) F2(attr, field), F((attr) + 2, field[2])

/* CUdevice_attribute -> int field of cudaDeviceProp */
static const struct {
  int attr;
  size_t off;
} fields[] = {
    F(21, maxTexture1D),
    F2(22, maxTexture2D),
    F3(24, maxTexture3D),
    F3(27, maxTexture2DLayered),
    F2(42, maxTexture1DLayered),
    F2(45, maxTexture2DGather),
    F3(47, maxTexture3DAlt),
    F(52, maxTextureCubemap),
    F2(53, maxTextureCubemapLayered),
    F(55, maxSurface1D),
    F2(56, maxSurface2D),
    F3(58, maxSurface3D),
    F2(61, maxSurface1DLayered),
    F3(63, maxSurface2DLayered),
    F(66, maxSurfaceCubemap),
    F2(67, maxSurfaceCubemapLayered),
    F3(70, maxTexture2DLinear),
    F2(73, maxTexture2DMipmap),
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
