// Allocations, copies and fills: device, pinned host, managed.
#include <cstdio>
__global__ void add1(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}
int main() {
  const int n = 1000;
  float *d, *h, *m;
  cudaMalloc(&d, n * sizeof(float));
  cudaMallocHost(&h, n * sizeof(float));
  cudaMallocManaged(&m, n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = i, m[i] = 2 * i;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  add1<<<(n + 255) / 256, 256>>>(d, n);
  add1<<<(n + 255) / 256, 256>>>(m, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  printf("h[10]=%g m[10]=%g\n", h[10], m[10]);
  cudaMemset(d, 0, n * sizeof(float));
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDefault);
  printf("after memset h[10]=%g\n", h[10]);
  size_t fr, tot;
  cudaMemGetInfo(&fr, &tot);
  printf("meminfo ok=%d\n", fr > 0 && tot >= fr);
  cudaFree(d);
  cudaFreeHost(h);
  cudaFree(m);
  printf("last=%d\n", (int)cudaGetLastError());
  return 0;
}
