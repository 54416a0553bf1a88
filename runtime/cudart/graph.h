/* graph.h: CUDA graphs in the drop-in runtime: the graph, node and
 * executable-graph objects (graph.c, graph_exec.c, conditional nodes in
 * graph_cond.c, the rest of the node API in graph_extra.c, the driver's
 * forms in driver_graph.c), stream capture (capture.c) with the hooks the
 * other entry points call, and the parts of CUDA 13's binary interface they
 * use, declared from NVIDIA's documentation (field order and types as in
 * driver_types.h; tests/runtime/graphs/abi_check compares them).
 * A graph launch is one queued operation that runs the nodes in a
 * topological order: the runtime's single queue already runs every stream's
 * work in issue order, so one order that honours the edges is one CUDA
 * allows. */
#ifndef SMEMU_GRAPH_H
#define SMEMU_GRAPH_H

#include "pool.h" /* cudaMemPoolProps of allocation nodes */
#include "rt.h"

typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef unsigned long long cudaGraphConditionalHandle;

enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
/* cudaStreamUpdateCaptureDependencies flags */
#define cudaStreamAddCaptureDependencies 0x0
#define cudaStreamSetCaptureDependencies 0x1
/* cudaEventRecordWithFlags / cudaStreamWaitEvent flags */
#define cudaEventRecordExternal 0x1
#define cudaEventWaitExternal 0x1

enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0,
  cudaGraphNodeTypeMemcpy = 1,
  cudaGraphNodeTypeMemset = 2,
  cudaGraphNodeTypeHost = 3,
  cudaGraphNodeTypeGraph = 4,
  cudaGraphNodeTypeEmpty = 5,
  cudaGraphNodeTypeWaitEvent = 6,
  cudaGraphNodeTypeEventRecord = 7,
  cudaGraphNodeTypeExtSemaphoreSignal = 8,
  cudaGraphNodeTypeExtSemaphoreWait = 9,
  cudaGraphNodeTypeMemAlloc = 10,
  cudaGraphNodeTypeMemFree = 11,
  cudaGraphNodeTypeConditional = 13,
  cudaGraphNodeTypeCount
};

struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};
struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void *userData;
};
struct cudaMemcpyNodeParams {
  int flags;
  int reserved[3];
  struct cudaMemcpy3DParms copyParams;
};
struct cudaMemAllocNodeParams {
  struct cudaMemPoolProps poolProps;
  const void *accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void *dptr;
};
struct cudaMemFreeNodeParams {
  void *dptr;
};
enum cudaGraphConditionalNodeType {
  cudaGraphCondTypeIf = 0,
  cudaGraphCondTypeWhile = 1,
  cudaGraphCondTypeSwitch = 2
};
struct cudaConditionalNodeParams {
  cudaGraphConditionalHandle handle;
  enum cudaGraphConditionalNodeType type;
  unsigned int size;
  cudaGraph_t *phGraph_out;
};
enum cudaGraphChildGraphNodeOwnership {
  cudaGraphChildGraphOwnershipClone = 0,
  cudaGraphChildGraphOwnershipMove = 1
};
struct cudaChildGraphNodeParams {
  cudaGraph_t graph;
  enum cudaGraphChildGraphNodeOwnership ownership;
};
struct cudaEventRecordNodeParams {
  cudaEvent_t event;
};
struct cudaEventWaitNodeParams {
  cudaEvent_t event;
};
/* cudaGraphAddNode's tagged union (the union is 29 long longs) */
struct cudaGraphNodeParams {
  enum cudaGraphNodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    struct cudaKernelNodeParams kernel;
    struct cudaMemcpyNodeParams memcpy;
    struct cudaMemsetParams memset;
    struct cudaHostNodeParams host;
    struct cudaChildGraphNodeParams graph;
    struct cudaEventWaitNodeParams eventWait;
    struct cudaEventRecordNodeParams eventRecord;
    struct cudaMemAllocNodeParams alloc;
    struct cudaMemFreeNodeParams free;
    struct cudaConditionalNodeParams conditional;
  } u;
  long long reserved2;
};
typedef struct cudaGraphEdgeData_st {
  unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;

enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0,
  cudaGraphExecUpdateError = 1,
  cudaGraphExecUpdateErrorTopologyChanged = 2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 3,
  cudaGraphExecUpdateErrorFunctionChanged = 4,
  cudaGraphExecUpdateErrorParametersChanged = 5,
  cudaGraphExecUpdateErrorNotSupported = 6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 7,
  cudaGraphExecUpdateErrorAttributesChanged = 8
};
typedef struct cudaGraphExecUpdateResultInfo_st {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

enum cudaGraphInstantiateResult {
  cudaGraphInstantiateSuccess = 0,
  cudaGraphInstantiateError = 1,
  cudaGraphInstantiateInvalidStructure = 2,
  cudaGraphInstantiateNodeOperationNotSupported = 3,
  cudaGraphInstantiateMultipleDevicesNotSupported = 4,
  cudaGraphInstantiateConditionalHandleUnused = 5
};
typedef struct cudaGraphInstantiateParams_st {
  unsigned long long flags;
  cudaStream_t uploadStream;
  cudaGraphNode_t errNode_out;
  enum cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;
#define cudaGraphInstantiateFlagAutoFreeOnLaunch 1
#define cudaGraphInstantiateFlagUpload 2
#define cudaGraphInstantiateFlagDeviceLaunch 4
#define cudaGraphInstantiateFlagUseNodePriority 8

/* ---- the objects ---- */

/* The memory of a memory-allocation node: reserved when the node is made
 * (its address is fixed then, as on the GPU), tracked as a device
 * allocation from the moment the node runs until a free node or cudaFree
 * releases it. Shared by a graph's clones and executable copies. */
typedef struct g_mem {
  void *p;
  size_t size;
  int refs;
  int mapped;    /* the allocation node ran and nothing freed it since */
  unsigned seen; /* g_mem_usage's pass */
} g_mem;

typedef struct g_node g_node;
typedef struct rt_graph rt_graph;

struct g_node {
  int type;      /* cudaGraphNodeType */
  rt_graph *g;   /* owning graph */
  g_node *orig;  /* the node this one was cloned or instantiated from */
  int id;        /* creation order within its graph (for DOT and pairing) */
  g_node **deps; /* incoming edges */
  size_t ndeps, capdeps;
  int enabled;    /* cudaGraphNodeSetEnabled (executable copies) */
  size_t tmp;     /* scratch of g_topo */
  unsigned visit; /* scratch of the capture's join check */
  /* kernel */
  rt_func *f;
  dim3 grid, block;
  unsigned shared;
  uint8_t *params;     /* argument values at each parameter's offset */
  uint32_t cluster[3]; /* cluster dimensions of a captured cudaLaunchKernelEx */
  int has_cluster;
  uint8_t (*attrs)[64]; /* kernel node attributes set, by id (NULL: none) */
  uint32_t attr_set;    /* which ids are set */
  size_t pbytes;
  void **argv; /* pointers into params, for GetParams */
  /* memcpy */
  struct cudaMemcpy3DParms copy;
  /* memset */
  struct cudaMemsetParams set;
  /* host */
  cudaHostFn_t fn;
  void *user;
  /* child graph */
  rt_graph *child;
  /* event record / wait */
  rt_event *ev;
  /* mem alloc / free */
  g_mem *mem;
  size_t bytesize;
  void *dptr;
  /* conditional: the handle, if/while/switch, its body graphs */
  cudaGraphConditionalHandle handle;
  int ctype;
  unsigned nbodies;
  rt_graph **bodies;
};

struct rt_graph {
  g_node **nodes;
  size_t n, cap;
  int next_id;
  int is_child;     /* owned by a node (child graph, conditional body) or an executable */
  int internal;     /* an executable's copy (or inside one): no user handle reaches it */
  rt_graph *origin; /* cloned from, for cudaGraphNodeFindInClone */
  uint64_t serial;  /* unique for the process's life (handles are reused) */
  rt_graph *next;   /* the live graphs */
};

typedef struct rt_gexec {
  rt_graph *g;         /* the executable's own copy */
  uint64_t src_serial; /* the serial of the graph it was instantiated from */
  unsigned long long flags;
  int launches_pending;
  struct rt_gexec *next;
} rt_gexec;

/* graph.c */
rt_graph *g_get(cudaGraph_t h);        /* a live graph, or NULL */
g_node *g_node_get(cudaGraphNode_t h); /* a live node of a live graph, or NULL */
rt_graph *g_new(void);
/* Make g and the graphs inside it internal (an executable's copy). */
void g_internal(rt_graph *g);
void g_free(rt_graph *g); /* destroys nodes (and child graphs) */
/* A new node of `type` in g after deps (checked: live nodes of g). */
cudaError_t g_add(rt_graph *g, int type, const cudaGraphNode_t *deps, size_t ndeps, g_node **out);
/* Deep copy; each copied node's orig is its source. NULL when out of memory. */
rt_graph *g_clone(rt_graph *src);
/* Copy a node's parameters from src into dst (same type). */
int g_node_copy_params(g_node *dst, const g_node *src);
void g_node_free_params(g_node *n);
/* Nodes in an order that honours every edge; NULL on a cycle (or no memory). */
g_node **g_topo(rt_graph *g);
/* Kernel parameters for a node from a launch's arguments: validates as a
 * launch does. */
cudaError_t g_kernel_set(g_node *n, rt_func *f, dim3 grid, dim3 block, unsigned shared, void **args,
                         void **extra);
cudaError_t g_memcpy_check(const struct cudaMemcpy3DParms *p);
cudaError_t g_memset_check(const struct cudaMemsetParams *p);
/* An allocation node's memory of `size` bytes (n->mem, n->dptr). */
cudaError_t g_alloc_node(g_node *n, size_t size);
/* Whether p may be freed by a free node of g: an allocation node's memory
 * of g, or a tracked device allocation. */
int g_freeable(rt_graph *g, void *p);
/* Bytes of graph allocations mapped now and reserved by live nodes; the
 * high-water marks follow them. */
void g_mem_usage(uint64_t *used, uint64_t *reserved);
/* Run every node of g in order (the queue's thread, lock held). */
void g_run(rt_graph *g);
/* A live event handle. */
rt_event *g_event(cudaEvent_t e);

/* graph_cond.c */
/* A conditional node's parameters (bodies made; p->phGraph_out set). */
cudaError_t g_cond_init(g_node *n, struct cudaConditionalNodeParams *p);
/* Run a conditional node: its value, then the body it selects. */
void g_cond_run(g_node *n);
/* At the start of a launch: handles with cudaGraphCondAssignDefault
 * take their default value. */
void g_cond_defaults(rt_graph *g);
/* A conditional handle made for g that no conditional node of g uses (its
 * node was destroyed): an H200 refuses to instantiate g then. */
int g_cond_orphaned(const rt_graph *g);

/* capture.c */
/* Queue op, or record it into the capture sequence its stream is in. */
cudaError_t rt_submit(rt_op *op);
/* The hooks of the existing entry points while a stream captures: each
 * returns -1 when the stream is not capturing (do the work), else the
 * call's result (recorded, or refused). */
int rt_capture_memcpy(void *dst, const void *src, size_t n, int kind, cudaStream_t stream);
int rt_capture_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h,
                        int kind, cudaStream_t stream);
int rt_capture_copy3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
/* the stream-ordered allocator (unsupported.c) */
RT_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
RT_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
/* a fill of h rows of w elements of elem (1, 2, 4) bytes, pitch apart */
int rt_capture_memset(void *p, unsigned value, unsigned elem, size_t pitch, size_t w, size_t h,
                      cudaStream_t stream);
int rt_capture_event_record(rt_event *ev, rt_stream *s, unsigned flags);
int rt_capture_wait_event(rt_stream *s, rt_event *ev, unsigned flags);
/* A call that waits for the device or stream (sync copy, synchronisation,
 * query) or may (allocation). `stream`: the stream it waits for, or
 * cudaStreamLegacy for a legacy-stream call, NULL for none in
 * particular. Returns cudaSuccess when allowed while capture sequences are
 * open; otherwise the error, having invalidated the sequences it breaks. */
cudaError_t rt_capture_forbid(cudaStream_t stream, int is_sync);
/* cudaEventSynchronize (sync 1) / cudaEventQuery on a captured event: the
 * error, invalidating the capture; cudaSuccess when not captured */
cudaError_t rt_capture_event_wait(rt_event *ev, int sync);
/* Stream or event destroyed: forget its capture state. */
void rt_capture_forget_stream(rt_stream *s);
void rt_capture_forget_event(rt_event *ev);
/* A node or graph is destroyed: no capture may depend on or add to it. */
void rt_capture_node_gone(g_node *n);
void rt_capture_graph_gone(rt_graph *g);
/* cudaMallocAsync / cudaFreeAsync in a capturing stream: allocation and
 * free nodes (-1: not capturing) */
int rt_capture_malloc(void **p, size_t size, cudaStream_t stream);
int rt_capture_free(void *p, cudaStream_t stream);

#endif
