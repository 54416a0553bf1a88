// stress.cu: a pseudo-random sequence (a fixed LCG seed, so every run is
// the same) of graph and capture calls on handles drawn from pools that
// hold live, destroyed and made-up handles, with random dependencies
// (from the graph, from other graphs, stale), sizes past their buffers and
// NULL outputs. The runtime must answer each with an error code or do it:
// the program must not crash, hang or corrupt (the final kernel and copy
// still give the right answer), and a successful call must have its
// documented effect where this can check it cheaply (node counts).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include "check.h"

__global__ void inc(int *p) { atomicAdd(p, 1); }

static uint64_t rng = 0x243F6A8885A308D3ull;
static unsigned rnd(unsigned n) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(rng >> 33) % n;
}

static int host_calls;
static void host_fn(void *) { host_calls++; }

const int NG = 8, NN = 64, NX = 6, NS = 3, NE = 3;
static cudaGraph_t graphs[NG];
static cudaGraphNode_t nodes[NN];
static cudaGraphExec_t execs[NX];

template <class T> static T pick(T *pool, int n) {
  unsigned r = rnd(n + 2);
  if (r == (unsigned)n) return nullptr;
  if (r == (unsigned)n + 1) return (T)(uintptr_t)(0x1000 + 8 * rnd(1000)); // made up
  return pool[r];
}

int main(int argc, char **argv) {
  // another sequence: stress SEED
  if (argc > 1) rng ^= std::strtoull(argv[1], nullptr, 0) * 0x9E3779B97F4A7C15ull;
  int *d, *buf;
  OK(cudaMalloc(&d, sizeof(int)));
  OK(cudaMalloc(&buf, 4096));
  cudaStream_t streams[NS];
  cudaEvent_t events[NE];
  for (auto &s : streams) OK(cudaStreamCreate(&s));
  for (auto &e : events) OK(cudaEventCreate(&e));
  const int NOPS = 22;
  int counts[NOPS] = {0};
  for (int step = 0; step < 20000; step++) {
    unsigned op = rnd(NOPS);
    cudaError_t e = cudaSuccess;
    cudaGraph_t g = pick(graphs, NG);
    cudaGraphNode_t deps[3] = {pick(nodes, NN), pick(nodes, NN), pick(nodes, NN)};
    size_t nd = rnd(4);
    cudaGraphNode_t *slot = &nodes[rnd(NN)];
    cudaStream_t s = streams[rnd(NS)];
    switch (op) {
    case 0: e = cudaGraphCreate(&graphs[rnd(NG)], 0); break;
    case 1: e = cudaGraphAddEmptyNode(slot, g, deps, nd); break;
    case 2: {
      cudaHostNodeParams hp = {host_fn, nullptr};
      e = cudaGraphAddHostNode(slot, g, deps, nd, &hp);
      break;
    }
    case 3: {
      cudaMemsetParams mp = {};
      mp.dst = (char *)buf + rnd(5000);
      mp.value = rnd(256);
      mp.elementSize = 1u << rnd(4);
      mp.width = rnd(2000);
      mp.height = 1 + rnd(2);
      mp.pitch = rnd(3000);
      e = cudaGraphAddMemsetNode(slot, g, deps, nd, &mp);
      break;
    }
    case 4: {
      void *args[] = {&d};
      cudaKernelNodeParams kp = {};
      kp.func = rnd(4) ? (void *)inc : (void *)host_fn;
      kp.gridDim = dim3(1 + rnd(2));
      kp.blockDim = dim3(rnd(3) * 32 + (rnd(5) == 0 ? 5000 : 0));
      kp.kernelParams = rnd(5) ? args : nullptr;
      e = cudaGraphAddKernelNode(slot, g, deps, nd, &kp);
      break;
    }
    case 5: e = cudaGraphAddChildGraphNode(slot, g, deps, nd, pick(graphs, NG)); break;
    case 6: {
      cudaGraphNode_t to = pick(nodes, NN);
      e = rnd(2) ? cudaGraphAddDependencies(g, deps, &to, nullptr, 1)
                 : cudaGraphRemoveDependencies(g, deps, &to, nullptr, 1);
      break;
    }
    case 7: e = cudaGraphDestroyNode(pick(nodes, NN)); break;
    case 8: {
      cudaGraphExec_t *x = &execs[rnd(NX)];
      e = cudaGraphInstantiate(x, g, rnd(4) ? 0 : rnd(16));
      break;
    }
    case 9: e = cudaGraphLaunch(pick(execs, NX), s); break;
    case 10: {
      cudaGraphExecUpdateResultInfo info;
      e = cudaGraphExecUpdate(pick(execs, NX), g, rnd(2) ? &info : nullptr);
      break;
    }
    case 11: {
      cudaGraphExec_t *x = &execs[rnd(NX)];
      e = cudaGraphExecDestroy(*x);
      if (!e) *x = nullptr;
      break;
    }
    case 12: {
      int k = rnd(NG);
      if (rnd(3) == 0) {
        e = cudaGraphClone(&graphs[k], g);
      } else {
        e = cudaGraphDestroy(graphs[k]);
        // the handle stays in the pool: a destroyed graph is a stale handle now
      }
      break;
    }
    case 13: {
      // a capture on a random stream, some work, maybe a fork, then its end
      cudaStreamCaptureMode m = (cudaStreamCaptureMode)rnd(4);
      e = cudaStreamBeginCapture(s, m);
      if (rnd(2)) inc<<<1, 1, 0, s>>>(d);
      if (rnd(3) == 0) {
        cudaStream_t s2 = streams[rnd(NS)];
        cudaEventRecord(events[rnd(NE)], s);
        cudaStreamWaitEvent(s2, events[rnd(NE)], 0);
        inc<<<1, 1, 0, s2>>>(d);
      }
      if (rnd(4) == 0) cudaStreamSynchronize(streams[rnd(NS)]);
      if (rnd(5) == 0) cudaMemsetAsync(buf, 0, rnd(5000), s);
      cudaGraph_t out = nullptr;
      cudaError_t e2 = cudaStreamEndCapture(streams[rnd(NS)], &out);
      if (!e2 && out) graphs[rnd(NG)] = out;
      // end whatever is still open on the other streams
      for (auto &t : streams) {
        cudaStreamCaptureStatus st;
        if (cudaStreamIsCapturing(t, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone) {
          cudaGraph_t o2 = nullptr;
          cudaStreamEndCapture(t, &o2);
          if (o2) cudaGraphDestroy(o2);
        }
      }
      break;
    }
    case 14: {
      size_t n = rnd(8);
      cudaGraphNode_t out[8], to[8];
      switch (rnd(4)) {
      case 0: e = cudaGraphGetNodes(g, rnd(4) ? out : nullptr, rnd(8) ? &n : nullptr); break;
      case 1: e = cudaGraphGetRootNodes(g, rnd(4) ? out : nullptr, &n); break;
      case 2: e = cudaGraphGetEdges(g, rnd(4) ? out : nullptr, rnd(4) ? to : nullptr, nullptr, &n); break;
      default: e = cudaGraphNodeGetDependencies(deps[0], rnd(4) ? out : nullptr, nullptr, &n); break;
      }
      break;
    }
    case 16: {
      cudaMemAllocNodeParams ap = {};
      ap.poolProps.allocType = cudaMemAllocationTypePinned;
      ap.poolProps.location.type = cudaMemLocationTypeDevice;
      ap.bytesize = rnd(3) ? 256 : 0;
      e = cudaGraphAddMemAllocNode(slot, g, deps, nd, &ap);
      if (!e && rnd(2)) {
        cudaGraphNode_t fr;
        cudaGraphAddMemFreeNode(&fr, g, slot, 1, ap.dptr);
      }
      break;
    }
    case 17: e = cudaGraphAddEventRecordNode(slot, g, deps, nd, rnd(4) ? events[rnd(NE)] : nullptr); break;
    case 18: {
      // a child graph's own handle joins the pool: graphs inside graphs get changed
      cudaGraph_t c = nullptr;
      e = cudaGraphChildGraphNodeGetGraph(pick(nodes, NN), &c);
      if (!e) graphs[rnd(NG)] = c;
      break;
    }
    case 19: {
      // a while loop with a non-zero value and nothing to change it would
      // never end (smemu stops it with an error, which would end the
      // sequence): while nodes start at 0
      cudaGraphConditionalHandle h = 0;
      cudaGraphConditionalNodeType ct = (cudaGraphConditionalNodeType)rnd(3);
      e = cudaGraphConditionalHandleCreate(&h, g, ct == cudaGraphCondTypeWhile ? 0 : rnd(2), rnd(2));
      if (!e) {
        cudaGraphNodeParams cp = {};
        cp.type = cudaGraphNodeTypeConditional;
        cp.conditional.handle = h;
        cp.conditional.type = ct;
        cp.conditional.size = 1 + rnd(2);
        e = cudaGraphAddNode(slot, g, deps, nullptr, nd, &cp);
        if (!e && rnd(2)) {
          cudaHostNodeParams hp = {host_fn, nullptr};
          cudaGraphNode_t b;
          cudaGraphAddHostNode(&b, cp.conditional.phGraph_out[0], nullptr, 0, &hp);
        }
      }
      break;
    }
    case 20: {
      void *args[] = {&d};
      cudaKernelNodeParams kp = {};
      kp.func = (void *)inc;
      kp.gridDim = dim3(1);
      kp.blockDim = dim3(1 + rnd(64));
      kp.kernelParams = args;
      e = rnd(2) ? cudaGraphExecKernelNodeSetParams(pick(execs, NX), pick(nodes, NN), &kp)
                 : cudaGraphNodeSetEnabled(pick(execs, NX), pick(nodes, NN), rnd(2));
      break;
    }
    case 21: e = cudaGraphExecChildGraphNodeSetParams(pick(execs, NX), pick(nodes, NN), pick(graphs, NG)); break;
    default: {
      const char *path = "stress.dot";
      e = cudaGraphDebugDotPrint(g, rnd(8) ? path : nullptr, rnd(3));
      std::remove(path);
      break;
    }
    }
    counts[op] += e == cudaSuccess;
    if (rnd(50) == 0) cudaStreamSynchronize(s);
    cudaGetLastError();
  }
  cudaDeviceSynchronize();
  cudaGetLastError();
  int ok_ops = 0;
  for (int k = 0; k < NOPS; k++) ok_ops += counts[k] > 0;
  std::printf("successful calls per kind:");
  for (int k = 0; k < NOPS; k++) std::printf(" %d", counts[k]);
  std::printf("\n");
  EXPECT(ok_ops >= 16, "most kinds of call succeeded at least once");
  // the runtime still works
  int h = -1;
  OK(cudaMemset(d, 0, sizeof(int)));
  inc<<<3, 32>>>(d);
  OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  EXPECT(h == 96, "after the sequence a kernel counts 96");
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
