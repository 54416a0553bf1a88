/* old_names.c: driver entry points under the names cuda.h used before a
 * signature or behaviour change gave them a _v2. NVIDIA's libcuda.so.1
 * still exports them for programs built then, and libraries that look up
 * their driver functions by name with dlsym (cuFFT asks for all of these
 * and gives up when one is missing) need them. Each serves through its
 * _v2: the old cuMemPrefetchAsync names a device (or CU_DEVICE_CPU, -1)
 * where the new one takes a location. */
#include "cu_abi.h"
#include <stdio.h>
#include <string.h>

#define EXPORT RT_EXPORT CUresult
#define P(decl) decl;
P(CUresult cuDevicePrimaryCtxRelease_v2(CUdevice))
P(CUresult cuMemPrefetchAsync_v2(CUdeviceptr, size_t, struct cudaMemLocation, unsigned, CUstream))
P(CUresult cuMemAdvise_v2(CUdeviceptr, size_t, int, struct cudaMemLocation))
P(CUresult cuStreamWaitValue32_v2(CUstream, CUdeviceptr, unsigned, unsigned))
P(CUresult cuStreamWriteValue32_v2(CUstream, CUdeviceptr, unsigned, unsigned))
P(CUresult cuStreamWaitValue64_v2(CUstream, CUdeviceptr, unsigned long long, unsigned))
P(CUresult cuStreamWriteValue64_v2(CUstream, CUdeviceptr, unsigned long long, unsigned))
P(CUresult cuStreamBatchMemOp_v2(CUstream, unsigned, void *, unsigned))
P(CUresult cuDevicePrimaryCtxRelease(CUdevice))
P(CUresult cuMemPrefetchAsync(CUdeviceptr, size_t, CUdevice, CUstream))
P(CUresult cuMemAdvise(CUdeviceptr, size_t, int, CUdevice))
P(CUresult cuStreamWaitValue32(CUstream, CUdeviceptr, unsigned, unsigned))
P(CUresult cuStreamWriteValue32(CUstream, CUdeviceptr, unsigned, unsigned))
P(CUresult cuStreamWaitValue64(CUstream, CUdeviceptr, unsigned long long, unsigned))
P(CUresult cuStreamWriteValue64(CUstream, CUdeviceptr, unsigned long long, unsigned))
P(CUresult cuStreamBatchMemOp(CUstream, unsigned, void *, unsigned))

enum { LOCATION_DEVICE = 1, LOCATION_HOST = 2, DEVICE_CPU = -1 };

/* The location an old-style device argument names. */
static struct cudaMemLocation location(CUdevice dev) {
  struct cudaMemLocation loc = {dev == DEVICE_CPU ? LOCATION_HOST : LOCATION_DEVICE,
                                dev == DEVICE_CPU ? 0 : dev};
  return loc;
}

EXPORT cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
EXPORT cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice dev, CUstream s) {
  return cuMemPrefetchAsync_v2(p, n, location(dev), 0, s);
}
EXPORT cuMemAdvise(CUdeviceptr p, size_t n, int advice, CUdevice dev) {
  return cuMemAdvise_v2(p, n, advice, location(dev));
}
EXPORT cuStreamWaitValue32(CUstream s, CUdeviceptr a, unsigned v, unsigned f) {
  return cuStreamWaitValue32_v2(s, a, v, f);
}
EXPORT cuStreamWriteValue32(CUstream s, CUdeviceptr a, unsigned v, unsigned f) {
  return cuStreamWriteValue32_v2(s, a, v, f);
}
EXPORT cuStreamWaitValue64(CUstream s, CUdeviceptr a, unsigned long long v, unsigned f) {
  return cuStreamWaitValue64_v2(s, a, v, f);
}
EXPORT cuStreamWriteValue64(CUstream s, CUdeviceptr a, unsigned long long v, unsigned f) {
  return cuStreamWriteValue64_v2(s, a, v, f);
}
EXPORT cuStreamBatchMemOp(CUstream s, unsigned count, void *ops, unsigned f) {
  return cuStreamBatchMemOp_v2(s, count, ops, f);
}

/* The names here that only pass a stub's "not supported" on. */
static const char *const to_stubs[] = {"cuStreamWaitValue32", "cuStreamWriteValue32", "cuStreamWaitValue64",
                                       "cuStreamWriteValue64", "cuStreamBatchMemOp"};

int rt_old_name_is_stub(const char *name) {
  char v2[64];
  for (size_t i = 0; i < sizeof to_stubs / sizeof to_stubs[0]; i++)
    if (!strcmp(name, to_stubs[i])) {
      snprintf(v2, sizeof v2, "%s_v2", name);
      return rt_is_stub(v2);
    }
  return 0;
}
