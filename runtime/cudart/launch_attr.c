/* launch_attr.c: the attributes of cudaLaunchKernelEx / cuLaunchKernelEx
 * (cudaLaunchAttribute and CUlaunchAttribute share their layout and ids).
 * Every documented attribute is accepted and stored with the queued launch
 * (rt_op.attrs). What they change on one in-order device: the cluster
 * dimension shapes the launch; a launch-completion or programmatic event
 * is recorded in the stream right after the launch (all work runs in issue
 * order, so the kernel has finished when the queue reaches it, the latest
 * point either may trigger); priority, memory-synchronisation domains,
 * access-policy windows, the shared-memory carveout, programmatic stream
 * serialisation and the preferred cluster dimension are hints with nothing
 * to act on here. The cooperative attribute makes the launch
 * cudaLaunchCooperativeKernel's (every block resident, grid.sync()). */
#include "rt.h"
#include <pthread.h>
#include <string.h>

enum {
  ATTR_IGNORE = 0,
  ATTR_COOPERATIVE = 2,
  ATTR_PROGRAMMATIC_EVENT = 7,
  ATTR_LAUNCH_COMPLETION_EVENT = 12,
  ATTR_UNUSED_15 = 15,
  ATTR_LAST = 16
};

_Thread_local const rt_attr *rt_attrs_request;
_Thread_local unsigned rt_nattrs_request;

static cudaEvent_t attr_event(const rt_attr *a) {
  cudaEvent_t e;
  memcpy(&e, a->val, sizeof e);
  return e;
}

cudaError_t rt_attrs_check(const void *attrs, unsigned n) {
  const rt_attr *a = attrs;
  if (n && !a) return cudaErrorInvalidValue;
  cudaError_t e = cudaSuccess;
  pthread_mutex_lock(&rt.lock);
  for (unsigned i = 0; i < n && !e; i++) {
    if (a[i].id < ATTR_IGNORE || a[i].id > ATTR_LAST || a[i].id == ATTR_UNUSED_15)
      e = cudaErrorInvalidValue;
    else if ((a[i].id == ATTR_PROGRAMMATIC_EVENT || a[i].id == ATTR_LAUNCH_COMPLETION_EVENT) &&
             !rt_event_get(attr_event(&a[i])))
      e = cudaErrorInvalidResourceHandle;
  }
  pthread_mutex_unlock(&rt.lock);
  return e;
}

void rt_attrs_begin(const void *attrs, unsigned n, uint32_t dims[3]) {
  rt_cluster_request = rt_cluster_attr(attrs, n, dims);
  rt_attrs_request = attrs;
  rt_nattrs_request = attrs ? n : 0;
}

void rt_attrs_end(cudaError_t launched, cudaStream_t stream) {
  const rt_attr *a = rt_attrs_request;
  unsigned n = rt_nattrs_request;
  rt_cluster_request = NULL;
  rt_attrs_request = NULL;
  rt_nattrs_request = 0;
  for (unsigned i = 0; launched == cudaSuccess && i < n; i++)
    if (a[i].id == ATTR_PROGRAMMATIC_EVENT || a[i].id == ATTR_LAUNCH_COMPLETION_EVENT)
      cudaEventRecord(attr_event(&a[i]), stream);
}

int rt_attrs_cooperative(const rt_attr *a, unsigned n) {
  int coop = 0;
  for (unsigned i = 0; a && i < n; i++)
    if (a[i].id == ATTR_COOPERATIVE) memcpy(&coop, a[i].val, sizeof coop);
  return coop != 0;
}

/* cudaLaunchCooperativeKernel is cudaLaunchKernel with the cooperative
 * attribute. */
RT_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                                  size_t shared, cudaStream_t stream) {
  rt_attr a = {.id = ATTR_COOPERATIVE};
  int one = 1;
  memcpy(a.val, &one, sizeof one);
  uint32_t dims[3];
  rt_attrs_begin(&a, 1, dims);
  cudaError_t e = cudaLaunchKernel(func, grid, block, args, shared, stream);
  rt_attrs_end(e, stream);
  return e;
}
