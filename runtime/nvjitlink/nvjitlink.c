/* nvjitlink.c: build/runtime/libnvJitLink.so.13, smemu's stand-in for
 * NVIDIA's JIT linker. Python's CUDA stacks (cuda.core's Linker, hence
 * numba-cuda) link a kernel's PTX into a cubin with nvJitLink before loading
 * it; smemu runs PTX, so here "linking" one PTX input yields that PTX, as
 * the "cubin" too, which smemu's cuModuleLoadData / cuLibraryLoadData load.
 * `smemu run` puts this library first on LD_LIBRARY_PATH, ahead of the
 * toolkit's. Inputs other than PTX, or more than one, are refused with a
 * log saying why. Both the plain names and CUDA 13's versioned ones
 * (__nvJitLinkCreate_13_0, what nvJitLink.h's macros call) are exported,
 * except nvJitLinkVersion: numba-cuda compiles to LTO-IR (which smemu
 * cannot run) when that symbol is there, and to PTX without it. */
#include "mem/bytes.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  NVJITLINK_SUCCESS = 0,
  NVJITLINK_ERROR_UNRECOGNIZED_OPTION = 1,
  NVJITLINK_ERROR_MISSING_ARCH = 2,
  NVJITLINK_ERROR_INVALID_INPUT = 3,
  NVJITLINK_ERROR_INTERNAL = 6,
  NVJITLINK_ERROR_NULL_INPUT = 10
} res;
enum { INPUT_PTX = 2, INPUT_LIBRARY = 6 };

typedef struct link {
  char *ptx;
  int inputs, failed;
  char log[512];
} link;
typedef link *handle;

#define API __attribute__((visibility("default"))) res
#define ALIAS(name) __attribute__((visibility("default"), alias(#name)))

res nvJitLinkCreate(handle *h, uint32_t n, const char **options);
res nvJitLinkDestroy(handle *h);
res nvJitLinkAddData(handle h, int type, const void *data, size_t size, const char *name);
res nvJitLinkAddFile(handle h, int type, const char *path);
res nvJitLinkComplete(handle h);
res nvJitLinkGetLinkedCubinSize(handle h, size_t *size);
res nvJitLinkGetLinkedCubin(handle h, void *out);
res nvJitLinkGetLinkedPtxSize(handle h, size_t *size);
res nvJitLinkGetLinkedPtx(handle h, char *out);
res nvJitLinkGetErrorLogSize(handle h, size_t *size);
res nvJitLinkGetErrorLog(handle h, char *out);
res nvJitLinkGetInfoLogSize(handle h, size_t *size);
res nvJitLinkGetInfoLog(handle h, char *out);

API nvJitLinkCreate(handle *h, uint32_t n, const char **options) {
  (void)n, (void)options; /* -arch, -lineinfo, -O: nothing to do for PTX */
  if (!h) return NVJITLINK_ERROR_NULL_INPUT;
  *h = calloc(1, sizeof **h);
  return *h ? NVJITLINK_SUCCESS : NVJITLINK_ERROR_INTERNAL;
}
API nvJitLinkDestroy(handle *h) {
  if (!h) return NVJITLINK_ERROR_NULL_INPUT;
  if (*h) free((*h)->ptx);
  free(*h);
  *h = NULL;
  return NVJITLINK_SUCCESS;
}
API nvJitLinkAddData(handle h, int type, const void *data, size_t size, const char *name) {
  if (!h || !data) return NVJITLINK_ERROR_NULL_INPUT;
  /* NVIDIA's device runtime (libcudadevrt.a, no PTX): its functions are
   * built in (core/devrt.c) */
  if (type == INPUT_LIBRARY && name && strstr(name, "cudadevrt")) return NVJITLINK_SUCCESS;
  if (type != INPUT_PTX) {
    snprintf(h->log, sizeof h->log, "smemu: input %s is not PTX (type %d); smemu links PTX only\n",
             name ? name : "?", type);
    h->failed = 1;
    return NVJITLINK_ERROR_INVALID_INPUT;
  }
  if (h->inputs++) {
    snprintf(h->log, sizeof h->log,
             "smemu: a second PTX input (%s): smemu cannot link PTX modules together\n", name ? name : "?");
    h->failed = 1;
    return NVJITLINK_ERROR_INVALID_INPUT;
  }
  size_t k = strnlen(data, size);
  if (!(h->ptx = malloc(k + 1))) return NVJITLINK_ERROR_INTERNAL;
  memcpy(h->ptx, data, k);
  h->ptx[k] = 0;
  return NVJITLINK_SUCCESS;
}
API nvJitLinkAddFile(handle h, int type, const char *path) {
  if (!h || !path) return NVJITLINK_ERROR_NULL_INPUT;
  size_t len;
  int err;
  char *buf = file_read(path, &len, &err);
  if (err == FILE_NO_OPEN) {
    snprintf(h->log, sizeof h->log, "smemu: cannot open %s\n", path);
    return NVJITLINK_ERROR_INVALID_INPUT;
  }
  if (!buf) return NVJITLINK_ERROR_INTERNAL;
  res r = nvJitLinkAddData(h, type, buf, len, path);
  free(buf);
  return r;
}
API nvJitLinkComplete(handle h) {
  if (!h) return NVJITLINK_ERROR_NULL_INPUT;
  if (h->failed || !h->ptx) {
    if (!h->log[0]) snprintf(h->log, sizeof h->log, "smemu: nothing to link\n");
    return NVJITLINK_ERROR_INVALID_INPUT;
  }
  return NVJITLINK_SUCCESS;
}
API nvJitLinkGetLinkedCubinSize(handle h, size_t *size) {
  if (!h || !size || !h->ptx) return NVJITLINK_ERROR_NULL_INPUT;
  *size = strlen(h->ptx) + 1;
  return NVJITLINK_SUCCESS;
}
API nvJitLinkGetLinkedCubin(handle h, void *out) {
  if (!h || !out || !h->ptx) return NVJITLINK_ERROR_NULL_INPUT;
  memcpy(out, h->ptx, strlen(h->ptx) + 1);
  return NVJITLINK_SUCCESS;
}
API nvJitLinkGetLinkedPtxSize(handle h, size_t *size) { return nvJitLinkGetLinkedCubinSize(h, size); }
API nvJitLinkGetLinkedPtx(handle h, char *out) { return nvJitLinkGetLinkedCubin(h, out); }
API nvJitLinkGetErrorLogSize(handle h, size_t *size) {
  if (!h || !size) return NVJITLINK_ERROR_NULL_INPUT;
  *size = strlen(h->log) + 1;
  return NVJITLINK_SUCCESS;
}
API nvJitLinkGetErrorLog(handle h, char *out) {
  if (!h || !out) return NVJITLINK_ERROR_NULL_INPUT;
  memcpy(out, h->log, strlen(h->log) + 1);
  return NVJITLINK_SUCCESS;
}
API nvJitLinkGetInfoLogSize(handle h, size_t *size) {
  if (!h || !size) return NVJITLINK_ERROR_NULL_INPUT;
  *size = 1;
  return NVJITLINK_SUCCESS;
}
API nvJitLinkGetInfoLog(handle h, char *out) {
  if (!h || !out) return NVJITLINK_ERROR_NULL_INPUT;
  out[0] = 0;
  return NVJITLINK_SUCCESS;
}
/* CUDA 13's versioned names */
res __nvJitLinkCreate_13_0(handle *, uint32_t, const char **) ALIAS(nvJitLinkCreate);
res __nvJitLinkDestroy_13_0(handle *) ALIAS(nvJitLinkDestroy);
res __nvJitLinkAddData_13_0(handle, int, const void *, size_t, const char *) ALIAS(nvJitLinkAddData);
res __nvJitLinkAddFile_13_0(handle, int, const char *) ALIAS(nvJitLinkAddFile);
res __nvJitLinkComplete_13_0(handle) ALIAS(nvJitLinkComplete);
res __nvJitLinkGetLinkedCubinSize_13_0(handle, size_t *) ALIAS(nvJitLinkGetLinkedCubinSize);
res __nvJitLinkGetLinkedCubin_13_0(handle, void *) ALIAS(nvJitLinkGetLinkedCubin);
res __nvJitLinkGetLinkedPtxSize_13_0(handle, size_t *) ALIAS(nvJitLinkGetLinkedPtxSize);
res __nvJitLinkGetLinkedPtx_13_0(handle, char *) ALIAS(nvJitLinkGetLinkedPtx);
res __nvJitLinkGetErrorLogSize_13_0(handle, size_t *) ALIAS(nvJitLinkGetErrorLogSize);
res __nvJitLinkGetErrorLog_13_0(handle, char *) ALIAS(nvJitLinkGetErrorLog);
res __nvJitLinkGetInfoLogSize_13_0(handle, size_t *) ALIAS(nvJitLinkGetInfoLogSize);
res __nvJitLinkGetInfoLog_13_0(handle, char *) ALIAS(nvJitLinkGetInfoLog);
