/* peer.c: peer devices, of which one emulated device has none. The answers
 * are an H200's (CUDA 13.0, tests/hw/rtapi/small_api.out): a link between a
 * device and itself, or with a device that does not exist, is an invalid
 * device for the P2P queries, checked before the attribute; enabling access
 * to the device itself is "peer access unsupported", to one that does not
 * exist an invalid device (before the flags are looked at). Also the device-lookup odds and ends (PCI bus id,
 * the valid-device list, the persisting L2 lines) that only know device 0. */
#include "rt.h"
#include <stdio.h>

enum { P2P_ATTR_FIRST = 1, P2P_ATTR_LAST = 5, ATOMIC_OP_LAST = 12 };

/* Both devices exist and differ: never, with one device. */
static int link_ok(int src, int dst) { return src == 0 && dst == 0 && src != dst; }

RT_EXPORT cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice, int dstDevice) {
  rt_begin(0);
  if (!link_ok(srcDevice, dstDevice)) return rt_end(cudaErrorInvalidDevice);
  if (!value || attr < P2P_ATTR_FIRST || attr > P2P_ATTR_LAST) return rt_end(cudaErrorInvalidValue);
  *value = 0;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGetP2PAtomicCapabilities(unsigned int *capabilities, const int *operations,
                                                         unsigned int count, int srcDevice, int dstDevice) {
  rt_begin(0);
  if (!capabilities || !operations || !count) return rt_end(cudaErrorInvalidValue);
  for (unsigned i = 0; i < count; i++)
    if (operations[i] < 0 || operations[i] > ATOMIC_OP_LAST) return rt_end(cudaErrorInvalidValue);
  if (!link_ok(srcDevice, dstDevice)) return rt_end(cudaErrorInvalidDevice);
  for (unsigned i = 0; i < count; i++) capabilities[i] = 0;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (peerDevice != 0) return rt_end(cudaErrorInvalidDevice);
  if (flags) return rt_end(cudaErrorInvalidValue);
  return rt_end(cudaErrorPeerAccessUnsupported);
}

RT_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  /* access to a device that exists was never enabled; no other exists */
  return rt_end(peerDevice == 0 ? cudaErrorPeerAccessNotEnabled : cudaErrorInvalidDevice);
}

/* Nothing is set aside in L2 for persisting accesses on the emulated device. */
RT_EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void) {
  cudaError_t e = rt_begin(1);
  return rt_end(e);
}

/* The forms cudaDeviceGetPCIBusId's answer (0000:00:00.0) may be given in:
 * domain:bus:device.function, domain:bus:device, bus:device.function. */
RT_EXPORT cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  rt_begin(0);
  if (!device || !pciBusId) return rt_end(cudaErrorInvalidValue);
  unsigned a, b, c, d;
  int n = 0, ok = 0;
  if (sscanf(pciBusId, "%x:%x:%x.%x%n", &a, &b, &c, &d, &n) == 4 && !pciBusId[n])
    ok = !a && !b && !c && !d;
  else if (n = 0, sscanf(pciBusId, "%x:%x:%x%n", &a, &b, &c, &n) == 3 && !pciBusId[n])
    ok = !a && !b && !c;
  else if (n = 0, sscanf(pciBusId, "%x:%x.%x%n", &a, &b, &c, &n) == 3 && !pciBusId[n])
    ok = !a && !b && !c;
  else
    return rt_end(cudaErrorInvalidValue);
  if (!ok) return rt_end(cudaErrorInvalidDevice);
  *device = 0;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaSetValidDevices(int *device_arr, int len) {
  rt_begin(0);
  if (len < 0 || (len && !device_arr) || len > 1) return rt_end(cudaErrorInvalidValue);
  for (int i = 0; i < len; i++)
    if (device_arr[i] != 0) return rt_end(cudaErrorInvalidDevice);
  return rt_end(cudaSuccess);
}
