// Dynamic shared memory above 48 KiB (cudaFuncSetAttribute), static
// shared memory, function attributes and occupancy.
#include <cstdio>
__global__ void rev(int *a, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  for (int i = t; i < n; i += blockDim.x) s[i] = a[i];
  __syncthreads();
  for (int i = t; i < n; i += blockDim.x) a[i] = s[n - 1 - i];
}
__global__ void tile(float *o) {
  __shared__ float t[32][33];
  t[threadIdx.y][threadIdx.x] = threadIdx.x + 100 * threadIdx.y;
  __syncthreads();
  o[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
int main() {
  const int n = 20000;  // 80000 bytes
  int *d, *h = new int[n];
  for (int i = 0; i < n; i++) h[i] = i;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  rev<<<1, 256, n * sizeof(int)>>>(d, n);
  printf("without attribute: %d\n", (int)cudaGetLastError());
  cudaError_t a = cudaFuncSetAttribute(rev, cudaFuncAttributeMaxDynamicSharedMemorySize, n * sizeof(int));
  rev<<<1, 256, n * sizeof(int)>>>(d, n);
  printf("attr=%d launch=%d\n", (int)a, (int)cudaGetLastError());
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("h[0]=%d h[%d]=%d\n", h[0], n - 1, h[n - 1]);
  float *o, ho[1024];
  cudaMalloc(&o, sizeof ho);
  tile<<<1, dim3(32, 32)>>>(o);
  cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
  printf("tile[1]=%g\n", ho[1]);
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, tile);
  printf("tile static smem=%zu maxthreads=%d\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tile, 1024, 0);
  printf("occupancy blocks=%d\n", blocks);
  rev<<<1, 2048>>>(d, n);
  printf("bad block: %d\n", (int)cudaGetLastError());
  return 0;
}
