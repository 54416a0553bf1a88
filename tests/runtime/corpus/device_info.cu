/* device_info.cu: what a program learns about the device: count and
 * selection, the properties and attributes an architecture defines
 * (compute capability, thread, grid, register and shared-memory limits),
 * versions, limits, and the cache and bank configuration. Part-specific
 * figures (name, memory size, clocks, multiprocessor count) are not
 * printed: they differ between boards of one architecture. */
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

static int attr(cudaDeviceAttr a)
{
  int v = -1;
  CHECK(cudaDeviceGetAttribute(&v, a, 0));
  return v;
}

int main(void)
{
  int n = 0, dev = -1;
  CHECK(cudaGetDeviceCount(&n));
  printf("devices: %s\n", n >= 1 ? "at least one" : "none");
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  printf("current device %d\n", dev);
  cudaError_t e = cudaSetDevice(n);
  printf("cudaSetDevice(count): %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  cudaGetLastError();

  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  printf("compute capability %d.%d, warp %d\n", p.major, p.minor, p.warpSize);
  printf("threads per block %d, dims %d x %d x %d, grid %d x %d x %d\n", p.maxThreadsPerBlock, p.maxThreadsDim[0],
         p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  printf("shared per block %zu, opt-in %zu, per SM %zu, reserved %zu\n", p.sharedMemPerBlock,
         p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock);
  printf("registers per block %d, per SM %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
  printf("threads per SM %d, blocks per SM %d\n", p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
  printf("constant memory %zu, unified addressing %d, managed %d, cooperative %d, cluster %d\n", p.totalConstMem,
         p.unifiedAddressing, p.managedMemory, p.cooperativeLaunch, p.clusterLaunch);
  printf("attributes: %d %d %d %d %d %d %d %d %d %d %d %d\n", attr(cudaDevAttrComputeCapabilityMajor),
         attr(cudaDevAttrComputeCapabilityMinor), attr(cudaDevAttrMaxThreadsPerBlock), attr(cudaDevAttrMaxBlockDimZ),
         attr(cudaDevAttrMaxGridDimY), attr(cudaDevAttrMaxSharedMemoryPerBlock),
         attr(cudaDevAttrMaxSharedMemoryPerBlockOptin), attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor),
         attr(cudaDevAttrReservedSharedMemoryPerBlock), attr(cudaDevAttrMaxRegistersPerBlock),
         attr(cudaDevAttrMaxThreadsPerMultiProcessor), attr(cudaDevAttrMaxBlocksPerMultiprocessor));
  printf("SM count matches: %s\n", attr(cudaDevAttrMultiProcessorCount) == p.multiProcessorCount ? "yes" : "no");
  int bad = -1;
  e = cudaDeviceGetAttribute(&bad, cudaDevAttrMaxThreadsPerBlock, 3);
  printf("attribute of device 3: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  int rv = 0, dv = 0;
  CHECK(cudaRuntimeGetVersion(&rv));
  CHECK(cudaDriverGetVersion(&dv));
  printf("runtime %d, driver new enough: %s\n", rv, dv >= rv ? "yes" : "no");

  size_t v;
  CHECK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
  printf("stack %zu", v);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
  printf(", printf fifo %zu", v);
  CHECK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
  printf(", heap %zu\n", v);
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  CHECK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
  printf("stack after setting 4096: %zu\n", v);

  cudaFuncCache cc;
  CHECK(cudaDeviceGetCacheConfig(&cc));
  printf("cache config %d", (int)cc);
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  CHECK(cudaDeviceGetCacheConfig(&cc));
  printf(", after PreferShared %d\n", (int)cc);
  cudaSharedMemConfig sc;
  CHECK(cudaDeviceGetSharedMemConfig(&sc));
  printf("bank size config %d", (int)sc);
  CHECK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  CHECK(cudaDeviceGetSharedMemConfig(&sc));
  printf(", after EightByte %d\n", (int)sc);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDeviceReset());
  printf("reset: ok\n");
  return 0;
}
