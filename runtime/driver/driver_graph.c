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
/* An exported driver call name(params) that returns expr (CU_DEF) or
 * cu(call) (CU_FWD): its prototype and its body. */
#define CU_DEF(name, params, expr)                                                                           \
  CU_EXPORT(CUresult) name params;                                                                           \
  CUresult name params { return expr; }
#define CU_FWD(name, params, call) CU_DEF(name, params, cu(call))

/* ---- capture ---- */

CU_FWD(cuStreamBeginCapture_v2, (CUstream s, int mode),
       cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)mode))

/* the first form had no mode: global */
CU_DEF(cuStreamBeginCapture, (CUstream s), cuStreamBeginCapture_v2(s, cudaStreamCaptureModeGlobal))
CU_DEF(cuStreamBeginCapture_ptsz, (CUstream s), cuStreamBeginCapture(s))

CU_FWD(cuStreamBeginCaptureToGraph,
       (CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n, int mode),
       cudaStreamBeginCaptureToGraph(s, g, deps, edges, n, (enum cudaStreamCaptureMode)mode))

CU_FWD(cuStreamEndCapture, (CUstream s, CUgraph *g), cudaStreamEndCapture(s, g))

CU_FWD(cuStreamIsCapturing, (CUstream s, int *status),
       cudaStreamIsCapturing(s, (enum cudaStreamCaptureStatus *)status))

CU_FWD(cuStreamGetCaptureInfo_v3,
       (CUstream s, int *status, unsigned long long *id, CUgraph *g, const CUgraphNode **deps,
        const CUgraphEdgeData **edges, size_t *n),
       cudaStreamGetCaptureInfo(s, (enum cudaStreamCaptureStatus *)status, id, g, deps, edges, n))

CU_DEF(cuStreamGetCaptureInfo_v2,
       (CUstream s, int *status, unsigned long long *id, CUgraph *g, const CUgraphNode **deps, size_t *n),
       cuStreamGetCaptureInfo_v3(s, status, id, g, deps, NULL, n))
CU_DEF(cuStreamGetCaptureInfo_v2_ptsz,
       (CUstream s, int *status, unsigned long long *id, CUgraph *g, const CUgraphNode **deps, size_t *n),
       cuStreamGetCaptureInfo_v3(s, status, id, g, deps, NULL, n))
CU_DEF(cuStreamGetCaptureInfo, (CUstream s, int *status, unsigned long long *id),
       cuStreamGetCaptureInfo_v3(s, status, id, NULL, NULL, NULL, NULL))
CU_DEF(cuStreamGetCaptureInfo_ptsz, (CUstream s, int *status, unsigned long long *id),
       cuStreamGetCaptureInfo(s, status, id))

CU_FWD(cuStreamUpdateCaptureDependencies_v2,
       (CUstream s, CUgraphNode *deps, const CUgraphEdgeData *e, size_t n, unsigned flags),
       cudaStreamUpdateCaptureDependencies(s, deps, e, n, flags))

CU_DEF(cuStreamUpdateCaptureDependencies, (CUstream s, CUgraphNode *deps, size_t n, unsigned flags),
       cuStreamUpdateCaptureDependencies_v2(s, deps, NULL, n, flags))
CU_DEF(cuStreamUpdateCaptureDependencies_ptsz, (CUstream s, CUgraphNode *deps, size_t n, unsigned flags),
       cuStreamUpdateCaptureDependencies_v2(s, deps, NULL, n, flags))

CU_FWD(cuThreadExchangeStreamCaptureMode, (int *mode),
       cudaThreadExchangeStreamCaptureMode((enum cudaStreamCaptureMode *)mode))

/* ---- graphs and nodes ---- */

CU_FWD(cuGraphCreate, (CUgraph * g, unsigned flags), cudaGraphCreate(g, flags))
CU_FWD(cuGraphDestroy, (CUgraph g), cudaGraphDestroy(g))
CU_FWD(cuGraphClone, (CUgraph * out, CUgraph g), cudaGraphClone(out, g))
CU_FWD(cuGraphNodeFindInClone, (CUgraphNode * out, CUgraphNode n, CUgraph g),
       cudaGraphNodeFindInClone(out, n, g))
CU_FWD(cuGraphNodeGetType, (CUgraphNode n, int *type),
       cudaGraphNodeGetType(n, (enum cudaGraphNodeType *)type))
CU_FWD(cuGraphGetNodes, (CUgraph g, CUgraphNode *nodes, size_t *n), cudaGraphGetNodes(g, nodes, n))
CU_FWD(cuGraphGetRootNodes, (CUgraph g, CUgraphNode *nodes, size_t *n), cudaGraphGetRootNodes(g, nodes, n))
CU_FWD(cuGraphGetEdges_v2, (CUgraph g, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *e, size_t *n),
       cudaGraphGetEdges(g, from, to, e, n))
CU_DEF(cuGraphGetEdges, (CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *n),
       cuGraphGetEdges_v2(g, from, to, NULL, n))
CU_FWD(cuGraphNodeGetDependencies_v2, (CUgraphNode node, CUgraphNode *d, CUgraphEdgeData *e, size_t *n),
       cudaGraphNodeGetDependencies(node, d, e, n))
CU_DEF(cuGraphNodeGetDependencies, (CUgraphNode node, CUgraphNode *d, size_t *n),
       cuGraphNodeGetDependencies_v2(node, d, NULL, n))
CU_FWD(cuGraphNodeGetDependentNodes_v2, (CUgraphNode node, CUgraphNode *d, CUgraphEdgeData *e, size_t *n),
       cudaGraphNodeGetDependentNodes(node, d, e, n))
CU_DEF(cuGraphNodeGetDependentNodes, (CUgraphNode node, CUgraphNode *d, size_t *n),
       cuGraphNodeGetDependentNodes_v2(node, d, NULL, n))
CU_FWD(cuGraphAddDependencies_v2,
       (CUgraph g, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *e, size_t n),
       cudaGraphAddDependencies(g, from, to, e, n))
CU_DEF(cuGraphAddDependencies, (CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n),
       cuGraphAddDependencies_v2(g, from, to, NULL, n))
CU_FWD(cuGraphRemoveDependencies_v2,
       (CUgraph g, const CUgraphNode *from, const CUgraphNode *to, const CUgraphEdgeData *e, size_t n),
       cudaGraphRemoveDependencies(g, from, to, e, n))
CU_DEF(cuGraphRemoveDependencies, (CUgraph g, const CUgraphNode *from, const CUgraphNode *to, size_t n),
       cuGraphRemoveDependencies_v2(g, from, to, NULL, n))
CU_FWD(cuGraphDestroyNode, (CUgraphNode n), cudaGraphDestroyNode(n))

CU_FWD(cuGraphAddEmptyNode, (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n),
       cudaGraphAddEmptyNode(out, g, d, n))
/* CUDA_HOST_NODE_PARAMS has cudaHostNodeParams' layout */
CU_FWD(cuGraphAddHostNode,
       (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, const struct cudaHostNodeParams *p),
       cudaGraphAddHostNode(out, g, d, n, p))
CU_FWD(cuGraphHostNodeGetParams, (CUgraphNode node, struct cudaHostNodeParams *p),
       cudaGraphHostNodeGetParams(node, p))
CU_FWD(cuGraphHostNodeSetParams, (CUgraphNode node, const struct cudaHostNodeParams *p),
       cudaGraphHostNodeSetParams(node, p))
CU_FWD(cuGraphAddChildGraphNode, (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, CUgraph c),
       cudaGraphAddChildGraphNode(out, g, d, n, c))
CU_FWD(cuGraphChildGraphNodeGetGraph, (CUgraphNode node, CUgraph *g),
       cudaGraphChildGraphNodeGetGraph(node, g))
CU_FWD(cuGraphAddEventRecordNode, (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, CUevent e),
       cudaGraphAddEventRecordNode(out, g, d, n, e))
CU_FWD(cuGraphAddEventWaitNode, (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, CUevent e),
       cudaGraphAddEventWaitNode(out, g, d, n, e))
CU_FWD(cuGraphEventRecordNodeGetEvent, (CUgraphNode node, CUevent *e),
       cudaGraphEventRecordNodeGetEvent(node, e))
CU_FWD(cuGraphEventRecordNodeSetEvent, (CUgraphNode node, CUevent e),
       cudaGraphEventRecordNodeSetEvent(node, e))
CU_FWD(cuGraphEventWaitNodeGetEvent, (CUgraphNode node, CUevent *e), cudaGraphEventWaitNodeGetEvent(node, e))
CU_FWD(cuGraphEventWaitNodeSetEvent, (CUgraphNode node, CUevent e), cudaGraphEventWaitNodeSetEvent(node, e))

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
CU_DEF(cuGraphAddKernelNode,
       (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, const cu_kernel_params *p),
       cuGraphAddKernelNode_v2(out, g, d, n, p))
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
CU_DEF(cuGraphKernelNodeGetParams_v2, (CUgraphNode node, cu_kernel_params *p), kernel_get(node, p, 1))
CU_DEF(cuGraphKernelNodeGetParams, (CUgraphNode node, cu_kernel_params *p), kernel_get(node, p, 0))
CU_EXPORT(CUresult) cuGraphKernelNodeSetParams_v2(CUgraphNode node, const cu_kernel_params *p);
CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode node, const cu_kernel_params *p) {
  if (!p) return 1;
  struct cudaKernelNodeParams k = from_cu(p);
  return cu(cudaGraphKernelNodeSetParams(node, &k));
}
CU_DEF(cuGraphKernelNodeSetParams, (CUgraphNode node, const cu_kernel_params *p),
       cuGraphKernelNodeSetParams_v2(node, p))
CU_EXPORT(CUresult)
cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode node, const cu_kernel_params *p);
CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode node, const cu_kernel_params *p) {
  if (!p) return 1;
  struct cudaKernelNodeParams k = from_cu(p);
  return cu(cudaGraphExecKernelNodeSetParams(x, node, &k));
}
CU_DEF(cuGraphExecKernelNodeSetParams, (CUgraphExec x, CUgraphNode node, const cu_kernel_params *p),
       cuGraphExecKernelNodeSetParams_v2(x, node, p))

/* CUDA_MEMSET_NODE_PARAMS has cudaMemsetParams' layout */
CU_FWD(cuGraphAddMemsetNode,
       (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, const struct cudaMemsetParams *p,
        CUcontext ctx),
       cudaGraphAddMemsetNode(out, g, d, n, p))
CU_FWD(cuGraphMemsetNodeGetParams, (CUgraphNode node, struct cudaMemsetParams *p),
       cudaGraphMemsetNodeGetParams(node, p))
CU_FWD(cuGraphMemsetNodeSetParams, (CUgraphNode node, const struct cudaMemsetParams *p),
       cudaGraphMemsetNodeSetParams(node, p))
CU_FWD(cuGraphExecMemsetNodeSetParams,
       (CUgraphExec x, CUgraphNode node, const struct cudaMemsetParams *p, CUcontext ctx),
       cudaGraphExecMemsetNodeSetParams(x, node, p))

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
CU_FWD(cuGraphAddMemAllocNode,
       (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, struct cudaMemAllocNodeParams *p),
       cudaGraphAddMemAllocNode(out, g, d, n, p))
CU_FWD(cuGraphMemAllocNodeGetParams, (CUgraphNode node, struct cudaMemAllocNodeParams *p),
       cudaGraphMemAllocNodeGetParams(node, p))
CU_FWD(cuGraphAddMemFreeNode, (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, CUdeviceptr p),
       cudaGraphAddMemFreeNode(out, g, d, n, (void *)(uintptr_t)p))
CU_FWD(cuGraphMemFreeNodeGetParams, (CUgraphNode node, CUdeviceptr *p),
       cudaGraphMemFreeNodeGetParams(node, p))

/* ---- executable graphs ---- */

CU_FWD(cuGraphInstantiateWithFlags, (CUgraphExec * x, CUgraph g, unsigned long long flags),
       cudaGraphInstantiateWithFlags(x, g, flags))
/* the old form: an error node and a log buffer */
CU_EXPORT(CUresult)
cuGraphInstantiate_v2(CUgraphExec *x, CUgraph g, CUgraphNode *err, char *log, size_t logn);
CUresult cuGraphInstantiate_v2(CUgraphExec *x, CUgraph g, CUgraphNode *err, char *log, size_t logn) {
  if (err) *err = NULL;
  if (log && logn) log[0] = 0;
  return cuGraphInstantiateWithFlags(x, g, 0);
}
CU_DEF(cuGraphInstantiate, (CUgraphExec * x, CUgraph g, CUgraphNode *err, char *log, size_t logn),
       cuGraphInstantiate_v2(x, g, err, log, logn))
CU_FWD(cuGraphInstantiateWithParams, (CUgraphExec * x, CUgraph g, cudaGraphInstantiateParams *p),
       cudaGraphInstantiateWithParams(x, g, p))

CU_FWD(cuGraphExecGetFlags, (CUgraphExec x, unsigned long long *flags), cudaGraphExecGetFlags(x, flags))
CU_FWD(cuGraphLaunch, (CUgraphExec x, CUstream s), cudaGraphLaunch(x, s))

CU_FWD(cuGraphUpload, (CUgraphExec x, CUstream s), cudaGraphUpload(x, s))

CU_FWD(cuGraphExecDestroy, (CUgraphExec x), cudaGraphExecDestroy(x))
CU_FWD(cuGraphExecUpdate_v2, (CUgraphExec x, CUgraph g, cudaGraphExecUpdateResultInfo *info),
       cudaGraphExecUpdate(x, g, info))
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
CU_FWD(cuGraphExecHostNodeSetParams, (CUgraphExec x, CUgraphNode node, const struct cudaHostNodeParams *p),
       cudaGraphExecHostNodeSetParams(x, node, p))
CU_FWD(cuGraphExecChildGraphNodeSetParams, (CUgraphExec x, CUgraphNode node, CUgraph c),
       cudaGraphExecChildGraphNodeSetParams(x, node, c))
CU_FWD(cuGraphExecEventRecordNodeSetEvent, (CUgraphExec x, CUgraphNode node, CUevent e),
       cudaGraphExecEventRecordNodeSetEvent(x, node, e))
CU_FWD(cuGraphExecEventWaitNodeSetEvent, (CUgraphExec x, CUgraphNode node, CUevent e),
       cudaGraphExecEventWaitNodeSetEvent(x, node, e))
CU_FWD(cuGraphNodeSetEnabled, (CUgraphExec x, CUgraphNode node, unsigned on),
       cudaGraphNodeSetEnabled(x, node, on))
CU_FWD(cuGraphNodeGetEnabled, (CUgraphExec x, CUgraphNode node, unsigned *on),
       cudaGraphNodeGetEnabled(x, node, on))
CU_FWD(cuGraphDebugDotPrint, (CUgraph g, const char *path, unsigned flags),
       cudaGraphDebugDotPrint(g, path, flags))

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
CU_DEF(cuGraphAddNode, (CUgraphNode * out, CUgraph g, const CUgraphNode *d, size_t n, cu_node_params *c),
       cuGraphAddNode_v2(out, g, d, NULL, n, c))
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
