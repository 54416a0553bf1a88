/* state.c: the runtime's process-wide state, a leaf every other file of
 * the runtime builds on: the state itself, messages, the per-thread last
 * error, the map from a failed launch to its CUDA error and the allocation
 * table. Start-up, the context, reset and exit are lifecycle.c's. */
#include "rt.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

rt_state rt = {.lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP};

/* CUDA keeps the last error per host thread. */
static _Thread_local cudaError_t last_error;

double rt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void rt_msg(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
  /* the log API's record (cudaLogLevelError), even when quiet */
  rt_log_add(0, line, len);
  if (rt.quiet) return;
  va_start(ap, fmt);
  fflush(stdout);
  fputs("smemu: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void rt_set_last(cudaError_t e) {
  if (e != cudaSuccess) last_error = e;
}

cudaError_t rt_last_error(int clear) {
  cudaError_t e = last_error;
  if (clear) last_error = cudaSuccess;
  return e;
}

cudaError_t rt_launch_error(smemu_status s, const char *msg, int *sticky) {
  *sticky = 1;
  switch (s) {
  case SMEMU_OK:
    *sticky = 0;
    return cudaSuccess;
  case SMEMU_ERR_ILLEGAL_ADDRESS:
    return cudaErrorIllegalAddress;
  case SMEMU_ERR_MISALIGNED:
    return cudaErrorMisalignedAddress;
  case SMEMU_ERR_TRAP:
    return msg && strstr(msg, "assertion") ? cudaErrorAssert : cudaErrorLaunchFailure;
  case SMEMU_ERR_ILLEGAL_INSTRUCTION:
    return cudaErrorIllegalInstruction;
  case SMEMU_ERR_LIMIT:
    return cudaErrorLaunchTimeout;
  case SMEMU_ERR_HANG:
    return cudaErrorLaunchTimeout;
  case SMEMU_ERR_DEADLOCK:
    return cudaErrorLaunchFailure;
  case SMEMU_ERR_LAUNCH_FAILURE:
    return cudaErrorLaunchFailure;
  case SMEMU_ERR_NOT_PERMITTED:
    *sticky = 0;
    return cudaErrorNotPermitted;
  case SMEMU_ERR_CLUSTER_CONFIG:
    *sticky = 0;
    return cudaErrorInvalidClusterSize;
  case SMEMU_ERR_UNSUPPORTED:
    return cudaErrorLaunchFailure;
  case SMEMU_ERR_INVALID_CONFIG:
    *sticky = 0;
    return cudaErrorInvalidValue; /* CUDA 13: invalid argument */
  case SMEMU_ERR_OUT_OF_RESOURCES:
    *sticky = 0;
    return cudaErrorInvalidValue;
  case SMEMU_ERR_OUT_OF_MEMORY:
    *sticky = 0;
    return cudaErrorMemoryAllocation;
  case SMEMU_ERR_INVALID_VALUE:
    *sticky = 0;
    return cudaErrorInvalidValue;
  default:
    return cudaErrorLaunchFailure;
  }
}

/* ---- allocations: sorted by address for cudaPointerGetAttributes ---- */

static size_t alloc_upper(const void *p) {
  size_t lo = 0, hi = rt.nallocs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if ((uintptr_t)rt.allocs[mid].p <= (uintptr_t)p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

rt_alloc *rt_alloc_find(const void *p) {
  size_t i = alloc_upper(p);
  if (i == 0) return NULL;
  rt_alloc *a = &rt.allocs[i - 1];
  if (a->p == p) return a;
  if ((uintptr_t)p - (uintptr_t)a->p < (a->size ? a->size : 1)) return a;
  return NULL;
}

int rt_alloc_add(void *p, size_t size, int kind, unsigned flags) {
  if (rt.nallocs == rt.cap_allocs) {
    size_t cap = rt.cap_allocs ? rt.cap_allocs * 2 : 64;
    rt_alloc *a = realloc(rt.allocs, cap * sizeof *a);
    if (!a) return -1;
    rt.allocs = a;
    rt.cap_allocs = cap;
  }
  size_t i = alloc_upper(p);
  memmove(&rt.allocs[i + 1], &rt.allocs[i], (rt.nallocs - i) * sizeof *rt.allocs);
  rt.allocs[i] = (rt_alloc){p, size, kind, flags};
  rt.nallocs++;
  if (kind == ALLOC_DEVICE || kind == ALLOC_MANAGED) rt.allocated += size;
  return 0;
}

void rt_alloc_remove(void *p) {
  size_t i = alloc_upper(p);
  if (i == 0 || rt.allocs[i - 1].p != p) return;
  i--;
  rt_tex_forget(p, rt.allocs[i].size); /* texture objects on it read nothing any more */
  if (rt.allocs[i].kind == ALLOC_DEVICE || rt.allocs[i].kind == ALLOC_MANAGED)
    rt.allocated -= rt.allocs[i].size;
  memmove(&rt.allocs[i], &rt.allocs[i + 1], (rt.nallocs - i - 1) * sizeof *rt.allocs);
  rt.nallocs--;
}
