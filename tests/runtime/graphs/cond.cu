// cond.cu: conditional nodes with the value set by kernels through
// cudaGraphSetConditional: a while loop whose body halves a number until it
// is 1 (counting the steps: 1000 takes 10 halvings, 1000/2^10 rounded down
// reaches 0 at the 10th, the loop stops once the value is <= 1), an if/else
// choosing by sign, a switch on a value mod 3, the default value assigned
// at each launch, and a body built by capture (cudaStreamBeginCaptureToGraph).
#include "check.h"

__global__ void halve(int *v, int *steps, cudaGraphConditionalHandle h) {
  *v /= 2;
  ++*steps;
  cudaGraphSetConditional(h, *v > 1);
}

__global__ void set_from(const int *v, cudaGraphConditionalHandle h, int mode) {
  cudaGraphSetConditional(h, mode == 0 ? (*v > 0) : (unsigned)(*v % 3));
}

__global__ void put(int *out, int x) { *out = x; }

int main() {
  int *v, *steps, *out;
  OK(cudaMalloc(&v, sizeof(int)));
  OK(cudaMalloc(&steps, sizeof(int)));
  OK(cudaMalloc(&out, sizeof(int)));
  cudaStream_t s;
  OK(cudaStreamCreate(&s));

  // ---- while: halve until <= 1; the default value 1 enters the loop ----
  cudaGraph_t g;
  OK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  OK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t wn;
  OK(cudaGraphAddNode(&wn, g, nullptr, nullptr, 0, &cp));
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  void *args[] = {&v, &steps, &h};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)halve;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t hk;
  OK(cudaGraphAddKernelNode(&hk, body, nullptr, 0, &kp));
  cudaGraphExec_t ge;
  OK(cudaGraphInstantiate(&ge, g, 0));
  int inputs[] = {1000, 7, 2};
  for (int x : inputs) {
    int zero = 0, hv = 0, hs = 0;
    OK(cudaMemcpy(v, &x, sizeof x, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(steps, &zero, sizeof zero, cudaMemcpyHostToDevice));
    OK(cudaGraphLaunch(ge, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(&hv, v, sizeof hv, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(&hs, steps, sizeof hs, cudaMemcpyDeviceToHost));
    int rv = x, rs = 0;
    do {
      rv /= 2;
      rs++;
    } while (rv > 1);
    char what[96];
    std::snprintf(what, sizeof what, "while loop from %d: %d halvings, ends at %d", x, rs, rv);
    EXPECT(hv == rv && hs == rs, what);
  }

  // ---- if/else on the sign, switch on value mod 3 (bodies by capture) ----
  cudaGraph_t g2;
  OK(cudaGraphCreate(&g2, 0));
  cudaGraphConditionalHandle hi, hsw;
  OK(cudaGraphConditionalHandleCreate(&hi, g2, 0, 0));
  OK(cudaGraphConditionalHandleCreate(&hsw, g2, 0, 0));
  int m0 = 0, m1 = 1;
  void *a0[] = {&v, &hi, &m0};
  kp.func = (void *)set_from;
  kp.kernelParams = a0;
  cudaGraphNode_t setif, setsw, ifn, swn;
  OK(cudaGraphAddKernelNode(&setif, g2, nullptr, 0, &kp));
  void *a1[] = {&v, &hsw, &m1};
  kp.kernelParams = a1;
  OK(cudaGraphAddKernelNode(&setsw, g2, &setif, 1, &kp));
  cudaGraphNodeParams ip = {};
  ip.type = cudaGraphNodeTypeConditional;
  ip.conditional.handle = hi;
  ip.conditional.type = cudaGraphCondTypeIf;
  ip.conditional.size = 2;
  OK(cudaGraphAddNode(&ifn, g2, &setsw, nullptr, 1, &ip));
  cudaGraph_t then_g = ip.conditional.phGraph_out[0], else_g = ip.conditional.phGraph_out[1];
  cudaGraphNodeParams sp = {};
  sp.type = cudaGraphNodeTypeConditional;
  sp.conditional.handle = hsw;
  sp.conditional.type = cudaGraphCondTypeSwitch;
  sp.conditional.size = 3;
  OK(cudaGraphAddNode(&swn, g2, &ifn, nullptr, 1, &sp));
  // then: out = 100; else: out = 200; switch n: out += n + 1 (by capture)
  OK(cudaStreamBeginCaptureToGraph(s, then_g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  put<<<1, 1, 0, s>>>(out, 100);
  cudaGraph_t tmp;
  OK(cudaStreamEndCapture(s, &tmp));
  OK(cudaStreamBeginCaptureToGraph(s, else_g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  put<<<1, 1, 0, s>>>(out, 200);
  OK(cudaStreamEndCapture(s, &tmp));
  for (int k = 0; k < 3; k++) {
    OK(cudaStreamBeginCaptureToGraph(s, sp.conditional.phGraph_out[k], nullptr, nullptr, 0,
                                     cudaStreamCaptureModeGlobal));
    put<<<1, 1, 0, s>>>(out + 0, 0); // placeholder, replaced below
    OK(cudaStreamEndCapture(s, &tmp));
  }
  // the switch bodies write 1000 + k (set through the node parameters)
  for (int k = 0; k < 3; k++) {
    cudaGraphNode_t bn;
    size_t one = 1;
    OK(cudaGraphGetNodes(sp.conditional.phGraph_out[k], &bn, &one));
    int val = 1000 + k;
    void *pa[] = {&out, &val};
    cudaKernelNodeParams pp = {};
    pp.func = (void *)put;
    pp.gridDim = dim3(1);
    pp.blockDim = dim3(1);
    pp.kernelParams = pa;
    OK(cudaGraphKernelNodeSetParams(bn, &pp));
  }
  int *out2;
  OK(cudaMalloc(&out2, sizeof(int)));
  cudaGraphExec_t ge2;
  OK(cudaGraphInstantiate(&ge2, g2, 0));
  int xs[] = {5, -4, 9, 0, 7};
  for (int x : xs) {
    int hv = 0;
    OK(cudaMemcpy(v, &x, sizeof x, cudaMemcpyHostToDevice));
    OK(cudaGraphLaunch(ge2, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(&hv, out, sizeof hv, cudaMemcpyDeviceToHost));
    // the switch runs last and overwrites: body x%3 when 0 <= x%3 < 3
    int r = x % 3;
    unsigned ur = (unsigned)r;
    int want = ur < 3 ? 1000 + r : (x > 0 ? 100 : 200);
    char what[96];
    std::snprintf(what, sizeof what, "if/switch for %d: out %d", x, want);
    EXPECT(hv == want, what);
  }
  // without the switch node its handle is used by no node: an H200
  // refuses to instantiate the graph
  OK(cudaGraphDestroyNode(swn));
  cudaGraphExec_t ge3;
  EXPECT_ERR(cudaGraphInstantiate(&ge3, g2, 0), cudaErrorInvalidValue,
             "a graph with a conditional handle no node uses");
  cudaGetLastError();
  cudaGraph_t cl;
  EXPECT_ERR(cudaGraphClone(&cl, g2), cudaErrorNotSupported, "a graph with conditional nodes cannot be cloned");
  OK(cudaGraphExecDestroy(ge));
  OK(cudaGraphExecDestroy(ge2));
  OK(cudaGraphDestroy(g));
  OK(cudaGraphDestroy(g2));
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
