/* log.c: the log API (cudaLogsRegisterCallback, cudaLogsCurrent,
 * cudaLogsDumpToMemory, cudaLogsDumpToFile) over the log of core/log.c,
 * which holds smemu's messages as the driver's holds its own. */
#include "rt.h"
#include <stdio.h>
#include <stdlib.h>

#define LOG_BYTES 25600

RT_EXPORT cudaError_t cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void *userData,
                                               cudaLogsCallbackHandle *callback_out) {
  rt_begin(0);
  return rt_end(rt_log_register(callbackFunc, userData, callback_out));
}

RT_EXPORT cudaError_t cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback) {
  rt_begin(0);
  return rt_end(rt_log_unregister(callback));
}

RT_EXPORT cudaError_t cudaLogsCurrent(cudaLogIterator *iterator_out, unsigned int flags) {
  rt_begin(0);
  if (!iterator_out || flags) return rt_end(cudaErrorInvalidValue);
  *iterator_out = rt_log_current();
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaLogsDumpToMemory(cudaLogIterator *iterator, char *buffer, size_t *size,
                                           unsigned int flags) {
  rt_begin(0);
  if (!buffer || !size || flags) return rt_end(cudaErrorInvalidValue);
  size_t n = rt_log_dump(iterator, buffer, *size);
  if (n == (size_t)-1) {
    *size = 0;
    return rt_end(cudaErrorInvalidValue);
  }
  *size = n;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaLogsDumpToFile(cudaLogIterator *iterator, const char *pathToFile,
                                         unsigned int flags) {
  rt_begin(0);
  if (!pathToFile || flags) return rt_end(cudaErrorInvalidValue);
  char *buf = malloc(LOG_BYTES + 256);
  if (!buf) return rt_end(cudaErrorMemoryAllocation);
  size_t n = rt_log_dump(iterator, buf, LOG_BYTES + 256);
  FILE *f = fopen(pathToFile, "a");
  cudaError_t e = f ? cudaSuccess : cudaErrorInvalidValue;
  if (f && n != (size_t)-1 && fwrite(buf, 1, n, f) != n) e = cudaErrorInvalidValue;
  if (f && fclose(f)) e = cudaErrorInvalidValue;
  free(buf);
  return rt_end(e);
}
