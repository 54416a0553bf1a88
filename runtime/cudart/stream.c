/* stream.c: the stream API over the queue (core/queue.c): creation,
 * flags and priorities, synchronisation and queries (which run the queued
 * work), waits on events, host functions in stream order, and the stream
 * attributes (stored; one in-order queue has no use for their hints). */
#include "cudart/graph.h"
#include "rt.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

RT_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!pStream || (flags & ~1u)) return rt_end(cudaErrorInvalidValue);
  rt_stream *s = calloc(1, sizeof *s);
  if (!s) return rt_end(cudaErrorMemoryAllocation);
  s->flags = flags;
  s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority;
  s->next = rt.streams;
  rt.streams = s;
  *pStream = (cudaStream_t)s;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
  return cudaStreamCreateWithPriority(pStream, flags, 0);
}

RT_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream) {
  return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0);
}

RT_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *s = rt_stream_get(stream);
  if (!s || s == &rt.default_stream) return rt_end(cudaErrorInvalidResourceHandle);
  rt_capture_forget_stream(s);
  rt_drain();
  for (rt_stream **p = &rt.streams; *p; p = &(*p)->next)
    if (*p == s) {
      *p = s->next;
      break;
    }
  free(s);
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if ((e = rt_capture_forbid(stream, 2))) return rt_end(e);
  return rt_end(rt_sync_all());
}

RT_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if ((e = rt_capture_forbid(stream, 2))) return rt_end(e);
  rt_drain();
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream) || !rt_event_get(event)) return rt_end(cudaErrorInvalidResourceHandle);
  int c = rt_capture_wait_event(rt_stream_get(stream), rt_event_get(event), flags);
  if (c >= 0) return rt_end((cudaError_t)c);
  /* issue order already puts the event's work first */
  return rt_end(cudaSuccess);
}

/* The start of a call about one stream: the stream, or NULL with the error
 * in *e (no context, not a stream, or ok = 0: no place for the answer or a
 * bad argument). */
static rt_stream *stream_begin(cudaStream_t stream, int ok, cudaError_t *e) {
  if ((*e = rt_begin(1))) return NULL;
  rt_stream *s = rt_stream_get(stream);
  *e = !s ? cudaErrorInvalidResourceHandle : !ok ? cudaErrorInvalidValue : cudaSuccess;
  return *e ? NULL : s;
}

RT_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags) {
  cudaError_t e;
  rt_stream *s = stream_begin(stream, flags != NULL, &e);
  if (s) *flags = s->flags;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
  cudaError_t e;
  rt_stream *s = stream_begin(stream, priority != NULL, &e);
  if (s) *priority = s->priority;
  return rt_end(e);
}

static cudaError_t enqueue_host(cudaStream_t stream, cudaHostFn_t fn, cudaStreamCallback_t cb, void *user) {
  cudaError_t e;
  rt_stream *s = stream_begin(stream, fn || cb, &e);
  if (!s) return rt_end(e);
  rt_op *op = calloc(1, sizeof *op);
  if (!op) return rt_end(cudaErrorMemoryAllocation);
  op->kind = fn ? OP_HOSTFN : OP_CALLBACK;
  op->stream = s;
  op->fn = fn;
  op->cb = cb;
  op->user = user;
  return rt_end(rt_submit(op));
}

RT_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  if (!fn) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  return enqueue_host(stream, fn, NULL, userData);
}

RT_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                            void *userData, unsigned int flags) {
  if (!callback || flags) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  return enqueue_host(stream, NULL, callback, userData);
}

/* ---- stream attributes ---- */

/* The attributes a stream takes (cudaLaunchAttributeID: "valid for
 * streams"): access-policy window 1, synchronisation policy 3, priority 8,
 * memory-synchronisation domain map 9 and domain 10, NVLink-centric
 * scheduling 16. */
static int stream_attr_ok(int id) { return id == 1 || id == 3 || id == 8 || id == 9 || id == 10 || id == 16; }

/* What an unset attribute reads as (an H200, CUDA 13.0: tests/hw/rtapi/
 * small_api.out): the synchronisation policy -1, the memory-synchronisation
 * domain map default 0, remote 1; the others zero. */
enum { ATTR_SYNC_POLICY = 3, ATTR_PRIORITY = 8, ATTR_DOMAIN_MAP = 9, SYNC_POLICY_UNSET = -1 };

RT_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t stream, int attr, void *value) {
  cudaError_t e;
  rt_stream *s = stream_begin(stream, value && stream_attr_ok(attr), &e);
  if (!s) return rt_end(e);
  memset(value, 0, 64);
  if (attr == ATTR_PRIORITY)
    memcpy(value, &s->priority, sizeof s->priority);
  else if (s->attr_set >> attr & 1)
    memcpy(value, s->attr[attr], 64);
  else if (attr == ATTR_SYNC_POLICY) {
    int unset = SYNC_POLICY_UNSET;
    memcpy(value, &unset, sizeof unset);
  } else if (attr == ATTR_DOMAIN_MAP) {
    ((unsigned char *)value)[1] = 1; /* remote domain 1 */
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t stream, int attr, const void *value) {
  cudaError_t e;
  rt_stream *s = stream_begin(stream, value && stream_attr_ok(attr), &e);
  if (!s) return rt_end(e);
  if (attr == ATTR_PRIORITY) {
    /* clamped to the device's range, as cudaStreamCreateWithPriority does */
    int p;
    memcpy(&p, value, sizeof p);
    s->priority = p > 0 ? 0 : p < -5 ? -5 : p;
  } else {
    memcpy(s->attr[attr], value, 64);
    s->attr_set |= 1u << attr;
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *d = rt_stream_get(dst), *s = rt_stream_get(src);
  if (!d || !s) return rt_end(cudaErrorInvalidResourceHandle);
  if (d != s) {
    d->priority = s->priority;
    d->attr_set = s->attr_set;
    memcpy(d->attr, s->attr, sizeof d->attr);
  }
  return rt_end(cudaSuccess);
}

/* A stream's identifier: unique among the live streams; the default
 * stream's three handles (0, legacy, per-thread) are one stream here. */
RT_EXPORT cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long *id) {
  cudaError_t e;
  rt_stream *s = stream_begin(stream, id != NULL, &e);
  if (s) *id = (unsigned long long)(uintptr_t)s;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device) {
  cudaError_t e;
  if (!stream_begin(stream, device != NULL, &e)) return rt_end(e);
  *device = 0;
  return rt_end(cudaSuccess);
}

/* Attaching managed memory to a stream decides which streams may touch it
 * while the host does; one in-order queue has no such conflict, so the
 * call checks its arguments only: a managed allocation, a length of 0 (the
 * whole allocation) or its size, one attach flag. */
RT_EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                               unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
    return rt_end(cudaErrorInvalidValue);
  rt_alloc *a = rt_alloc_find(devPtr);
  if (!a || a->kind != ALLOC_MANAGED || a->p != devPtr || (length && length != a->size))
    return rt_end(cudaErrorInvalidValue);
  return rt_end(cudaSuccess);
}
