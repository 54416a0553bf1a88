/* queue.c: the deferred work and the stream and event objects it runs in
 * (their API: cudart/stream.c, cudart/event.c). Kernel launches, event
 * records and host callbacks are queued in issue order and run at the next
 * synchronising call (device, stream or event synchronisation, a blocking
 * copy, cudaFree, a query, exit), as a GPU runs them after the launch
 * returns: device printf output appears there, and an error in a kernel is
 * reported by the call that waits for it. One queue serves every stream;
 * running all work in issue order is one of the orders CUDA allows.
 * Events take the host's monotonic clock when the queue reaches them, so
 * cudaEventElapsedTime measures the emulation of the work between them.
 * A launch runs through its own callback (rt_op.run). */
#include "rt.h"
#include <stdlib.h>

rt_stream *rt_stream_get(cudaStream_t s) {
  if (s == 0 || s == cudaStreamLegacy || s == cudaStreamPerThread) return &rt.default_stream;
  for (rt_stream *p = rt.streams; p; p = p->next)
    if ((cudaStream_t)p == s) return p;
  return NULL;
}

rt_event *rt_event_get(cudaEvent_t e) {
  for (rt_event *p = rt.events; p; p = p->next)
    if ((cudaEvent_t)p == e) return p;
  return NULL;
}

static void run_op(rt_op *op) {
  switch (op->kind) {
  case OP_LAUNCH:
    if (!rt.sticky && op->run) op->run(op);
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
    free(op->attrs);
    free(op);
  }
  rt.draining = 0;
}

void rt_enqueue(rt_op *op) {
  op->next = NULL;
  if (rt.qtail)
    rt.qtail->next = op;
  else
    rt.qhead = op;
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
