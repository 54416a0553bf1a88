/* stream.c: the stream API over the queue (core/queue.c): creation,
 * flags and priorities, synchronisation and queries (which run the queued
 * work), waits on events and host functions in stream order. */
#include <stdlib.h>
#include "rt.h"

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
  rt_drain();
  for (rt_stream **p = &rt.streams; *p; p = &(*p)->next)
    if (*p == s) { *p = s->next; break; }
  free(s);
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  rt_drain();
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  rt_drain();
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  (void)flags;
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream) || !rt_event_get(event)) return rt_end(cudaErrorInvalidResourceHandle);
  /* issue order already puts the event's work first */
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *s = rt_stream_get(stream);
  if (!s) return rt_end(cudaErrorInvalidResourceHandle);
  if (!flags) return rt_end(cudaErrorInvalidValue);
  *flags = s->flags;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *s = rt_stream_get(stream);
  if (!s) return rt_end(cudaErrorInvalidResourceHandle);
  if (!priority) return rt_end(cudaErrorInvalidValue);
  *priority = s->priority;
  return rt_end(cudaSuccess);
}

static cudaError_t enqueue_host(cudaStream_t stream, cudaHostFn_t fn, cudaStreamCallback_t cb, void *user) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *s = rt_stream_get(stream);
  if (!s) return rt_end(cudaErrorInvalidResourceHandle);
  if (!fn && !cb) return rt_end(cudaErrorInvalidValue);
  rt_op *op = calloc(1, sizeof *op);
  if (!op) return rt_end(cudaErrorMemoryAllocation);
  op->kind = fn ? OP_HOSTFN : OP_CALLBACK;
  op->stream = s;
  op->fn = fn;
  op->cb = cb;
  op->user = user;
  rt_enqueue(op);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  if (!fn) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  return enqueue_host(stream, fn, NULL, userData);
}

RT_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                            unsigned int flags) {
  if (!callback || flags) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  return enqueue_host(stream, NULL, callback, userData);
}
