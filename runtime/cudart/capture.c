/* capture.c: stream capture. While a stream captures, the work issued to
 * it becomes nodes of a graph instead of running: each capturing stream
 * keeps the set of nodes the next one depends on, an event recorded in a
 * capturing stream remembers that set, and a stream that waits for such an
 * event joins the capture sequence (a fork; waiting back in the origin
 * stream is the join). Calls that would wait for captured work, or that
 * CUDA counts as unsafe while a capture sequence is open, fail as on the
 * GPU and invalidate the sequence: cudaStreamEndCapture then returns
 * cudaErrorStreamCaptureInvalidated and no graph. */
#include "graph_api.h"
#include <stdlib.h>
#include <string.h>

typedef struct cap_seq {
  unsigned long long id;
  rt_graph *g;
  int mode;         /* cudaStreamCaptureMode it began with */
  pthread_t thread; /* the thread that began it */
  int invalid;
  int own_graph; /* the graph was made by the capture (not ToGraph) */
  rt_stream *origin;
  struct cap_seq *next;
} cap_seq;

/* a stream taking part in a capture sequence */
typedef struct cap_stream {
  rt_stream *s;
  cap_seq *c;
  g_node **deps; /* what the stream's next node depends on */
  size_t n, cap;
  cudaGraphEdgeData *edges; /* zeroed edge data for cudaStreamGetCaptureInfo */
  struct cap_stream *next;
} cap_stream;

/* an event last recorded in a capturing stream */
typedef struct cap_event {
  rt_event *ev;
  cap_seq *c;
  g_node **deps;
  size_t n;
  struct cap_event *next;
} cap_event;

static cap_seq *seqs;
static cap_stream *cstreams;
static cap_event *cevents;
static unsigned long long next_id = 1;
static _Thread_local int thread_mode = cudaStreamCaptureModeGlobal;

/* kernel nodes of the explicit API: rt_launch's operation comes here */
_Thread_local rt_op *rt_op_sink;
_Thread_local int rt_op_sink_on;

static cap_stream *cs_of(rt_stream *s) {
  for (cap_stream *c = cstreams; c; c = c->next)
    if (c->s == s) return c;
  return NULL;
}

static cap_event *ce_of(rt_event *ev) {
  for (cap_event *c = cevents; c; c = c->next)
    if (c->ev == ev) return c;
  return NULL;
}

static int is_legacy(cudaStream_t h) { return h == 0 || h == cudaStreamLegacy; }

static int set_deps(cap_stream *cs, g_node *const *deps, size_t n, int add) {
  if (!add) cs->n = 0;
  for (size_t i = 0; i < n; i++) {
    int dup = 0;
    for (size_t j = 0; j < cs->n; j++) dup |= cs->deps[j] == deps[i];
    if (dup) continue;
    if (cs->n == cs->cap) {
      size_t cap = cs->cap ? 2 * cs->cap : 4;
      g_node **p = realloc(cs->deps, cap * sizeof *p);
      if (!p) return -1;
      cs->deps = p;
      cs->cap = cap;
    }
    cs->deps[cs->n++] = deps[i];
  }
  return 0;
}

static cap_stream *cs_join(rt_stream *s, cap_seq *c) {
  cap_stream *cs = calloc(1, sizeof *cs);
  if (!cs) return NULL;
  cs->s = s;
  cs->c = c;
  cs->next = cstreams;
  cstreams = cs;
  return cs;
}

static void cs_free(cap_stream *cs) {
  for (cap_stream **p = &cstreams; *p; p = &(*p)->next)
    if (*p == cs) {
      *p = cs->next;
      break;
    }
  free(cs->deps);
  free(cs->edges);
  free(cs);
}

static void ce_free(cap_event *ce) {
  for (cap_event **p = &cevents; *p; p = &(*p)->next)
    if (*p == ce) {
      *p = ce->next;
      break;
    }
  free(ce->deps);
  free(ce);
}

/* end a sequence: its streams leave it, its events forget it */
static void seq_end(cap_seq *c) {
  for (cap_stream *cs = cstreams, *nx; cs; cs = nx) {
    nx = cs->next;
    if (cs->c == c) cs_free(cs);
  }
  for (cap_event *ce = cevents, *nx; ce; ce = nx) {
    nx = ce->next;
    if (ce->c == c) ce_free(ce);
  }
  for (cap_seq **p = &seqs; *p; p = &(*p)->next)
    if (*p == c) {
      *p = c->next;
      break;
    }
  free(c);
}

void rt_capture_forget_stream(rt_stream *s) {
  cap_stream *cs = cs_of(s);
  if (!cs) return;
  cs->c->invalid = 1;
  if (cs->c->origin == s) {
    if (cs->c->own_graph) g_free(cs->c->g);
    seq_end(cs->c);
  } else {
    cs_free(cs);
  }
}

void rt_capture_forget_event(rt_event *ev) {
  cap_event *ce = ce_of(ev);
  if (ce) ce_free(ce);
}

static void drop_node(g_node **deps, size_t *n, g_node *gone) {
  for (size_t i = 0; i < *n;)
    if (deps[i] == gone)
      deps[i] = deps[--*n];
    else
      i++;
}

void rt_capture_node_gone(g_node *n) {
  for (cap_stream *cs = cstreams; cs; cs = cs->next) drop_node(cs->deps, &cs->n, n);
  for (cap_event *ce = cevents; ce; ce = ce->next) drop_node(ce->deps, &ce->n, n);
}

void rt_capture_graph_gone(rt_graph *g) {
  for (cap_seq *c = seqs; c; c = c->next)
    if (c->g == g) {
      c->g = NULL;
      c->invalid = 1;
    }
}

/* a new node after the stream's dependencies; it becomes them */
static cudaError_t cap_node(cap_stream *cs, int type, g_node **out) {
  if (!cs->c->g) return cudaErrorStreamCaptureInvalidated;
  cudaError_t e = g_add(cs->c->g, type, (const cudaGraphNode_t *)cs->deps, cs->n, out);
  if (e) return e;
  cs->n = 0;
  if (set_deps(cs, out, 1, 1) < 0) return cudaErrorMemoryAllocation;
  return cudaSuccess;
}

/* a blocking stream is capturing: the legacy stream would wait for it */
static int blocking_capture(void) {
  for (cap_stream *cs = cstreams; cs; cs = cs->next)
    if (!(cs->s->flags & cudaStreamNonBlocking)) return 1;
  return 0;
}

static void invalidate_blocking(void) {
  for (cap_stream *cs = cstreams; cs; cs = cs->next)
    if (!(cs->s->flags & cudaStreamNonBlocking)) cs->c->invalid = 1;
}

/* legacy-stream work while a blocking stream captures */
static cudaError_t legacy_check(cudaStream_t h) {
  if (!is_legacy(h) || !blocking_capture()) return cudaSuccess;
  invalidate_blocking();
  return cudaErrorStreamCaptureImplicit;
}

/* The rule of cudaThreadExchangeStreamCaptureMode for a potentially unsafe
 * call: prohibited when this thread has a sequence not begun relaxed, or
 * (in global mode) another thread has one begun global. The sequences that
 * prohibit it are invalidated. */
static cudaError_t unsafe_check(void) {
  if (thread_mode == cudaStreamCaptureModeRelaxed) return cudaSuccess;
  int bad = 0;
  pthread_t self = pthread_self();
  for (cap_seq *c = seqs; c; c = c->next) {
    int mine = pthread_equal(c->thread, self);
    if ((mine && c->mode != cudaStreamCaptureModeRelaxed) ||
        (!mine && thread_mode == cudaStreamCaptureModeGlobal && c->mode == cudaStreamCaptureModeGlobal)) {
      c->invalid = 1;
      bad = 1;
    }
  }
  return bad ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

cudaError_t rt_capture_forbid(cudaStream_t h, int is_sync) {
  if (!seqs) return cudaSuccess;
  if (is_sync == 2) {
    /* waiting for one stream: not for one that captures */
    rt_stream *s = rt_stream_get(h);
    cap_stream *cs = s && !is_legacy(h) ? cs_of(s) : NULL;
    if (cs) {
      cs->c->invalid = 1;
      return cudaErrorStreamCaptureUnsupported;
    }
    return legacy_check(h);
  }
  cudaError_t e = is_sync ? legacy_check(h) : cudaSuccess;
  return e ? e : unsafe_check();
}

/* Waiting on (sync) or querying an event whose last record is captured:
 * cudaErrorCapturedEvent, and the capture sequence is invalidated; once it
 * is, cudaEventSynchronize answers cudaErrorInvalidValue (an H200,
 * tests/runtime/graphs/illegal.cu). cudaSuccess for an event not captured. */
cudaError_t rt_capture_event_wait(rt_event *ev, int sync) {
  cap_event *ce = ce_of(ev);
  if (!ce) return cudaSuccess;
  if (ce->c->invalid && sync) return cudaErrorInvalidValue;
  ce->c->invalid = 1;
  return cudaErrorCapturedEvent;
}

/* the capture of the stream behind handle h; NULL when it does not
 * capture. *e: the error when the call must fail instead. */
static cap_stream *target(cudaStream_t h, rt_stream *s, cudaError_t *e) {
  *e = cudaSuccess;
  if (!seqs) return NULL;
  /* the default stream object captures only as cudaStreamPerThread */
  cap_stream *cs = s ? cs_of(s) : NULL;
  if (!cs) {
    *e = legacy_check(h);
    return NULL;
  }
  if (cs->c->invalid) *e = cudaErrorStreamCaptureInvalidated;
  return cs;
}

cudaError_t rt_submit(rt_op *op) {
  if (rt_op_sink_on) {
    rt_op_sink = op;
    return cudaSuccess;
  }
  cudaError_t e;
  cudaStream_t h = op->stream == &rt.default_stream ? 0 : (cudaStream_t)op->stream;
  cap_stream *cs = target(h, op->stream, &e);
  if (!cs && !e) {
    rt_enqueue(op);
    return cudaSuccess;
  }
  if (!e && op->kind == OP_CALLBACK) {
    /* stream callbacks cannot be captured (cudaLaunchHostFunc can) */
    cs->c->invalid = 1;
    e = cudaErrorStreamCaptureUnsupported;
  }
  g_node *n = NULL;
  if (!e) e = cap_node(cs, op->kind == OP_LAUNCH ? cudaGraphNodeTypeKernel : cudaGraphNodeTypeHost, &n);
  if (!e && op->kind == OP_LAUNCH) {
    smemu_kernel *k = op->f->k;
    int np = smemu_kernel_param_count(k);
    int64_t pbytes = 0;
    smemu_kernel_get_attribute(k, SMEMU_ATTR_PARAM_BYTES, &pbytes);
    n->argv = calloc((size_t)np + 1, sizeof *n->argv);
    if (!n->argv) e = cudaErrorMemoryAllocation;
    for (int i = 0; !e && i < np; i++) {
      smemu_param_info pi;
      smemu_kernel_param(k, i, &pi);
      n->argv[i] = op->params + pi.offset;
    }
    n->f = op->f;
    n->grid = (dim3){op->grid[0], op->grid[1], op->grid[2]};
    n->block = (dim3){op->block[0], op->block[1], op->block[2]};
    n->shared = op->shared;
    n->params = op->params;
    n->pbytes = (size_t)pbytes;
    memcpy(n->cluster, op->cluster, sizeof n->cluster);
    n->has_cluster = op->has_cluster;
    op->params = NULL;
  } else if (!e) {
    n->fn = op->fn;
    n->user = op->user;
  }
  free(op->params);
  free(op);
  return e;
}

int rt_capture_memcpy(void *dst, const void *src, size_t n, int kind, cudaStream_t stream) {
  return rt_capture_memcpy2d(dst, n, src, n, n, 1, kind, stream);
}

int rt_capture_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h,
                        int kind, cudaStream_t stream) {
  cudaError_t e;
  cap_stream *cs = target(stream, rt_stream_get(stream), &e);
  if (!cs && !e) return -1;
  if (e) return e;
  if (!w || !h) return cudaSuccess;
  struct cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = (struct cudaPitchedPtr){(void *)src, spitch, w, h};
  p.dstPtr = (struct cudaPitchedPtr){dst, dpitch, w, h};
  p.extent = (struct cudaExtent){w, h, 1};
  p.kind = (enum cudaMemcpyKind)kind;
  if ((e = g_memcpy_check(&p))) return e;
  g_node *nd;
  if ((e = cap_node(cs, cudaGraphNodeTypeMemcpy, &nd))) return e;
  nd->copy = p;
  return cudaSuccess;
}

int rt_capture_copy3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
  cudaError_t e;
  cap_stream *cs = target(stream, rt_stream_get(stream), &e);
  if (!cs && !e) return -1;
  if (e) return e;
  if ((e = g_memcpy_check(p))) return e;
  g_node *nd;
  if ((e = cap_node(cs, cudaGraphNodeTypeMemcpy, &nd))) return e;
  nd->copy = *p;
  return cudaSuccess;
}

int rt_capture_memset(void *ptr, unsigned value, unsigned elem, size_t pitch, size_t w, size_t h,
                      cudaStream_t stream) {
  cudaError_t e;
  cap_stream *cs = target(stream, rt_stream_get(stream), &e);
  if (!cs && !e) return -1;
  if (e) return e;
  if (!w || !h) return cudaSuccess;
  struct cudaMemsetParams p = {ptr,  pitch, elem == 1 ? value & 0xff : elem == 2 ? value & 0xffff : value,
                               elem, w,     h};
  if ((e = g_memset_check(&p))) return e;
  g_node *nd;
  if ((e = cap_node(cs, cudaGraphNodeTypeMemset, &nd))) return e;
  nd->set = p;
  return cudaSuccess;
}

int rt_capture_malloc(void **p, size_t size, cudaStream_t stream) {
  cudaError_t e;
  cap_stream *cs = target(stream, rt_stream_get(stream), &e);
  if (!cs && !e) return -1;
  if (e) return e;
  if (!p) return cudaErrorInvalidValue;
  g_node *nd;
  if ((e = cap_node(cs, cudaGraphNodeTypeMemAlloc, &nd))) return e;
  if ((e = g_alloc_node(nd, size))) {
    /* the sequence is invalid now: drop the node and what pointed at it */
    cs->n = 0;
    cudaGraphDestroyNode((cudaGraphNode_t)nd);
    cs->c->invalid = 1;
    return e;
  }
  *p = nd->dptr;
  return cudaSuccess;
}

int rt_capture_free(void *p, cudaStream_t stream) {
  cudaError_t e;
  cap_stream *cs = target(stream, rt_stream_get(stream), &e);
  if (!cs && !e) return -1;
  if (e) return e;
  if (!g_freeable(cs->c->g, p)) return cudaErrorInvalidValue;
  g_node *nd;
  if ((e = cap_node(cs, cudaGraphNodeTypeMemFree, &nd))) return e;
  nd->dptr = p;
  return cudaSuccess;
}

/* cudaGraphLaunch into a capturing stream is not captured: an H200 with
 * CUDA 13.0 answers cudaErrorStreamCaptureUnsupported and invalidates the
 * capture (tests/runtime/graphs/capture.cu). */
int rt_capture_graph_launch(rt_graph *g, rt_stream *s) {
  (void)g;
  cudaError_t e;
  cap_stream *cs = target(s == &rt.default_stream ? 0 : (cudaStream_t)s, s, &e);
  if (!cs && !e) return -1;
  if (e) return e;
  cs->c->invalid = 1;
  return cudaErrorStreamCaptureUnsupported;
}

int rt_capture_event_record(rt_event *ev, rt_stream *s, unsigned flags) {
  cudaError_t e;
  cap_stream *cs = target(s == &rt.default_stream ? 0 : (cudaStream_t)s, s, &e);
  if (!cs && !e) {
    /* recorded outside any capture now: no longer a captured event */
    cap_event *ce = ce_of(ev);
    if (ce) ce_free(ce);
    return -1;
  }
  if (e) return e;
  if (flags & cudaEventRecordExternal) {
    g_node *nd;
    if ((e = cap_node(cs, cudaGraphNodeTypeEventRecord, &nd))) return e;
    nd->ev = ev;
  }
  cap_event *ce = ce_of(ev);
  if (!ce) {
    ce = calloc(1, sizeof *ce);
    if (!ce) return cudaErrorMemoryAllocation;
    ce->ev = ev;
    ce->next = cevents;
    cevents = ce;
  }
  g_node **d = malloc((cs->n ? cs->n : 1) * sizeof *d);
  if (!d) return cudaErrorMemoryAllocation;
  if (cs->n) memcpy(d, cs->deps, cs->n * sizeof *d);
  free(ce->deps);
  ce->deps = d;
  ce->n = cs->n;
  ce->c = cs->c;
  return cudaSuccess;
}

int rt_capture_wait_event(rt_stream *s, rt_event *ev, unsigned flags) {
  if (!seqs) return -1;
  cap_event *ce = ce_of(ev);
  cap_stream *cs = cs_of(s);
  if (!cs) {
    if (!ce) return -1;
    /* a fork: the stream joins the event's capture sequence */
    if (!(cs = cs_join(s, ce->c))) return cudaErrorMemoryAllocation;
    return set_deps(cs, ce->deps, ce->n, 1) < 0 ? cudaErrorMemoryAllocation : cudaSuccess;
  }
  if (cs->c->invalid) return cudaErrorStreamCaptureInvalidated;
  if (flags & cudaEventWaitExternal) {
    g_node *nd;
    cudaError_t e = cap_node(cs, cudaGraphNodeTypeWaitEvent, &nd);
    if (e) return e;
    nd->ev = ev;
    return cudaSuccess;
  }
  if (!ce) {
    /* waiting for work outside the capture */
    cs->c->invalid = 1;
    return cudaErrorStreamCaptureIsolation;
  }
  if (ce->c != cs->c) {
    cs->c->invalid = 1;
    return cudaErrorStreamCaptureMerge;
  }
  return set_deps(cs, ce->deps, ce->n, 1) < 0 ? cudaErrorMemoryAllocation : cudaSuccess;
}

/* ---- entry points ---- */

static cudaError_t begin(cudaStream_t stream, rt_graph *g, const cudaGraphNode_t *deps, size_t ndeps,
                         int mode) {
  cudaError_t e = rt_begin(1);
  if (e) return e;
  rt_stream *s = rt_stream_get(stream);
  if (!s) return cudaErrorInvalidResourceHandle;
  /* the legacy stream cannot capture */
  if (is_legacy(stream)) return cudaErrorStreamCaptureUnsupported;
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) return cudaErrorInvalidValue;
  if (cs_of(s)) return cudaErrorIllegalState;
  if (ndeps && !deps) return cudaErrorInvalidValue;
  for (size_t i = 0; i < ndeps; i++) {
    g_node *n = g_node_get(deps[i]);
    if (!n || n->g != g) return cudaErrorInvalidValue;
  }
  cap_seq *c = calloc(1, sizeof *c);
  if (!c) return cudaErrorMemoryAllocation;
  int own = !g;
  if (own && !(g = g_new())) {
    free(c);
    return cudaErrorMemoryAllocation;
  }
  c->id = next_id++;
  c->g = g;
  c->mode = mode;
  c->thread = pthread_self();
  c->own_graph = own;
  c->origin = s;
  c->next = seqs;
  seqs = c;
  cap_stream *cs = cs_join(s, c);
  if (!cs || set_deps(cs, (g_node *const *)deps, ndeps, 1) < 0) {
    if (own) g_free(g);
    seq_end(c);
    return cudaErrorMemoryAllocation;
  }
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  return rt_end(begin(stream, NULL, NULL, 0, mode));
}

RT_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t *dependencies,
                                                    const cudaGraphEdgeData *dependencyData,
                                                    size_t numDependencies, enum cudaStreamCaptureMode mode) {
  (void)dependencyData;
  rt_begin(0);
  rt_graph *g = g_get(graph);
  if (!g) return rt_end(cudaErrorInvalidValue);
  return rt_end(begin(stream, g, dependencies, numDependencies, mode));
}

/* whether `a` is `n` or comes before it */
/* Mark the origin's last nodes and everything before them (g_node.visit =
 * pass): each node once, so a chain of forks and joins costs its size,
 * not its number of paths. 0 when out of memory. */
static int mark_before(rt_graph *g, g_node **last, size_t n, unsigned pass) {
  g_node **stack = malloc((g->n ? g->n : 1) * sizeof *stack);
  if (!stack) return 0;
  size_t top = 0;
  for (size_t i = 0; i < n; i++)
    if (last[i]->visit != pass) {
      last[i]->visit = pass;
      stack[top++] = last[i];
    }
  while (top) {
    g_node *x = stack[--top];
    for (size_t i = 0; i < x->ndeps; i++)
      if (x->deps[i]->visit != pass) {
        x->deps[i]->visit = pass;
        stack[top++] = x->deps[i];
      }
  }
  free(stack);
  return 1;
}

RT_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *s = rt_stream_get(stream);
  if (!s) return rt_end(cudaErrorInvalidResourceHandle);
  if (!pGraph) return rt_end(cudaErrorInvalidValue);
  cap_stream *cs = is_legacy(stream) ? NULL : cs_of(s);
  if (!cs) return rt_end(cudaErrorIllegalState);
  cap_seq *c = cs->c;
  if (c->origin != s) {
    c->invalid = 1;
    return rt_end(cudaErrorStreamCaptureUnmatched);
  }
  /* from another thread: the sequence ends without a graph (an H200 then
   * reports the stream as not capturing) */
  if (c->mode != cudaStreamCaptureModeRelaxed && !pthread_equal(c->thread, pthread_self())) {
    if (c->own_graph) g_free(c->g);
    seq_end(c);
    return rt_end(cudaErrorStreamCaptureWrongThread);
  }
  *pGraph = NULL;
  if (c->invalid) {
    if (c->own_graph) g_free(c->g);
    seq_end(c);
    return rt_end(cudaErrorStreamCaptureInvalidated);
  }
  /* every stream that forked from the origin must have joined it again:
   * its last work comes before the origin's */
  static unsigned pass;
  if (!mark_before(c->g, cs->deps, cs->n, ++pass)) return rt_end(cudaErrorMemoryAllocation);
  for (cap_stream *o = cstreams; o; o = o->next) {
    if (o->c != c || o == cs) continue;
    for (size_t i = 0; i < o->n; i++) {
      if (o->deps[i]->visit != pass) {
        if (c->own_graph) g_free(c->g);
        seq_end(c);
        return rt_end(cudaErrorStreamCaptureUnjoined);
      }
    }
  }
  *pGraph = (cudaGraph_t)c->g;
  seq_end(c);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus *pCaptureStatus) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *s = rt_stream_get(stream);
  if (!s) return rt_end(cudaErrorInvalidResourceHandle);
  if (!pCaptureStatus) return rt_end(cudaErrorInvalidValue);
  if (is_legacy(stream)) {
    /* asking about the legacy stream while a blocking stream captures */
    if (blocking_capture()) return rt_end(cudaErrorStreamCaptureImplicit);
    *pCaptureStatus = cudaStreamCaptureStatusNone;
    return rt_end(cudaSuccess);
  }
  cap_stream *cs = cs_of(s);
  *pCaptureStatus = !cs              ? cudaStreamCaptureStatusNone
                    : cs->c->invalid ? cudaStreamCaptureStatusInvalidated
                                     : cudaStreamCaptureStatusActive;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                               enum cudaStreamCaptureStatus *captureStatus_out,
                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                               const cudaGraphNode_t **dependencies_out,
                                               const cudaGraphEdgeData **edgeData_out,
                                               size_t *numDependencies_out) {
  enum cudaStreamCaptureStatus st;
  cudaError_t e = cudaStreamIsCapturing(stream, &st);
  if (e) return e;
  rt_begin(0);
  if (!captureStatus_out) return rt_end(cudaErrorInvalidValue);
  *captureStatus_out = st;
  if (st == cudaStreamCaptureStatusNone) return rt_end(cudaSuccess);
  cap_stream *cs = cs_of(rt_stream_get(stream));
  if (id_out) *id_out = cs->c->id;
  if (graph_out) *graph_out = (cudaGraph_t)cs->c->g;
  if (dependencies_out) *dependencies_out = (const cudaGraphNode_t *)cs->deps;
  if (edgeData_out) {
    free(cs->edges);
    cs->edges = calloc(cs->n ? cs->n : 1, sizeof *cs->edges);
    if (!cs->edges) return rt_end(cudaErrorMemoryAllocation);
    *edgeData_out = cs->edges;
  }
  if (numDependencies_out) *numDependencies_out = cs->n;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                          const cudaGraphEdgeData *dependencyData,
                                                          size_t numDependencies, unsigned int flags) {
  (void)dependencyData;
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_stream *s = rt_stream_get(stream);
  if (!s) return rt_end(cudaErrorInvalidResourceHandle);
  if (flags > cudaStreamSetCaptureDependencies || (numDependencies && !dependencies))
    return rt_end(cudaErrorInvalidValue);
  cap_stream *cs = is_legacy(stream) ? NULL : cs_of(s);
  if (!cs) return rt_end(cudaErrorIllegalState);
  if (cs->c->invalid) return rt_end(cudaErrorStreamCaptureInvalidated);
  for (size_t i = 0; i < numDependencies; i++) {
    g_node *n = g_node_get(dependencies[i]);
    if (!n || n->g != cs->c->g) return rt_end(cudaErrorInvalidValue);
  }
  if (set_deps(cs, (g_node *const *)dependencies, numDependencies,
               flags == cudaStreamAddCaptureDependencies) < 0)
    return rt_end(cudaErrorMemoryAllocation);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
  rt_begin(0);
  /* any value is taken, as on an H200: one that is no mode acts as
   * thread-local */
  if (!mode) return rt_end(cudaErrorInvalidValue);
  int old = thread_mode;
  thread_mode = *mode;
  *mode = (enum cudaStreamCaptureMode)old;
  return rt_end(cudaSuccess);
}
