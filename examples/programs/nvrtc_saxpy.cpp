/* nvrtc_saxpy.cpp: a program that compiles its kernel at run time with
 * NVRTC and runs it through the driver API (cuInit, cuDeviceGet,
 * cuCtxCreate, cuModuleLoadDataEx, cuModuleGetFunction, cuMemAlloc,
 * cuMemcpyHtoD / DtoH, cuLaunchKernel, cuModuleGetGlobal): on smemu,
 * libcuda.so.1 is the drop-in's.
 *   nvcc -o nvrtc_saxpy examples/programs/nvrtc_saxpy.cpp -lnvrtc -lcuda
 *   smemu run -- ./nvrtc_saxpy */
#include <cuda.h>
#include <nvrtc.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define NVRTC(call)                                                                        \
  do {                                                                                     \
    nvrtcResult r_ = (call);                                                               \
    if (r_ != NVRTC_SUCCESS) {                                                             \
      printf("%s:%d: %s\n", __FILE__, __LINE__, nvrtcGetErrorString(r_));                 \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

#define CU(call)                                                                           \
  do {                                                                                     \
    CUresult r_ = (call);                                                                  \
    if (r_ != CUDA_SUCCESS) {                                                              \
      const char *s_ = "?";                                                                \
      cuGetErrorName(r_, &s_);                                                             \
      printf("%s:%d: %s\n", __FILE__, __LINE__, s_);                                       \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

static const char *source = R"(
__device__ float scale_by = 1.0f;

extern "C" __global__ void saxpy(float a, const float *x, const float *y, float *out, size_t n)
{
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = (a * x[i] + y[i]) * scale_by;
}

template <int N> __global__ void stride_sum(const float *x, float *out)
{
  __shared__ float s[N];
  s[threadIdx.x] = x[threadIdx.x * 2];
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int k = 0; k < N; k++) t += s[k];
    *out = t;
  }
}
)";

int main(void)
{
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, source, "saxpy.cu", 0, nullptr, nullptr));
  NVRTC(nvrtcAddNameExpression(prog, "stride_sum<64>"));
  const char *opts[] = {"--gpu-architecture=compute_90", "-lineinfo"};
  nvrtcResult rc = nvrtcCompileProgram(prog, 2, opts);
  size_t logn;
  NVRTC(nvrtcGetProgramLogSize(prog, &logn));
  if (logn > 1) {
    std::vector<char> log(logn);
    NVRTC(nvrtcGetProgramLog(prog, log.data()));
    printf("log: %s\n", log.data());
  }
  NVRTC(rc);
  size_t ptxn;
  NVRTC(nvrtcGetPTXSize(prog, &ptxn));
  std::vector<char> ptx(ptxn);
  NVRTC(nvrtcGetPTX(prog, ptx.data()));
  const char *lowered;
  NVRTC(nvrtcGetLoweredName(prog, "stride_sum<64>", &lowered));
  std::string stride_name = lowered;
  NVRTC(nvrtcDestroyProgram(&prog));

  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction saxpy, stride;
  CU(cuInit(0));
  int count = 0, major = 0, minor = 0;
  CU(cuDeviceGetCount(&count));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  printf("devices: %s, compute capability %d.%d\n", count > 0 ? "yes" : "no", major, minor);
  CU(cuCtxCreate(&ctx, nullptr, 0, dev));
  char errlog[1024] = "";
  CUjit_option jopt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *jval[] = {errlog, (void *)(size_t)sizeof errlog};
  CU(cuModuleLoadDataEx(&mod, ptx.data(), 2, jopt, jval));
  CU(cuModuleGetFunction(&saxpy, mod, "saxpy"));
  CU(cuModuleGetFunction(&stride, mod, stride_name.c_str()));
  CUresult missing = cuModuleGetFunction(&stride, mod, "no_such_kernel");
  const char *mname = "?";
  cuGetErrorName(missing, &mname);
  printf("missing kernel: %s\n", mname);
  CU(cuModuleGetFunction(&stride, mod, stride_name.c_str()));

  const size_t n = 4096;
  std::vector<float> hx(n), hy(n), hout(n);
  for (size_t i = 0; i < n; i++) {
    hx[i] = (float)i * 0.5f;
    hy[i] = (float)(n - i);
  }
  CUdeviceptr dx, dy, dout, dsum, dscale;
  size_t scale_bytes = 0;
  CU(cuMemAlloc(&dx, n * sizeof(float)));
  CU(cuMemAlloc(&dy, n * sizeof(float)));
  CU(cuMemAlloc(&dout, n * sizeof(float)));
  CU(cuMemAlloc(&dsum, sizeof(float)));
  CU(cuMemcpyHtoD(dx, hx.data(), n * sizeof(float)));
  CU(cuMemcpyHtoD(dy, hy.data(), n * sizeof(float)));
  CU(cuModuleGetGlobal(&dscale, &scale_bytes, mod, "scale_by"));
  float two = 2.0f;
  CU(cuMemcpyHtoD(dscale, &two, sizeof two));
  float a = 3.0f;
  size_t nn = n;
  void *args[] = {&a, &dx, &dy, &dout, &nn};
  CU(cuLaunchKernel(saxpy, (unsigned)((n + 127) / 128), 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(hout.data(), dout, n * sizeof(float)));
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad += hout[i] != (3.0f * hx[i] + hy[i]) * 2.0f;
  printf("saxpy: out[0] %g, out[4095] %g, scale_by is %zu bytes, mismatches %d\n", hout[0], hout[n - 1],
         scale_bytes, bad);

  /* the same kind of launch with a packed argument buffer */
  struct {
    CUdeviceptr x, out;
  } packed = {dx, dsum};
  size_t psize = sizeof packed;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &psize, CU_LAUNCH_PARAM_END};
  CU(cuLaunchKernel(stride, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
  float sum = 0.0f;
  CU(cuMemcpyDtoH(&sum, dsum, sizeof sum));
  printf("stride_sum<64>: %g\n", sum);
  CUresult r = cuLaunchKernel(saxpy, 1, 1, 1, 2048, 1, 1, 0, nullptr, args, nullptr);
  const char *rname = "?";
  cuGetErrorName(r, &rname);
  printf("2048 threads: %s\n", rname);

  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
  CU(cuMemFree(dout));
  CU(cuMemFree(dsum));
  CU(cuModuleUnload(mod));
  CU(cuCtxDestroy(ctx));
  printf("done\n");
  return bad ? 1 : 0;
}
