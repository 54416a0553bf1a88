/* device.c: the one emulated device. cudaGetDeviceProperties and
 * cudaDeviceGetAttribute report the selected architecture profile
 * (SMEMU_ARCH, sm_90 by default): compute capability, thread, block, grid,
 * register and shared-memory limits, the multiprocessor count of the
 * profile's representative part. Figures the profile does not model
 * (memory size, clocks, cache sizes) are those of that part, or plausible
 * constants; the device's name says it is smemu. Also synchronisation,
 * reset, versions, limits and the cache and bank configuration, which
 * follows each generation: 8-byte banks can be chosen on 3.x only;
 * elsewhere cudaDeviceSetSharedMemConfig succeeds and changes nothing. */
#include "graph.h"
#include "rt.h"
#include <stdlib.h>
#include <string.h>

#define RT_VERSION 13000

/* Global memory of the representative part (bytes). */
static size_t part_memory(void) {
  const size_t G = (size_t)1 << 30;
  switch (rt.arch.major * 10 + rt.arch.minor) {
  case 90:
    return 80 * G;
  case 80:
    return 40 * G;
  case 86:
  case 89:
    return 24 * G;
  case 87:
    return 32 * G;
  case 75:
  case 70:
  case 72:
  case 60:
    return 16 * G;
  case 61:
    return 8 * G;
  case 62:
  case 53:
  case 50:
  case 52:
    return 4 * G;
  case 35:
  case 37:
    return 12 * G;
  case 30:
  case 32:
    return 2 * G;
  case 20:
  case 21:
    return (size_t)3 << 29;
  default:
    return (size_t)1 << 29;
  }
}

size_t rt_total_memory(void) { return part_memory(); }

static int integrated(void) {
  const char *p = rt.arch.part ? rt.arch.part : "";
  return strstr(p, "Tegra") || strstr(p, "Jetson");
}

static void fill_props(struct cudaDeviceProp *p) {
  const smemu_arch_info *a = &rt.arch;
  int cc = a->major * 10 + a->minor;
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "smemu %s (%s)", a->name, a->part ? a->part : a->family);
  memcpy(p->uuid.bytes, "smemu-emulator-0", 16);
  p->totalGlobalMem = part_memory();
  p->sharedMemPerBlock = a->smem_per_block;
  p->regsPerBlock = (int)a->regs_per_block;
  p->warpSize = a->warp_size;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = a->max_threads_per_block;
  for (int i = 0; i < 3; i++) {
    p->maxThreadsDim[i] = a->max_block_dim[i];
    p->maxGridSize[i] = (int)(a->max_grid_dim[i] > 2147483647u ? 2147483647u : a->max_grid_dim[i]);
  }
  p->totalConstMem = 65536;
  p->major = a->major;
  p->minor = a->minor;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = a->sm_count;
  p->integrated = integrated();
  p->canMapHostMemory = 1;
  p->maxTexture1D = 131072;
  p->maxTexture1DMipmap = 32768;
  p->maxTexture2D[0] = 131072, p->maxTexture2D[1] = 65536;
  p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 32768;
  p->maxTexture2DLinear[0] = 131072, p->maxTexture2DLinear[1] = 65000, p->maxTexture2DLinear[2] = 2097120;
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
  p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192, p->maxTexture3DAlt[2] = 32768;
  p->maxTextureCubemap = 32768;
  p->maxTexture1DLayered[0] = 32768, p->maxTexture1DLayered[1] = 2048;
  p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768, p->maxTexture2DLayered[2] = 2048;
  p->maxTextureCubemapLayered[0] = 32768, p->maxTextureCubemapLayered[1] = 2046;
  p->maxSurface1D = 32768;
  p->maxSurface2D[0] = 131072, p->maxSurface2D[1] = 65536;
  p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
  p->maxSurface1DLayered[0] = 32768, p->maxSurface1DLayered[1] = 2048;
  p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768, p->maxSurface2DLayered[2] = 2048;
  p->maxSurfaceCubemap = 32768;
  p->maxSurfaceCubemapLayered[0] = 32768, p->maxSurfaceCubemapLayered[1] = 2046;
  p->surfaceAlignment = 512;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 2;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = cc >= 90 ? 5120 : cc >= 80 ? 5120 : 384;
  p->l2CacheSize = cc >= 90 ? 52428800 : cc >= 80 ? 41943040 : 6291456;
  p->persistingL2CacheMaxSize = cc >= 80 ? p->l2CacheSize * 3 / 4 : 0;
  p->maxThreadsPerMultiProcessor = a->max_threads_per_sm;
  p->streamPrioritiesSupported = cc >= 35;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = a->smem_per_sm;
  p->regsPerMultiprocessor = (int)a->regs_per_sm;
  p->managedMemory = 1;
  p->multiGpuBoardGroupID = 0;
  p->concurrentManagedAccess = cc >= 60;
  p->computePreemptionSupported = cc >= 60;
  p->canUseHostPointerForRegisteredMem = 1;
  p->cooperativeLaunch = cc >= 60;
  p->sharedMemPerBlockOptin = a->smem_per_block_optin;
  p->maxBlocksPerMultiProcessor = a->max_blocks_per_sm;
  p->accessPolicyMaxWindowSize = cc >= 80 ? 134213632 : 0;
  p->reservedSharedMemPerBlock = a->smem_reserved_per_block;
  p->hostRegisterSupported = 1;
  p->memoryPoolsSupported = 1;
  p->clusterLaunch = cc >= 90;
  p->unifiedFunctionPointers = 1;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
}

int rt_device_attribute(int attr, int *v) {
  /* virtual memory management (driver/vmm.c): the driver's attribute 102,
   * which the runtime's enumeration does not name */
  if (attr == 102) {
    *v = 1;
    return 0;
  }
  struct cudaDeviceProp p;
  fill_props(&p);
  switch ((enum cudaDeviceAttr)attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    *v = p.maxThreadsPerBlock;
    break;
  case cudaDevAttrMaxBlockDimX:
    *v = p.maxThreadsDim[0];
    break;
  case cudaDevAttrMaxBlockDimY:
    *v = p.maxThreadsDim[1];
    break;
  case cudaDevAttrMaxBlockDimZ:
    *v = p.maxThreadsDim[2];
    break;
  case cudaDevAttrMaxGridDimX:
    *v = p.maxGridSize[0];
    break;
  case cudaDevAttrMaxGridDimY:
    *v = p.maxGridSize[1];
    break;
  case cudaDevAttrMaxGridDimZ:
    *v = p.maxGridSize[2];
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    *v = (int)p.sharedMemPerBlock;
    break;
  case cudaDevAttrTotalConstantMemory:
    *v = (int)p.totalConstMem;
    break;
  case cudaDevAttrWarpSize:
    *v = p.warpSize;
    break;
  case cudaDevAttrMaxPitch:
    *v = (int)p.memPitch;
    break;
  case cudaDevAttrMaxRegistersPerBlock:
    *v = p.regsPerBlock;
    break;
  case cudaDevAttrClockRate:
    *v = 1755000;
    break;
  case cudaDevAttrTextureAlignment:
    *v = (int)p.textureAlignment;
    break;
  case cudaDevAttrGpuOverlap:
    *v = 1;
    break;
  case cudaDevAttrMultiProcessorCount:
    *v = p.multiProcessorCount;
    break;
  case cudaDevAttrKernelExecTimeout:
    *v = 0;
    break;
  case cudaDevAttrIntegrated:
    *v = p.integrated;
    break;
  case cudaDevAttrCanMapHostMemory:
    *v = p.canMapHostMemory;
    break;
  case cudaDevAttrComputeMode:
    *v = 0;
    break;
  case cudaDevAttrSurfaceAlignment:
    *v = (int)p.surfaceAlignment;
    break;
  case cudaDevAttrConcurrentKernels:
    *v = p.concurrentKernels;
    break;
  case cudaDevAttrEccEnabled:
    *v = p.ECCEnabled;
    break;
  case cudaDevAttrPciBusId:
    *v = p.pciBusID;
    break;
  case cudaDevAttrPciDeviceId:
    *v = p.pciDeviceID;
    break;
  case cudaDevAttrTccDriver:
    *v = 0;
    break;
  case cudaDevAttrMemoryClockRate:
    *v = 2619000;
    break;
  case cudaDevAttrGlobalMemoryBusWidth:
    *v = p.memoryBusWidth;
    break;
  case cudaDevAttrL2CacheSize:
    *v = p.l2CacheSize;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *v = p.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrAsyncEngineCount:
    *v = p.asyncEngineCount;
    break;
  case cudaDevAttrUnifiedAddressing:
    *v = p.unifiedAddressing;
    break;
  case cudaDevAttrPciDomainId:
    *v = p.pciDomainID;
    break;
  case cudaDevAttrTexturePitchAlignment:
    *v = (int)p.texturePitchAlignment;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    *v = p.major;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    *v = p.minor;
    break;
  case cudaDevAttrStreamPrioritiesSupported:
    *v = p.streamPrioritiesSupported;
    break;
  case cudaDevAttrGlobalL1CacheSupported:
    *v = p.globalL1CacheSupported;
    break;
  case cudaDevAttrLocalL1CacheSupported:
    *v = p.localL1CacheSupported;
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *v = (int)p.sharedMemPerMultiprocessor;
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    *v = p.regsPerMultiprocessor;
    break;
  case cudaDevAttrManagedMemory:
    *v = p.managedMemory;
    break;
  case cudaDevAttrIsMultiGpuBoard:
    *v = p.isMultiGpuBoard;
    break;
  case cudaDevAttrMultiGpuBoardGroupID:
    *v = p.multiGpuBoardGroupID;
    break;
  case cudaDevAttrHostNativeAtomicSupported:
    *v = p.hostNativeAtomicSupported;
    break;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio:
    *v = 2;
    break;
  case cudaDevAttrPageableMemoryAccess:
    *v = p.pageableMemoryAccess;
    break;
  case cudaDevAttrConcurrentManagedAccess:
    *v = p.concurrentManagedAccess;
    break;
  case cudaDevAttrComputePreemptionSupported:
    *v = p.computePreemptionSupported;
    break;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    *v = p.canUseHostPointerForRegisteredMem;
    break;
  case cudaDevAttrCooperativeLaunch:
    *v = p.cooperativeLaunch;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    *v = (int)p.sharedMemPerBlockOptin;
    break;
  case cudaDevAttrCanFlushRemoteWrites:
    *v = 0;
    break;
  case cudaDevAttrHostRegisterSupported:
    *v = p.hostRegisterSupported;
    break;
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    *v = 0;
    break;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    *v = 0;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    *v = p.maxBlocksPerMultiProcessor;
    break;
  case cudaDevAttrMaxPersistingL2CacheSize:
    *v = p.persistingL2CacheMaxSize;
    break;
  case cudaDevAttrMaxAccessPolicyWindowSize:
    *v = p.accessPolicyMaxWindowSize;
    break;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    *v = (int)p.reservedSharedMemPerBlock;
    break;
  case cudaDevAttrMemoryPoolsSupported:
    *v = p.memoryPoolsSupported;
    break;
  case cudaDevAttrClusterLaunch:
    *v = p.clusterLaunch;
    break;
  default:
    return -1;
  }
  return 0;
}

/* A query answered with one int: an invalid value without a place for it. */
static cudaError_t answer(int *out, int v) {
  rt_begin(0);
  if (!out) return rt_end(cudaErrorInvalidValue);
  *out = v;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGetDeviceCount(int *count) { return answer(count, 1); }

RT_EXPORT cudaError_t cudaGetDevice(int *device) { return answer(device, 0); }

RT_EXPORT cudaError_t cudaSetDevice(int device) {
  rt_begin(0);
  return rt_end(device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

RT_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  (void)deviceFlags;
  (void)flags;
  cudaError_t e = rt_begin(device == 0);
  return rt_end(device == 0 ? e : cudaErrorInvalidDevice);
}

RT_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) {
  rt_begin(0);
  if (!device || !prop) return rt_end(cudaErrorInvalidValue);
  *device = 0;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device) {
  rt_begin(0);
  if (!prop) return rt_end(cudaErrorInvalidValue);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  fill_props(prop);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  rt_begin(0);
  if (!value) return rt_end(cudaErrorInvalidValue);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  return rt_end(rt_device_attribute(attr, value) == 0 ? cudaSuccess : cudaErrorInvalidValue);
}

RT_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  rt_begin(0);
  if (!pciBusId || len <= 0) return rt_end(cudaErrorInvalidValue);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  snprintf(pciBusId, (size_t)len, "0000:00:00.0");
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
  rt_begin(0);
  if (!canAccessPeer) return rt_end(cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0) return rt_end(cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return rt_end(cudaSuccess);
}

cudaError_t rt_sync_all(void) {
  rt_drain();
  rt_pool_sync();
  return rt.sticky;
}

RT_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if ((e = rt_capture_forbid(0, 0))) return rt_end(e);
  return rt_end(rt_sync_all());
}

RT_EXPORT cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

RT_EXPORT cudaError_t cudaDeviceReset(void) {
  rt_begin(0);
  rt_reset();
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion) { return answer(driverVersion, RT_VERSION); }

RT_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  return answer(runtimeVersion, RT_VERSION);
}

RT_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  rt_begin(0);
  if (flags & ~(unsigned)0x1f) return rt_end(cudaErrorInvalidValue);
  rt.device_flags = flags;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  rt_begin(0);
  if (!flags) return rt_end(cudaErrorInvalidValue);
  *flags = rt.device_flags;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit) {
  rt_begin(0);
  if (!value) return rt_end(cudaErrorInvalidValue);
  switch (limit) {
  case cudaLimitStackSize:
    *value = rt.stack_limit;
    break;
  case cudaLimitPrintfFifoSize:
    *value = rt.printf_fifo;
    break;
  case cudaLimitMallocHeapSize:
    *value = rt.heap_limit;
    break;
  case cudaLimitDevRuntimeSyncDepth:
    *value = rt_cdp_sync_depth();
    break;
  case cudaLimitDevRuntimePendingLaunchCount:
    *value = rt_cdp_pending_limit();
    break;
  case cudaLimitMaxL2FetchGranularity:
    *value = 64;
    break;
  case cudaLimitPersistingL2CacheSize:
    *value = 0;
    break;
  default:
    return rt_end(cudaErrorUnsupportedLimit);
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  switch (limit) {
  case cudaLimitStackSize:
    rt.stack_limit = value;
    smemu_set_stack_bytes(rt.ctx, (uint32_t)value);
    break;
  case cudaLimitPrintfFifoSize:
    rt.printf_fifo = value;
    break;
  case cudaLimitMallocHeapSize:
    if (rt.ctx && smemu_set_heap_bytes(rt.ctx, value) != SMEMU_OK) return rt_end(cudaErrorInvalidValue);
    rt.heap_limit = value;
    break;
  case cudaLimitDevRuntimeSyncDepth:
    rt.sync_depth = value;
    break;
  case cudaLimitDevRuntimePendingLaunchCount:
    rt.pending_limit = value;
    break;
  case cudaLimitMaxL2FetchGranularity:
  case cudaLimitPersistingL2CacheSize:
    break;
  default:
    return rt_end(cudaErrorUnsupportedLimit);
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!config) return rt_end(cudaErrorInvalidValue);
  *config = (enum cudaFuncCache)rt.cache_config;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if ((unsigned)config > cudaFuncCachePreferEqual) return rt_end(cudaErrorInvalidValue);
  rt.cache_config = config; /* a preference only */
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!config) return rt_end(cudaErrorInvalidValue);
  *config = rt.arch.bank8_selectable && rt.shmem_config == cudaSharedMemBankSizeEightByte
                ? cudaSharedMemBankSizeEightByte
                : cudaSharedMemBankSizeFourByte;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if ((unsigned)config > cudaSharedMemBankSizeEightByte) return rt_end(cudaErrorInvalidValue);
  if (rt.arch.bank8_selectable) {
    rt.shmem_config = config == cudaSharedMemBankSizeEightByte ? config : cudaSharedMemBankSizeFourByte;
    smemu_set_bank_mode(rt.ctx, config == cudaSharedMemBankSizeEightByte ? 8 : 4);
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  rt_begin(0);
  int cc = rt.arch.major * 10 + rt.arch.minor;
  if (leastPriority) *leastPriority = 0;
  if (greatestPriority) *greatestPriority = cc >= 70 ? -5 : cc >= 35 ? -1 : 0;
  return rt_end(cudaSuccess);
}

/* ---- asynchronous notifications ---- */

/* The notifications CUDA sends (over-budget device memory) never come on
 * the emulated device; registering and unregistering still work, so a
 * program that listens runs. */
typedef struct cudaAsyncCallbackEntry {
  cudaAsyncCallback fn;
  void *user;
  struct cudaAsyncCallbackEntry *next;
} async_entry;
static async_entry *async_entries;

RT_EXPORT cudaError_t cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc,
                                                          void *userData,
                                                          cudaAsyncCallbackHandle_t *callback) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  if (!callbackFunc || !callback) return rt_end(cudaErrorInvalidValue);
  async_entry *a = calloc(1, sizeof *a);
  if (!a) return rt_end(cudaErrorMemoryAllocation);
  *a = (async_entry){callbackFunc, userData, async_entries};
  async_entries = a;
  *callback = a;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceUnregisterAsyncNotification(int device, cudaAsyncCallbackHandle_t callback) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  for (async_entry **p = &async_entries; *p; p = &(*p)->next)
    if (*p == callback) {
      *p = callback->next;
      free(callback);
      return rt_end(cudaSuccess);
    }
  return rt_end(cudaErrorInvalidValue);
}
