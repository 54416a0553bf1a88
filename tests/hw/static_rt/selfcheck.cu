// selfcheck.cu: runtime functions whose static-runtime path goes through
// driver entry points of smemu's beyond the recorded programs' (3D copies,
// stream-ordered allocation, managed-memory hints, occupancy, attributes).
// Each call must succeed, as on a GPU, and the data must be what arithmetic
// says; prints "selfcheck: N checks passed" or each failure (exit 1).
#include <cstdio>
__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}
static int fails, checks;
static void ok(cudaError_t e, const char *what) {
  checks++;
  if (e != cudaSuccess) { fails++; printf("FAIL %s: %s\n", what, cudaGetErrorName(e)); }
}
static void eq(double got, double want, const char *what) {
  checks++;
  if (got != want) { fails++; printf("FAIL %s: %g, want %g\n", what, got, want); }
}
static float src[4][8][64], back[4][8][64];
int main() {
  cudaStream_t s;
  ok(cudaStreamCreate(&s), "cudaStreamCreate");
  float *a = 0, h[1024];
  ok(cudaMallocAsync((void **)&a, 4096, s), "cudaMallocAsync");
  fill<<<4, 256, 0, s>>>(a, 1024);
  ok(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
  ok(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  eq(h[1000], 1000, "h[1000]");
  ok(cudaFreeAsync(a, s), "cudaFreeAsync");
  cudaPitchedPtr pp;
  cudaExtent e = make_cudaExtent(64 * sizeof(float), 8, 4);
  ok(cudaMalloc3D(&pp, e), "cudaMalloc3D");
  for (int z = 0; z < 4; z++)
    for (int y = 0; y < 8; y++)
      for (int x = 0; x < 64; x++) src[z][y][x] = z * 1000 + y * 100 + x;
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(src, 64 * sizeof(float), 64, 8);
  p.dstPtr = pp;
  p.extent = e;
  p.kind = cudaMemcpyHostToDevice;
  ok(cudaMemcpy3D(&p), "cudaMemcpy3D to the device");
  cudaMemcpy3DParms q = {};
  q.srcPtr = pp;
  q.srcPos = make_cudaPos(4 * sizeof(float), 1, 1);  // from (x 4, y 1, z 1)
  q.dstPtr = make_cudaPitchedPtr(back, 64 * sizeof(float), 64, 8);
  q.extent = make_cudaExtent(60 * sizeof(float), 7, 3);
  q.kind = cudaMemcpyDeviceToHost;
  ok(cudaMemcpy3DAsync(&q, s), "cudaMemcpy3DAsync back, offset");
  ok(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  eq(back[0][0][0], 1104, "back[0][0][0]");
  eq(back[2][6][59], 3763, "back[2][6][59]");
  ok(cudaMemset3D(pp, 0, e), "cudaMemset3D");
  float *m;
  ok(cudaMallocManaged(&m, 4096), "cudaMallocManaged");
  ok(cudaMemPrefetchAsync(m, 4096, cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, s), "cudaMemPrefetchAsync");
  ok(cudaMemAdvise(m, 4096, cudaMemAdviseSetReadMostly, cudaMemLocation{cudaMemLocationTypeDevice, 0}),
     "cudaMemAdvise");
  ok(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachGlobal), "cudaStreamAttachMemAsync");
  int minGrid = 0, bs = 0;
  ok(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, fill, 0, 0), "cudaOccupancyMaxPotentialBlockSize");
  eq(bs > 0 && bs <= 1024 && bs % 32 == 0, 1, "block size a multiple of 32");
  ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  int v = 0;
  ok(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture1DWidth, 0), "cudaDeviceGetAttribute");
  cudaDeviceProp prop;
  ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  eq(v, prop.maxTexture1D, "attribute = property");
  size_t lim;
  ok(cudaDeviceGetLimit(&lim, cudaLimitStackSize), "cudaDeviceGetLimit");
  ok(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20), "cudaDeviceSetLimit");
  cudaFuncAttributes fa;
  ok(cudaFuncGetAttributes(&fa, fill), "cudaFuncGetAttributes");
  ok(cudaFree(m), "cudaFree");
  ok(cudaFree(pp.ptr), "cudaFree 3D");
  ok(cudaStreamDestroy(s), "cudaStreamDestroy");
  ok(cudaGetLastError(), "cudaGetLastError");
  if (fails) return 1;
  printf("selfcheck: %d checks passed\n", checks);
  return 0;
}
