// driver.cu: the driver API's graph calls on the same objects: a capture
// with cuStreamBeginCapture / cuLaunchKernel / cuMemsetD32Async /
// cuMemcpyDtoHAsync, the capture info, an explicit graph with kernel,
// memset, memcpy (CUDA_MEMCPY3D) and host nodes, update of a kernel node in
// the executable, clone, DOT; results against the CPU.
#include <cuda.h>
#include <cstring>
#include <vector>
#include "check.h"

#define CU(call) EXPECT_ERR((cudaError_t)(call), cudaSuccess, #call)

__global__ void scale_add(int *a, int k, int c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * k + c;
}

static void bump(void *p) { ++*(int *)p; }

int main() {
  const int n = 128;
  CU(cuInit(0));
  int *d;
  OK(cudaMalloc(&d, n * sizeof(int)));
  CUdeviceptr dp = (CUdeviceptr)d;
  CUfunction f;
  OK(cudaGetFuncBySymbol((cudaFunction_t *)&f, (const void *)scale_add));
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  std::vector<int> h(n, -1);

  // ---- capture ----
  CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CU(cuMemsetD32Async(dp, 5, n, s));
  int k = 3, c = 1, nn = n;
  void *args[] = {&d, &k, &c, &nn};
  CU(cuLaunchKernel(f, n / 32, 1, 1, 32, 1, 1, 0, s, args, nullptr));
  CUstreamCaptureStatus st;
  cuuint64_t id = 0;
  CUgraph cg;
  const CUgraphNode *deps;
  size_t nd = 0;
  CU(cuStreamGetCaptureInfo(s, &st, &id, &cg, &deps, nullptr, &nd));
  EXPECT(st == CU_STREAM_CAPTURE_STATUS_ACTIVE && nd == 1, "driver capture info: active, one dependency");
  CUgraphNodeType t;
  if (nd == 1) CU(cuGraphNodeGetType(deps[0], &t));
  EXPECT(nd == 1 && t == CU_GRAPH_NODE_TYPE_KERNEL, "the dependency is the kernel");
  CU(cuMemcpyDtoHAsync(h.data(), dp, n * sizeof(int), s));
  CUgraph g;
  CU(cuStreamEndCapture(s, &g));
  size_t num = 0;
  CU(cuGraphGetNodes(g, nullptr, &num));
  EXPECT(num == 3, "memset, kernel, copy captured");
  EXPECT(h[0] == -1, "nothing ran during the capture");
  CUgraphExec x;
  CU(cuGraphInstantiate(&x, g, 0));
  CU(cuGraphLaunch(x, s));
  CU(cuStreamSynchronize(s));
  int ok = 1;
  for (int i = 0; i < n; i++) ok &= h[i] == 5 * 3 + 1;
  EXPECT(ok, "captured graph: 5*3+1 everywhere");

  // ---- explicit: memset -> kernel -> memcpy -> host ----
  CUgraph eg;
  CU(cuGraphCreate(&eg, 0));
  CUDA_MEMSET_NODE_PARAMS ms = {};
  ms.dst = dp;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  CUgraphNode nset, nker, ncpy, nhost;
  CU(cuGraphAddMemsetNode(&nset, eg, nullptr, 0, &ms, nullptr));
  int k2 = 2, c2 = 9;
  void *args2[] = {&d, &k2, &c2, &nn};
  CUDA_KERNEL_NODE_PARAMS kp = {};
  kp.func = f;
  kp.gridDimX = n / 32;
  kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = 32;
  kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = args2;
  CU(cuGraphAddKernelNode(&nker, eg, &nset, 1, &kp));
  CUDA_MEMCPY3D cp = {};
  cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  cp.srcDevice = dp;
  cp.srcPitch = n * sizeof(int);
  cp.dstMemoryType = CU_MEMORYTYPE_HOST;
  cp.dstHost = h.data();
  cp.dstPitch = n * sizeof(int);
  cp.WidthInBytes = n * sizeof(int);
  cp.Height = 1;
  cp.Depth = 1;
  CU(cuGraphAddMemcpyNode(&ncpy, eg, &nker, 1, &cp, nullptr));
  int calls = 0;
  CUDA_HOST_NODE_PARAMS hp = {bump, &calls};
  CU(cuGraphAddHostNode(&nhost, eg, &ncpy, 1, &hp));
  CUDA_KERNEL_NODE_PARAMS kb = {};
  CU(cuGraphKernelNodeGetParams(nker, &kb));
  EXPECT(kb.func == f && kb.gridDimX == n / 32 && *(int *)kb.kernelParams[2] == 9, "kernel node read back");
  CUgraphExec ex;
  CU(cuGraphInstantiateWithFlags(&ex, eg, 0));
  CU(cuGraphLaunch(ex, s));
  CU(cuStreamSynchronize(s));
  ok = 1;
  for (int i = 0; i < n; i++) ok &= h[i] == 9;
  EXPECT(ok && calls == 1, "explicit driver graph: 0*2+9, host node once");
  int c3 = 40;
  void *args3[] = {&d, &k2, &c3, &nn};
  kp.kernelParams = args3;
  CU(cuGraphExecKernelNodeSetParams(ex, nker, &kp));
  CU(cuGraphLaunch(ex, s));
  CU(cuStreamSynchronize(s));
  EXPECT(h[n - 1] == 40 && calls == 2, "exec kernel node set params: 0*2+40");
  CUgraph cl;
  CU(cuGraphClone(&cl, eg));
  CUgraphExecUpdateResultInfo info;
  CU(cuGraphExecUpdate(ex, cl, &info));
  CU(cuGraphLaunch(ex, s));
  CU(cuStreamSynchronize(s));
  EXPECT(h[0] == 9 && calls == 3, "update from the clone restores 0*2+9");
  // cuGraphAddNode: a kernel (v3 layout) and a copy (CUDA_MEMCPY_NODE_PARAMS)
  // after the host node: out = 0*2+9 again, then +1 per element by a second
  // kernel node made through the generic call
  CUgraphNodeParams np = {};
  np.type = CU_GRAPH_NODE_TYPE_KERNEL;
  int k1 = 1, c1 = 1;
  void *args4[] = {&d, &k1, &c1, &nn};
  np.kernel.func = f;
  np.kernel.gridDimX = n / 32;
  np.kernel.gridDimY = np.kernel.gridDimZ = 1;
  np.kernel.blockDimX = 32;
  np.kernel.blockDimY = np.kernel.blockDimZ = 1;
  np.kernel.kernelParams = args4;
  CUgraphNode ngk, ngc;
  CU(cuGraphAddNode(&ngk, cl, nullptr, nullptr, 0, &np));
  CUgraphNode clhost;
  CU(cuGraphNodeFindInClone(&clhost, nhost, cl));
  CU(cuGraphAddDependencies(cl, &clhost, &ngk, nullptr, 1));
  CUgraphNodeParams mp2 = {};
  mp2.type = CU_GRAPH_NODE_TYPE_MEMCPY;
  mp2.memcpy.copyParams = cp;
  CU(cuGraphAddNode(&ngc, cl, &ngk, nullptr, 1, &mp2));
  CUgraphExec ex2;
  CU(cuGraphInstantiate(&ex2, cl, 0));
  CU(cuGraphLaunch(ex2, s));
  CU(cuStreamSynchronize(s));
  ok = 1;
  for (int i = 0; i < n; i++) ok &= h[i] == 9 * 1 + 1;
  EXPECT(ok && calls == 4, "cuGraphAddNode kernel and copy: 9*1+1");
  CU(cuGraphExecDestroy(ex2));
  CU(cuGraphDebugDotPrint(eg, "graphs_driver.dot", 0));
  FILE *fd = std::fopen("graphs_driver.dot", "r");
  char buf[8192] = {0};
  if (fd) {
    size_t r = std::fread(buf, 1, sizeof buf - 1, fd);
    buf[r] = 0;
    std::fclose(fd);
    std::remove("graphs_driver.dot");
  }
  EXPECT(std::strstr(buf, "scale_add") != nullptr, "DOT names the kernel");
  EXPECT_ERR((cudaError_t)cuGraphLaunch(nullptr, s), cudaErrorInvalidValue, "cuGraphLaunch of NULL");
  CU(cuGraphExecDestroy(x));
  CU(cuGraphExecDestroy(ex));
  CU(cuGraphDestroy(g));
  CU(cuGraphDestroy(eg));
  CU(cuGraphDestroy(cl));
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
