/* error.c: the runtime's error API: the thread's last error and the
 * names and strings of runtime/errors.def. */
#include "rt.h"
#include <pthread.h>

/* The last error is the thread's record of what its calls returned, apart
 * from the sticky state: after a kernel fault cudaGetLastError returns the
 * fault once and then cudaSuccess, as CUDA 13 does (measured on an H200),
 * while every call that needs the device keeps returning the fault, and so
 * records it again. */
static cudaError_t last_error(int clear, const char *api) {
  rt_begin(0);
  cudaError_t e = rt_last_error(clear);
  if (e != cudaSuccess && rt.san_memcheck) rt_san_api_error(e, api);
  pthread_mutex_unlock(&rt.lock);
  return e;
}

RT_EXPORT cudaError_t cudaGetLastError(void) { return last_error(1, "cudaGetLastError"); }

RT_EXPORT cudaError_t cudaPeekAtLastError(void) { return last_error(0, "cudaPeekAtLastError"); }

RT_EXPORT const char *cudaGetErrorName(cudaError_t e) {
  switch ((int)e) {
#define ERR(code, name, str)                                                                                 \
  case code:                                                                                                 \
    return #name;
#include "errors.def"
#undef ERR
  default:
    return "unrecognized error code";
  }
}

RT_EXPORT const char *cudaGetErrorString(cudaError_t e) {
  switch ((int)e) {
#define ERR(code, name, str)                                                                                 \
  case code:                                                                                                 \
    return str;
#include "errors.def"
#undef ERR
  default:
    return "unrecognized error code";
  }
}
