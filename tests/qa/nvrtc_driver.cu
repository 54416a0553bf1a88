// A JIT user: NVRTC compiles a kernel with dynamic shared memory at run
// time, the driver API loads the PTX (cuModuleLoadData) and launches it
// with cuLaunchKernel and sharedMemBytes; cuFuncGetAttribute reads back
// the static shared size; CPU reference.
// qa-flags: -lnvrtc -lcuda
#include "qa.h"
#include <cuda.h>
#include <nvrtc.h>

#define DRV(call)                                                            \
  do {                                                                       \
    CUresult r_ = (call);                                                    \
    if (r_ != CUDA_SUCCESS) {                                                \
      const char *s_ = 0;                                                    \
      cuGetErrorName(r_, &s_);                                               \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?");   \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

static const char *src = R"(
extern "C" __global__ void shiftSum(const int *in, int *out, int n, int k)
{
  extern __shared__ int buf[];
  __shared__ int total;
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t == 0) total = 0;
  buf[t] = i < n ? in[i] : 0;
  __syncthreads();
  atomicAdd(&total, buf[t]);
  __syncthreads();
  if (i < n) out[i] = buf[(t + k) % blockDim.x] + total;
}
)";

int main()
{
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "jit.cu", 0, 0, 0) != NVRTC_SUCCESS) return 2;
  const char *opts[] = {"--gpu-architecture=compute_90", "-lineinfo"};
  nvrtcResult cr = nvrtcCompileProgram(prog, 2, opts);
  if (cr != NVRTC_SUCCESS) {
    size_t ls; nvrtcGetProgramLogSize(prog, &ls);
    char *log = (char *)malloc(ls); nvrtcGetProgramLog(prog, log); printf("%s\n", log);
    return 2;
  }
  size_t ps; nvrtcGetPTXSize(prog, &ps);
  char *ptx = (char *)malloc(ps); nvrtcGetPTX(prog, ptx);
  nvrtcDestroyProgram(&prog);
  DRV(cuInit(0));
  CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction f;
  DRV(cuDeviceGet(&dev, 0));
  DRV(cuDevicePrimaryCtxRetain(&ctx, dev));
  DRV(cuCtxSetCurrent(ctx));
  DRV(cuModuleLoadData(&mod, ptx));
  DRV(cuModuleGetFunction(&f, mod, "shiftSum"));
  int sbytes = -1;
  DRV(cuFuncGetAttribute(&sbytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  EXPECT_EQ("static shared", 0, sbytes, 4);
  const int n = 1000, bs = 128, k = 3, nb = (n + bs - 1) / bs;
  int h[n], o[n];
  for (int i = 0; i < n; i++) h[i] = i % 17;
  CUdeviceptr din, dout;
  DRV(cuMemAlloc(&din, sizeof h));
  DRV(cuMemAlloc(&dout, sizeof o));
  DRV(cuMemcpyHtoD(din, h, sizeof h));
  int nn = n, kk = k;
  void *args[] = {&din, &dout, &nn, &kk};
  DRV(cuLaunchKernel(f, nb, 1, 1, bs, 1, 1, bs * sizeof(int), 0, args, 0));
  DRV(cuCtxSynchronize());
  DRV(cuMemcpyDtoH(o, dout, sizeof o));
  for (int b = 0; b < nb; b++) {
    int tot = 0;
    for (int t = 0; t < bs; t++) tot += b * bs + t < n ? h[b * bs + t] : 0;
    for (int t = 0; t < bs && b * bs + t < n; t++) {
      int j = b * bs + (t + k) % bs;
      EXPECT_EQ("out", b * bs + t, o[b * bs + t], (j < n ? h[j] : 0) + tot);
    }
  }
  DRV(cuMemFree(din)); DRV(cuMemFree(dout));
  DRV(cuModuleUnload(mod));
  return qa_done("nvrtc_driver");
}
