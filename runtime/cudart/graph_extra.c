/* graph_extra.c: the rest of the graph API on both sides: memcpy nodes to
 * and from __device__/__constant__ variables, kernel node attributes
 * (kept per node; a cluster dimension applies to the launch), and the
 * device's graph-memory figures (what allocation nodes have reserved and
 * what is mapped now, with their high-water marks). */
#include "graph_api.h"
#include <stdlib.h>
#include <string.h>

/* ---- memcpy nodes of symbols ---- */

static cudaError_t symbol_copy(struct cudaMemcpy3DParms *p, void *dst, const void *src, const void *symbol,
                               size_t count, size_t offset, int kind, int to_symbol) {
  rt_var *v = rt_var_by_host(symbol);
  if (!v) return cudaErrorInvalidSymbol;
  void *base;
  size_t size;
  cudaError_t e = rt_var_addr(v, &base, &size);
  if (e) return e;
  if (offset > size || count > size - offset) return cudaErrorInvalidValue;
  if (to_symbol
          ? (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
          : (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault))
    return cudaErrorInvalidMemcpyDirection;
  char *sym = (char *)base + offset;
  memset(p, 0, sizeof *p);
  void *d = to_symbol ? sym : dst;
  const void *s = to_symbol ? src : sym;
  p->srcPtr = (struct cudaPitchedPtr){(void *)s, count, count, 1};
  p->dstPtr = (struct cudaPitchedPtr){d, count, count, 1};
  p->extent = (struct cudaExtent){count, 1, 1};
  p->kind = (enum cudaMemcpyKind)kind;
  return cudaSuccess;
}

/* The copy parameters of a symbol node, worked out under the runtime's lock. */
static cudaError_t symbol_params(struct cudaMemcpy3DParms *p, void *dst, const void *src, const void *symbol,
                                 size_t count, size_t offset, int kind, int to_symbol) {
  cudaError_t e = rt_begin(1);
  if (!e) e = symbol_copy(p, dst, src, symbol, count, offset, kind, to_symbol);
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                     const cudaGraphNode_t *pDependencies,
                                                     size_t numDependencies, const void *symbol,
                                                     const void *src, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const void *symbol, const void *src, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p;
  cudaError_t e = symbol_params(&p, NULL, src, symbol, count, offset, kind, 1);
  return e ? e : cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

RT_EXPORT cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                       const cudaGraphNode_t *pDependencies,
                                                       size_t numDependencies, void *dst, const void *symbol,
                                                       size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             void *dst, const void *symbol, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p;
  cudaError_t e = symbol_params(&p, dst, NULL, symbol, count, offset, kind, 0);
  return e ? e : cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol,
                                                           const void *src, size_t count, size_t offset,
                                                           enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol, const void *src,
                                                 size_t count, size_t offset, enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p;
  cudaError_t e = symbol_params(&p, NULL, src, symbol, count, offset, kind, 1);
  return e ? e : cudaGraphMemcpyNodeSetParams(node, &p);
}

RT_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst,
                                                             const void *symbol, size_t count, size_t offset,
                                                             enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, const void *symbol,
                                                   size_t count, size_t offset, enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p;
  cudaError_t e = symbol_params(&p, dst, NULL, symbol, count, offset, kind, 0);
  return e ? e : cudaGraphMemcpyNodeSetParams(node, &p);
}

RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t x, cudaGraphNode_t node,
                                                               const void *symbol, const void *src,
                                                               size_t count, size_t offset,
                                                               enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t x, cudaGraphNode_t node,
                                                     const void *symbol, const void *src, size_t count,
                                                     size_t offset, enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p;
  cudaError_t e = symbol_params(&p, NULL, src, symbol, count, offset, kind, 1);
  return e ? e : cudaGraphExecMemcpyNodeSetParams(x, node, &p);
}

RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t x, cudaGraphNode_t node,
                                                                 void *dst, const void *symbol, size_t count,
                                                                 size_t offset, enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t x, cudaGraphNode_t node, void *dst,
                                                       const void *symbol, size_t count, size_t offset,
                                                       enum cudaMemcpyKind kind) {
  struct cudaMemcpy3DParms p;
  cudaError_t e = symbol_params(&p, dst, NULL, symbol, count, offset, kind, 0);
  return e ? e : cudaGraphExecMemcpyNodeSetParams(x, node, &p);
}

/* ---- kernel node attributes ---- */

enum { ATTR_MAX = 16, ATTR_CLUSTER = 4, ATTR_PRIORITY = 8, ATTR_UNUSED = 15 };

static cudaError_t attr_node(cudaGraphNode_t node, int attr, g_node **out) {
  g_node *n = g_node_get(node);
  if (!n || n->type != cudaGraphNodeTypeKernel || attr <= 0 || attr > ATTR_MAX || attr == ATTR_UNUSED)
    return cudaErrorInvalidValue;
  *out = n;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, int attr, void *value_out);
cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, int attr, void *value_out) {
  g_node *n;
  rt_begin(0);
  cudaError_t e = attr_node(hNode, attr, &n);
  if (e || !value_out) return rt_end(e ? e : cudaErrorInvalidValue);
  memset(value_out, 0, 64);
  if (attr == ATTR_CLUSTER) {
    if (n->has_cluster) memcpy(value_out, n->cluster, sizeof n->cluster);
  } else if (n->attrs && (n->attr_set >> attr & 1)) {
    memcpy(value_out, n->attrs[attr], 64);
  }
  return rt_end(cudaSuccess);
}

static cudaError_t attr_set(g_node *n, int attr, const void *value) {
  if (attr == ATTR_CLUSTER) {
    const uint32_t *d = value;
    n->has_cluster = d[0] || d[1] || d[2];
    memcpy(n->cluster, d, sizeof n->cluster);
    return cudaSuccess;
  }
  if (!n->attrs && !(n->attrs = calloc(32, 64))) return cudaErrorMemoryAllocation;
  memcpy(n->attrs[attr], value, 64);
  if (attr == ATTR_PRIORITY) {
    /* clamped to the device's range [-5, 0] as a stream's: an H200 reads
     * back 0 for 3 (tests/runtime/graphs/explicit.cu) */
    int p;
    memcpy(&p, value, sizeof p);
    p = p > 0 ? 0 : p < -5 ? -5 : p;
    memcpy(n->attrs[attr], &p, sizeof p);
  }
  n->attr_set |= 1u << attr;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, int attr, const void *value);
cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, int attr, const void *value) {
  g_node *n;
  rt_begin(0);
  cudaError_t e = attr_node(hNode, attr, &n);
  if (e || !value) return rt_end(e ? e : cudaErrorInvalidValue);
  return rt_end(attr_set(n, attr, value));
}

RT_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc);
cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
  rt_begin(0);
  g_node *d = g_node_get(hDst), *s = g_node_get(hSrc);
  if (!d || !s || d->type != cudaGraphNodeTypeKernel || s->type != cudaGraphNodeTypeKernel)
    return rt_end(cudaErrorInvalidValue);
  if (d == s) return rt_end(cudaSuccess);
  memcpy(d->cluster, s->cluster, sizeof d->cluster);
  d->has_cluster = s->has_cluster;
  if (s->attrs) {
    if (!d->attrs && !(d->attrs = calloc(32, 64))) return rt_end(cudaErrorMemoryAllocation);
    memcpy(d->attrs, s->attrs, 32 * 64);
  }
  d->attr_set = s->attr_set;
  return rt_end(cudaSuccess);
}

/* the driver's forms: CUkernelNodeAttrValue has the same 64 bytes */
RT_EXPORT int cuGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, int attr, void *value_out);
int cuGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, int attr, void *value_out) {
  return (int)cudaGraphKernelNodeGetAttribute(hNode, attr, value_out);
}
RT_EXPORT int cuGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, int attr, const void *value);
int cuGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, int attr, const void *value) {
  return (int)cudaGraphKernelNodeSetAttribute(hNode, attr, value);
}
RT_EXPORT int cuGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc);
int cuGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
  return (int)cudaGraphKernelNodeCopyAttributes(hDst, hSrc);
}

/* ---- graph memory of the device ---- */

enum { MEM_USED = 0, MEM_USED_HIGH = 1, MEM_RESERVED = 2, MEM_RESERVED_HIGH = 3 };
static uint64_t used_high, reserved_high;

/* The graph memory pool maps physical memory in pieces of 32 MiB and keeps
 * it mapped, counted as used, after the graphs free their allocations,
 * until cudaDeviceGraphMemTrim: an H200 reports 32 MiB used, reserved and
 * high after a graph that allocates and frees 1 KB ran twice
 * (tests/runtime/graphs/explicit.cu). */
#define GRAPH_MEM_UNIT (32ull << 20)
static uint64_t pool_bytes;

static uint64_t in_units(uint64_t n) { return (n + GRAPH_MEM_UNIT - 1) / GRAPH_MEM_UNIT * GRAPH_MEM_UNIT; }

static void figures(uint64_t *used, uint64_t *reserved) {
  uint64_t live, nodes;
  g_mem_usage(&live, &nodes);
  if (in_units(nodes) > pool_bytes) pool_bytes = in_units(nodes);
  *used = *reserved = pool_bytes;
  if (*used > used_high) used_high = *used;
  if (*reserved > reserved_high) reserved_high = *reserved;
}

RT_EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  if (!value || attr < MEM_USED || attr > MEM_RESERVED_HIGH) return rt_end(cudaErrorInvalidValue);
  uint64_t used, reserved;
  figures(&used, &reserved);
  uint64_t v = attr == MEM_USED        ? used
               : attr == MEM_USED_HIGH ? used_high
               : attr == MEM_RESERVED  ? reserved
                                       : reserved_high;
  memcpy(value, &v, sizeof v);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  /* only the high-water marks can be set, and only back to zero */
  uint64_t v;
  if (!value || (attr != MEM_USED_HIGH && attr != MEM_RESERVED_HIGH)) return rt_end(cudaErrorInvalidValue);
  memcpy(&v, value, sizeof v);
  if (v) return rt_end(cudaErrorInvalidValue);
  uint64_t used, reserved;
  figures(&used, &reserved);
  if (attr == MEM_USED_HIGH)
    used_high = used;
  else
    reserved_high = reserved;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device);
cudaError_t cudaDeviceGraphMemTrim(int device) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (device != 0) return rt_end(cudaErrorInvalidDevice);
  /* what live allocations do not hold goes back */
  uint64_t live, nodes;
  g_mem_usage(&live, &nodes);
  pool_bytes = in_units(live);
  return rt_end(cudaSuccess);
}

RT_EXPORT int cuDeviceGetGraphMemAttribute(int device, int attr, void *value);
int cuDeviceGetGraphMemAttribute(int device, int attr, void *value) {
  cudaError_t e = cudaDeviceGetGraphMemAttribute(device, attr, value);
  return e == cudaErrorInvalidDevice ? 101 : (int)e;
}
RT_EXPORT int cuDeviceSetGraphMemAttribute(int device, int attr, void *value);
int cuDeviceSetGraphMemAttribute(int device, int attr, void *value) {
  cudaError_t e = cudaDeviceSetGraphMemAttribute(device, attr, value);
  return e == cudaErrorInvalidDevice ? 101 : (int)e;
}
RT_EXPORT int cuDeviceGraphMemTrim(int device);
int cuDeviceGraphMemTrim(int device) {
  cudaError_t e = cudaDeviceGraphMemTrim(device);
  return e == cudaErrorInvalidDevice ? 101 : (int)e;
}
