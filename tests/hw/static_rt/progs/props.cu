// Device queries.
#include <cstdio>
int main() {
  int n = -1, dev = -1, v = -1, drv = 0, rtv = 0;
  cudaGetDeviceCount(&n);
  cudaSetDevice(0);
  cudaGetDevice(&dev);
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rtv);
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  printf("count=%d dev=%d props=%d cc=%d.%d smem/block=%zu optin=%zu sms=%d warp=%d\n", n, dev, (int)e, p.major,
         p.minor, p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.multiProcessorCount, p.warpSize);
  printf("name=%s rt=%d drv_ok=%d\n", p.name, rtv, drv >= rtv);
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  printf("smem/sm=%d\n", v);
  printf("bad device: %d\n", (int)cudaSetDevice(5));
  printf("last=%d %s\n", (int)cudaGetLastError(), cudaGetErrorString(cudaErrorInvalidDevice));
  cudaDeviceReset();
  return 0;
}
