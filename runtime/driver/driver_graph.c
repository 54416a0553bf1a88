/* driver_graph.c: the driver API's graphs and stream capture (cuGraph*,
 * cuStream*Capture*), on the runtime's code: the handles are the same
 * objects (CUgraph = cudaGraph_t, CUgraphNode, CUgraphExec, CUstream,
 * CUevent), the structures whose layout differs (kernel and copy node
 * parameters) are converted, and the error codes these calls return have
 * the same numbers on both sides (CUDA_ERROR_INVALID_VALUE = 1,
 * CUDA_ERROR_ILLEGAL_STATE = 401, CUDA_ERROR_STREAM_CAPTURE_* = 900-908,
 * CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910), except the few mapped in
 * cu(). The versioned names (_v2, _v3) are the ones cuda.h 13 binds;
 * the older ABI forms without edge data are kept for old binaries. */
#include "cudart/graph_api.h"
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
typedef cudaGraph_t CUgraph;
typedef cudaGraphNode_t CUgraphNode;
typedef cudaGraphExec_t CUgraphExec;
typedef cudaGraphEdgeData CUgraphEdgeData;

static CUresult cu(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidDeviceFunction:
    return 400; /* CUDA_ERROR_INVALID_HANDLE */
  case cudaErrorInvalidMemcpyDirection:
  case cudaErrorInvalidPitchValue:
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  case cudaErrorInvalidResourceHandle:
    return 400;
  default:
    return (CUresult)e;
  }
}

#define CU_EXPORT(ret) RT_EXPORT ret

/* ---- capture ---- */

CU_EXPORT(CUresult) cuStreamBeginCapture_v2(CUstream s, int mode);
CUresult cuStreamBeginCapture_v2(CUstream s, int mode) {
  return cu(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)mode));
}

/* the first form had no mode: global */
CU_EXPORT(CUresult) cuStreamBeginCapture(CUstream s);
CUresult cuStreamBeginCapture(CUstream s) { return cuStreamBeginCapture_v2(s, cudaStreamCaptureModeGlobal); }
CU_EXPORT(CUresult) cuStreamBeginCapture_ptsz(CUstream s);
CUresult cuStreamBeginCapture_ptsz(CUstream s) { return cuStreamBeginCapture(s); }

CU_EXPORT(CUresult)
cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges,
                            size_t n, int mode);
CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps,
                                     const CUgraphEdgeData *edges, size_t n, int mode) {
  return cu(cudaStreamBeginCaptureToGraph(s, g, deps, edges, n, (enum cudaStreamCaptureMode)mode));
}

CU_EXPORT(CUresult) cuStreamEndCapture(CUstream s, CUgraph *g);
CUresult cuStreamEndCapture(CUstream s, CUgraph *g) { return cu(cudaStreamEndCapture(s, g)); }

CU_EXPORT(CUresult) cuStreamIsCapturing(CUstream s, int *status);
CUresult cuStreamIsCapturing(CUstream s, int *status) {
  return cu(cudaStreamIsCapturing(s, (enum cudaStreamCaptureStatus *)status));
}

CU_EXPORT(CUresult)
cuStreamGetCaptureInfo_v3(CUstream s, int *status, unsigned long long *id, CUgraph *g,
                          const CUgraphNode **deps, const CUgraphEdgeData **edges, size_t *n);
CUresult cuStreamGetCaptureInfo_v3(CUstream s, int *status, unsigned long long *id, CUgraph *g,
                                   const CUgraphNode **deps, const CUgraphEdgeData **edges, size_t *n) {
  return cu(cudaStreamGetCaptureInfo(s, (enum cudaStreamCaptureStatus *)status, id, g, deps, edges, n));
}

CU_EXPORT(CUresult)
cuStreamGetCaptureInfo_v2(CUstream s, int *status, unsigned long long *id, CUgraph *g,
                          const CUgraphNode **deps, size_t *n);
CUresult cuStreamGetCaptureInfo_v2(CUstream s, int *status, unsigned long long *id, CUgraph *g,
                                   const CUgraphNode **deps, size_t *n) {
  return cuStreamGetCaptureInfo_v3(s, status, id, g, deps, NULL, n);
}
CU_EXPORT(CUresult)
cuStreamGetCaptureInfo_v2_ptsz(CUstream s, int *status, unsigned long long *id, CUgraph *g,
                               const CUgraphNode **deps, size_t *n);
CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream s, int *status, unsigned long long *id, CUgraph *g,
                                        const CUgraphNode **deps, size_t *n) {
  return cuStreamGetCaptureInfo_v3(s, status, id, g, deps, NULL, n);
}
CU_EXPORT(CUresult) cuStreamGetCaptureInfo(CUstream s, int *status, unsigned long long *id);
CUresult cuStreamGetCaptureInfo(CUstream s, int *status, unsigned long long *id) {
  return cuStreamGetCaptureInfo_v3(s, status, id, NULL, NULL, NULL, NULL);
}
CU_EXPORT(CUresult) cuStreamGetCaptureInfo_ptsz(CUstream s, int *status, unsigned long long *id);
CUresult cuStreamGetCaptureInfo_ptsz(CUstream s, int *status, unsigned long long *id) {
  return cuStreamGetCaptureInfo(s, status, id);
}

CU_EXPORT(CUresult)
cuStreamUpdateCaptureDependencies_v2(CUstream s, CUgraphNode *deps, const CUgraphEdgeData *e, size_t n,
                                     unsigned flags);
CUresult cuStreamUpdateCaptureDependencies_v2(CUstream s, CUgraphNode *deps, const CUgraphEdgeData *e,
                                              size_t n, unsigned flags) {
  return cu(cudaStreamUpdateCaptureDependencies(s, deps, e, n, flags));
}

CU_EXPORT(CUresult)
cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode *deps, size_t n, unsigned flags);
CUresult cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode *deps, size_t n, unsigned flags) {
  return cuStreamUpdateCaptureDependencies_v2(s, deps, NULL, n, flags);
}
CU_EXPORT(CUresult)
cuStreamUpdateCaptureDependencies_ptsz(CUstream s, CUgraphNode *deps, size_t n, unsigned flags);
CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream s, CUgraphNode *deps, size_t n, unsigned flags) {
  return cuStreamUpdateCaptureDependencies_v2(s, deps, NULL, n, flags);
}

CU_EXPORT(CUresult) cuThreadExchangeStreamCaptureMode(int *mode);
CUresult cuThreadExchangeStreamCaptureMode(int *mode) {
  return cu(cudaThreadExchangeStreamCaptureMode((enum cudaStreamCaptureMode *)mode));
}

/* ---- graphs and nodes ---- */

CU_EXPORT(CUresult) cuGraphCreate(CUgraph *g, unsigned flags);
CUresult cuGraphCreate(CUgraph *g, unsigned flags) { return cu(cudaGraphCreate(g, flags)); }
CU_EXPORT(CUresult) cuGraphDestroy(CUgraph g);
CUresult cuGraphDestroy(CUgraph g) { return cu(cudaGraphDestroy(g)); }
CU_EXPORT(CUresult) cuGraphClone(CUgraph *out, CUgraph g);
CUresult cuGraphClone(CUgraph *out, CUgraph g) { return cu(cudaGraphClone(out, g)); }
CU_EXPORT(CUresult) cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode n, CUgraph g);
CUresult cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode n, CUgraph g) {
  return cu(cudaGraphNodeFindInClone(out, n, g));
}
CU_EXPORT(CUresult) cuGraphNodeGetType(CUgraphNode n, int *type);
CUresult cuGraphNodeGetType(CUgraphNode n, int *type) {
  return cu(cudaGraphNodeGetType(n, (enum cudaGraphNodeType *)type));
}
CU_EXPORT(CUresult) cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n);
CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n) {
  return cu(cudaGraphGetNodes(g, nodes, n));
}
CU_EXPORT(CUresult) cuGraphGetRootNodes(CUgraph g, CUgraphNode *nodes, size_t *n);
CUresult cuGraphGetRootNodes(CUgraph g, CUgraphNode *nodes, size_t *n) {
  return cu(cudaGraphGetRootNodes(g, nodes, n));
}
CU_EXPORT(CUresult)
cuGraphGetEdges_v2(CUgraph g, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *e, size_t *n);
CUresult cuGraphGetEdges_v2(CUgraph g, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *e, size_t *n) {
  return cu(cudaGraphGetEdges(g, from, to, e, n));
}
CU_EXPORT(CUresult) cuGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n);
CUresult cuGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n) {
  return cuGraphGetEdges_v2(g, from, to, NULL, n);
}
CU_EXPORT(CUresult)
cuGraphNodeGetDependencies_v2(CUgraphNode node, CUgraphNode *d, CUgraphEdgeData *e, size_t *n);
CUresult cuGraphNodeGetDependencies_v2(CUgraphNode node, CUgraphNode *d, CUgraphEdgeData *e, size_t *n) {
  return cu(cudaGraphNodeGetDependencies(node, d, e, n));
}
CU_EXPORT(CUresult) cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *d, size_t *n);
CUresult cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *d, size_t *n) {
  return cuGraphNodeGetDependencies_v2(node, d, NULL, n);
}
CU_EXPORT(CUresult)
cuGraphNodeGetDependentNodes_v2(CUgraphNode node, CUgraphNode *d, CUgraphEdgeData *e, size_t *n);
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode node, CUgraphNode *d, CUgraphEdgeData *e, size_t *n) {
  return cu(cudaGraphNodeGetDependentNodes(node, d, e, n));
}
CU_EXPORT(CUresult) cuGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *d, size_t *n);
CUresult cuGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *d, size_t *n) {
  return cuGraphNodeGetDependentNodes_v2(node, d, NULL, n);
}
CU_EXPORT(CUresult)
cuGraphAddDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *e,
                          size_t n);
CUresult cuGraphAddDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                   const CUgraphEdgeData *e, size_t n) {
  return cu(cudaGraphAddDependencies(g, from, to, e, n));
}
CU_EXPORT(CUresult)
cuGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n);
CUresult cuGraphAddDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
  return cuGraphAddDependencies_v2(g, from, to, NULL, n);
}
CU_EXPORT(CUresult)
cuGraphRemoveDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                             const CUgraphEdgeData *e, size_t n);
CUresult cuGraphRemoveDependencies_v2(CUgraph g, const CUgraphNode *from, const CUgraphNode *to,
                                      const CUgraphEdgeData *e, size_t n) {
  return cu(cudaGraphRemoveDependencies(g, from, to, e, n));
}
CU_EXPORT(CUresult)
cuGraphRemoveDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n);
CUresult cuGraphRemoveDependencies(CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n) {
  return cuGraphRemoveDependencies_v2(g, from, to, NULL, n);
}
CU_EXPORT(CUresult) cuGraphDestroyNode(CUgraphNode n);
CUresult cuGraphDestroyNode(CUgraphNode n) { return cu(cudaGraphDestroyNode(n)); }

CU_EXPORT(CUresult) cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n);
CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n) {
  return cu(cudaGraphAddEmptyNode(out, g, d, n));
}
/* CUDA_HOST_NODE_PARAMS has cudaHostNodeParams' layout */
CU_EXPORT(CUresult)
cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                   const struct cudaHostNodeParams *p);
CUresult cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                            const struct cudaHostNodeParams *p) {
  return cu(cudaGraphAddHostNode(out, g, d, n, p));
}
CU_EXPORT(CUresult) cuGraphHostNodeGetParams(CUgraphNode node, struct cudaHostNodeParams *p);
CUresult cuGraphHostNodeGetParams(CUgraphNode node, struct cudaHostNodeParams *p) {
  return cu(cudaGraphHostNodeGetParams(node, p));
}
CU_EXPORT(CUresult) cuGraphHostNodeSetParams(CUgraphNode node, const struct cudaHostNodeParams *p);
CUresult cuGraphHostNodeSetParams(CUgraphNode node, const struct cudaHostNodeParams *p) {
  return cu(cudaGraphHostNodeSetParams(node, p));
}
CU_EXPORT(CUresult)
cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUgraph c);
CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUgraph c) {
  return cu(cudaGraphAddChildGraphNode(out, g, d, n, c));
}
CU_EXPORT(CUresult) cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph *g);
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph *g) {
  return cu(cudaGraphChildGraphNodeGetGraph(node, g));
}
CU_EXPORT(CUresult)
cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUevent e);
CUresult cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUevent e) {
  return cu(cudaGraphAddEventRecordNode(out, g, d, n, e));
}
CU_EXPORT(CUresult)
cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUevent e);
CUresult cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUevent e) {
  return cu(cudaGraphAddEventWaitNode(out, g, d, n, e));
}
CU_EXPORT(CUresult) cuGraphEventRecordNodeGetEvent(CUgraphNode node, CUevent *e);
CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode node, CUevent *e) {
  return cu(cudaGraphEventRecordNodeGetEvent(node, e));
}
CU_EXPORT(CUresult) cuGraphEventRecordNodeSetEvent(CUgraphNode node, CUevent e);
CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode node, CUevent e) {
  return cu(cudaGraphEventRecordNodeSetEvent(node, e));
}
CU_EXPORT(CUresult) cuGraphEventWaitNodeGetEvent(CUgraphNode node, CUevent *e);
CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode node, CUevent *e) {
  return cu(cudaGraphEventWaitNodeGetEvent(node, e));
}
CU_EXPORT(CUresult) cuGraphEventWaitNodeSetEvent(CUgraphNode node, CUevent e);
CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode node, CUevent e) {
  return cu(cudaGraphEventWaitNodeSetEvent(node, e));
}

/* CUDA_KERNEL_NODE_PARAMS (v1 is v2's first ten fields) */
typedef struct cu_kernel_params {
  void *func;
  unsigned gx, gy, gz, bx, by, bz, shared;
  void **kernelParams;
  void **extra;
  void *kern;
  CUcontext ctx;
} cu_kernel_params;

static struct cudaKernelNodeParams from_cu(const cu_kernel_params *p) {
  struct cudaKernelNodeParams k;
  memset(&k, 0, sizeof k);
  k.func = p->func;
  k.gridDim = (dim3){p->gx, p->gy, p->gz};
  k.blockDim = (dim3){p->bx, p->by, p->bz};
  k.sharedMemBytes = p->shared;
  k.kernelParams = p->kernelParams;
  k.extra = p->extra;
  return k;
}

CU_EXPORT(CUresult)
cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                        const cu_kernel_params *p);
CUresult cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                                 const cu_kernel_params *p) {
  if (!p) return 1;
  struct cudaKernelNodeParams k = from_cu(p);
  return cu(cudaGraphAddKernelNode(out, g, d, n, &k));
}
CU_EXPORT(CUresult)
cuGraphAddKernelNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, const cu_kernel_params *p);
CUresult cuGraphAddKernelNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                              const cu_kernel_params *p) {
  return cuGraphAddKernelNode_v2(out, g, d, n, p);
}
/* the getter fills the v1 fields only: an old caller's structure has no more */
static CUresult kernel_get(CUgraphNode node, cu_kernel_params *p, int v2) {
  struct cudaKernelNodeParams k;
  if (!p) return 1;
  cudaError_t e = cudaGraphKernelNodeGetParams(node, &k);
  if (e) return cu(e);
  rt_begin(0);
  g_node *nd = g_node_get(node);
  p->func = nd ? (void *)nd->f : NULL; /* the CUfunction */
  rt_end(cudaSuccess);
  p->gx = k.gridDim.x, p->gy = k.gridDim.y, p->gz = k.gridDim.z;
  p->bx = k.blockDim.x, p->by = k.blockDim.y, p->bz = k.blockDim.z;
  p->shared = k.sharedMemBytes;
  p->kernelParams = k.kernelParams;
  p->extra = NULL;
  if (v2) p->kern = NULL, p->ctx = NULL;
  return 0;
}
CU_EXPORT(CUresult) cuGraphKernelNodeGetParams_v2(CUgraphNode node, cu_kernel_params *p);
CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode node, cu_kernel_params *p) {
  return kernel_get(node, p, 1);
}
CU_EXPORT(CUresult) cuGraphKernelNodeGetParams(CUgraphNode node, cu_kernel_params *p);
CUresult cuGraphKernelNodeGetParams(CUgraphNode node, cu_kernel_params *p) { return kernel_get(node, p, 0); }
CU_EXPORT(CUresult) cuGraphKernelNodeSetParams_v2(CUgraphNode node, const cu_kernel_params *p);
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode node, const cu_kernel_params *p) {
  if (!p) return 1;
  struct cudaKernelNodeParams k = from_cu(p);
  return cu(cudaGraphKernelNodeSetParams(node, &k));
}
CU_EXPORT(CUresult) cuGraphKernelNodeSetParams(CUgraphNode node, const cu_kernel_params *p);
CUresult cuGraphKernelNodeSetParams(CUgraphNode node, const cu_kernel_params *p) {
  return cuGraphKernelNodeSetParams_v2(node, p);
}
CU_EXPORT(CUresult)
cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode node, const cu_kernel_params *p);
CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode node, const cu_kernel_params *p) {
  if (!p) return 1;
  struct cudaKernelNodeParams k = from_cu(p);
  return cu(cudaGraphExecKernelNodeSetParams(x, node, &k));
}
CU_EXPORT(CUresult)
cuGraphExecKernelNodeSetParams(CUgraphExec x, CUgraphNode node, const cu_kernel_params *p);
CUresult cuGraphExecKernelNodeSetParams(CUgraphExec x, CUgraphNode node, const cu_kernel_params *p) {
  return cuGraphExecKernelNodeSetParams_v2(x, node, p);
}

/* CUDA_MEMSET_NODE_PARAMS has cudaMemsetParams' layout */
CU_EXPORT(CUresult)
cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                     const struct cudaMemsetParams *p, CUcontext ctx);
CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                              const struct cudaMemsetParams *p, CUcontext ctx) {
  (void)ctx;
  return cu(cudaGraphAddMemsetNode(out, g, d, n, p));
}
CU_EXPORT(CUresult) cuGraphMemsetNodeGetParams(CUgraphNode node, struct cudaMemsetParams *p);
CUresult cuGraphMemsetNodeGetParams(CUgraphNode node, struct cudaMemsetParams *p) {
  return cu(cudaGraphMemsetNodeGetParams(node, p));
}
CU_EXPORT(CUresult) cuGraphMemsetNodeSetParams(CUgraphNode node, const struct cudaMemsetParams *p);
CUresult cuGraphMemsetNodeSetParams(CUgraphNode node, const struct cudaMemsetParams *p) {
  return cu(cudaGraphMemsetNodeSetParams(node, p));
}
CU_EXPORT(CUresult)
cuGraphExecMemsetNodeSetParams(CUgraphExec x, CUgraphNode node, const struct cudaMemsetParams *p,
                               CUcontext ctx);
CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec x, CUgraphNode node, const struct cudaMemsetParams *p,
                                        CUcontext ctx) {
  (void)ctx;
  return cu(cudaGraphExecMemsetNodeSetParams(x, node, p));
}

/* CUDA_MEMCPY3D */
typedef struct cu_copy3d {
  size_t srcX, srcY, srcZ, srcLOD;
  int srcType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray, *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstX, dstY, dstZ, dstLOD;
  int dstType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray, *reserved1;
  size_t dstPitch, dstHeight;
  size_t width, height, depth;
} cu_copy3d;

enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };

/* the runtime's form: memory types say where each side is (unified
 * addressing makes both forms one pointer) */
static int copy_from_cu(const cu_copy3d *c, struct cudaMemcpy3DParms *p) {
  memset(p, 0, sizeof *p);
  if (!c || c->srcType < 1 || c->srcType > 4 || c->dstType < 1 || c->dstType > 4) return 0;
  if (c->srcType == CU_MEMORYTYPE_ARRAY || c->dstType == CU_MEMORYTYPE_ARRAY) return 0;
  void *src = c->srcType == CU_MEMORYTYPE_HOST ? (void *)c->srcHost : (void *)(uintptr_t)c->srcDevice;
  void *dst = c->dstType == CU_MEMORYTYPE_HOST ? c->dstHost : (void *)(uintptr_t)c->dstDevice;
  p->srcPtr = (struct cudaPitchedPtr){src, c->srcPitch, c->width, c->srcHeight};
  p->dstPtr = (struct cudaPitchedPtr){dst, c->dstPitch, c->width, c->dstHeight};
  p->srcPos = (struct cudaPos){c->srcX, c->srcY, c->srcZ};
  p->dstPos = (struct cudaPos){c->dstX, c->dstY, c->dstZ};
  p->extent = (struct cudaExtent){c->width, c->height ? c->height : 1, c->depth ? c->depth : 1};
  int sd = c->srcType != CU_MEMORYTYPE_HOST, dd = c->dstType != CU_MEMORYTYPE_HOST;
  p->kind = sd && dd ? cudaMemcpyDeviceToDevice
            : sd     ? cudaMemcpyDeviceToHost
            : dd     ? cudaMemcpyHostToDevice
                     : cudaMemcpyHostToHost;
  if (c->srcType == CU_MEMORYTYPE_UNIFIED || c->dstType == CU_MEMORYTYPE_UNIFIED) p->kind = cudaMemcpyDefault;
  return 1;
}

CU_EXPORT(CUresult)
cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, const cu_copy3d *c,
                     CUcontext ctx);
CUresult cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, const cu_copy3d *c,
                              CUcontext ctx) {
  (void)ctx;
  struct cudaMemcpy3DParms p;
  if (!copy_from_cu(c, &p)) return 1;
  return cu(cudaGraphAddMemcpyNode(out, g, d, n, &p));
}
CU_EXPORT(CUresult) cuGraphMemcpyNodeSetParams(CUgraphNode node, const cu_copy3d *c);
CUresult cuGraphMemcpyNodeSetParams(CUgraphNode node, const cu_copy3d *c) {
  struct cudaMemcpy3DParms p;
  if (!copy_from_cu(c, &p)) return 1;
  return cu(cudaGraphMemcpyNodeSetParams(node, &p));
}
CU_EXPORT(CUresult) cuGraphMemcpyNodeGetParams(CUgraphNode node, cu_copy3d *c);
CUresult cuGraphMemcpyNodeGetParams(CUgraphNode node, cu_copy3d *c) {
  struct cudaMemcpy3DParms p;
  if (!c) return 1;
  cudaError_t e = cudaGraphMemcpyNodeGetParams(node, &p);
  if (e) return cu(e);
  memset(c, 0, sizeof *c);
  /* unified addressing: every pointer is a unified one */
  c->srcType = c->dstType = CU_MEMORYTYPE_UNIFIED;
  c->srcDevice = (CUdeviceptr)(uintptr_t)p.srcPtr.ptr;
  c->dstDevice = (CUdeviceptr)(uintptr_t)p.dstPtr.ptr;
  c->srcX = p.srcPos.x, c->srcY = p.srcPos.y, c->srcZ = p.srcPos.z;
  c->dstX = p.dstPos.x, c->dstY = p.dstPos.y, c->dstZ = p.dstPos.z;
  c->srcPitch = p.srcPtr.pitch, c->srcHeight = p.srcPtr.ysize;
  c->dstPitch = p.dstPtr.pitch, c->dstHeight = p.dstPtr.ysize;
  c->width = p.extent.width, c->height = p.extent.height, c->depth = p.extent.depth;
  return 0;
}
CU_EXPORT(CUresult)
cuGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode node, const cu_copy3d *c, CUcontext ctx);
CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode node, const cu_copy3d *c, CUcontext ctx) {
  (void)ctx;
  struct cudaMemcpy3DParms p;
  if (!copy_from_cu(c, &p)) return 1;
  return cu(cudaGraphExecMemcpyNodeSetParams(x, node, &p));
}

/* CUDA_MEM_ALLOC_NODE_PARAMS has cudaMemAllocNodeParams' layout */
CU_EXPORT(CUresult)
cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                       struct cudaMemAllocNodeParams *p);
CUresult cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n,
                                struct cudaMemAllocNodeParams *p) {
  return cu(cudaGraphAddMemAllocNode(out, g, d, n, p));
}
CU_EXPORT(CUresult) cuGraphMemAllocNodeGetParams(CUgraphNode node, struct cudaMemAllocNodeParams *p);
CUresult cuGraphMemAllocNodeGetParams(CUgraphNode node, struct cudaMemAllocNodeParams *p) {
  return cu(cudaGraphMemAllocNodeGetParams(node, p));
}
CU_EXPORT(CUresult)
cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUdeviceptr p);
CUresult cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, CUdeviceptr p) {
  return cu(cudaGraphAddMemFreeNode(out, g, d, n, (void *)(uintptr_t)p));
}
CU_EXPORT(CUresult) cuGraphMemFreeNodeGetParams(CUgraphNode node, CUdeviceptr *p);
CUresult cuGraphMemFreeNodeGetParams(CUgraphNode node, CUdeviceptr *p) {
  return cu(cudaGraphMemFreeNodeGetParams(node, p));
}

/* ---- executable graphs ---- */

CU_EXPORT(CUresult) cuGraphInstantiateWithFlags(CUgraphExec *x, CUgraph g, unsigned long long flags);
CUresult cuGraphInstantiateWithFlags(CUgraphExec *x, CUgraph g, unsigned long long flags) {
  return cu(cudaGraphInstantiateWithFlags(x, g, flags));
}
/* the old form: an error node and a log buffer */
CU_EXPORT(CUresult)
cuGraphInstantiate_v2(CUgraphExec *x, CUgraph g, CUgraphNode *err, char *log, size_t logn);
CUresult cuGraphInstantiate_v2(CUgraphExec *x, CUgraph g, CUgraphNode *err, char *log, size_t logn) {
  if (err) *err = NULL;
  if (log && logn) log[0] = 0;
  return cuGraphInstantiateWithFlags(x, g, 0);
}
CU_EXPORT(CUresult) cuGraphInstantiate(CUgraphExec *x, CUgraph g, CUgraphNode *err, char *log, size_t logn);
CUresult cuGraphInstantiate(CUgraphExec *x, CUgraph g, CUgraphNode *err, char *log, size_t logn) {
  return cuGraphInstantiate_v2(x, g, err, log, logn);
}
CU_EXPORT(CUresult) cuGraphInstantiateWithParams(CUgraphExec *x, CUgraph g, cudaGraphInstantiateParams *p);
CUresult cuGraphInstantiateWithParams(CUgraphExec *x, CUgraph g, cudaGraphInstantiateParams *p) {
  return cu(cudaGraphInstantiateWithParams(x, g, p));
}

CU_EXPORT(CUresult) cuGraphExecGetFlags(CUgraphExec x, unsigned long long *flags);
CUresult cuGraphExecGetFlags(CUgraphExec x, unsigned long long *flags) {
  return cu(cudaGraphExecGetFlags(x, flags));
}
CU_EXPORT(CUresult) cuGraphLaunch(CUgraphExec x, CUstream s);
CUresult cuGraphLaunch(CUgraphExec x, CUstream s) { return cu(cudaGraphLaunch(x, s)); }

CU_EXPORT(CUresult) cuGraphUpload(CUgraphExec x, CUstream s);
CUresult cuGraphUpload(CUgraphExec x, CUstream s) { return cu(cudaGraphUpload(x, s)); }

CU_EXPORT(CUresult) cuGraphExecDestroy(CUgraphExec x);
CUresult cuGraphExecDestroy(CUgraphExec x) { return cu(cudaGraphExecDestroy(x)); }
CU_EXPORT(CUresult) cuGraphExecUpdate_v2(CUgraphExec x, CUgraph g, cudaGraphExecUpdateResultInfo *info);
CUresult cuGraphExecUpdate_v2(CUgraphExec x, CUgraph g, cudaGraphExecUpdateResultInfo *info) {
  return cu(cudaGraphExecUpdate(x, g, info));
}
/* the old form: the error node and the result apart */
CU_EXPORT(CUresult) cuGraphExecUpdate(CUgraphExec x, CUgraph g, CUgraphNode *err, int *result);
CUresult cuGraphExecUpdate(CUgraphExec x, CUgraph g, CUgraphNode *err, int *result) {
  cudaGraphExecUpdateResultInfo info;
  memset(&info, 0, sizeof info);
  CUresult r = cuGraphExecUpdate_v2(x, g, &info);
  if (err) *err = info.errorNode;
  if (result) *result = (int)info.result;
  return r;
}
CU_EXPORT(CUresult)
cuGraphExecHostNodeSetParams(CUgraphExec x, CUgraphNode node, const struct cudaHostNodeParams *p);
CUresult cuGraphExecHostNodeSetParams(CUgraphExec x, CUgraphNode node, const struct cudaHostNodeParams *p) {
  return cu(cudaGraphExecHostNodeSetParams(x, node, p));
}
CU_EXPORT(CUresult) cuGraphExecChildGraphNodeSetParams(CUgraphExec x, CUgraphNode node, CUgraph c);
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec x, CUgraphNode node, CUgraph c) {
  return cu(cudaGraphExecChildGraphNodeSetParams(x, node, c));
}
CU_EXPORT(CUresult) cuGraphExecEventRecordNodeSetEvent(CUgraphExec x, CUgraphNode node, CUevent e);
CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec x, CUgraphNode node, CUevent e) {
  return cu(cudaGraphExecEventRecordNodeSetEvent(x, node, e));
}
CU_EXPORT(CUresult) cuGraphExecEventWaitNodeSetEvent(CUgraphExec x, CUgraphNode node, CUevent e);
CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec x, CUgraphNode node, CUevent e) {
  return cu(cudaGraphExecEventWaitNodeSetEvent(x, node, e));
}
CU_EXPORT(CUresult) cuGraphNodeSetEnabled(CUgraphExec x, CUgraphNode node, unsigned on);
CUresult cuGraphNodeSetEnabled(CUgraphExec x, CUgraphNode node, unsigned on) {
  return cu(cudaGraphNodeSetEnabled(x, node, on));
}
CU_EXPORT(CUresult) cuGraphNodeGetEnabled(CUgraphExec x, CUgraphNode node, unsigned *on);
CUresult cuGraphNodeGetEnabled(CUgraphExec x, CUgraphNode node, unsigned *on) {
  return cu(cudaGraphNodeGetEnabled(x, node, on));
}
CU_EXPORT(CUresult) cuGraphDebugDotPrint(CUgraph g, const char *path, unsigned flags);
CUresult cuGraphDebugDotPrint(CUgraph g, const char *path, unsigned flags) {
  return cu(cudaGraphDebugDotPrint(g, path, flags));
}

/* ---- CUgraphNodeParams: the runtime's union, but kernel (v3, the driver
 * kernel layout) and memcpy (a context and CUDA_MEMCPY3D) differ ---- */

typedef struct cu_node_params {
  int type;
  int reserved0[3];
  union {
    long long reserved1[29];
    cu_kernel_params kernel;
    struct {
      int flags, reserved;
      CUcontext ctx;
      cu_copy3d copy;
    } memcpy;
  } u;
  long long reserved2;
} cu_node_params;

/* the sizes NVIDIA's cuda.h gives these structures (CUDA 13) */
_Static_assert(sizeof(cu_kernel_params) == 72, "CUDA_KERNEL_NODE_PARAMS_v3");
_Static_assert(sizeof(cu_copy3d) == 200, "CUDA_MEMCPY3D");
_Static_assert(sizeof(cu_node_params) == 256, "CUgraphNodeParams");

static int node_from_cu(const cu_node_params *c, struct cudaGraphNodeParams *p) {
  memset(p, 0, sizeof *p);
  if (!c) return 0;
  p->type = (enum cudaGraphNodeType)c->type;
  if (c->type == cudaGraphNodeTypeKernel)
    p->u.kernel = from_cu(&c->u.kernel);
  else if (c->type == cudaGraphNodeTypeMemcpy)
    return copy_from_cu(&c->u.memcpy.copy, &p->u.memcpy.copyParams);
  else
    memcpy(&p->u, &c->u, sizeof p->u);
  return 1;
}

/* outputs of node creation: the allocation's address, the bodies */
static void node_to_cu(const struct cudaGraphNodeParams *p, cu_node_params *c) {
  if (c->type == cudaGraphNodeTypeMemAlloc || c->type == cudaGraphNodeTypeConditional)
    memcpy(&c->u, &p->u, sizeof c->u);
}

CU_EXPORT(CUresult)
cuGraphAddNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e, size_t n,
                  cu_node_params *c);
CUresult cuGraphAddNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e,
                           size_t n, cu_node_params *c) {
  struct cudaGraphNodeParams p;
  if (!node_from_cu(c, &p)) return 1;
  CUresult r = cu(cudaGraphAddNode(out, g, d, e, n, &p));
  if (!r) node_to_cu(&p, c);
  return r;
}
CU_EXPORT(CUresult)
cuGraphAddNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, cu_node_params *c);
CUresult cuGraphAddNode(CUgraphNode *out, CUgraph g, const CUgraphNode *d, size_t n, cu_node_params *c) {
  return cuGraphAddNode_v2(out, g, d, NULL, n, c);
}
CU_EXPORT(CUresult) cuGraphNodeSetParams(CUgraphNode node, cu_node_params *c);
CUresult cuGraphNodeSetParams(CUgraphNode node, cu_node_params *c) {
  struct cudaGraphNodeParams p;
  if (!node_from_cu(c, &p)) return 1;
  return cu(cudaGraphNodeSetParams(node, &p));
}
CU_EXPORT(CUresult) cuGraphExecNodeSetParams(CUgraphExec x, CUgraphNode node, cu_node_params *c);
CUresult cuGraphExecNodeSetParams(CUgraphExec x, CUgraphNode node, cu_node_params *c) {
  struct cudaGraphNodeParams p;
  if (!node_from_cu(c, &p)) return 1;
  return cu(cudaGraphExecNodeSetParams(x, node, &p));
}
