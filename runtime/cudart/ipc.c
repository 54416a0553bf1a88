/* ipc.c: interprocess handles of memory and events. The emulated device
 * lives in one process, so a handle can be made but never opened: an
 * H200 (CUDA 13.0, tests/hw/rtapi/small_api.out) gives a handle for a
 * cudaMalloc allocation and for an interprocess event, refuses a plain
 * event (invalid resource handle), answers a handle opened in the process
 * that made it with cudaErrorDeviceUninitialized, and closing a pointer no
 * handle opened with invalid value. A handle from another process is
 * memory the emulated device cannot reach: not supported. The driver's
 * names (cuIpc*) share these answers (driver/extras.c). */
#include "rt.h"
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define IPC_MAGIC 0x736d656du /* "smem" */

typedef struct ipc_handle {
  uint32_t magic;
  int32_t pid;
  uint64_t what;  /* the allocation's or event's address */
  uint64_t bytes; /* the allocation's size, 0 for an event */
  char pad[40];
} ipc_handle;
_Static_assert(sizeof(ipc_handle) == 64, "an IPC handle is 64 bytes");

cudaError_t rt_ipc_get_mem(void *handle, const void *p) {
  if (!handle) return cudaErrorInvalidValue;
  rt_alloc *a = rt_alloc_find(p);
  if (!a || a->kind != ALLOC_DEVICE || a->p != p) return cudaErrorInvalidValue;
  ipc_handle h = {IPC_MAGIC, (int32_t)getpid(), (uint64_t)(uintptr_t)p, a->size, {0}};
  memcpy(handle, &h, sizeof h);
  return cudaSuccess;
}

cudaError_t rt_ipc_open(const void *handle) {
  ipc_handle h;
  memcpy(&h, handle, sizeof h);
  if (h.magic != IPC_MAGIC) return cudaErrorInvalidValue;
  return h.pid == (int32_t)getpid() ? cudaErrorDeviceUninitialized : cudaErrorNotSupported;
}

cudaError_t rt_ipc_get_event(void *handle, cudaEvent_t event) {
  if (!handle) return cudaErrorInvalidValue;
  rt_event *ev = rt_event_get(event);
  if (!ev || !(ev->flags & cudaEventInterprocess)) return cudaErrorInvalidResourceHandle;
  ipc_handle h = {IPC_MAGIC, (int32_t)getpid(), (uint64_t)(uintptr_t)ev, 0, {0}};
  memcpy(handle, &h, sizeof h);
  return cudaSuccess;
}

typedef struct {
  char reserved[64];
} ipc_bytes; /* cudaIpcMemHandle_t, cudaIpcEventHandle_t: passed by value */

RT_EXPORT cudaError_t cudaIpcGetMemHandle(ipc_bytes *handle, void *devPtr);
RT_EXPORT cudaError_t cudaIpcOpenMemHandle(void **devPtr, ipc_bytes handle, unsigned int flags);
RT_EXPORT cudaError_t cudaIpcCloseMemHandle(void *devPtr);
RT_EXPORT cudaError_t cudaIpcGetEventHandle(ipc_bytes *handle, cudaEvent_t event);
RT_EXPORT cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, ipc_bytes handle);

cudaError_t cudaIpcGetMemHandle(ipc_bytes *handle, void *devPtr) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : rt_ipc_get_mem(handle, devPtr));
}

cudaError_t cudaIpcOpenMemHandle(void **devPtr, ipc_bytes handle, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!devPtr || (flags & ~1u)) return rt_end(cudaErrorInvalidValue);
  return rt_end(rt_ipc_open(&handle));
}

/* No pointer is ever opened from a handle. */
cudaError_t cudaIpcCloseMemHandle(void *devPtr) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : cudaErrorInvalidValue);
}

cudaError_t cudaIpcGetEventHandle(ipc_bytes *handle, cudaEvent_t event) {
  cudaError_t e = rt_begin(1);
  return rt_end(e ? e : rt_ipc_get_event(handle, event));
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, ipc_bytes handle) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!event) return rt_end(cudaErrorInvalidValue);
  return rt_end(rt_ipc_open(&handle));
}
