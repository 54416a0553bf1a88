// pending.cu: more device launches than cudaLimitDevRuntimePendingLaunchCount
// allows at once. The children wait for a flag the parent sets after its
// loop, so none can finish while the parent launches; the launches past the
// limit fail with cudaErrorLaunchPendingCountExceeded.
#include <cstdio>
#include <cstdlib>

__device__ volatile int go;
__device__ int done;

__global__ void waiter() {
  while (!go) {
  }
  atomicAdd(&done, 1);
}

__global__ void parent(int n, int *res) {
  int ok = 0, fail = 0, last = 0;
  for (int i = 0; i < n; i++) {
    waiter<<<1, 1, 0, cudaStreamFireAndForget>>>();
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
      ok++;
    else {
      fail++;
      last = (int)e;
    }
  }
  __threadfence();
  go = 1;
  res[0] = ok;
  res[1] = fail;
  res[2] = last;
}

static void run(size_t limit, int n) {
  if (limit) cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit);
  size_t got = 0;
  cudaDeviceGetLimit(&got, cudaLimitDevRuntimePendingLaunchCount);
  int zero = 0, *res;
  cudaMemcpyToSymbol(go, &zero, sizeof zero);
  cudaMemcpyToSymbol(done, &zero, sizeof zero);
  cudaMalloc(&res, 3 * sizeof(int));
  parent<<<1, 1>>>(n, res);
  cudaError_t e = cudaDeviceSynchronize();
  int r[3] = {-1, -1, -1}, dn = -1;
  cudaMemcpy(r, res, sizeof r, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&dn, done, sizeof dn);
  printf("pending: limit %zu, %d launches: sync %d, %d ok, %d failed (error %d), %d children ran\n", got, n, (int)e,
         r[0], r[1], r[2], dn);
  cudaFree(res);
}

int main() {
  run(0, 100);
  run(0, 2100);
  run(32, 100);
  return 0;
}
