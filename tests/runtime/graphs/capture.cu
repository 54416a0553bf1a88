// capture.cu: stream capture of kernels, copies and fills on one stream
// and across two (a fork and a join through events), replayed several
// times, each result compared with the same arithmetic on the CPU; the
// capture queries (cudaStreamIsCapturing, cudaStreamGetCaptureInfo,
// cudaStreamUpdateCaptureDependencies), capture into an existing graph,
// cudaMallocAsync/cudaFreeAsync and host functions in a capture, and a
// graph launched into a capturing stream (refused, as on an H200).
#include <cstdlib>
#include <cstring>
#include <vector>
#include "check.h"

__global__ void axpb(float *y, const float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

__global__ void add_into(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

__global__ void incr(int *c) { atomicAdd(c, 1); }

__device__ int dsym[64];

__global__ void sym_twice(int *out) {
  int i = threadIdx.x;
  out[i] = 2 * dsym[i];
}

static void host_count(void *p) { ++*(int *)p; }

int main() {
  const int n = 1000;
  std::vector<float> hx(n), hy(n), ref(n);
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 17) - 8.0f;
  float *x, *y, *z;
  OK(cudaMalloc(&x, n * sizeof(float)));
  OK(cudaMalloc(&y, n * sizeof(float)));
  OK(cudaMalloc(&z, n * sizeof(float)));
  cudaStream_t s, s2;
  OK(cudaStreamCreate(&s));
  OK(cudaStreamCreate(&s2));
  int blocks = (n + 127) / 128;

  // ---- one stream: copy in, fill, two kernels, copy out ----
  cudaStreamCaptureStatus st;
  OK(cudaStreamIsCapturing(s, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "not capturing before BeginCapture");
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaStreamIsCapturing(s, &st));
  EXPECT(st == cudaStreamCaptureStatusActive, "capturing after BeginCapture");
  OK(cudaMemcpyAsync(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  unsigned long long id = 0;
  cudaGraph_t cg = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t ndeps = 99;
  OK(cudaStreamGetCaptureInfo(s, &st, &id, &cg, &deps, nullptr, &ndeps));
  EXPECT(st == cudaStreamCaptureStatusActive && id != 0 && cg != nullptr && ndeps == 1,
         "capture info: active, an id, the graph, one dependency (the copy)");
  cudaGraphNodeType t = cudaGraphNodeTypeCount;
  if (ndeps == 1) OK(cudaGraphNodeGetType(deps[0], &t));
  EXPECT(t == cudaGraphNodeTypeMemcpy, "the dependency is the memcpy node");
  OK(cudaMemsetAsync(z, 0, n * sizeof(float), s));
  axpb<<<blocks, 128, 0, s>>>(y, x, 2.0f, 1.0f, n);
  OK(cudaGetLastError());
  add_into<<<blocks, 128, 0, s>>>(z, y, n);
  add_into<<<blocks, 128, 0, s>>>(z, x, n);
  OK(cudaMemcpyAsync(hy.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  // nothing ran yet: the host buffer is untouched
  EXPECT(hy[5] == 0.0f, "captured work does not run");
  cudaGraph_t g;
  OK(cudaStreamEndCapture(s, &g));
  OK(cudaStreamIsCapturing(s, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "not capturing after EndCapture");
  size_t nn = 0;
  OK(cudaGraphGetNodes(g, nullptr, &nn));
  EXPECT(nn == 6, "6 nodes captured: 2 copies, a fill, 3 kernels");
  cudaGraphExec_t ge;
  OK(cudaGraphInstantiate(&ge, g, 0));
  for (int rep = 0; rep < 3; rep++) {
    for (int i = 0; i < n; i++) hx[i] = (float)((i * (rep + 3)) % 23) - 11.0f;
    std::fill(hy.begin(), hy.end(), -1.0f);
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hy[i] != (2.0f * hx[i] + 1.0f) + hx[i];
    char what[64];
    std::snprintf(what, sizeof what, "replay %d equals the CPU's 3x+1", rep);
    EXPECT(bad == 0, what);
  }

  // ---- a fork and a join: s2 scales while s fills, s joins ----
  cudaEvent_t fork, join;
  OK(cudaEventCreate(&fork));
  OK(cudaEventCreate(&join));
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  OK(cudaMemcpyAsync(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
  OK(cudaEventRecord(fork, s));
  OK(cudaStreamWaitEvent(s2, fork, 0));
  OK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusActive, "the forked stream captures");
  axpb<<<blocks, 128, 0, s2>>>(y, x, -1.0f, 4.0f, n);
  axpb<<<blocks, 128, 0, s>>>(z, x, 3.0f, 0.0f, n);
  OK(cudaEventRecord(join, s2));
  OK(cudaStreamWaitEvent(s, join, 0));
  add_into<<<blocks, 128, 0, s>>>(z, y, n);
  OK(cudaMemcpyAsync(hy.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  cudaGraph_t g2;
  OK(cudaStreamEndCapture(s, &g2));
  OK(cudaStreamIsCapturing(s2, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "the forked stream left the capture");
  size_t ne = 0;
  OK(cudaGraphGetEdges(g2, nullptr, nullptr, nullptr, &ne));
  // copy -> y-kernel, copy -> z-kernel, both -> add, add -> copy out
  EXPECT(ne == 5, "fork/join graph has 5 edges");
  cudaGraphExec_t ge2;
  OK(cudaGraphInstantiate(&ge2, g2, 0));
  OK(cudaGraphLaunch(ge2, s));
  OK(cudaStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += hy[i] != 3.0f * hx[i] + (-hx[i] + 4.0f);
  EXPECT(bad == 0, "fork/join replay equals the CPU's 2x+4");

  // ---- UpdateCaptureDependencies: a node with no dependency ----
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaMemsetAsync(y, 0, 4, s));
  OK(cudaStreamUpdateCaptureDependencies(s, nullptr, nullptr, 0, cudaStreamSetCaptureDependencies));
  OK(cudaMemsetAsync(z, 0, 4, s));
  cudaGraph_t g3;
  OK(cudaStreamEndCapture(s, &g3));
  size_t nroots = 0;
  OK(cudaGraphGetRootNodes(g3, nullptr, &nroots));
  EXPECT(nroots == 2, "after setting no dependencies the next node is a root");

  // ---- capture into an existing graph, after a given node ----
  int *cnt, hc = 0;
  OK(cudaMalloc(&cnt, sizeof(int)));
  cudaGraph_t eg;
  OK(cudaGraphCreate(&eg, 0));
  cudaGraphNode_t first;
  cudaMemsetParams mp = {};
  mp.dst = cnt;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = 1;
  mp.height = 1;
  OK(cudaGraphAddMemsetNode(&first, eg, nullptr, 0, &mp));
  OK(cudaStreamBeginCaptureToGraph(s, eg, &first, nullptr, 1, cudaStreamCaptureModeGlobal));
  incr<<<2, 32, 0, s>>>(cnt);
  int hostcalls = 0;
  OK(cudaLaunchHostFunc(s, host_count, &hostcalls));
  cudaGraph_t eg_out;
  OK(cudaStreamEndCapture(s, &eg_out));
  EXPECT(eg_out == eg, "EndCapture returns the graph captured into");
  size_t ed = 0;
  OK(cudaGraphGetEdges(eg, nullptr, nullptr, nullptr, &ed));
  EXPECT(ed == 2, "memset -> kernel -> host: 2 edges");
  cudaGraphExec_t ege;
  OK(cudaGraphInstantiate(&ege, eg, 0));
  OK(cudaGraphLaunch(ege, s));
  OK(cudaGraphLaunch(ege, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaMemcpy(&hc, cnt, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(hc == 64, "counter reset then 64 increments (2 blocks of 32)");
  EXPECT(hostcalls == 2, "the captured host function ran once per launch");

  // ---- a graph launched into a capturing stream is not captured: an H200
  // (CUDA 13.0) answers cudaErrorStreamCaptureUnsupported and invalidates
  // the capture (recorded/capture.txt) ----
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  EXPECT_ERR(cudaGraphLaunch(ege, s), cudaErrorStreamCaptureUnsupported, "a graph launch in a capture");
  cudaStreamCaptureStatus cst = cudaStreamCaptureStatusNone;
  OK(cudaStreamIsCapturing(s, &cst));
  EXPECT(cst == cudaStreamCaptureStatusInvalidated, "... which invalidates the capture");
  cudaGraph_t outer = (cudaGraph_t)0x1;
  EXPECT_ERR(cudaStreamEndCapture(s, &outer), cudaErrorStreamCaptureInvalidated, "EndCapture after it");
  EXPECT(outer == nullptr, "no graph from the invalidated capture");
  cudaGetLastError();
  OK(cudaMemcpy(&hc, cnt, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(hc == 64 && hostcalls == 2, "nothing ran");

  // ---- stream-ordered allocation in a capture ----
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  float *tmp = nullptr;
  OK(cudaMallocAsync((void **)&tmp, n * sizeof(float), s));
  EXPECT(tmp != nullptr, "cudaMallocAsync in a capture gives the address");
  axpb<<<blocks, 128, 0, s>>>(tmp, x, 1.0f, 0.5f, n);
  add_into<<<blocks, 128, 0, s>>>(tmp, x, n);
  OK(cudaMemcpyAsync(hy.data(), tmp, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  OK(cudaFreeAsync(tmp, s));
  cudaGraph_t ga;
  OK(cudaStreamEndCapture(s, &ga));
  cudaGraphNode_t an[8];
  size_t nan_ = 8;
  OK(cudaGraphGetNodes(ga, an, &nan_));
  cudaGraphNodeType t0 = cudaGraphNodeTypeCount, t4 = cudaGraphNodeTypeCount;
  if (nan_ == 5) {
    OK(cudaGraphNodeGetType(an[0], &t0));
    OK(cudaGraphNodeGetType(an[4], &t4));
  }
  EXPECT(nan_ == 5 && t0 == cudaGraphNodeTypeMemAlloc && t4 == cudaGraphNodeTypeMemFree,
         "alloc, 2 kernels, copy, free nodes");
  cudaGraphExec_t gae;
  OK(cudaGraphInstantiate(&gae, ga, 0));
  for (int rep = 0; rep < 2; rep++) {
    OK(cudaGraphLaunch(gae, s));
    OK(cudaStreamSynchronize(s));
  }
  bad = 0;
  for (int i = 0; i < n; i++) bad += hy[i] != (hx[i] + 0.5f) + hx[i];
  EXPECT(bad == 0, "stream-ordered allocation graph equals the CPU's 2x+0.5");

  // ---- the other copies and fills: symbols, 2D, 3D ----
  {
    int hs[64], hout[64], h2[8 * 16];
    for (int i = 0; i < 64; i++) hs[i] = 3 * i + 1;
    int *dout;
    OK(cudaMalloc(&dout, sizeof hout));
    size_t pitch;
    unsigned char *d2;
    OK(cudaMallocPitch((void **)&d2, &pitch, 16 * sizeof(int), 8));
    // slices of 2 rows: the 3D fill covers rows 0-1 and 2-3
    cudaPitchedPtr p3 = make_cudaPitchedPtr(d2, pitch, 16 * sizeof(int), 2);
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMemcpyToSymbolAsync(dsym, hs, sizeof hs, 0, cudaMemcpyHostToDevice, s));
    sym_twice<<<1, 64, 0, s>>>(dout);
    OK(cudaMemcpyFromSymbolAsync(hs, dsym, sizeof(int), 4 * sizeof(int), cudaMemcpyDeviceToHost, s));
    OK(cudaMemcpyAsync(hout, dout, sizeof hout, cudaMemcpyDeviceToHost, s));
    // rows 0-3 by a 3D fill (2 slices of 2 rows), rows 4-7 by a 2D fill
    OK(cudaMemset3DAsync(p3, 0x11, make_cudaExtent(16 * sizeof(int), 2, 2), s));
    OK(cudaMemset2DAsync(d2 + 4 * pitch, pitch, 0x22, 16 * sizeof(int), 4, s));
    cudaMemcpy3DParms c3 = {};
    c3.srcPtr = make_cudaPitchedPtr(d2, pitch, 16 * sizeof(int), 8);
    c3.dstPtr = make_cudaPitchedPtr(h2, 16 * sizeof(int), 16 * sizeof(int), 8);
    c3.extent = make_cudaExtent(16 * sizeof(int), 8, 1);
    c3.kind = cudaMemcpyDeviceToHost;
    OK(cudaMemcpy3DAsync(&c3, s));
    cudaGraph_t gs;
    OK(cudaStreamEndCapture(s, &gs));
    size_t ns = 0;
    OK(cudaGraphGetNodes(gs, nullptr, &ns));
    EXPECT(ns == 7, "7 nodes: 2 symbol copies, a kernel, a copy, one fill for both slices, a 2D fill, a 3D copy");
    std::memset(hout, 0, sizeof hout);
    std::memset(h2, 0, sizeof h2);
    hs[4] = -1;
    EXPECT(hs[0] == 1, "captured symbol copies did not run");
    for (int i = 0; i < 64; i++) hs[i] = 3 * i + 1;
    cudaGraphExec_t xs;
    OK(cudaGraphInstantiate(&xs, gs, 0));
    OK(cudaGraphLaunch(xs, s));
    OK(cudaStreamSynchronize(s));
    int oks = 1;
    for (int i = 0; i < 64; i++) oks &= hout[i] == 2 * (3 * i + 1);
    EXPECT(oks, "symbol copy in, kernel 2x, copy out");
    EXPECT(hs[0] == 3 * 4 + 1 && hs[1] == 3 * 1 + 1, "copy of one int from the symbol at offset 4 ints");
    int ok2 = 1;
    for (int r = 0; r < 8; r++)
      for (int c = 0; c < 16; c++) ok2 &= (unsigned)h2[r * 16 + c] == (r < 4 ? 0x11111111u : 0x22222222u);
    EXPECT(ok2, "3D fill of 2 slices, 2D fill, 3D copy out");
    OK(cudaGraphExecDestroy(xs));
    OK(cudaGraphDestroy(gs));
  }

  // ---- the per-thread default stream captures (the legacy one cannot) ----
  {
    OK(cudaMemset(cnt, 0, sizeof(int)));
    OK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
    incr<<<4, 8, 0, cudaStreamPerThread>>>(cnt);
    cudaGraph_t gp;
    OK(cudaStreamEndCapture(cudaStreamPerThread, &gp));
    size_t np = 0;
    OK(cudaGraphGetNodes(gp, nullptr, &np));
    EXPECT(np == 1, "per-thread stream capture: one kernel node");
    cudaGraphExec_t xp;
    OK(cudaGraphInstantiate(&xp, gp, 0));
    OK(cudaGraphLaunch(xp, cudaStreamPerThread));
    OK(cudaGraphLaunch(xp, cudaStreamPerThread));
    OK(cudaStreamSynchronize(cudaStreamPerThread));
    OK(cudaMemcpy(&hc, cnt, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(hc == 64, "two launches of 32 increments");
    OK(cudaGraphExecDestroy(xp));
    OK(cudaGraphDestroy(gp));
  }

  // ---- relaxed mode lets cudaMalloc through ----
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  void *scratch;
  OK(cudaMalloc(&scratch, 256));
  cudaGraph_t gr;
  OK(cudaStreamEndCapture(s, &gr));
  OK(cudaFree(scratch));

  OK(cudaGraphExecDestroy(ge));
  OK(cudaGraphExecDestroy(ge2));
  OK(cudaGraphExecDestroy(ege));
  OK(cudaGraphExecDestroy(gae));
  for (cudaGraph_t d : {g, g2, g3, eg, ga, gr}) OK(cudaGraphDestroy(d));
  OK(cudaDeviceSynchronize());
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
