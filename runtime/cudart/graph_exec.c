/* graph_exec.c: executable graphs: instantiate (a private copy of the
 * graph and a topological order of it), upload, launch into a stream,
 * whole-graph update and the per-node cudaGraphExec*SetParams. A launch is
 * one queued operation (a stream callback, so it runs in issue order with
 * the stream's other work and is told of a sticky error); when the queue
 * reaches it, the nodes run one after another in the order, child graphs
 * recursively. */
#include "graph_api.h"
#include <stdlib.h>
#include <string.h>

static rt_gexec *execs;

static rt_gexec *x_get(cudaGraphExec_t h) {
  if (!h) return NULL;
  for (rt_gexec *x = execs; x; x = x->next)
    if ((cudaGraphExec_t)x == h) return x;
  return NULL;
}

/* ---- running ---- */

static void run_copy(const struct cudaMemcpy3DParms *p) {
  const struct cudaExtent *ex = &p->extent;
  size_t dp = p->dstPtr.pitch ? p->dstPtr.pitch : ex->width,
         sp = p->srcPtr.pitch ? p->srcPtr.pitch : ex->width;
  size_t dy = p->dstPtr.ysize ? p->dstPtr.ysize : ex->height,
         sy = p->srcPtr.ysize ? p->srcPtr.ysize : ex->height;
  for (size_t z = 0; z < ex->depth; z++)
    for (size_t y = 0; y < ex->height; y++) {
      char *d = (char *)p->dstPtr.ptr + ((p->dstPos.z + z) * dy + p->dstPos.y + y) * dp + p->dstPos.x;
      const char *s =
          (const char *)p->srcPtr.ptr + ((p->srcPos.z + z) * sy + p->srcPos.y + y) * sp + p->srcPos.x;
      /* initcheck: a copy from the device reads what kernels must have written */
      if (p->kind != cudaMemcpyHostToDevice && p->kind != cudaMemcpyHostToHost)
        rt_san_copy_source(s, ex->width, "cudaGraphLaunch");
      smemu_memcpy(rt.ctx, d, s, ex->width);
    }
}

static void run_set(const struct cudaMemsetParams *p) {
  size_t w = p->width * p->elementSize;
  uint8_t pattern[4];
  for (unsigned i = 0; i < p->elementSize; i++) pattern[i] = (uint8_t)(p->value >> (8 * i));
  for (size_t r = 0; r < p->height; r++) {
    char *row = (char *)p->dst + r * (p->height > 1 ? p->pitch : w);
    if (p->elementSize == 1) {
      smemu_memset(rt.ctx, row, (int)(p->value & 0xff), w);
      continue;
    }
    for (size_t i = 0; i < p->width; i++)
      smemu_memcpy(rt.ctx, row + i * p->elementSize, pattern, p->elementSize);
  }
}

static void fault(const g_node *n, const char *what) {
  rt_msg("error: graph %s node %d: its memory is no longer allocated (cudaErrorIllegalAddress)", what, n->id);
  rt.sticky = cudaErrorIllegalAddress;
}

static void run_node(g_node *n) {
  switch (n->type) {
  case cudaGraphNodeTypeKernel: {
    smemu_kernel *k;
    if (rt_func_kernel(n->f, &k)) break;
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = OP_LAUNCH;
    op.origin = RT_FROM_GRAPH;
    op.stream = &rt.default_stream;
    op.f = n->f;
    op.grid[0] = n->grid.x, op.grid[1] = n->grid.y, op.grid[2] = n->grid.z;
    op.block[0] = n->block.x, op.block[1] = n->block.y, op.block[2] = n->block.z;
    op.shared = n->shared;
    op.bank_mode = n->f->shmem_config == cudaSharedMemBankSizeEightByte  ? 8
                   : n->f->shmem_config == cudaSharedMemBankSizeFourByte ? 4
                   : rt.shmem_config == cudaSharedMemBankSizeEightByte   ? 8
                                                                         : 4;
    op.params = n->params;
    if (n->has_cluster) {
      memcpy(op.cluster, n->cluster, sizeof op.cluster);
      op.has_cluster = 1;
    }
    rt_run_launch(&op);
    break;
  }
  /* the memory may have been freed since the node was made: checked again,
   * a copy or fill out of its allocation faults as on the GPU */
  case cudaGraphNodeTypeMemcpy:
    if (g_memcpy_check(&n->copy))
      fault(n, "memcpy");
    else
      run_copy(&n->copy);
    break;
  case cudaGraphNodeTypeMemset:
    if (g_memset_check(&n->set))
      fault(n, "memset");
    else
      run_set(&n->set);
    break;
  case cudaGraphNodeTypeHost:
    n->fn(n->user);
    break;
  case cudaGraphNodeTypeGraph:
    g_run(n->child);
    break;
  case cudaGraphNodeTypeConditional:
    g_cond_run(n);
    break;
  case cudaGraphNodeTypeEventRecord:
    if (g_event((cudaEvent_t)n->ev)) {
      n->ev->t = rt_now();
      if (n->ev->pending > 0) n->ev->pending--;
    }
    break;
  case cudaGraphNodeTypeMemAlloc:
    if (!n->mem->mapped && rt_alloc_add(n->mem->p, n->mem->size, ALLOC_DEVICE, 0) == 0) {
      n->mem->mapped = 1;
      /* fresh memory of a graph allocation is not initialised */
      smemu_mem_set_written(rt.ctx, n->mem->p, n->mem->size, 0);
    }
    break;
  case cudaGraphNodeTypeMemFree: {
    rt_alloc *a = rt_alloc_find(n->dptr);
    if (a && a->p == n->dptr) rt_alloc_remove(n->dptr);
    break;
  }
  default:
    break; /* empty, event wait: order only */
  }
}

/* the graph's allocations, mapped or unmapped by the free nodes */
static void free_mapped(rt_graph *g, void *p) {
  for (size_t i = 0; i < g->n; i++) {
    g_node *n = g->nodes[i];
    if (n->mem && n->mem->p == p) n->mem->mapped = 0;
    if (n->child) free_mapped(n->child, p);
  }
}

void g_run(rt_graph *g) {
  g_node **order = g_topo(g);
  if (!order) return;
  for (size_t i = 0; i < g->n && !rt.sticky; i++) {
    g_node *n = order[i];
    if (!n->enabled) continue;
    run_node(n);
    if (n->type == cudaGraphNodeTypeMemFree) free_mapped(g, n->dptr);
  }
  free(order);
}

/* the queued launch: a stream callback (it runs even after a sticky error,
 * to settle the events it holds) */
static void launch_cb(cudaStream_t stream, cudaError_t status, void *user) {
  (void)stream;
  rt_gexec *x = user;
  if (x_get((cudaGraphExec_t)x)) {
    x->launches_pending--;
    if (!status && !rt.sticky) {
      g_cond_defaults(x->g);
      g_run(x->g);
    }
  }
}

/* event record nodes: pending until the launch runs */
static void count_events(rt_graph *g, int d) {
  for (size_t i = 0; i < g->n; i++) {
    g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeEventRecord && n->enabled && g_event((cudaEvent_t)n->ev)) {
      n->ev->recorded = 1;
      n->ev->pending += d;
    }
    if (n->child) count_events(n->child, d);
  }
}

static int mapped_allocs(rt_graph *g) {
  for (size_t i = 0; i < g->n; i++) {
    g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeMemAlloc && n->mem->mapped && rt_alloc_find(n->mem->p)) return 1;
    if (n->child && mapped_allocs(n->child)) return 1;
  }
  return 0;
}

static void unmap_allocs(rt_graph *g) {
  for (size_t i = 0; i < g->n; i++) {
    g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeMemAlloc && n->mem->mapped) {
      rt_alloc *a = rt_alloc_find(n->mem->p);
      if (a && a->p == n->mem->p) rt_alloc_remove(n->mem->p);
      n->mem->mapped = 0;
    }
    if (n->child) unmap_allocs(n->child);
  }
}

/* ---- instantiate ---- */

static int has_mem_nodes(const rt_graph *g) {
  for (size_t i = 0; i < g->n; i++) {
    const g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeMemAlloc || n->type == cudaGraphNodeTypeMemFree) return 1;
    if (n->child && has_mem_nodes(n->child)) return 1;
  }
  return 0;
}

/* what a graph launched from the device may hold: kernels, copies, fills
 * and child graphs of them, at least one operation */
static int device_ops(const rt_graph *g, int *ops) {
  for (size_t i = 0; i < g->n; i++) {
    const g_node *n = g->nodes[i];
    if (n->type == cudaGraphNodeTypeGraph) {
      if (!device_ops(n->child, ops)) return 0;
    } else if (n->type == cudaGraphNodeTypeKernel || n->type == cudaGraphNodeTypeMemcpy ||
               n->type == cudaGraphNodeTypeMemset) {
      ++*ops;
    } else {
      return 0;
    }
  }
  return 1;
}

static int device_launchable(const rt_graph *g) {
  int ops = 0;
  return device_ops(g, &ops) && ops > 0;
}

static cudaError_t instantiate(cudaGraphExec_t *out, cudaGraph_t graph, unsigned long long flags,
                               enum cudaGraphInstantiateResult *res) {
  if (res) *res = cudaGraphInstantiateError;
  rt_graph *g = g_get(graph);
  if (!out || !g) return cudaErrorInvalidValue;
  if (flags &
      ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                            cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority))
    return cudaErrorInvalidValue;
  if ((flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) && (flags & cudaGraphInstantiateFlagDeviceLaunch))
    return cudaErrorInvalidValue;
  g_node **order = g_topo(g);
  if (!order) {
    if (res) *res = cudaGraphInstantiateInvalidStructure;
    return cudaErrorInvalidValue; /* a cycle */
  }
  free(order);
  if (g_cond_orphaned(g)) return cudaErrorInvalidValue;
  /* a graph with memory nodes has one executable at a time (a second:
   * cudaErrorNotSupported on an H200) */
  if (has_mem_nodes(g))
    for (rt_gexec *o = execs; o; o = o->next)
      if (o->src_serial == g->serial) return cudaErrorNotSupported;
  if ((flags & cudaGraphInstantiateFlagDeviceLaunch) && !device_launchable(g)) {
    if (res) *res = cudaGraphInstantiateNodeOperationNotSupported;
    return cudaErrorInvalidValue;
  }
  rt_gexec *x = calloc(1, sizeof *x);
  if (!x) return cudaErrorMemoryAllocation;
  x->g = g_clone(g);
  if (!x->g) {
    free(x);
    return cudaErrorMemoryAllocation;
  }
  x->g->is_child = 1;
  g_internal(x->g); /* no user handle reaches the executable's copy */
  x->src_serial = g->serial;
  x->flags = flags;
  x->next = execs;
  execs = x;
  *out = (cudaGraphExec_t)x;
  if (res) *res = cudaGraphInstantiateSuccess;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                    unsigned long long flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  /* the upload flag needs a stream: cudaGraphInstantiateWithParams only */
  if (flags & cudaGraphInstantiateFlagUpload) return rt_end(cudaErrorInvalidValue);
  return rt_end(instantiate(pGraphExec, graph, flags, NULL));
}

RT_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           unsigned long long flags) {
  return cudaGraphInstantiateWithFlags(pGraphExec, graph, flags);
}

RT_EXPORT cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                     cudaGraphInstantiateParams *p) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!p) return rt_end(cudaErrorInvalidValue);
  p->errNode_out = NULL;
  if ((p->flags & cudaGraphInstantiateFlagUpload) && !rt_stream_get(p->uploadStream)) {
    p->result_out = cudaGraphInstantiateError;
    return rt_end(cudaErrorInvalidResourceHandle);
  }
  return rt_end(instantiate(pGraphExec, graph, p->flags, &p->result_out));
}

RT_EXPORT cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags) {
  rt_begin(0);
  rt_gexec *x = x_get(graphExec);
  if (!x || !flags) return rt_end(cudaErrorInvalidValue);
  *flags = x->flags;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  cudaError_t e = rt_begin(1);
  if (e && e != rt.sticky) return rt_end(e);
  rt_gexec *x = x_get(graphExec);
  if (!x) return rt_end(cudaErrorInvalidValue);
  /* launches still queued finish first, as on the GPU */
  if (x->launches_pending) rt_drain();
  for (rt_gexec **p = &execs; *p; p = &(*p)->next)
    if (*p == x) {
      *p = x->next;
      break;
    }
  g_free(x->g);
  free(x);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!x_get(graphExec)) return rt_end(cudaErrorInvalidValue);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(cudaSuccess); /* nothing to move: the device is this process */
}

RT_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_gexec *x = x_get(graphExec);
  if (!x) return rt_end(cudaErrorInvalidValue);
  rt_stream *s = rt_stream_get(stream);
  if (!s) return rt_end(cudaErrorInvalidResourceHandle);
  int c = rt_capture_graph_launch(x->g, s);
  if (c >= 0) return rt_end((cudaError_t)c);
  /* a launch waits for the previous one of the same executable */
  if (x->launches_pending) rt_drain();
  if (mapped_allocs(x->g)) {
    if (!(x->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)) return rt_end(cudaErrorInvalidValue);
    unmap_allocs(x->g);
  }
  rt_op *op = calloc(1, sizeof *op);
  if (!op) return rt_end(cudaErrorMemoryAllocation);
  op->kind = OP_CALLBACK;
  op->stream = s;
  op->cb = launch_cb;
  op->user = x;
  x->launches_pending++;
  count_events(x->g, 1);
  rt_enqueue(op);
  return rt_end(cudaSuccess);
}

/* ---- launches from the device (core/cdp.c) ---- */

cudaError_t rt_gexec_device_check(uint64_t h) {
  rt_gexec *x = x_get((cudaGraphExec_t)(uintptr_t)h);
  return x && (x->flags & cudaGraphInstantiateFlagDeviceLaunch) ? cudaSuccess : cudaErrorInvalidValue;
}

void rt_gexec_device_run(uint64_t h) {
  rt_gexec *x = x_get((cudaGraphExec_t)(uintptr_t)h);
  if (x) g_run(x->g);
}

/* ---- update ---- */

/* the executable's node made from `node` (a node of the graph it was
 * instantiated from), at the top level */
static g_node *x_node(rt_gexec *x, cudaGraphNode_t node) {
  g_node *o = g_node_get(node);
  if (!o) return NULL;
  for (size_t i = 0; i < x->g->n; i++)
    if (x->g->nodes[i]->orig == o) return x->g->nodes[i];
  return NULL;
}

/* Whether b can replace a's parameters in place: same shape, same types,
 * same edges (nodes paired by position); sets *res and the nodes. */
static int same_topology(rt_graph *a, rt_graph *b, enum cudaGraphExecUpdateResult *res, g_node **err) {
  if (a->n != b->n) {
    *res = cudaGraphExecUpdateErrorTopologyChanged;
    return 0;
  }
  for (size_t i = 0; i < a->n; i++) a->nodes[i]->tmp = i, b->nodes[i]->tmp = i;
  for (size_t i = 0; i < a->n; i++) {
    g_node *p = a->nodes[i], *q = b->nodes[i];
    if (p->type != q->type) {
      *res = cudaGraphExecUpdateErrorNodeTypeChanged;
      *err = q;
      return 0;
    }
    if (p->ndeps != q->ndeps) {
      *res = cudaGraphExecUpdateErrorTopologyChanged;
      *err = q;
      return 0;
    }
    for (size_t j = 0; j < q->ndeps; j++) {
      int found = 0;
      for (size_t k = 0; k < p->ndeps; k++) found |= p->deps[k]->tmp == q->deps[j]->tmp;
      if (!found) {
        *res = cudaGraphExecUpdateErrorTopologyChanged;
        *err = q;
        return 0;
      }
    }
    /* memory nodes keep their allocation; a free node its pointer */
    if ((p->type == cudaGraphNodeTypeMemAlloc && p->bytesize != q->bytesize) ||
        (p->type == cudaGraphNodeTypeMemFree && p->dptr != q->dptr)) {
      *res = cudaGraphExecUpdateErrorParametersChanged;
      *err = q;
      return 0;
    }
    if (p->type == cudaGraphNodeTypeGraph &&
        (!p->child || !q->child || !same_topology(p->child, q->child, res, err)))
      return 0;
    if (p->type == cudaGraphNodeTypeConditional) {
      if (p->ctype != q->ctype || p->nbodies != q->nbodies || p->handle != q->handle) {
        *res = cudaGraphExecUpdateErrorParametersChanged;
        *err = q;
        return 0;
      }
      for (unsigned k = 0; k < p->nbodies; k++)
        if (!same_topology(p->bodies[k], q->bodies[k], res, err)) return 0;
    }
  }
  return 1;
}

static int update_params(rt_graph *a, rt_graph *b) {
  for (size_t i = 0; i < a->n; i++) {
    g_node *p = a->nodes[i], *q = b->nodes[i];
    if (p->type == cudaGraphNodeTypeMemAlloc || p->type == cudaGraphNodeTypeMemFree) continue;
    if (p->type == cudaGraphNodeTypeGraph) {
      if (!update_params(p->child, q->child)) return 0;
      continue;
    }
    if (p->type == cudaGraphNodeTypeConditional) {
      for (unsigned k = 0; k < p->nbodies; k++)
        if (!update_params(p->bodies[k], q->bodies[k])) return 0;
      continue;
    }
    if (g_node_copy_params(p, q) < 0) return 0;
  }
  return 1;
}

RT_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                          cudaGraphExecUpdateResultInfo *resultInfo) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_gexec *x = x_get(hGraphExec);
  rt_graph *g = g_get(hGraph);
  if (!x || !g) return rt_end(cudaErrorInvalidValue);
  enum cudaGraphExecUpdateResult res = cudaGraphExecUpdateSuccess;
  g_node *err = NULL;
  /* queued launches use the parameters they were launched with */
  if (x->launches_pending) rt_drain();
  if (!same_topology(x->g, g, &res, &err)) {
    if (resultInfo) {
      resultInfo->result = res;
      resultInfo->errorNode = (cudaGraphNode_t)err;
      resultInfo->errorFromNode = NULL;
    }
    return rt_end(cudaErrorGraphExecUpdateFailure);
  }
  if (!update_params(x->g, g)) return rt_end(cudaErrorMemoryAllocation);
  if (resultInfo) {
    resultInfo->result = cudaGraphExecUpdateSuccess;
    resultInfo->errorNode = resultInfo->errorFromNode = NULL;
  }
  return rt_end(cudaSuccess);
}

/* the start of every cudaGraphExec*NodeSetParams */
static cudaError_t exec_node(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, int type, g_node **out) {
  cudaError_t e = rt_begin(1);
  if (e) return e;
  rt_gexec *x = x_get(hGraphExec);
  if (!x) return cudaErrorInvalidValue;
  g_node *o = g_node_get(node);
  g_node *n = x_node(x, node);
  if (!o || !n || (type >= 0 && n->type != type)) return cudaErrorInvalidValue;
  if (x->launches_pending) rt_drain();
  *out = n;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *p) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, node, cudaGraphNodeTypeKernel, &n);
  if (e) return rt_end(e);
  if (!p) return rt_end(cudaErrorInvalidValue);
  rt_func *f = rt_func_by_host(p->func);
  if (!f)
    for (rt_func *q = rt.funcs; q; q = q->next)
      if ((void *)q == p->func) f = q;
  if (!f) return rt_end(cudaErrorInvalidDeviceFunction);
  return rt_end(g_kernel_set(n, f, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, p->extra));
}

RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaMemcpy3DParms *p) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, node, cudaGraphNodeTypeMemcpy, &n);
  if (e) return rt_end(e);
  if ((e = g_memcpy_check(p))) return rt_end(e);
  n->copy = *p;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                         void *dst, const void *src, size_t count,
                                                         enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = (struct cudaPitchedPtr){(void *)src, count, count, 1};
  p.dstPtr = (struct cudaPitchedPtr){dst, count, count, 1};
  p.extent = (struct cudaExtent){count, 1, 1};
  p.kind = kind;
  return cudaGraphExecMemcpyNodeSetParams(hGraphExec, node, &p);
}

RT_EXPORT cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaMemsetParams *p) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, node, cudaGraphNodeTypeMemset, &n);
  if (e) return rt_end(e);
  if ((e = g_memset_check(p))) return rt_end(e);
  n->set = *p;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                     const struct cudaHostNodeParams *p) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, node, cudaGraphNodeTypeHost, &n);
  if (e) return rt_end(e);
  if (!p || !p->fn) return rt_end(cudaErrorInvalidValue);
  n->fn = p->fn;
  n->user = p->userData;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                           cudaGraph_t childGraph) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, node, cudaGraphNodeTypeGraph, &n);
  if (e) return rt_end(e);
  rt_graph *c = g_get(childGraph);
  if (!c) return rt_end(cudaErrorInvalidValue);
  enum cudaGraphExecUpdateResult res;
  g_node *err = NULL;
  if (!same_topology(n->child, c, &res, &err)) return rt_end(cudaErrorInvalidValue);
  return rt_end(update_params(n->child, c) ? cudaSuccess : cudaErrorMemoryAllocation);
}

static cudaError_t exec_event(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, cudaEvent_t event, int type) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, node, type, &n);
  if (e) return rt_end(e);
  rt_event *ev = g_event(event);
  if (!ev) return rt_end(cudaErrorInvalidValue);
  n->ev = ev;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                           cudaEvent_t event) {
  return exec_event(hGraphExec, hNode, event, cudaGraphNodeTypeEventRecord);
}

RT_EXPORT cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                         cudaEvent_t event) {
  return exec_event(hGraphExec, hNode, event, cudaGraphNodeTypeWaitEvent);
}

RT_EXPORT cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                                 struct cudaGraphNodeParams *p) {
  if (!p) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  switch (p->type) {
  case cudaGraphNodeTypeKernel:
    return cudaGraphExecKernelNodeSetParams(graphExec, node, &p->u.kernel);
  case cudaGraphNodeTypeMemcpy:
    return cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p->u.memcpy.copyParams);
  case cudaGraphNodeTypeMemset:
    return cudaGraphExecMemsetNodeSetParams(graphExec, node, &p->u.memset);
  case cudaGraphNodeTypeHost:
    return cudaGraphExecHostNodeSetParams(graphExec, node, &p->u.host);
  case cudaGraphNodeTypeGraph:
    return cudaGraphExecChildGraphNodeSetParams(graphExec, node, p->u.graph.graph);
  case cudaGraphNodeTypeEventRecord:
    return cudaGraphExecEventRecordNodeSetEvent(graphExec, node, p->u.eventRecord.event);
  case cudaGraphNodeTypeWaitEvent:
    return cudaGraphExecEventWaitNodeSetEvent(graphExec, node, p->u.eventWait.event);
  default:
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
}

RT_EXPORT cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                              unsigned int isEnabled) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, hNode, -1, &n);
  if (e) return rt_end(e);
  /* only kernel, memcpy and memset nodes can be switched off */
  if (n->type != cudaGraphNodeTypeKernel && n->type != cudaGraphNodeTypeMemcpy &&
      n->type != cudaGraphNodeTypeMemset)
    return rt_end(cudaErrorInvalidValue);
  n->enabled = isEnabled != 0;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                              unsigned int *isEnabled) {
  g_node *n;
  cudaError_t e = exec_node(hGraphExec, hNode, -1, &n);
  if (e) return rt_end(e);
  if (!isEnabled) return rt_end(cudaErrorInvalidValue);
  *isEnabled = (unsigned)n->enabled;
  return rt_end(cudaSuccess);
}
