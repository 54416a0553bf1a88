// explicit.cu: graphs built node by node: every node type (kernel, 1D and
// 3D memcpy, memset of 1/2/4-byte elements and 2D, host, child graph,
// empty, event record and wait, memory allocation and free, cudaGraphAddNode),
// edges added and removed and listed, a host node that reads what its
// predecessors wrote (order), node parameters read back and changed,
// instantiate flags, cudaGraphExecUpdate (a good and a refused update),
// the per-node cudaGraphExec*SetParams, clone and cudaGraphNodeFindInClone,
// node enable/disable, and cudaGraphDebugDotPrint. Every value checked is
// computed on the CPU from the inputs.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "check.h"

__global__ void fill_seq(int *a, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = base + i;
}

__global__ void square(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * a[i];
}

__global__ void add_const(int *a, int c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += c;
}

struct Observe {
  const int *host;  // a pinned copy the memcpy node wrote
  int n, base;
  int seen_ok;      // the host node saw (base+i)^2 everywhere
  int calls;
};

static void observe(void *p) {
  Observe *o = (Observe *)p;
  int ok = 1;
  for (int i = 0; i < o->n; i++) ok &= o->host[i] == (o->base + i) * (o->base + i);
  o->seen_ok = ok;
  o->calls++;
}

static void count(void *p) { ++*(int *)p; }

__constant__ int csym[8];

int main() {
  const int n = 256;
  int *a, *b, *hp;
  OK(cudaMalloc(&a, n * sizeof(int)));
  OK(cudaMalloc(&b, n * sizeof(int)));
  OK(cudaMallocHost(&hp, n * sizeof(int)));
  cudaStream_t s;
  OK(cudaStreamCreate(&s));

  // ---- kernel -> kernel -> memcpy -> host: the host node sees squares ----
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  int base = 3, nn = n;
  void *args1[] = {&a, &base, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill_seq;
  kp.gridDim = dim3(n / 64);
  kp.blockDim = dim3(64);
  kp.kernelParams = args1;
  cudaGraphNode_t k1, k2, cp, hn;
  OK(cudaGraphAddKernelNode(&k1, g, nullptr, 0, &kp));
  base = 1000; // the node copied the arguments when it was made
  void *args2[] = {&a, &nn};
  kp.func = (void *)square;
  kp.kernelParams = args2;
  OK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
  OK(cudaGraphAddMemcpyNode1D(&cp, g, &k2, 1, hp, a, n * sizeof(int), cudaMemcpyDeviceToHost));
  Observe ob = {hp, n, 3, 0, 0};
  cudaHostNodeParams hnp = {observe, &ob};
  OK(cudaGraphAddHostNode(&hn, g, &cp, 1, &hnp));
  cudaKernelNodeParams back = {};
  OK(cudaGraphKernelNodeGetParams(k1, &back));
  EXPECT(back.func == (void *)fill_seq && back.gridDim.x == n / 64 && back.blockDim.x == 64 &&
             *(int *)back.kernelParams[1] == 3,
         "kernel node parameters read back (base 3 as copied)");
  cudaGraphExec_t ge;
  OK(cudaGraphInstantiateWithFlags(&ge, g, 0));
  OK(cudaGraphLaunch(ge, s));
  OK(cudaStreamSynchronize(s));
  EXPECT(ob.calls == 1 && ob.seen_ok, "host node observed (3+i)^2 written by its predecessors");

  // ---- structure queries ----
  size_t num = 0;
  OK(cudaGraphGetNodes(g, nullptr, &num));
  EXPECT(num == 4, "4 nodes");
  cudaGraphNode_t roots[4];
  size_t nr = 4;
  OK(cudaGraphGetRootNodes(g, roots, &nr));
  EXPECT(nr == 1 && roots[0] == k1, "the first kernel is the only root");
  cudaGraphNode_t from[4], to[4];
  size_t ne = 4;
  OK(cudaGraphGetEdges(g, from, to, nullptr, &ne));
  EXPECT(ne == 3, "3 edges");
  int chain = 0;
  for (size_t i = 0; i < ne; i++)
    chain += (from[i] == k1 && to[i] == k2) + (from[i] == k2 && to[i] == cp) + (from[i] == cp && to[i] == hn);
  EXPECT(chain == 3, "edges k1->k2->copy->host");
  cudaGraphNode_t f2[2], t2[2];
  size_t ne2 = 2;
  OK(cudaGraphGetEdges(g, f2, t2, nullptr, &ne2));
  EXPECT(ne2 == 2 && f2[0] && t2[1], "a short buffer gets the first 2 of 3 edges");
  cudaGraphNode_t dn[2];
  size_t nd = 2;
  OK(cudaGraphNodeGetDependentNodes(k2, dn, nullptr, &nd));
  EXPECT(nd == 1 && dn[0] == cp, "the copy depends on the second kernel");
  nd = 2;
  OK(cudaGraphNodeGetDependencies(k2, dn, nullptr, &nd));
  EXPECT(nd == 1 && dn[0] == k1, "the second kernel depends on the first");

  // ---- exec per-node parameters: base 10 in the executable only ----
  int base10 = 10;
  void *args3[] = {&a, &base10, &nn};
  kp.func = (void *)fill_seq;
  kp.kernelParams = args3;
  OK(cudaGraphExecKernelNodeSetParams(ge, k1, &kp));
  ob.base = 10;
  OK(cudaGraphLaunch(ge, s));
  OK(cudaStreamSynchronize(s));
  EXPECT(ob.calls == 2 && ob.seen_ok, "exec kernel node set params: host node saw (10+i)^2");
  OK(cudaGraphKernelNodeGetParams(k1, &back));
  EXPECT(*(int *)back.kernelParams[1] == 3, "the graph's own node keeps base 3");

  // ---- whole-graph update: clone, change the clone's kernel, update ----
  cudaGraph_t c;
  OK(cudaGraphClone(&c, g));
  cudaGraphNode_t ck1;
  OK(cudaGraphNodeFindInClone(&ck1, k1, c));
  int base7 = 7;
  void *args4[] = {&a, &base7, &nn};
  kp.kernelParams = args4;
  OK(cudaGraphKernelNodeSetParams(ck1, &kp));
  cudaGraphExecUpdateResultInfo info;
  OK(cudaGraphExecUpdate(ge, c, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result success");
  ob.base = 7;
  OK(cudaGraphLaunch(ge, s));
  OK(cudaStreamSynchronize(s));
  EXPECT(ob.calls == 3 && ob.seen_ok, "after cudaGraphExecUpdate the host node saw (7+i)^2");
  // a topology change is refused
  cudaGraphNode_t extra;
  OK(cudaGraphAddEmptyNode(&extra, c, nullptr, 0));
  EXPECT_ERR(cudaGraphExecUpdate(ge, c, &info), cudaErrorGraphExecUpdateFailure, "update with a new node");
  EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged, "result: topology changed");
  OK(cudaGraphDestroyNode(extra));
  // removing an edge changes the topology too
  {
    cudaGraphNode_t ck2;
    OK(cudaGraphNodeFindInClone(&ck2, k2, c));
    OK(cudaGraphRemoveDependencies(c, &ck1, &ck2, nullptr, 1));
    size_t cr = 0;
    OK(cudaGraphGetRootNodes(c, nullptr, &cr));
    EXPECT(cr == 2, "removing k1->k2 makes k2 a root");
    EXPECT_ERR(cudaGraphExecUpdate(ge, c, &info), cudaErrorGraphExecUpdateFailure, "update without an edge");
    OK(cudaGraphAddDependencies(c, &ck1, &ck2, nullptr, 1));
    EXPECT_ERR(cudaGraphAddDependencies(c, &ck1, &ck2, nullptr, 1), cudaErrorInvalidValue, "a repeated edge");
  }

  // ---- memset nodes: 1-, 2- and 4-byte elements, 2D ----
  cudaGraph_t gm;
  OK(cudaGraphCreate(&gm, 0));
  unsigned char *m8;
  size_t pitch;
  OK(cudaMallocPitch((void **)&m8, &pitch, 64, 4));
  cudaMemsetParams ms = {};
  ms.dst = m8;
  ms.pitch = pitch;
  ms.value = 0xA5;
  ms.elementSize = 1;
  ms.width = 64;
  ms.height = 4;
  cudaGraphNode_t s1, s2, s4, c1, c4;
  OK(cudaGraphAddMemsetNode(&s1, gm, nullptr, 0, &ms));
  ms.dst = b;
  ms.pitch = 0;
  ms.value = 0x1234;
  ms.elementSize = 2;
  ms.width = 8;
  ms.height = 1;
  OK(cudaGraphAddMemsetNode(&s2, gm, nullptr, 0, &ms));
  ms.dst = b + 4;
  ms.value = 0xDEADBEEF;
  ms.elementSize = 4;
  ms.width = 4;
  OK(cudaGraphAddMemsetNode(&s4, gm, &s2, 1, &ms));
  ms.elementSize = 3;
  cudaGraphNode_t bad;
  EXPECT_ERR(cudaGraphAddMemsetNode(&bad, gm, nullptr, 0, &ms), cudaErrorInvalidValue, "element size 3");
  std::vector<unsigned char> h8(64 * 4);
  cudaMemcpy3DParms p3 = {};
  p3.srcPtr = make_cudaPitchedPtr(m8, pitch, 64, 4);
  p3.dstPtr = make_cudaPitchedPtr(h8.data(), 64, 64, 4);
  p3.extent = make_cudaExtent(64, 4, 1);
  p3.kind = cudaMemcpyDeviceToHost;
  OK(cudaGraphAddMemcpyNode(&c1, gm, &s1, 1, &p3));
  std::vector<int> hb(8, 0);
  OK(cudaGraphAddMemcpyNode1D(&c4, gm, &s4, 1, hb.data(), b, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  cudaGraphExec_t gme;
  OK(cudaGraphInstantiate(&gme, gm, 0));
  OK(cudaGraphLaunch(gme, s));
  OK(cudaStreamSynchronize(s));
  int ok8 = 1;
  for (unsigned char v : h8) ok8 &= v == 0xA5;
  EXPECT(ok8, "2D memset of bytes, copied back through a pitched 3D copy");
  int ok16 = 1;
  for (int i = 0; i < 4; i++) ok16 &= (unsigned)hb[i] == 0x12341234u;
  EXPECT(ok16, "2-byte memset: 0x1234 in both halves");
  int ok32 = 1;
  for (int i = 4; i < 8; i++) ok32 &= (unsigned)hb[i] == 0xDEADBEEFu;
  EXPECT(ok32, "4-byte memset after the 2-byte one");
  cudaMemsetParams msb;
  OK(cudaGraphMemsetNodeGetParams(s4, &msb));
  EXPECT(msb.value == 0xDEADBEEF && msb.elementSize == 4 && msb.width == 4, "memset parameters read back");
  // exec memset update: 4-byte value 7
  msb.value = 7;
  OK(cudaGraphExecMemsetNodeSetParams(gme, s4, &msb));
  OK(cudaGraphLaunch(gme, s));
  OK(cudaStreamSynchronize(s));
  EXPECT(hb[4] == 7 && hb[7] == 7, "exec memset node set params");
  // switched off, the memset leaves the old values (7) alone
  OK(cudaGraphNodeSetEnabled(gme, s4, 0));
  unsigned en = 1;
  OK(cudaGraphNodeGetEnabled(gme, s4, &en));
  EXPECT(en == 0, "node disabled");
  OK(cudaMemset(b + 4, 0, 4 * sizeof(int)));
  OK(cudaGraphLaunch(gme, s));
  OK(cudaStreamSynchronize(s));
  EXPECT(hb[4] == 0 && hb[7] == 0, "a disabled memset node does not run");

  // ---- child graph, empty, events, mem alloc/free, cudaGraphAddNode ----
  cudaGraph_t outer, child;
  OK(cudaGraphCreate(&outer, 0));
  OK(cudaGraphCreate(&child, 0));
  int seven = 7;
  void *cargs[] = {&a, &seven, &nn};
  kp.func = (void *)add_const;
  kp.kernelParams = cargs;
  cudaGraphNode_t ck, chn;
  OK(cudaGraphAddKernelNode(&ck, child, nullptr, 0, &kp));
  int calls = 0;
  cudaHostNodeParams cnt = {count, &calls};
  OK(cudaGraphAddHostNode(&chn, child, &ck, 1, &cnt));
  cudaGraphNode_t al, fillk, childn, emp, er, ew, cpy, fr;
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(int);
  OK(cudaGraphAddMemAllocNode(&al, outer, nullptr, 0, &ap));
  EXPECT(ap.dptr != nullptr, "allocation node gives an address");
  int *tmp = (int *)ap.dptr;
  int zero = 0;
  void *fargs[] = {&tmp, &zero, &nn};
  kp.func = (void *)fill_seq;
  kp.kernelParams = fargs;
  OK(cudaGraphAddKernelNode(&fillk, outer, &al, 1, &kp));
  OK(cudaGraphAddChildGraphNode(&childn, outer, &fillk, 1, child));
  cudaGraph_t inner;
  OK(cudaGraphChildGraphNodeGetGraph(childn, &inner));
  size_t in_n = 0;
  OK(cudaGraphGetNodes(inner, nullptr, &in_n));
  EXPECT(in_n == 2, "the child graph node holds a copy of the 2-node child");
  OK(cudaGraphAddEmptyNode(&emp, outer, &childn, 1));
  cudaEvent_t ev;
  OK(cudaEventCreate(&ev));
  OK(cudaGraphAddEventRecordNode(&er, outer, &emp, 1, ev));
  OK(cudaGraphAddEventWaitNode(&ew, outer, &er, 1, ev));
  cudaGraphNodeParams gp = {};
  gp.type = cudaGraphNodeTypeMemcpy;
  gp.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(tmp, n * sizeof(int), n, 1);
  gp.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(b, n * sizeof(int), n, 1);
  gp.memcpy.copyParams.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  gp.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
  OK(cudaGraphAddNode(&cpy, outer, &ew, nullptr, 1, &gp));
  OK(cudaGraphAddMemFreeNode(&fr, outer, &cpy, 1, tmp));
  void *fd = nullptr;
  OK(cudaGraphMemFreeNodeGetParams(fr, &fd));
  EXPECT(fd == tmp, "free node parameters read back");
  enum cudaGraphNodeType types[] = {cudaGraphNodeTypeMemAlloc, cudaGraphNodeTypeKernel, cudaGraphNodeTypeGraph,
                                    cudaGraphNodeTypeEmpty, cudaGraphNodeTypeEventRecord,
                                    cudaGraphNodeTypeWaitEvent, cudaGraphNodeTypeMemcpy, cudaGraphNodeTypeMemFree};
  cudaGraphNode_t all[8] = {al, fillk, childn, emp, er, ew, cpy, fr};
  int tok = 1;
  for (int i = 0; i < 8; i++) {
    cudaGraphNodeType t;
    tok &= cudaGraphNodeGetType(all[i], &t) == cudaSuccess && t == types[i];
  }
  EXPECT(tok, "node types");
  // the child's kernel adds 7 to `a`, not tmp: a = (7+i)^2 + 7 afterwards
  cudaGraphExec_t oe;
  OK(cudaGraphInstantiate(&oe, outer, 0));
  OK(cudaGraphLaunch(oe, s));
  OK(cudaEventSynchronize(ev));
  OK(cudaStreamSynchronize(s));
  std::vector<int> ha(n), hb2(n);
  OK(cudaMemcpy(ha.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
  OK(cudaMemcpy(hb2.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
  int okc = 1, okt = 1;
  for (int i = 0; i < n; i++) {
    okc &= ha[i] == (7 + i) * (7 + i) + 7;
    okt &= hb2[i] == i;
  }
  EXPECT(okc && calls == 1, "child graph: kernel added 7, its host node ran once");
  EXPECT(okt, "allocated memory filled then copied out before the free node");
  // a second launch: the allocation was freed by the graph, so it may run again
  OK(cudaGraphLaunch(oe, s));
  OK(cudaStreamSynchronize(s));
  EXPECT(calls == 2, "relaunch of a graph that frees what it allocates");

  // ---- graph memory figures: the allocation node's bytes are reserved;
  // none is mapped between launches (the graph frees what it allocates) ----
  unsigned long long used = 1, reserved = 0, high = 0;
  OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
  OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &high));
  // an H200 maps graph memory in 32 MiB pieces and keeps them (used) after the graph frees its allocation
  EXPECT(used == reserved && reserved >= n * sizeof(int) && reserved % (32u << 20) == 0 && high >= reserved,
         "graph memory: 32 MiB pieces, used and reserved until trimmed");
  OK(cudaDeviceGraphMemTrim(0));
  unsigned long long zero64 = 0, one64 = 1;
  OK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero64));
  EXPECT_ERR(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &one64), cudaErrorInvalidValue,
             "a high-water mark is reset to 0 only");
  EXPECT_ERR(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero64), cudaErrorInvalidValue,
             "the current figures cannot be set");

  // ---- symbol copies and kernel node attributes ----
  {
    cudaGraph_t gsym;
    OK(cudaGraphCreate(&gsym, 0));
    int src8[8], back8[8] = {0};
    for (int i = 0; i < 8; i++) src8[i] = 100 - i;
    cudaGraphNode_t to, from;
    OK(cudaGraphAddMemcpyNodeToSymbol(&to, gsym, nullptr, 0, csym, src8, sizeof src8, 0, cudaMemcpyHostToDevice));
    OK(cudaGraphAddMemcpyNodeFromSymbol(&from, gsym, &to, 1, back8, csym, 4 * sizeof(int), 4 * sizeof(int),
                                        cudaMemcpyDeviceToHost));
    EXPECT_ERR(cudaGraphAddMemcpyNodeToSymbol(&bad, gsym, nullptr, 0, csym, src8, sizeof src8, 4,
                                              cudaMemcpyHostToDevice),
               cudaErrorInvalidValue, "a copy past the end of the symbol");
    cudaGraphExec_t xsym;
    OK(cudaGraphInstantiate(&xsym, gsym, 0));
    OK(cudaGraphLaunch(xsym, s));
    OK(cudaStreamSynchronize(s));
    EXPECT(back8[0] == 96 && back8[3] == 93 && back8[4] == 0, "to and from a __constant__ symbol (offset 4 ints)");
    OK(cudaGraphExecDestroy(xsym));
    OK(cudaGraphDestroy(gsym));
    cudaLaunchAttributeValue v = {}, r = {};
    v.priority = 3;
    OK(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributePriority, &v));
    OK(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributePriority, &r));
    EXPECT(r.priority == 0, "a priority above the device's range reads back clamped to 0");
    v.priority = -3;
    OK(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributePriority, &v));
    OK(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributePriority, &r));
    EXPECT(r.priority == -3, "kernel node attribute read back");
    OK(cudaGraphKernelNodeCopyAttributes(k2, k1));
    r.priority = 0;
    OK(cudaGraphKernelNodeGetAttribute(k2, cudaLaunchAttributePriority, &r));
    EXPECT(r.priority == -3, "kernel node attributes copied");
    EXPECT_ERR(cudaGraphKernelNodeSetAttribute(cp, cudaLaunchAttributePriority, &v), cudaErrorInvalidValue,
               "an attribute of a memcpy node");
  }

  // ---- DOT ----
  const char *dot = "graphs_explicit.dot";
  OK(cudaGraphDebugDotPrint(outer, dot, cudaGraphDebugDotFlagsVerbose));
  FILE *f = std::fopen(dot, "r");
  std::string text;
  if (f) {
    char buf[4096];
    size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, k);
    std::fclose(f);
    std::remove(dot);
  }
  EXPECT(text.rfind("digraph", 0) == 0, "DOT output is a digraph");
  EXPECT(text.find("fill_seq") != std::string::npos && text.find("add_const") != std::string::npos,
         "DOT output names the kernels of the graph and of its child");
  size_t arrows = 0;
  for (size_t p = text.find("->"); p != std::string::npos; p = text.find("->", p + 2)) arrows++;
  EXPECT(arrows >= 7, "DOT output has the 7 edges of the graph");

  // ---- bad handles and parameters ----
  EXPECT_ERR(cudaGraphAddEmptyNode(&bad, nullptr, nullptr, 0), cudaErrorInvalidValue, "add to a NULL graph");
  EXPECT_ERR(cudaGraphAddEmptyNode(&bad, outer, &ck, 1), cudaErrorInvalidValue,
             "a dependency from another graph");
  EXPECT_ERR(cudaGraphInstantiateWithFlags(&ge, g, 1234), cudaErrorInvalidValue, "unknown instantiate flags");
  cudaMemcpy3DParms big = p3;
  big.extent = make_cudaExtent(64, 5, 1);
  EXPECT_ERR(cudaGraphAddMemcpyNode(&bad, gm, nullptr, 0, &big), cudaErrorInvalidValue,
             "a copy past its allocation");
  cudaGraphExec_t second;
  EXPECT_ERR(cudaGraphInstantiate(&second, outer, 0), cudaErrorNotSupported,
             "a second executable of a graph with memory nodes");
  EXPECT_ERR(cudaGraphInstantiateWithFlags(&second, g, cudaGraphInstantiateFlagDeviceLaunch), cudaErrorInvalidValue,
             "device launch of a graph with a host node");
  EXPECT_ERR(cudaGraphInstantiateWithFlags(&second, g,
                                           cudaGraphInstantiateFlagDeviceLaunch |
                                               cudaGraphInstantiateFlagAutoFreeOnLaunch),
             cudaErrorInvalidValue, "device launch with auto-free");
  unsigned long long xf = 99;
  OK(cudaGraphExecGetFlags(oe, &xf));
  EXPECT(xf == 0, "exec flags");

  OK(cudaGraphExecDestroy(ge));
  OK(cudaGraphExecDestroy(gme));
  OK(cudaGraphExecDestroy(oe));
  OK(cudaGraphInstantiate(&second, outer, 0));
  OK(cudaGraphExecDestroy(second));
  for (cudaGraph_t d : {g, c, gm, outer, child}) OK(cudaGraphDestroy(d));
  OK(cudaDeviceSynchronize());
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
