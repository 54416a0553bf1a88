/* graph.c: CUDA graphs built with the explicit API: graphs and their
 * nodes, edges, node parameters, clones and cudaGraphDebugDotPrint.
 * Instantiation and launch are in graph_exec.c, stream capture in
 * capture.c. Handles are checked against the live objects, so a stale or
 * made-up handle is an error code, never a crash. Node parameters are
 * checked when a node is made or changed, as CUDA does: a kernel node as a
 * launch of it is, copies and fills against the tracked allocations. */
#include "graph_api.h"
#include <stdlib.h>
#include <string.h>

static rt_graph *graphs; /* the live graphs, child graphs included */

/* memory of allocation nodes, live while a node or a clone refers to it */
static g_mem *mem_new(size_t size) {
  g_mem *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  if (smemu_malloc(rt.ctx, &m->p, size) != SMEMU_OK) {
    free(m);
    return NULL;
  }
  m->size = size;
  m->refs = 1;
  return m;
}

static void mem_release(g_mem *m) {
  if (!m || --m->refs > 0) return;
  /* still mapped: the program owns it until it frees it (as on the GPU);
   * cudaFree already released it when it is no longer tracked */
  if (m->mapped) {
    if (rt_alloc_find(m->p) && rt_alloc_find(m->p)->p == m->p) return;
    free(m);
    return;
  }
  if (rt.ctx) smemu_free(rt.ctx, m->p);
  free(m);
}

static void usage(const rt_graph *g, unsigned pass, uint64_t *used, uint64_t *reserved) {
  for (size_t i = 0; i < g->n; i++) {
    g_mem *m = g->nodes[i]->mem;
    if (m && m->seen != pass) {
      m->seen = pass;
      *reserved += m->size;
      rt_alloc *a = rt_alloc_find(m->p);
      if (m->mapped && a && a->p == m->p) *used += m->size;
    }
  }
}

void g_mem_usage(uint64_t *used, uint64_t *reserved) {
  static unsigned pass;
  *used = *reserved = 0;
  pass++;
  /* every graph is in the list, child graphs and executables' copies too;
   * clones share their allocations, counted once */
  for (rt_graph *g = graphs; g; g = g->next) usage(g, pass, used, reserved);
}

rt_graph *g_get(cudaGraph_t h) {
  if (!h) return NULL;
  for (rt_graph *g = graphs; g; g = g->next)
    if ((cudaGraph_t)g == h) return g->internal ? NULL : g;
  return NULL;
}

void g_internal(rt_graph *g) {
  g->internal = 1;
  for (size_t i = 0; i < g->n; i++) {
    if (g->nodes[i]->child) g_internal(g->nodes[i]->child);
    for (unsigned b = 0; b < g->nodes[i]->nbodies; b++) g_internal(g->nodes[i]->bodies[b]);
  }
}

g_node *g_node_get(cudaGraphNode_t h) {
  if (!h) return NULL;
  for (rt_graph *g = graphs; g; g = g->next)
    for (size_t i = 0; !g->internal && i < g->n; i++)
      if ((cudaGraphNode_t)g->nodes[i] == h) return g->nodes[i];
  return NULL;
}

rt_event *g_event(cudaEvent_t e) {
  for (rt_event *p = rt.events; p; p = p->next)
    if ((cudaEvent_t)p == e) return p;
  return NULL;
}

rt_graph *g_new(void) {
  static uint64_t serials;
  rt_graph *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->serial = ++serials;
  g->next = graphs;
  graphs = g;
  return g;
}

void g_node_free_params(g_node *n) {
  free(n->params);
  free(n->argv);
  free(n->attrs);
  n->params = NULL;
  n->argv = NULL;
  n->attrs = NULL;
  n->attr_set = 0;
  if (n->child) g_free(n->child);
  n->child = NULL;
  for (unsigned i = 0; i < n->nbodies; i++) g_free(n->bodies[i]);
  free(n->bodies);
  n->bodies = NULL;
  n->nbodies = 0;
  mem_release(n->mem);
  n->mem = NULL;
}

static void node_free(g_node *n) {
  rt_capture_node_gone(n);
  g_node_free_params(n);
  free(n->deps);
  free(n);
}

void g_free(rt_graph *g) {
  if (!g) return;
  rt_capture_graph_gone(g);
  for (rt_graph **p = &graphs; *p; p = &(*p)->next)
    if (*p == g) {
      *p = g->next;
      break;
    }
  for (size_t i = 0; i < g->n; i++) node_free(g->nodes[i]);
  free(g->nodes);
  free(g);
}

static int dep_add(g_node *n, g_node *d) {
  for (size_t i = 0; i < n->ndeps; i++)
    if (n->deps[i] == d) return 0;
  if (n->ndeps == n->capdeps) {
    size_t cap = n->capdeps ? 2 * n->capdeps : 4;
    g_node **p = realloc(n->deps, cap * sizeof *p);
    if (!p) return -1;
    n->deps = p;
    n->capdeps = cap;
  }
  n->deps[n->ndeps++] = d;
  return 0;
}

static int dep_remove(g_node *n, g_node *d) {
  for (size_t i = 0; i < n->ndeps; i++)
    if (n->deps[i] == d) {
      n->deps[i] = n->deps[--n->ndeps];
      return 1;
    }
  return 0;
}

/* h is a node of g (newest first: captures add after the last nodes) */
static int in_graph(const rt_graph *g, cudaGraphNode_t h) {
  for (size_t i = g->n; i-- > 0;)
    if ((cudaGraphNode_t)g->nodes[i] == h) return 1;
  return 0;
}

cudaError_t g_add(rt_graph *g, int type, const cudaGraphNode_t *deps, size_t ndeps, g_node **out) {
  if (ndeps && !deps) return cudaErrorInvalidValue;
  for (size_t i = 0; i < ndeps; i++) {
    if (!in_graph(g, deps[i])) return cudaErrorInvalidValue;
    for (size_t j = 0; j < i; j++)
      if (deps[j] == deps[i]) return cudaErrorInvalidValue; /* a repeated dependency */
  }
  if (g->n == g->cap) {
    size_t cap = g->cap ? 2 * g->cap : 8;
    g_node **p = realloc(g->nodes, cap * sizeof *p);
    if (!p) return cudaErrorMemoryAllocation;
    g->nodes = p;
    g->cap = cap;
  }
  g_node *n = calloc(1, sizeof *n);
  if (!n) return cudaErrorMemoryAllocation;
  n->type = type;
  n->g = g;
  n->id = g->next_id++;
  n->enabled = 1;
  for (size_t i = 0; i < ndeps; i++)
    if (dep_add(n, (g_node *)deps[i]) < 0) {
      node_free(n);
      return cudaErrorMemoryAllocation;
    }
  g->nodes[g->n++] = n;
  *out = n;
  return cudaSuccess;
}

int g_node_copy_params(g_node *dst, const g_node *src) {
  if (dst == src) return 0;
  g_node_free_params(dst);
  dst->f = src->f;
  dst->grid = src->grid;
  dst->block = src->block;
  dst->shared = src->shared;
  dst->pbytes = src->pbytes;
  memcpy(dst->cluster, src->cluster, sizeof dst->cluster);
  dst->has_cluster = src->has_cluster;
  if (src->attrs) {
    dst->attrs = malloc(32 * 64);
    if (!dst->attrs) return -1;
    memcpy(dst->attrs, src->attrs, 32 * 64);
    dst->attr_set = src->attr_set;
  }
  dst->copy = src->copy;
  dst->set = src->set;
  dst->fn = src->fn;
  dst->user = src->user;
  dst->ev = src->ev;
  dst->bytesize = src->bytesize;
  dst->dptr = src->dptr;
  if (src->params) {
    dst->params = malloc(src->pbytes + 16);
    if (!dst->params) return -1;
    memcpy(dst->params, src->params, src->pbytes + 16);
  }
  if (src->child) {
    dst->child = g_clone(src->child);
    if (!dst->child) return -1;
    dst->child->is_child = 1;
  }
  if (src->mem) {
    dst->mem = src->mem;
    src->mem->refs++;
  }
  dst->handle = src->handle;
  dst->ctype = src->ctype;
  if (src->nbodies) {
    dst->bodies = calloc(src->nbodies, sizeof *dst->bodies);
    if (!dst->bodies) return -1;
    dst->nbodies = src->nbodies;
    for (unsigned i = 0; i < src->nbodies; i++) {
      if (!(dst->bodies[i] = g_clone(src->bodies[i]))) return -1;
      dst->bodies[i]->is_child = 1;
    }
  }
  return 0;
}

rt_graph *g_clone(rt_graph *src) {
  rt_graph *g = g_new();
  if (!g) return NULL;
  g->origin = src;
  g->next_id = src->next_id;
  g->nodes = calloc(src->n ? src->n : 1, sizeof *g->nodes);
  if (!g->nodes) goto fail;
  g->cap = src->n ? src->n : 1;
  for (size_t i = 0; i < src->n; i++) {
    g_node *s = src->nodes[i], *n = calloc(1, sizeof *n);
    if (!n) goto fail;
    g->nodes[g->n++] = n;
    s->tmp = i;
    n->type = s->type;
    n->g = g;
    n->orig = s;
    n->id = s->id;
    n->enabled = s->enabled;
    if (g_node_copy_params(n, s) < 0) goto fail;
  }
  for (size_t i = 0; i < src->n; i++) {
    g_node *s = src->nodes[i];
    for (size_t j = 0; j < s->ndeps; j++)
      if (dep_add(g->nodes[i], g->nodes[s->deps[j]->tmp]) < 0) goto fail;
  }
  return g;
fail:
  g_free(g);
  return NULL;
}

/* a min-heap of node positions: the ready node made first goes first */
static void heap_push(size_t *h, size_t *n, size_t v) {
  size_t i = (*n)++;
  for (; i && h[(i - 1) / 2] > v; i = (i - 1) / 2) h[i] = h[(i - 1) / 2];
  h[i] = v;
}

static size_t heap_pop(size_t *h, size_t *n) {
  size_t top = h[0], v = h[--*n], i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1] < h[c]) c++;
    if (h[c] >= v) break;
    h[i] = h[c];
    i = c;
  }
  if (*n) h[i] = v;
  return top;
}

g_node **g_topo(rt_graph *g) {
  /* Kahn's algorithm, taking among the ready nodes the one made first:
   * deterministic, and the order one stream issued them in when the graph
   * was captured */
  size_t n = g->n, done = 0, ne = 0, nh = 0;
  for (size_t i = 0; i < n; i++) {
    g->nodes[i]->tmp = i;
    ne += g->nodes[i]->ndeps;
  }
  g_node **out = malloc((n ? n : 1) * sizeof *out);
  size_t *left = calloc(n + 1, sizeof *left), *start = calloc(n + 2, sizeof *start);
  size_t *succ = malloc((ne ? ne : 1) * sizeof *succ), *heap = malloc((n ? n : 1) * sizeof *heap);
  g_node **res = NULL;
  if (!out || !left || !start || !succ || !heap) goto done;
  /* successors of each node, grouped: start[i] .. start[i+1] */
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < g->nodes[i]->ndeps; k++) start[g->nodes[i]->deps[k]->tmp + 2]++;
  for (size_t i = 2; i < n + 2; i++) start[i] += start[i - 1];
  for (size_t i = 0; i < n; i++) {
    left[i] = g->nodes[i]->ndeps;
    for (size_t k = 0; k < g->nodes[i]->ndeps; k++) succ[start[g->nodes[i]->deps[k]->tmp + 1]++] = i;
  }
  for (size_t i = 0; i < n; i++)
    if (!left[i]) heap_push(heap, &nh, i);
  while (nh) {
    size_t i = heap_pop(heap, &nh);
    out[done++] = g->nodes[i];
    for (size_t k = start[i]; k < start[i + 1]; k++)
      if (!--left[succ[k]]) heap_push(heap, &nh, succ[k]);
  }
  if (done == n) res = out;
done:
  if (res != out) free(out);
  free(left);
  free(start);
  free(succ);
  free(heap);
  return res;
}

/* ---- parameters ---- */

/* rt_launch with its queued operation kept here instead (capture.c) */
extern _Thread_local rt_op *rt_op_sink;
extern _Thread_local int rt_op_sink_on;

enum { LAUNCH_PARAM_END = 0, LAUNCH_PARAM_BUFFER_POINTER = 1, LAUNCH_PARAM_BUFFER_SIZE = 2 };

cudaError_t g_kernel_set(g_node *n, rt_func *f, dim3 grid, dim3 block, unsigned shared, void **args,
                         void **extra) {
  if (!f) return cudaErrorInvalidDeviceFunction;
  smemu_kernel *k;
  cudaError_t e = rt_func_kernel(f, &k);
  if (e) return e;
  void **argv = args;
  void **tmp = NULL;
  if (!args && extra) {
    /* the driver's packed form: one buffer with every argument at its offset */
    const uint8_t *buf = NULL;
    size_t size = 0;
    for (int i = 0; extra[i] != (void *)LAUNCH_PARAM_END && i < 16; i += 2) {
      if (extra[i] == (void *)LAUNCH_PARAM_BUFFER_POINTER)
        buf = extra[i + 1];
      else if (extra[i] == (void *)LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
        size = *(size_t *)extra[i + 1];
      else
        return cudaErrorInvalidValue;
    }
    int np = smemu_kernel_param_count(k);
    if (np && !buf) return cudaErrorInvalidValue;
    tmp = calloc((size_t)np + 1, sizeof *tmp);
    if (!tmp) return cudaErrorMemoryAllocation;
    for (int i = 0; i < np; i++) {
      smemu_param_info pi;
      smemu_kernel_param(k, i, &pi);
      if (pi.offset + pi.size > size) {
        free(tmp);
        return cudaErrorInvalidValue;
      }
      tmp[i] = (void *)(buf + pi.offset);
    }
    argv = tmp;
  }
  rt_op_sink = NULL;
  rt_op_sink_on = 1;
  e = rt_launch(f, grid, block, argv, shared, 0);
  rt_op_sink_on = 0;
  free(tmp);
  rt_op *op = rt_op_sink;
  rt_op_sink = NULL;
  if (e) {
    if (op) free(op->params), free(op);
    return e;
  }
  if (!op) return cudaErrorUnknown;
  int64_t pbytes = 0;
  smemu_kernel_get_attribute(k, SMEMU_ATTR_PARAM_BYTES, &pbytes);
  int np = smemu_kernel_param_count(k);
  void **av = calloc((size_t)np + 1, sizeof *av);
  if (!av) {
    free(op->params);
    free(op);
    return cudaErrorMemoryAllocation;
  }
  for (int i = 0; i < np; i++) {
    smemu_param_info pi;
    smemu_kernel_param(k, i, &pi);
    av[i] = op->params + pi.offset;
  }
  free(n->params);
  free(n->argv);
  n->f = f;
  n->grid = grid;
  n->block = block;
  n->shared = shared;
  n->params = op->params;
  n->pbytes = (size_t)pbytes;
  n->argv = av;
  free(op);
  return cudaSuccess;
}

/* where a pitched pointer's (x, y, z) is */
static int mc_side(const struct cudaPitchedPtr *pp, const struct cudaPos *pos, const struct cudaExtent *ex,
                   int dev) {
  if (!pp->ptr) return 0;
  size_t pitch = pp->pitch ? pp->pitch : ex->width;
  size_t ysize = pp->ysize ? pp->ysize : ex->height;
  if (ex->width > pitch && ex->height * ex->depth > 1) return 0;
  /* first byte to one past the last, overflow-checked */
  size_t lo = pos->z * ysize * pitch + pos->y * pitch + pos->x;
  size_t rows = (ex->depth - 1) * ysize + ex->height - 1;
  if (ex->depth > 1 && ysize && rows / ysize < ex->depth - 1) return 0;
  size_t hi = lo + rows * pitch + ex->width;
  if (hi < lo) return 0;
  return rt_region_ok(pp->ptr, lo, hi, dev);
}

cudaError_t g_memcpy_check(const struct cudaMemcpy3DParms *p) {
  if (!p) return cudaErrorInvalidValue;
  /* arrays are not emulated */
  if (p->srcArray || p->dstArray) return cudaErrorInvalidValue;
  if (p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  const struct cudaExtent *ex = &p->extent;
  if (!ex->width || !ex->height || !ex->depth) return cudaErrorInvalidValue;
  int to_dev = p->kind == cudaMemcpyHostToDevice || p->kind == cudaMemcpyDeviceToDevice;
  int from_dev = p->kind == cudaMemcpyDeviceToHost || p->kind == cudaMemcpyDeviceToDevice;
  if (p->dstPtr.pitch && ex->width > p->dstPtr.pitch && ex->height * ex->depth > 1)
    return cudaErrorInvalidPitchValue;
  if (p->srcPtr.pitch && ex->width > p->srcPtr.pitch && ex->height * ex->depth > 1)
    return cudaErrorInvalidPitchValue;
  if (!mc_side(&p->dstPtr, &p->dstPos, ex, to_dev) || !mc_side(&p->srcPtr, &p->srcPos, ex, from_dev))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t g_memset_check(const struct cudaMemsetParams *p) {
  if (!p || !p->dst) return cudaErrorInvalidValue;
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) return cudaErrorInvalidValue;
  if (!p->width || !p->height) return cudaErrorInvalidValue;
  size_t w = p->width * p->elementSize;
  if (w / p->elementSize != p->width) return cudaErrorInvalidValue;
  size_t pitch = p->height > 1 ? p->pitch : w;
  if (p->height > 1 && w > pitch) return cudaErrorInvalidValue;
  size_t span = rt_span(pitch, w, p->height);
  if (span == SIZE_MAX || !rt_side_ok(p->dst, span, 1)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

/* ---- the entry points ---- */

static cudaError_t begin_graph(cudaGraph_t h, rt_graph **g) {
  cudaError_t e = rt_begin(1);
  if (e) return e;
  *g = g_get(h);
  return *g ? cudaSuccess : cudaErrorInvalidValue;
}

RT_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!pGraph || flags) return rt_end(cudaErrorInvalidValue);
  rt_graph *g = g_new();
  if (!g) return rt_end(cudaErrorMemoryAllocation);
  *pGraph = (cudaGraph_t)g;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_graph *g = g_get(graph);
  if (!g || g->is_child) return rt_end(cudaErrorInvalidValue);
  g_free(g);
  return rt_end(cudaSuccess);
}

/* the start of every cudaGraphAdd*Node */
static cudaError_t add_begin(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps,
                             size_t ndeps, int type, g_node **n) {
  rt_graph *g;
  cudaError_t e = begin_graph(graph, &g);
  if (e) return e;
  if (!out) return cudaErrorInvalidValue;
  return g_add(g, type, deps, ndeps, n);
}

/* a node whose parameters failed: take it out again */
static void add_undo(g_node *n) {
  rt_graph *g = n->g;
  g->n--;
  node_free(n);
}

/* the end of every cudaGraphAdd*Node after add_begin: the new node into
 * *out, or, when its parameters failed (e), no node */
static cudaError_t add_end(cudaGraphNode_t *out, g_node *n, cudaError_t e) {
  if (e) {
    add_undo(n);
    return rt_end(e);
  }
  *out = (cudaGraphNode_t)n;
  return rt_end(cudaSuccess);
}

static cudaError_t kernel_params(g_node *n, const struct cudaKernelNodeParams *p) {
  if (!p) return cudaErrorInvalidValue;
  rt_func *f = rt_func_by_host(p->func);
  if (!f) {
    /* a driver function (CUfunction) handle */
    for (rt_func *q = rt.funcs; q; q = q->next)
      if ((void *)q == p->func) f = q;
  }
  if (!f) return cudaErrorInvalidDeviceFunction;
  return g_kernel_set(n, f, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, p->extra);
}

RT_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaKernelNodeParams *pNodeParams) {
  g_node *n;
  cudaError_t e = add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeKernel, &n);
  if (e) return rt_end(e);
  return add_end(pGraphNode, n, kernel_params(n, pNodeParams));
}

static g_node *typed(cudaGraphNode_t node, int type) {
  g_node *n = g_node_get(node);
  return n && n->type == type ? n : NULL;
}

/* the start of a node's Set call (on a live context): the node when it has
 * `type`, else NULL with the error in *e */
static g_node *set_begin(cudaGraphNode_t node, int type, cudaError_t *e) {
  if ((*e = rt_begin(1))) return NULL;
  g_node *n = typed(node, type);
  if (!n) *e = cudaErrorInvalidValue;
  return n;
}

/* the start of a node's Get call: the node when it has `type` and the place
 * for the answer is there */
static g_node *get_begin(cudaGraphNode_t node, int type, const void *out) {
  rt_begin(0);
  g_node *n = typed(node, type);
  return out ? n : NULL;
}

RT_EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p) {
  g_node *n = get_begin(node, cudaGraphNodeTypeKernel, p);
  if (!n) return rt_end(cudaErrorInvalidValue);
  p->func = n->f->host ? (void *)n->f->host : (void *)n->f;
  p->gridDim = n->grid;
  p->blockDim = n->block;
  p->sharedMemBytes = n->shared;
  p->kernelParams = n->argv;
  p->extra = NULL;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                   const struct cudaKernelNodeParams *p) {
  cudaError_t e;
  g_node *n = set_begin(node, cudaGraphNodeTypeKernel, &e);
  if (!n) return rt_end(e);
  return rt_end(kernel_params(n, p));
}

RT_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemcpy3DParms *pCopyParams) {
  g_node *n;
  cudaError_t e = add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemcpy, &n);
  if (e) return rt_end(e);
  if (!(e = g_memcpy_check(pCopyParams))) n->copy = *pCopyParams;
  return add_end(pGraphNode, n, e);
}

/* a 1D copy as 3D parameters */
static struct cudaMemcpy3DParms copy1d(void *dst, const void *src, size_t count, int kind) {
  struct cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr.ptr = (void *)src;
  p.srcPtr.pitch = count;
  p.srcPtr.xsize = count;
  p.srcPtr.ysize = 1;
  p.dstPtr.ptr = dst;
  p.dstPtr.pitch = count;
  p.dstPtr.xsize = count;
  p.dstPtr.ysize = 1;
  p.extent.width = count;
  p.extent.height = 1;
  p.extent.depth = 1;
  p.kind = (enum cudaMemcpyKind)kind;
  return p;
}

RT_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               void *dst, const void *src, size_t count,
                                               enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p = copy1d(dst, src, count, kind);
  return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

RT_EXPORT cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p) {
  g_node *n = get_begin(node, cudaGraphNodeTypeMemcpy, p);
  if (n) *p = n->copy;
  return rt_end(n ? cudaSuccess : cudaErrorInvalidValue);
}

RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p) {
  cudaError_t e;
  g_node *n = set_begin(node, cudaGraphNodeTypeMemcpy, &e);
  if (n && !(e = g_memcpy_check(p))) n->copy = *p;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                                                     size_t count, enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p = copy1d(dst, src, count, kind);
  return cudaGraphMemcpyNodeSetParams(node, &p);
}

RT_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemsetParams *pMemsetParams) {
  g_node *n;
  cudaError_t e = add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemset, &n);
  if (e) return rt_end(e);
  if (!(e = g_memset_check(pMemsetParams))) n->set = *pMemsetParams;
  return add_end(pGraphNode, n, e);
}

RT_EXPORT cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p) {
  g_node *n = get_begin(node, cudaGraphNodeTypeMemset, p);
  if (n) *p = n->set;
  return rt_end(n ? cudaSuccess : cudaErrorInvalidValue);
}

RT_EXPORT cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p) {
  cudaError_t e;
  g_node *n = set_begin(node, cudaGraphNodeTypeMemset, &e);
  if (n && !(e = g_memset_check(p))) n->set = *p;
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const struct cudaHostNodeParams *pNodeParams) {
  g_node *n;
  if (!pNodeParams || !pNodeParams->fn) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  cudaError_t e = add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeHost, &n);
  if (e) return rt_end(e);
  n->fn = pNodeParams->fn;
  n->user = pNodeParams->userData;
  return add_end(pGraphNode, n, cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p) {
  g_node *n = get_begin(node, cudaGraphNodeTypeHost, p);
  if (!n) return rt_end(cudaErrorInvalidValue);
  p->fn = n->fn;
  p->userData = n->user;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p) {
  rt_begin(0);
  g_node *n = typed(node, cudaGraphNodeTypeHost);
  if (!n || !p || !p->fn) return rt_end(cudaErrorInvalidValue);
  n->fn = p->fn;
  n->user = p->userData;
  return rt_end(cudaSuccess);
}

/* whether g (or a graph inside it) has a node of `type` */
static int has_type(const rt_graph *g, int type) {
  for (size_t i = 0; i < g->n; i++)
    if (g->nodes[i]->type == type || (g->nodes[i]->child && has_type(g->nodes[i]->child, type))) return 1;
  return 0;
}

RT_EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                 cudaGraph_t childGraph) {
  g_node *n;
  rt_begin(0);
  rt_graph *c = g_get(childGraph), *pg = g_get(graph);
  /* a child is cloned in; memory nodes and conditionals cannot be */
  if (!c || !pg || !pGraphNode || c == pg || has_type(c, cudaGraphNodeTypeMemAlloc) ||
      has_type(c, cudaGraphNodeTypeMemFree) || has_type(c, cudaGraphNodeTypeConditional)) {
    return rt_end(cudaErrorInvalidValue);
  }
  /* cloned before the node exists: the child may hold the graph the node
   * goes into (a child graph's handle comes from
   * cudaGraphChildGraphNodeGetGraph), and must not hold the new node */
  rt_graph *copy = g_clone(c);
  if (!copy) return rt_end(cudaErrorMemoryAllocation);
  copy->is_child = 1;
  /* pg, not the handle again: the copy may sit where a stale handle points */
  cudaError_t e = g_add(pg, cudaGraphNodeTypeGraph, pDependencies, numDependencies, &n);
  if (e) {
    g_free(copy);
    return rt_end(e);
  }
  n->child = copy;
  return add_end(pGraphNode, n, cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph) {
  g_node *n = get_begin(node, cudaGraphNodeTypeGraph, pGraph);
  if (!n) return rt_end(cudaErrorInvalidValue);
  *pGraph = (cudaGraph_t)n->child;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies, size_t numDependencies) {
  g_node *n;
  cudaError_t e = add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeEmpty, &n);
  if (e) return rt_end(e);
  return add_end(pGraphNode, n, cudaSuccess);
}

static cudaError_t add_event(cudaGraphNode_t *out, cudaGraph_t graph, const cudaGraphNode_t *deps,
                             size_t ndeps, cudaEvent_t event, int type) {
  g_node *n;
  rt_begin(0);
  rt_event *ev = g_event(event);
  if (!ev) return rt_end(cudaErrorInvalidValue);
  cudaError_t e = add_begin(out, graph, deps, ndeps, type, &n);
  if (e) return rt_end(e);
  n->ev = ev;
  return add_end(out, n, cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies,
                                                  size_t numDependencies, cudaEvent_t event) {
  return add_event(pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeEventRecord);
}

RT_EXPORT cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                cudaEvent_t event) {
  return add_event(pGraphNode, graph, pDependencies, numDependencies, event, cudaGraphNodeTypeWaitEvent);
}

static cudaError_t event_get(cudaGraphNode_t node, cudaEvent_t *out, int type) {
  g_node *n = get_begin(node, type, out);
  if (!n) return rt_end(cudaErrorInvalidValue);
  *out = (cudaEvent_t)n->ev;
  return rt_end(cudaSuccess);
}

static cudaError_t event_set(cudaGraphNode_t node, cudaEvent_t event, int type) {
  rt_begin(0);
  g_node *n = typed(node, type);
  rt_event *ev = g_event(event);
  if (!n || !ev) return rt_end(cudaErrorInvalidValue);
  n->ev = ev;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
  return event_get(node, event_out, cudaGraphNodeTypeEventRecord);
}
RT_EXPORT cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return event_set(node, event, cudaGraphNodeTypeEventRecord);
}
RT_EXPORT cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
  return event_get(node, event_out, cudaGraphNodeTypeWaitEvent);
}
RT_EXPORT cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return event_set(node, event, cudaGraphNodeTypeWaitEvent);
}

RT_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                               struct cudaMemAllocNodeParams *p) {
  g_node *n;
  cudaError_t e = add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemAlloc, &n);
  if (e) return rt_end(e);
  /* pinned device memory of device 0 is the only kind there is */
  if (!p || !p->bytesize || p->poolProps.allocType != 1 || p->poolProps.location.type != 1 ||
      p->poolProps.location.id != 0)
    return add_end(pGraphNode, n, cudaErrorInvalidValue);
  if (!(e = g_alloc_node(n, p->bytesize))) p->dptr = n->dptr;
  return add_end(pGraphNode, n, e);
}

cudaError_t g_alloc_node(g_node *n, size_t size) {
  if (!size) return cudaErrorInvalidValue;
  if (size > rt_total_memory() || rt.allocated > rt_total_memory() - size || !(n->mem = mem_new(size)))
    return cudaErrorMemoryAllocation;
  n->bytesize = size;
  n->dptr = n->mem->p;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *p) {
  g_node *n = get_begin(node, cudaGraphNodeTypeMemAlloc, p);
  if (!n) return rt_end(cudaErrorInvalidValue);
  memset(p, 0, sizeof *p);
  p->poolProps.allocType = 1;
  p->poolProps.location.type = 1;
  p->bytesize = n->bytesize;
  p->dptr = n->dptr;
  return rt_end(cudaSuccess);
}

/* the allocation node of g (or of the graphs it came from) owning p */
static g_mem *mem_of(rt_graph *g, void *p) {
  for (size_t i = 0; i < g->n; i++)
    if (g->nodes[i]->mem && g->nodes[i]->dptr == p) return g->nodes[i]->mem;
  return NULL;
}

int g_freeable(rt_graph *g, void *p) {
  rt_alloc *a = rt_alloc_find(p);
  return p && (mem_of(g, p) || (a && a->p == p && a->kind == ALLOC_DEVICE));
}

RT_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              void *dptr) {
  g_node *n;
  cudaError_t e = add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeMemFree, &n);
  if (e) return rt_end(e);
  if (!g_freeable(n->g, dptr)) return add_end(pGraphNode, n, cudaErrorInvalidValue);
  n->dptr = dptr;
  return add_end(pGraphNode, n, cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
  g_node *n = get_begin(node, cudaGraphNodeTypeMemFree, dptr_out);
  if (!n) return rt_end(cudaErrorInvalidValue);
  *(void **)dptr_out = n->dptr;
  return rt_end(cudaSuccess);
}

/* cudaGraphAddNode / cudaGraphNodeSetParams: the tagged union */
RT_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                       struct cudaGraphNodeParams *p) {
  (void)dependencyData;
  if (!p) {
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
  switch (p->type) {
  case cudaGraphNodeTypeKernel:
    return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &p->u.kernel);
  case cudaGraphNodeTypeMemcpy:
    return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p->u.memcpy.copyParams);
  case cudaGraphNodeTypeMemset:
    return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p->u.memset);
  case cudaGraphNodeTypeHost:
    return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &p->u.host);
  case cudaGraphNodeTypeGraph:
    return cudaGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, p->u.graph.graph);
  case cudaGraphNodeTypeEmpty:
    return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
  case cudaGraphNodeTypeWaitEvent:
    return cudaGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, p->u.eventWait.event);
  case cudaGraphNodeTypeEventRecord:
    return cudaGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies,
                                       p->u.eventRecord.event);
  case cudaGraphNodeTypeMemAlloc:
    return cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &p->u.alloc);
  case cudaGraphNodeTypeMemFree:
    return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, p->u.free.dptr);
  case cudaGraphNodeTypeConditional: {
    g_node *n;
    cudaError_t e =
        add_begin(pGraphNode, graph, pDependencies, numDependencies, cudaGraphNodeTypeConditional, &n);
    if (e) return rt_end(e);
    return add_end(pGraphNode, n, g_cond_init(n, &p->u.conditional));
  }
  default:
    rt_begin(0);
    return rt_end(cudaErrorInvalidValue);
  }
}

RT_EXPORT cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *p) {
  rt_begin(0);
  g_node *n = g_node_get(node);
  if (!n || !p || (int)p->type != n->type) return rt_end(cudaErrorInvalidValue);
  rt_end(cudaSuccess);
  switch (p->type) {
  case cudaGraphNodeTypeKernel:
    return cudaGraphKernelNodeSetParams(node, &p->u.kernel);
  case cudaGraphNodeTypeMemcpy:
    return cudaGraphMemcpyNodeSetParams(node, &p->u.memcpy.copyParams);
  case cudaGraphNodeTypeMemset:
    return cudaGraphMemsetNodeSetParams(node, &p->u.memset);
  case cudaGraphNodeTypeHost:
    return cudaGraphHostNodeSetParams(node, &p->u.host);
  case cudaGraphNodeTypeWaitEvent:
    return cudaGraphEventWaitNodeSetEvent(node, p->u.eventWait.event);
  case cudaGraphNodeTypeEventRecord:
    return cudaGraphEventRecordNodeSetEvent(node, p->u.eventRecord.event);
  default:
    rt_begin(0);
    return rt_end(cudaErrorNotSupported);
  }
}

/* ---- structure ---- */

RT_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
  rt_begin(0);
  g_node *n = g_node_get(node);
  if (!n || !pType) return rt_end(cudaErrorInvalidValue);
  *pType = (enum cudaGraphNodeType)n->type;
  return rt_end(cudaSuccess);
}

/* the count-then-fill convention of the listing calls: with out NULL the
 * count; else up to *num entries, and *num the number written */
RT_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  rt_begin(0);
  rt_graph *g = g_get(graph);
  if (!g || !numNodes) return rt_end(cudaErrorInvalidValue);
  if (!nodes) {
    *numNodes = g->n;
    return rt_end(cudaSuccess);
  }
  size_t k = *numNodes < g->n ? *numNodes : g->n;
  for (size_t i = 0; i < k; i++) nodes[i] = (cudaGraphNode_t)g->nodes[i];
  for (size_t i = k; i < *numNodes; i++) nodes[i] = NULL;
  *numNodes = k;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                            size_t *pNumRootNodes) {
  rt_begin(0);
  rt_graph *g = g_get(graph);
  if (!g || !pNumRootNodes) return rt_end(cudaErrorInvalidValue);
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++) {
    if (g->nodes[i]->ndeps) continue;
    if (pRootNodes && k < *pNumRootNodes) pRootNodes[k] = (cudaGraphNode_t)g->nodes[i];
    k++;
  }
  if (pRootNodes) {
    for (size_t i = k; i < *pNumRootNodes; i++) pRootNodes[i] = NULL;
    if (k > *pNumRootNodes) k = *pNumRootNodes;
  }
  *pNumRootNodes = k;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                        cudaGraphEdgeData *edgeData, size_t *numEdges) {
  rt_begin(0);
  rt_graph *g = g_get(graph);
  if (!g || !numEdges || (!from) != (!to)) return rt_end(cudaErrorInvalidValue);
  size_t k = 0;
  for (size_t i = 0; i < g->n; i++)
    for (size_t j = 0; j < g->nodes[i]->ndeps; j++) {
      if (from && k < *numEdges) {
        from[k] = (cudaGraphNode_t)g->nodes[i]->deps[j];
        to[k] = (cudaGraphNode_t)g->nodes[i];
        if (edgeData) memset(&edgeData[k], 0, sizeof *edgeData);
      }
      k++;
    }
  /* a short buffer gets the first edges; a long one NULLs after them */
  if (from) {
    for (size_t i = k; i < *numEdges; i++) from[i] = to[i] = NULL;
    if (k > *numEdges) k = *numEdges;
  }
  *numEdges = k;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                   cudaGraphEdgeData *edgeData, size_t *pNumDependencies) {
  rt_begin(0);
  g_node *n = g_node_get(node);
  if (!n || !pNumDependencies) return rt_end(cudaErrorInvalidValue);
  if (!pDependencies) {
    *pNumDependencies = n->ndeps;
    return rt_end(cudaSuccess);
  }
  size_t k = *pNumDependencies < n->ndeps ? *pNumDependencies : n->ndeps;
  for (size_t i = 0; i < k; i++) {
    pDependencies[i] = (cudaGraphNode_t)n->deps[i];
    if (edgeData) memset(&edgeData[i], 0, sizeof *edgeData);
  }
  for (size_t i = k; i < *pNumDependencies; i++) pDependencies[i] = NULL;
  *pNumDependencies = k;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                     cudaGraphEdgeData *edgeData,
                                                     size_t *pNumDependentNodes) {
  rt_begin(0);
  g_node *n = g_node_get(node);
  if (!n || !pNumDependentNodes) return rt_end(cudaErrorInvalidValue);
  size_t k = 0;
  for (size_t i = 0; i < n->g->n; i++) {
    g_node *m = n->g->nodes[i];
    for (size_t j = 0; j < m->ndeps; j++)
      if (m->deps[j] == n) {
        if (pDependentNodes && k < *pNumDependentNodes) {
          pDependentNodes[k] = (cudaGraphNode_t)m;
          if (edgeData) memset(&edgeData[k], 0, sizeof *edgeData);
        }
        k++;
      }
  }
  if (pDependentNodes) {
    for (size_t i = k; i < *pNumDependentNodes; i++) pDependentNodes[i] = NULL;
    if (k > *pNumDependentNodes) k = *pNumDependentNodes;
  }
  *pNumDependentNodes = k;
  return rt_end(cudaSuccess);
}

static cudaError_t edges(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                         size_t num, int add) {
  rt_begin(0);
  rt_graph *g = g_get(graph);
  if (!g || (num && (!from || !to))) return rt_end(cudaErrorInvalidValue);
  /* all checked first: a failing call changes nothing */
  for (size_t i = 0; i < num; i++) {
    g_node *a = g_node_get(from[i]), *b = g_node_get(to[i]);
    if (!a || !b || a->g != g || b->g != g || a == b) return rt_end(cudaErrorInvalidValue);
    int has = 0;
    for (size_t j = 0; j < b->ndeps; j++) has |= b->deps[j] == a;
    if (add ? has : !has) return rt_end(cudaErrorInvalidValue);
  }
  for (size_t i = 0; i < num; i++) {
    g_node *a = g_node_get(from[i]), *b = g_node_get(to[i]);
    if (add) {
      if (dep_add(b, a) < 0) return rt_end(cudaErrorMemoryAllocation);
    } else {
      dep_remove(b, a);
    }
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                               size_t numDependencies) {
  (void)edgeData;
  return edges(graph, from, to, numDependencies, 1);
}

RT_EXPORT cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                  const cudaGraphNode_t *to,
                                                  const cudaGraphEdgeData *edgeData, size_t numDependencies) {
  (void)edgeData;
  return edges(graph, from, to, numDependencies, 0);
}

RT_EXPORT cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  rt_begin(0);
  g_node *n = g_node_get(node);
  if (!n) return rt_end(cudaErrorInvalidValue);
  rt_graph *g = n->g;
  for (size_t i = 0; i < g->n; i++) dep_remove(g->nodes[i], n);
  for (size_t i = 0; i < g->n; i++)
    if (g->nodes[i] == n) {
      memmove(&g->nodes[i], &g->nodes[i + 1], (g->n - i - 1) * sizeof *g->nodes);
      g->n--;
      break;
    }
  node_free(n);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_graph *g = g_get(originalGraph);
  if (!g || !pGraphClone) return rt_end(cudaErrorInvalidValue);
  if (has_type(g, cudaGraphNodeTypeConditional)) return rt_end(cudaErrorNotSupported);
  rt_graph *c = g_clone(g);
  if (!c) return rt_end(cudaErrorMemoryAllocation);
  *pGraphClone = (cudaGraph_t)c;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                               cudaGraph_t clonedGraph) {
  rt_begin(0);
  rt_graph *c = g_get(clonedGraph);
  g_node *o = g_node_get(originalNode);
  if (!c || !o || !pNode || c->origin != o->g) return rt_end(cudaErrorInvalidValue);
  for (size_t i = 0; i < c->n; i++)
    if (c->nodes[i]->orig == o) {
      *pNode = (cudaGraphNode_t)c->nodes[i];
      return rt_end(cudaSuccess);
    }
  return rt_end(cudaErrorInvalidValue);
}

/* ---- cudaGraphDebugDotPrint ---- */

static const char *type_name(int t) {
  switch (t) {
  case cudaGraphNodeTypeKernel:
    return "KERNEL";
  case cudaGraphNodeTypeMemcpy:
    return "MEMCPY";
  case cudaGraphNodeTypeMemset:
    return "MEMSET";
  case cudaGraphNodeTypeHost:
    return "HOST";
  case cudaGraphNodeTypeGraph:
    return "CHILD_GRAPH";
  case cudaGraphNodeTypeEmpty:
    return "EMPTY";
  case cudaGraphNodeTypeWaitEvent:
    return "EVENT_WAIT";
  case cudaGraphNodeTypeEventRecord:
    return "EVENT_RECORD";
  case cudaGraphNodeTypeMemAlloc:
    return "MEM_ALLOC";
  case cudaGraphNodeTypeMemFree:
    return "MEM_FREE";
  case cudaGraphNodeTypeConditional:
    return "CONDITIONAL";
  default:
    return "UNKNOWN";
  }
}

static const char *kind_name(int k) {
  static const char *names[] = {"HtoH", "HtoD", "DtoH", "DtoD", "Default"};
  return k >= 0 && k <= 4 ? names[k] : "?";
}

static void dot_graph(FILE *f, const rt_graph *g, int gid, int *next_gid, unsigned flags) {
  int verbose = flags & 1;
  fprintf(f, "subgraph cluster_%d {\nlabel=\"graph_%d\" graph[style=\"dashed\"];\n", gid, gid);
  for (size_t i = 0; i < g->n; i++) {
    const g_node *n = g->nodes[i];
    fprintf(f, "\"graph_%d_node_%d\"[style=\"solid\" shape=\"rectangle\" label=\"%s\\nnode %d", gid, n->id,
            type_name(n->type), n->id);
    switch (n->type) {
    case cudaGraphNodeTypeKernel:
      fprintf(f, "\\n%s\\n<<<(%u,%u,%u),(%u,%u,%u),%u>>>", n->f->name, n->grid.x, n->grid.y, n->grid.z,
              n->block.x, n->block.y, n->block.z, n->shared);
      break;
    case cudaGraphNodeTypeMemcpy:
      fprintf(f, "\\n%s %zux%zux%zu", kind_name(n->copy.kind), n->copy.extent.width, n->copy.extent.height,
              n->copy.extent.depth);
      if (verbose) fprintf(f, "\\ndst %p src %p", n->copy.dstPtr.ptr, n->copy.srcPtr.ptr);
      break;
    case cudaGraphNodeTypeMemset:
      fprintf(f, "\\nvalue %u size %u %zux%zu", n->set.value, n->set.elementSize, n->set.width,
              n->set.height);
      if (verbose) fprintf(f, "\\ndst %p", n->set.dst);
      break;
    case cudaGraphNodeTypeMemAlloc:
      fprintf(f, "\\n%zu bytes", n->bytesize);
      break;
    case cudaGraphNodeTypeConditional:
      fprintf(f, "\\n%s, %u bod%s",
              n->ctype == cudaGraphCondTypeIf      ? "if"
              : n->ctype == cudaGraphCondTypeWhile ? "while"
                                                   : "switch",
              n->nbodies, n->nbodies == 1 ? "y" : "ies");
      break;
    default:
      break;
    }
    fprintf(f, "\"];\n");
    if (n->type == cudaGraphNodeTypeGraph && n->child) {
      int cid = (*next_gid)++;
      dot_graph(f, n->child, cid, next_gid, flags);
      fprintf(f, "\"graph_%d_node_%d\" -> \"graph_%d_node_%d\"[style=\"dotted\"];\n", gid, n->id, cid,
              n->child->n ? n->child->nodes[0]->id : 0);
    }
    for (unsigned b = 0; b < n->nbodies; b++) {
      int cid = (*next_gid)++;
      dot_graph(f, n->bodies[b], cid, next_gid, flags);
      if (n->bodies[b]->n)
        fprintf(f, "\"graph_%d_node_%d\" -> \"graph_%d_node_%d\"[style=\"dotted\" label=\"body %u\"];\n", gid,
                n->id, cid, n->bodies[b]->nodes[0]->id, b);
    }
  }
  for (size_t i = 0; i < g->n; i++)
    for (size_t j = 0; j < g->nodes[i]->ndeps; j++)
      fprintf(f, "\"graph_%d_node_%d\" -> \"graph_%d_node_%d\";\n", gid, g->nodes[i]->deps[j]->id, gid,
              g->nodes[i]->id);
  fprintf(f, "}\n");
}

RT_EXPORT cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags) {
  rt_begin(0);
  rt_graph *g = g_get(graph);
  if (!g || !path) return rt_end(cudaErrorInvalidValue);
  FILE *f = fopen(path, "w");
  if (!f) return rt_end(cudaErrorOperatingSystem);
  int next = 1;
  fprintf(f, "digraph dot {\n");
  dot_graph(f, g, next++, &next, flags);
  fprintf(f, "}\n");
  return rt_end(fclose(f) ? cudaErrorOperatingSystem : cudaSuccess);
}
