/* cu_abi.h: the driver API's types as runtime/driver/ implements them: the
 * result codes (every CUresult of CUDA 13.0, runtime/cu_errors.def), the
 * handles (a module and a library are rt_module, a function and a kernel
 * rt_func, streams and events the runtime's), and the driver entry points
 * one file of driver/ calls in another. The runtime's own types are in
 * cuda_abi.h. */
#ifndef SMEMU_CU_ABI_H
#define SMEMU_CU_ABI_H

#include "rt.h"
#include <stdint.h>

typedef int CUresult;
enum {
#define CUERR(code, name) name = code,
#include "cu_errors.def"
#undef CUERR
};

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct rt_ctx_st *CUcontext;
typedef rt_module *CUmodule;
typedef rt_module *CUlibrary;
typedef rt_func *CUfunction;
typedef rt_func *CUkernel;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
typedef struct {
  uint64_t opaque[16];
} CUtensorMap;

/* CUdriverProcAddressQueryResult */
enum {
  CU_GET_PROC_ADDRESS_SUCCESS = 0,
  CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
};

/* The JIT options the driver reads (CUjit_option). */
enum {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};

/* driver/driver.c's entry points the other files of driver/ build on */
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, int *options,
                            void **optionValues);
CUresult cuModuleLoad(CUmodule *module, const char *fname);
CUresult cuModuleUnload(CUmodule m);
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule m, const char *name);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name);
CUresult cuFuncGetAttribute(int *v, int attrib, CUfunction f);
CUresult cuFuncSetAttribute(CUfunction f, int attrib, int value);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction f, int blockSize,
                                                     size_t dynamicSMemSize);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int shared, CUstream stream,
                        void **kernelParams, void **extra);
CUresult cuCtxGetCurrent(CUcontext *pctx);
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice dev);
CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned int v, size_t n);
CUresult cuGetErrorName(CUresult e, const char **s);
CUresult cuGetErrorString(CUresult e, const char **s);

#endif
