// api.cu: the device runtime's queries and error calls from a kernel.
#include <cstdio>

__global__ void child(int *p) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void probe(int *p) {
  int dev = -1, count = -1, warp = -1, maxt = -1, ver = -1;
  cudaGetDevice(&dev);
  cudaGetDeviceCount(&count);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
  cudaDeviceGetAttribute(&maxt, cudaDevAttrMaxThreadsPerBlock, dev);
  cudaRuntimeGetVersion(&ver);
  printf("device %d of %d, warp %d, max threads %d, runtime %d\n", dev, count, warp, maxt, ver);
  size_t pending = 0, heap = 0;
  cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount);
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("limits: pending %zu, heap %zu\n", pending, heap);
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, child);
  printf("attributes %d: max threads %d, static shared %zu\n", (int)e, a.maxThreadsPerBlock, a.sharedSizeBytes);
  printf("registers %d, local %zu, ptx %d, binary %d\n", a.numRegs, a.localSizeBytes, a.ptxVersion, a.binaryVersion);
  int blocks = -1;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, child, 64, 0);
  printf("occupancy %d: %d blocks of 64 threads\n", (int)e, blocks);
  printf("names: %s / %s\n", cudaGetErrorName(cudaErrorInvalidValue), cudaGetErrorString(cudaErrorLaunchPendingCountExceeded));
  child<<<1, 2048>>>(p);
  e = cudaPeekAtLastError();
  cudaError_t e2 = cudaGetLastError(), e3 = cudaGetLastError();
  printf("bad launch: peek %d, get %d, get again %d\n", (int)e, (int)e2, (int)e3);
  child<<<1, 64, 100000>>>(p);
  printf("too much shared memory: %d\n", (int)cudaGetLastError());
  child<<<1, 64>>>(p);
  printf("good launch: %d\n", (int)cudaGetLastError());
}

int main() {
  int *p, h[64];
  cudaMalloc(&p, sizeof h);
  probe<<<1, 1>>>(p);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, p, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 64; i++) bad += h[i] != 63 - i;
  printf("api: sync %d, %d wrong values\n", (int)e, bad);
  return 0;
}
