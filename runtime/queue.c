/* queue.c: streams, events and the deferred work. Kernel launches, event
 * records and host callbacks are queued in issue order and run at the next
 * synchronising call (device, stream or event synchronisation, a blocking
 * copy, cudaFree, a query, exit), as a GPU runs them after the launch
 * returns: device printf output appears there, and an error in a kernel is
 * reported by the call that waits for it. One queue serves every stream;
 * running all work in issue order is one of the orders CUDA allows.
 * Events take the host's monotonic clock when the queue reaches them, so
 * cudaEventElapsedTime measures the emulation of the work between them. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

rt_stream *rt_stream_get(cudaStream_t s) {
  if (s == 0 || s == cudaStreamLegacy || s == cudaStreamPerThread) return &rt.default_stream;
  for (rt_stream *p = rt.streams; p; p = p->next)
    if ((cudaStream_t)p == s) return p;
  return NULL;
}

static rt_event *event_get(cudaEvent_t e) {
  for (rt_event *p = rt.events; p; p = p->next)
    if ((cudaEvent_t)p == e) return p;
  return NULL;
}

static void run_op(rt_op *op) {
  switch (op->kind) {
  case OP_LAUNCH:
    if (!rt.sticky) rt_run_launch(op);
    break;
  case OP_EVENT:
    op->ev->t = rt_now();
    op->ev->pending--;
    break;
  case OP_HOSTFN:
    if (!rt.sticky) op->fn(op->user);
    break;
  case OP_CALLBACK:
    op->cb((cudaStream_t)(op->stream == &rt.default_stream ? NULL : op->stream), rt.sticky, op->user);
    break;
  }
}

void rt_drain(void) {
  if (rt.draining) return;
  rt.draining = 1;
  while (rt.qhead) {
    rt_op *op = rt.qhead;
    rt.qhead = op->next;
    if (!rt.qhead) rt.qtail = NULL;
    rt.qlen--;
    run_op(op);
    free(op->params);
    free(op);
  }
  rt.draining = 0;
}

void rt_enqueue(rt_op *op) {
  op->next = NULL;
  if (rt.qtail) rt.qtail->next = op;
  else rt.qhead = op;
  rt.qtail = op;
  /* bound the memory a long asynchronous loop can hold */
  if (++rt.qlen > 1024) rt_drain();
}

void rt_streams_reset(void) {
  while (rt.streams) {
    rt_stream *s = rt.streams;
    rt.streams = s->next;
    free(s);
  }
  while (rt.events) {
    rt_event *e = rt.events;
    rt.events = e->next;
    free(e);
  }
}

/* ---- streams ---- */

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
  rt_pool_sync();
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
  if (!rt_stream_get(stream) || !event_get(event)) return rt_end(cudaErrorInvalidResourceHandle);
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

/* ---- events ---- */

RT_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!event || (flags & ~7u)) return rt_end(cudaErrorInvalidValue);
  rt_event *ev = calloc(1, sizeof *ev);
  if (!ev) return rt_end(cudaErrorMemoryAllocation);
  ev->flags = flags;
  ev->next = rt.events;
  rt.events = ev;
  *event = (cudaEvent_t)ev;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

RT_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_event *ev = event_get(event);
  if (!ev) return rt_end(cudaErrorInvalidResourceHandle);
  if (ev->pending) rt_drain();
  for (rt_event **p = &rt.events; *p; p = &(*p)->next)
    if (*p == ev) { *p = ev->next; break; }
  free(ev);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  (void)flags;
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_event *ev = event_get(event);
  rt_stream *s = rt_stream_get(stream);
  if (!ev || !s) return rt_end(cudaErrorInvalidResourceHandle);
  rt_op *op = calloc(1, sizeof *op);
  if (!op) return rt_end(cudaErrorMemoryAllocation);
  op->kind = OP_EVENT;
  op->stream = s;
  op->ev = ev;
  ev->recorded = 1;
  ev->pending++;
  rt_enqueue(op);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecordWithFlags(event, stream, 0);
}

RT_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!event_get(event)) return rt_end(cudaErrorInvalidResourceHandle);
  rt_drain();
  rt_pool_sync();
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_event *ev = event_get(event);
  if (!ev) return rt_end(cudaErrorInvalidResourceHandle);
  if (ev->pending) rt_drain();
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_event *a = event_get(start), *b = event_get(end);
  if (!ms) return rt_end(cudaErrorInvalidValue);
  if (!a || !b) return rt_end(cudaErrorInvalidResourceHandle);
  if ((a->flags | b->flags) & cudaEventDisableTiming) return rt_end(cudaErrorInvalidResourceHandle);
  if (!a->recorded || !b->recorded) return rt_end(cudaErrorInvalidResourceHandle);
  if (a->pending || b->pending) return rt_end(cudaErrorNotReady);
  *ms = (float)((b->t - a->t) * 1e3);
  return rt_end(cudaSuccess);
}
