/* event.c: the event API over the queue (core/queue.c). A record is queued
 * and takes the host's monotonic clock when the queue reaches it. */
#include "cudart/graph.h"
#include "rt.h"
#include <stdlib.h>

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
  rt_event *ev = rt_event_get(event);
  if (!ev) return rt_end(cudaErrorInvalidResourceHandle);
  rt_capture_forget_event(ev);
  if (ev->pending) rt_drain();
  for (rt_event **p = &rt.events; *p; p = &(*p)->next)
    if (*p == ev) {
      *p = ev->next;
      break;
    }
  free(ev);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_event *ev = rt_event_get(event);
  rt_stream *s = rt_stream_get(stream);
  if (!ev || !s) return rt_end(cudaErrorInvalidResourceHandle);
  int c = rt_capture_event_record(ev, s, flags);
  if (c >= 0) return rt_end((cudaError_t)c);
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
  if (!rt_event_get(event)) return rt_end(cudaErrorInvalidResourceHandle);
  if (rt_capture_event_captured(rt_event_get(event))) return rt_end(cudaErrorCapturedEvent);
  rt_drain();
  rt_pool_sync();
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_event *ev = rt_event_get(event);
  if (!ev) return rt_end(cudaErrorInvalidResourceHandle);
  if (rt_capture_event_captured(ev)) return rt_end(cudaErrorCapturedEvent);
  if (ev->pending) rt_drain();
  return rt_end(rt.sticky);
}

RT_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_event *a = rt_event_get(start), *b = rt_event_get(end);
  if (!ms) return rt_end(cudaErrorInvalidValue);
  if (!a || !b) return rt_end(cudaErrorInvalidResourceHandle);
  if ((a->flags | b->flags) & cudaEventDisableTiming) return rt_end(cudaErrorInvalidResourceHandle);
  if (!a->recorded || !b->recorded) return rt_end(cudaErrorInvalidResourceHandle);
  if (a->pending || b->pending) return rt_end(cudaErrorNotReady);
  *ms = (float)((b->t - a->t) * 1e3);
  return rt_end(cudaSuccess);
}
