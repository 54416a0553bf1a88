// standin.cu: a kernel whose fatbinary holds SASS for one architecture and
// PTX only for a newer one, as CuPy's precompiled CUB and NVIDIA's cuRAND
// are built. A GPU of the SASS's architecture runs the SASS; smemu, which
// runs PTX, runs the newer PTX in its place, so the kernel sees that PTX's
// __CUDA_ARCH__ (each element carries it, divided by 10).
#include <cstdio>

#ifdef __CUDA_ARCH__
#define ARCH (__CUDA_ARCH__ / 10)
#else
#define ARCH 0 /* the host pass */
#endif

__global__ void twice(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2 * i + 1000 * ARCH;
}

int main() {
  const int n = 256;
  int *d, h[n];
  if (cudaMalloc(&d, n * sizeof(int))) return 2;
  twice<<<2, 128>>>(d, n);
  cudaError_t e = cudaGetLastError();
  if (!e) e = cudaDeviceSynchronize();
  if (e) {
    printf("launch: %s\n", cudaGetErrorName(e));
    return 1;
  }
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int arch = h[0] / 1000, ok = 1;
  for (int i = 0; i < n; i++) ok &= h[i] == 2 * i + 1000 * arch;
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, twice);
  printf("code for sm_%d, ptxVersion %d, results %s\n", arch, fa.ptxVersion, ok ? "ok" : "WRONG");
  return 0;
}
