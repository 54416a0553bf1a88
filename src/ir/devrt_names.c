/* devrt_names.c: the device runtime functions (dynamic parallelism) that a
 * kernel may call without a definition: nvcc's PTX calls them by the
 * header's __cudaCDP2 names (CUDA 12 and later), older PTX by the plain
 * cuda names (cudaGraphLaunch has only that one). NVIDIA's libcudadevrt.a implements them over private
 * system calls; smemu answers them in the executor (exec/devcall.c). */
#include "ir/decode.h"
#include "ir/program.h"
#include <string.h>

static const char *const suffixes[] = {
    "DeviceGetAttribute",
    "DeviceGetCacheConfig",
    "DeviceGetLimit",
    "DeviceGetSharedMemConfig",
    "EventCreateWithFlags",
    "EventDestroy",
    "EventRecord",
    "EventRecordWithFlags",
    "EventRecordWithFlags_ptsz",
    "EventRecord_ptsz",
    "Free",
    "FuncGetAttributes",
    "GetDevice",
    "GetDeviceCount",
    "GetErrorName",
    "GetErrorString",
    "GetLastError",
    "GetParameterBuffer",
    "GetParameterBufferV2",
    "GraphLaunch",
    "LaunchDevice",
    "LaunchDeviceV2",
    "LaunchDeviceV2_ptsz",
    "LaunchDevice_ptsz",
    "Malloc",
    "Memcpy2DAsync",
    "Memcpy2DAsync_ptsz",
    "Memcpy3DAsync",
    "Memcpy3DAsync_ptsz",
    "MemcpyAsync",
    "MemcpyAsync_ptsz",
    "Memset2DAsync",
    "Memset2DAsync_ptsz",
    "Memset3DAsync",
    "Memset3DAsync_ptsz",
    "MemsetAsync",
    "MemsetAsync_ptsz",
    "OccupancyMaxActiveBlocksPerMultiprocessor",
    "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "PeekAtLastError",
    "RuntimeGetVersion",
    "StreamCreateWithFlags",
    "StreamDestroy",
    "StreamWaitEvent",
    "StreamWaitEvent_ptsz",
};

const char *ir_devrt_suffix(const char *name) {
  const char *s = NULL;
  if (!strncmp(name, "__cudaCDP2", 10))
    s = name + 10;
  else if (!strncmp(name, "cuda", 4))
    s = name + 4;
  if (!s) return NULL;
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    if (!strcmp(s, suffixes[i])) return s;
  return NULL;
}

int ir_devrt_builtin(const char *name) {
  const char *s = ir_devrt_suffix(name);
  if (!s) return BUILTIN_NONE;
  if (!strcmp(s, "Malloc")) return BUILTIN_DEVRT_MALLOC;
  if (!strcmp(s, "Free")) return BUILTIN_DEVRT_FREE;
  return BUILTIN_DEVRT;
}
