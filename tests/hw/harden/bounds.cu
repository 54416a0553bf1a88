// bounds.cu: what the CUDA runtime and driver return for copies and fills
// that leave their allocation, entry point by entry point. Each
// line: CASE ERROR_NAME. The host side of every copy is a 1 MB buffer, so
// only the device side can be out of range. After each case the last
// error is cleared and a valid copy checks that the error is not sticky.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__device__ int sym[64];  // 256 bytes

static char *host;       // 1 MB pageable
static char *dev;        // 256 bytes
static char *dev2;       // 1024 bytes
static int failures;

static void show(const char *name, cudaError_t e) {
  printf("%s %s", name, cudaGetErrorName(e));
  cudaGetLastError();
  cudaError_t after = cudaMemcpy(dev2, host, 16, cudaMemcpyHostToDevice);
  if (after != cudaSuccess) printf(" then %s", cudaGetErrorName(after));
  printf("\n");
  fflush(stdout);
}

static void showcu(const char *name, CUresult r) {
  const char *s = "?";
  cuGetErrorName(r, &s);
  printf("%s %s\n", name, s);
  cudaGetLastError();
  fflush(stdout);
}

int main() {
  host = (char *)calloc(1, 1 << 20);
  cudaMalloc(&dev, 256);
  cudaMalloc(&dev2, 1024);
  cudaStream_t st;
  cudaStreamCreate(&st);
  // in range: the baseline
  show("memcpy_h2d_ok", cudaMemcpy(dev, host, 256, cudaMemcpyHostToDevice));
  show("memcpy_h2d_over", cudaMemcpy(dev, host, 257, cudaMemcpyHostToDevice));
  show("memcpy_h2d_offset_over", cudaMemcpy(dev + 200, host, 100, cudaMemcpyHostToDevice));
  show("memcpy_h2d_past_end", cudaMemcpy(dev + 256, host, 1, cudaMemcpyHostToDevice));
  show("memcpy_d2h_over", cudaMemcpy(host, dev, 512, cudaMemcpyDeviceToHost));
  show("memcpy_d2d_dst_over", cudaMemcpy(dev, dev2, 512, cudaMemcpyDeviceToDevice));
  show("memcpy_d2d_src_over", cudaMemcpy(dev2, dev, 512, cudaMemcpyDeviceToDevice));
  show("memcpy_d2d_overlap", cudaMemcpy(dev2 + 8, dev2, 512, cudaMemcpyDeviceToDevice));
  show("memcpy_default_h2d_over", cudaMemcpy(dev, host, 512, cudaMemcpyDefault));
  show("memcpy_default_d2h_over", cudaMemcpy(host, dev, 512, cudaMemcpyDefault));
  show("memcpy_default_d2d_over", cudaMemcpy(dev, dev2, 512, cudaMemcpyDefault));
  show("memcpy_default_offset_over", cudaMemcpy(dev + 255, host, 2, cudaMemcpyDefault));
  show("memcpy_default_ok", cudaMemcpy(dev, host, 256, cudaMemcpyDefault));
  show("memcpy_bad_kind", cudaMemcpy(dev, host, 16, (cudaMemcpyKind)7));
  show("memcpy_null_dst", cudaMemcpy(NULL, host, 16, cudaMemcpyHostToDevice));
  show("memcpy_zero_over", cudaMemcpy(dev + 256, host, 0, cudaMemcpyHostToDevice));
  show("memcpyasync_h2d_over", cudaMemcpyAsync(dev, host, 512, cudaMemcpyHostToDevice, st));
  show("memcpyasync_d2h_over", cudaMemcpyAsync(host, dev, 512, cudaMemcpyDeviceToHost, st));
  show("memcpyasync_default_over", cudaMemcpyAsync(dev, host, 512, cudaMemcpyDefault, st));
  show("memcpy2d_dst_over", cudaMemcpy2D(dev, 64, host, 64, 64, 5, cudaMemcpyHostToDevice));
  show("memcpy2d_src_over", cudaMemcpy2D(host, 64, dev, 64, 64, 5, cudaMemcpyDeviceToHost));
  show("memcpy2d_default_over", cudaMemcpy2D(dev, 64, host, 64, 64, 5, cudaMemcpyDefault));
  show("memcpy2d_ok", cudaMemcpy2D(dev, 64, host, 64, 64, 4, cudaMemcpyHostToDevice));
  show("memcpy2dasync_over", cudaMemcpy2DAsync(dev, 64, host, 64, 64, 5, cudaMemcpyHostToDevice, st));
  {
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(host, 64, 64, 4);
    p.dstPtr = make_cudaPitchedPtr(dev, 64, 64, 2);
    p.extent = make_cudaExtent(64, 2, 3);
    p.kind = cudaMemcpyHostToDevice;
    show("memcpy3d_over", cudaMemcpy3D(&p));
    show("memcpy3dasync_over", cudaMemcpy3DAsync(&p, st));
    p.extent = make_cudaExtent(64, 2, 2);
    show("memcpy3d_ok", cudaMemcpy3D(&p));
  }
  show("memset_over", cudaMemset(dev, 0, 257));
  show("memset_offset_over", cudaMemset(dev + 128, 0, 129));
  show("memset_ok", cudaMemset(dev, 0, 256));
  show("memsetasync_over", cudaMemsetAsync(dev, 0, 257, st));
  show("memset2d_over", cudaMemset2D(dev, 64, 0, 64, 5));
  show("memset2d_ok", cudaMemset2D(dev, 64, 0, 64, 4));
  show("memset2dasync_over", cudaMemset2DAsync(dev, 64, 0, 64, 5, st));
  show("memset3d_over", cudaMemset3D(make_cudaPitchedPtr(dev, 64, 64, 2), 0, make_cudaExtent(64, 2, 3)));
  show("memset3d_ok", cudaMemset3D(make_cudaPitchedPtr(dev, 64, 64, 2), 0, make_cudaExtent(64, 2, 2)));
  show("memset3dasync_over",
       cudaMemset3DAsync(make_cudaPitchedPtr(dev, 64, 64, 2), 0, make_cudaExtent(64, 2, 3), st));
  show("tosymbol_over", cudaMemcpyToSymbol(sym, host, 257));
  show("tosymbol_offset_over", cudaMemcpyToSymbol(sym, host, 16, 248));
  show("tosymbol_ok", cudaMemcpyToSymbol(sym, host, 256));
  show("fromsymbol_over", cudaMemcpyFromSymbol(host, sym, 257));
  show("tosymbolasync_over", cudaMemcpyToSymbolAsync(sym, host, 257, 0, cudaMemcpyHostToDevice, st));
  show("fromsymbolasync_over", cudaMemcpyFromSymbolAsync(host, sym, 257, 0, cudaMemcpyDeviceToHost, st));
  // (despite its name, 200 of dev's 256 bytes: in range; the next one is not)
  show("tosymbol_d2d_src_over", cudaMemcpyToSymbol(sym, dev, 200, 0, cudaMemcpyDeviceToDevice));
  show("tosymbol_d2d_src_over2", cudaMemcpyToSymbol(sym, dev + 128, 200, 0, cudaMemcpyDeviceToDevice));
  show("peer_over", cudaMemcpyPeer(dev, 0, dev2, 0, 512));
  show("peer_ok", cudaMemcpyPeer(dev, 0, dev2, 0, 256));
  show("peerasync_over", cudaMemcpyPeerAsync(dev, 0, dev2, 0, 512, st));
  {
    char *pinned;
    cudaMallocHost(&pinned, 256);
    show("pinned_src_over", cudaMemcpy(dev2, pinned, 512, cudaMemcpyHostToDevice));
    show("pinned_dst_over", cudaMemcpy(pinned, dev2, 512, cudaMemcpyDeviceToHost));
    show("pinned_default_over", cudaMemcpy(pinned, dev2, 512, cudaMemcpyDefault));
    show("pinned_memset", cudaMemset(pinned, 0, 16));
    cudaFreeHost(pinned);
    char *reg = host + 4096;
    cudaHostRegister(reg, 256, 0);
    show("registered_dst_over", cudaMemcpy(reg, dev2, 512, cudaMemcpyDeviceToHost));
    show("registered_default_over", cudaMemcpy(reg, dev2, 512, cudaMemcpyDefault));
    show("registered_default_ok", cudaMemcpy(reg, dev2, 256, cudaMemcpyDefault));
    cudaHostUnregister(reg);
    char *managed;
    cudaMallocManaged(&managed, 256);
    show("managed_default_over", cudaMemcpy(managed, host, 512, cudaMemcpyDefault));
    show("managed_h2d_over", cudaMemcpy(managed, host, 512, cudaMemcpyHostToDevice));
    show("managed_memset_over", cudaMemset(managed, 0, 257));
    cudaFree(managed);
  }
  cudaStreamSynchronize(st);
  // no cuInit: the runtime has initialised the driver (CUDA returns the
  // same errors as with it)
  CUdeviceptr d = (CUdeviceptr)dev, d2 = (CUdeviceptr)dev2;
  showcu("cu_htod_over", cuMemcpyHtoD(d, host, 257));
  showcu("cu_dtoh_over", cuMemcpyDtoH(host, d, 257));
  showcu("cu_dtod_over", cuMemcpyDtoD(d, d2, 512));
  showcu("cu_memcpy_over", cuMemcpy(d, (CUdeviceptr)host, 512));
  showcu("cu_htod_async_over", cuMemcpyHtoDAsync(d, host, 257, st));
  showcu("cu_dtoh_async_over", cuMemcpyDtoHAsync(host, d, 257, st));
  showcu("cu_memsetd8_over", cuMemsetD8(d, 0, 257));
  showcu("cu_memsetd16_over", cuMemsetD16(d, 0, 129));
  showcu("cu_memsetd32_over", cuMemsetD32(d, 0, 65));
  showcu("cu_memsetd32_ok", cuMemsetD32(d, 0, 64));
  showcu("cu_memsetd32_misaligned", cuMemsetD32(d + 2, 0, 4));
  cudaStreamSynchronize(st);
  printf("done %d\n", failures);
  return 0;
}
