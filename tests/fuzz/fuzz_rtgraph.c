/* fuzz_rtgraph.c: the libFuzzer target of CUDA graphs, stream capture and
 * memory pools (runtime/cudart/graph.c, graph_exec.c, graph_extra.c,
 * graph_cond.c, capture.c, pool.c). The input is a list of calls on a small
 * set of objects the harness keeps: graphs, nodes, executable graphs,
 * pools and pool allocations, each passed live, stale (destroyed earlier by
 * the input), forged or NULL; dependency lists with repeats, cycles and
 * nodes of other graphs; node parameters with fuzzed sizes, element sizes,
 * pitches and kinds inside the harness's buffers; illegal calls during a
 * capture. Every call must return an error code and leave the runtime
 * usable: no crash, no hang, no write outside the buffers a call was given
 * (ASan, in the libFuzzer build). tests/fuzz/replay.c runs it over
 * tests/fuzz/corpus_rtgraph. */
#include "../../runtime/cudart/graph_api.h"
#include "fuzz_reader.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p, .param .u32 n) {\n"
                          "  .reg .u64 %a; .reg .u32 %v;\n"
                          "  ld.param.u64 %a, [p]; cvta.to.global.u64 %a, %a;\n"
                          "  ld.param.u32 %v, [n]; st.global.u32 [%a], %v; ret; }\n";

enum { HOST_BYTES = 1 << 14, DEV_BYTES = 4096, NG = 4, NN = 16, NE = 4, NP = 3, NA = 8 };
static uint8_t *host;
static void *dev;
static cudaStream_t streams[2];
static cudaEvent_t events[2];
static cudaKernel_t kern;
static cudaGraph_t graphs[NG];
static cudaGraphNode_t nodes[NN]; /* may outlive their graph: stale handles */
static cudaGraphExec_t execs[NE];
static cudaMemPool_t pools[NP];
static void *allocs[NA];
static int ready;

static void host_fn(void *p) { (void)p; }

static void setup(void) {
  host = calloc(1, HOST_BYTES);
  cudaLibrary_t lib;
  if (!host || cudaMalloc(&dev, DEV_BYTES) || cudaStreamCreate(&streams[0]) ||
      cudaStreamCreate(&streams[1]) || cudaEventCreate(&events[0]) || cudaEventCreate(&events[1]) ||
      cudaLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0) || cudaLibraryGetKernel(&kern, lib, "k"))
    abort();
  ready = 1;
}

/* A handle from a table (live, stale or NULL as the input left it), or a
 * forged one. */
static void *pick(reader *r, void **table, int n) {
  uint8_t s = (uint8_t)take(r, 1);
  if (s < 240) return table[s % n];
  return (void *)(uintptr_t)(take(r, 2) | 0x10000);
}
#define PICK(r, t) pick(r, (void **)(t), (int)(sizeof(t) / sizeof((t)[0])))

static cudaStream_t a_stream(reader *r) {
  switch (take(r, 1) % 5) {
  case 0:
    return streams[0];
  case 1:
    return streams[1];
  case 2:
    return 0;
  case 3:
    return cudaStreamPerThread;
  default:
    return (cudaStream_t)(uintptr_t)(take(r, 2) | 0x10000);
  }
}

/* A device or host pointer inside the harness's buffers, or NULL. Host
 * memory is the program's (the runtime cannot check it), so a host pointer
 * leaves room for the largest count the harness passes (4095 bytes). */
static void *a_ptr(reader *r, int *on_dev) {
  uint8_t s = (uint8_t)take(r, 1);
  size_t off = take(r, 2);
  *on_dev = s % 3 == 0;
  if (s % 3 == 2) return s & 0x80 ? NULL : allocs[s % NA];
  return *on_dev ? (uint8_t *)dev + off % DEV_BYTES : host + off % (HOST_BYTES - 4096);
}

/* A dependency list of up to 4 nodes (repeats, stale and foreign nodes
 * included) into deps; its length, or a fuzzed count with a NULL list. */
static size_t a_deps(reader *r, cudaGraphNode_t *deps, const cudaGraphNode_t **list) {
  size_t n = take(r, 1) % 5;
  for (size_t i = 0; i < n; i++) deps[i] = PICK(r, nodes);
  *list = (take(r, 1) & 7) ? deps : NULL;
  return n;
}

static void memset_params(reader *r, struct cudaMemsetParams *p) {
  int on_dev;
  p->dst = a_ptr(r, &on_dev);
  p->elementSize = (unsigned)take(r, 1) % 6;
  p->value = (unsigned)take(r, 4);
  p->width = take(r, 2) % 2048;
  p->height = take(r, 1) % 4;
  p->pitch = take(r, 1) & 1 ? p->width * p->elementSize : take(r, 2);
}

/* Adds one node of a fuzzed kind to graph g; its handle goes to nodes[]. */
static void add_node(reader *r, cudaGraph_t g) {
  cudaGraphNode_t deps[4], *out = &nodes[take(r, 1) % NN];
  const cudaGraphNode_t *list;
  size_t n = a_deps(r, deps, &list);
  int on_dev, on_dev2;
  switch (take(r, 1) % 9) {
  case 0: {
    void *p = (uint8_t *)dev + (take(r, 2) % (DEV_BYTES / 4)) * 4;
    unsigned v = (unsigned)take(r, 4);
    void *args[] = {&p, &v};
    struct cudaKernelNodeParams kp = {
        (void *)kern,         {1 + (unsigned)take(r, 1) % 2, 1, 1}, {1 + (unsigned)take(r, 1) % 64, 1, 1},
        (unsigned)take(r, 1), take(r, 1) & 7 ? args : NULL,         NULL};
    cudaGraphAddKernelNode(out, g, list, n, &kp);
    break;
  }
  case 1: {
    void *d = a_ptr(r, &on_dev), *s = a_ptr(r, &on_dev2);
    cudaGraphAddMemcpyNode1D(out, g, list, n, d, s, take(r, 2) % 4096, (enum cudaMemcpyKind)(take(r, 1) % 6));
    break;
  }
  case 2: {
    struct cudaMemsetParams mp;
    memset_params(r, &mp);
    cudaGraphAddMemsetNode(out, g, list, n, &mp);
    break;
  }
  case 3: {
    struct cudaHostNodeParams hp = {take(r, 1) & 7 ? host_fn : NULL, NULL};
    cudaGraphAddHostNode(out, g, list, n, &hp);
    break;
  }
  case 4:
    cudaGraphAddChildGraphNode(out, g, list, n, PICK(r, graphs));
    break;
  case 5:
    if (take(r, 1) & 1)
      cudaGraphAddEventRecordNode(out, g, list, n, take(r, 1) & 7 ? events[take(r, 1) & 1] : NULL);
    else
      cudaGraphAddEventWaitNode(out, g, list, n, take(r, 1) & 7 ? events[take(r, 1) & 1] : NULL);
    break;
  case 6: {
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = (enum cudaMemAllocationType)(take(r, 1) % 3);
    ap.poolProps.location.type = (enum cudaMemLocationType)(take(r, 1) % 3);
    ap.poolProps.location.id = (int)(int8_t)take(r, 1) % 2;
    ap.bytesize = take_size(r, 8, 32, 1 << 20, 4096);
    cudaGraphAddMemAllocNode(out, g, list, n, &ap);
    break;
  }
  case 7: {
    /* a free of an allocation node's address (found through nodes[]), of a
       pool allocation, or of anything else */
    struct cudaMemAllocNodeParams ap;
    void *p = a_ptr(r, &on_dev);
    if (take(r, 1) & 1 && !cudaGraphMemAllocNodeGetParams(PICK(r, nodes), &ap)) p = ap.dptr;
    cudaGraphAddMemFreeNode(out, g, list, n, p);
    break;
  }
  default:
    cudaGraphAddEmptyNode(out, g, list, n);
    break;
  }
}

/* Queries and edits of the graph structure. */
static void structure(reader *r) {
  cudaGraphNode_t from[8], to[8], buf[8];
  cudaGraphEdgeData ed[8];
  size_t n = take(r, 1) % 5, cnt = take(r, 1) % 9;
  for (size_t i = 0; i < n; i++) from[i] = PICK(r, nodes), to[i] = PICK(r, nodes);
  cudaGraph_t g = PICK(r, graphs);
  enum cudaGraphNodeType type;
  switch (take(r, 1) % 8) {
  case 0:
    cudaGraphAddDependencies(g, from, to, take(r, 1) & 1 ? NULL : ed, n);
    break;
  case 1:
    cudaGraphRemoveDependencies(g, from, to, NULL, n);
    break;
  case 2:
    cudaGraphGetNodes(g, take(r, 1) & 1 ? buf : NULL, &cnt);
    break;
  case 3:
    cudaGraphGetRootNodes(g, take(r, 1) & 1 ? buf : NULL, &cnt);
    break;
  case 4:
    cudaGraphGetEdges(g, from, to, NULL, &cnt);
    break;
  case 5:
    cnt = take(r, 1) % 9;
    cudaGraphNodeGetDependencies(PICK(r, nodes), buf, take(r, 1) & 1 ? ed : NULL, &cnt);
    cnt = take(r, 1) % 9;
    cudaGraphNodeGetDependentNodes(PICK(r, nodes), buf, NULL, &cnt);
    break;
  case 6:
    cudaGraphNodeGetType(PICK(r, nodes), &type);
    break;
  default: {
    int i = (int)(take(r, 1) % NN);
    cudaGraphDestroyNode(nodes[i]);
    if (take(r, 1) & 1) nodes[i] = NULL; /* else stale */
  }
  }
}

/* Get/Set of node parameters, on graphs and on executable graphs. */
static void params(reader *r) {
  cudaGraphNode_t nd = PICK(r, nodes);
  cudaGraphExec_t ex = PICK(r, execs);
  struct cudaMemsetParams mp;
  struct cudaHostNodeParams hp = {host_fn, NULL};
  struct cudaKernelNodeParams kp;
  cudaEvent_t ev;
  unsigned en;
  int on_dev, on_dev2;
  switch (take(r, 1) % 7) {
  case 0:
    if (!cudaGraphKernelNodeGetParams(nd, &kp)) {
      kp.blockDim.x = (unsigned)take(r, 2);
      kp.sharedMemBytes = (unsigned)take(r, 4);
      if (take(r, 1) & 1)
        cudaGraphKernelNodeSetParams(nd, &kp);
      else
        cudaGraphExecKernelNodeSetParams(ex, nd, &kp);
    }
    break;
  case 1:
    memset_params(r, &mp);
    if (take(r, 1) & 1)
      cudaGraphMemsetNodeSetParams(nd, &mp);
    else
      cudaGraphExecMemsetNodeSetParams(ex, nd, &mp);
    cudaGraphMemsetNodeGetParams(nd, &mp);
    break;
  case 2: {
    void *d = a_ptr(r, &on_dev), *s = a_ptr(r, &on_dev2);
    size_t n = take(r, 2) % 4096;
    enum cudaMemcpyKind k = (enum cudaMemcpyKind)(take(r, 1) % 6);
    if (take(r, 1) & 1)
      cudaGraphMemcpyNodeSetParams1D(nd, d, s, n, k);
    else
      cudaGraphExecMemcpyNodeSetParams1D(ex, nd, d, s, n, k);
    break;
  }
  case 3:
    cudaGraphHostNodeSetParams(nd, take(r, 1) & 1 ? &hp : NULL);
    cudaGraphExecHostNodeSetParams(ex, nd, &hp);
    break;
  case 4:
    cudaGraphEventRecordNodeSetEvent(nd, events[take(r, 1) & 1]);
    cudaGraphEventWaitNodeGetEvent(nd, &ev);
    cudaGraphExecEventWaitNodeSetEvent(ex, nd, take(r, 1) & 1 ? events[0] : NULL);
    break;
  case 5:
    cudaGraphExecChildGraphNodeSetParams(ex, nd, PICK(r, graphs));
    break;
  default:
    cudaGraphNodeSetEnabled(ex, nd, (unsigned)take(r, 1) % 3);
    cudaGraphNodeGetEnabled(ex, nd, &en);
    break;
  }
}

/* Instantiate, update, upload, launch, clone, destroy. */
static void execs_op(reader *r) {
  int i = (int)(take(r, 1) % NE);
  cudaGraph_t g = PICK(r, graphs);
  cudaGraphExecUpdateResultInfo info;
  unsigned long long flags;
  switch (take(r, 1) % 7) {
  case 0:
    cudaGraphExecDestroy(execs[i]);
    execs[i] = NULL;
    cudaGraphInstantiateWithFlags(&execs[i], g, take(r, 1) % 16);
    break;
  case 1: {
    cudaGraphInstantiateParams ip = {take(r, 1) % 16, a_stream(r), NULL, 0};
    cudaGraphExecDestroy(execs[i]);
    execs[i] = NULL;
    cudaGraphInstantiateWithParams(&execs[i], g, &ip);
    break;
  }
  case 2:
    cudaGraphExecUpdate(PICK(r, execs), g, &info);
    break;
  case 3:
    if (take(r, 1) & 1)
      cudaGraphUpload(PICK(r, execs), a_stream(r));
    else
      cudaGraphLaunch(PICK(r, execs), a_stream(r));
    cudaDeviceSynchronize();
    break;
  case 4: {
    cudaGraph_t c = NULL;
    cudaGraphNode_t found;
    int j = (int)(take(r, 1) % NG);
    if (!cudaGraphClone(&c, g)) {
      cudaGraphNodeFindInClone(&found, PICK(r, nodes), c);
      cudaGraphDestroy(graphs[j]);
      graphs[j] = c;
    }
    break;
  }
  case 5:
    cudaGraphExecGetFlags(PICK(r, execs), &flags);
    break;
  default:
    cudaGraphExecDestroy(execs[i]);
    if (take(r, 1) & 1) execs[i] = NULL; /* else stale */
    break;
  }
}

/* A capture on a stream, with calls that are legal, illegal or invalidating
 * in between, ended or left open for the next call. */
static void capture(reader *r) {
  cudaStream_t s = a_stream(r);
  enum cudaStreamCaptureStatus st;
  unsigned long long id;
  cudaGraph_t g = NULL;
  const cudaGraphNode_t *deps;
  size_t nd;
  int on_dev;
  uint8_t what = (uint8_t)take(r, 1);
  if (what & 1)
    cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)(take(r, 1) % 4));
  else {
    cudaGraphNode_t dl[4];
    const cudaGraphNode_t *list;
    size_t n = a_deps(r, dl, &list);
    cudaStreamBeginCaptureToGraph(s, PICK(r, graphs), list, NULL, n,
                                  (enum cudaStreamCaptureMode)(take(r, 1) % 3));
  }
  for (int k = (int)(take(r, 1) % 4); k > 0; k--) {
    switch (take(r, 1) % 8) {
    case 0:
      cudaMemsetAsync(a_ptr(r, &on_dev), (int)take(r, 1), take(r, 2) % 4096, s);
      break;
    case 1:
      cudaEventRecord(events[take(r, 1) & 1], s);
      break;
    case 2:
      cudaStreamWaitEvent(a_stream(r), events[take(r, 1) & 1], 0);
      break;
    case 3:
      cudaDeviceSynchronize();
      break; /* illegal during a capture */
    case 4:
      cudaStreamSynchronize(s);
      break;
    case 5: {
      void *p = NULL;
      if (!cudaMallocAsync(&p, take(r, 2), s)) cudaFreeAsync(p, s);
      break;
    }
    case 6:
      cudaStreamGetCaptureInfo(s, &st, &id, &g, &deps, NULL, &nd);
      break;
    default: {
      cudaGraphNode_t dl[4];
      const cudaGraphNode_t *list;
      size_t n = a_deps(r, dl, &list);
      cudaStreamUpdateCaptureDependencies(s, (cudaGraphNode_t *)list, NULL, n, (unsigned)take(r, 1) % 3);
    }
    }
  }
  cudaStreamIsCapturing(s, &st);
  if (what & 2) {
    g = NULL;
    if (!cudaStreamEndCapture(s, &g) && g) {
      int j = (int)(take(r, 1) % NG);
      cudaGraphDestroy(graphs[j]);
      graphs[j] = g;
    }
  }
}

/* Pools: create, destroy, attributes, access, trim, allocations. */
static void pool_op(reader *r) {
  int i = (int)(take(r, 1) % NP), a = (int)(take(r, 1) % NA);
  cudaMemPool_t p = PICK(r, pools);
  unsigned long long v = take(r, 8);
  switch (take(r, 1) % 7) {
  case 0: {
    struct cudaMemPoolProps pr;
    memset(&pr, 0, sizeof pr);
    pr.allocType = (enum cudaMemAllocationType)(take(r, 1) % 3);
    pr.handleTypes = (int)take(r, 1) % 3;
    pr.location.type = (enum cudaMemLocationType)(take(r, 1) % 4);
    pr.location.id = (int)(int8_t)take(r, 1) % 2;
    pr.maxSize = take_size(r, 8, 32, 1 << 24, 4096);
    cudaMemPoolDestroy(pools[i]);
    pools[i] = NULL;
    cudaMemPoolCreate(&pools[i], &pr);
    break;
  }
  case 1:
    cudaMemPoolDestroy(pools[i]);
    if (take(r, 1) & 1) pools[i] = NULL; /* else stale */
    break;
  case 2:
    if (take(r, 1) & 1)
      cudaMemPoolSetAttribute(p, (enum cudaMemPoolAttr)(take(r, 1) % 10), &v);
    else
      cudaMemPoolGetAttribute(p, (enum cudaMemPoolAttr)(take(r, 1) % 10), &v);
    break;
  case 3: {
    struct cudaMemAccessDesc d[2];
    enum cudaMemAccessFlags f;
    for (int k = 0; k < 2; k++) {
      d[k].location.type = (enum cudaMemLocationType)(take(r, 1) % 4);
      d[k].location.id = (int)(int8_t)take(r, 1) % 3;
      d[k].flags = (enum cudaMemAccessFlags)(take(r, 1) % 5);
    }
    cudaMemPoolSetAccess(p, d, take(r, 1) % 3);
    cudaMemPoolGetAccess(&f, p, &d[0].location);
    break;
  }
  case 4:
    cudaMemPoolTrimTo(p, take_size(r, 8, 32, 1 << 24, 4096));
    break;
  case 5:
    cudaFreeAsync(allocs[a], a_stream(r)); /* may be stale: refused, or freed twice */
    allocs[a] = NULL;
    if (cudaMallocFromPoolAsync(&allocs[a], take_size(r, 8, 32, 1 << 20, 4096), p, a_stream(r)))
      allocs[a] = NULL;
    break;
  default:
    if (take(r, 1) & 1) cudaDeviceSetMemPool((int)(int8_t)take(r, 1) % 2, p);
    cudaDeviceGetMemPool(&p, 0);
    cudaStreamSynchronize(a_stream(r));
    break;
  }
}

static void one_call(reader *r) {
  int i;
  switch (take(r, 1) % 8) {
  case 0:
    i = (int)(take(r, 1) % NG);
    if (take(r, 1) & 1) {
      cudaGraphDestroy(graphs[i]);
      if (take(r, 1) & 1) graphs[i] = NULL; /* else stale */
    } else if (!graphs[i])
      cudaGraphCreate(&graphs[i], (unsigned)take(r, 1) % 2);
    break;
  case 1:
  case 2:
    add_node(r, PICK(r, graphs));
    break;
  case 3:
    structure(r);
    break;
  case 4:
    params(r);
    break;
  case 5:
    execs_op(r);
    break;
  case 6:
    capture(r);
    break;
  default:
    pool_op(r);
    break;
  }
  cudaGetLastError();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready) setup();
  reader r = {data, size};
  for (int i = 0; i < 32 && r.n; i++) one_call(&r);
  /* end every capture the input left open, so the next input starts clean */
  enum cudaStreamCaptureStatus st;
  for (int s = 0; s < 2; s++) {
    cudaGraph_t g = NULL;
    if (!cudaStreamIsCapturing(streams[s], &st) && st != cudaStreamCaptureStatusNone &&
        !cudaStreamEndCapture(streams[s], &g))
      cudaGraphDestroy(g);
  }
  cudaDeviceSynchronize();
  cudaGetLastError();
  return 0;
}
