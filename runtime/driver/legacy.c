/* legacy.c: the driver's launch API from before cuLaunchKernel, still
 * declared by cuda.h: a function's block shape, dynamic shared size and
 * parameter buffer are set one call at a time (cuFuncSetBlockShape,
 * cuFuncSetSharedSize, cuParamSetSize, cuParamSeti/f/v), then cuLaunch,
 * cuLaunchGrid or cuLaunchGridAsync launches it through cuLaunchKernel with
 * the buffer as its packed `extra` parameters. The settings live beside
 * the function (a list keyed by its handle), as the driver keeps them per
 * function. */
#include "cu_abi.h"
#include <stdlib.h>
#include <string.h>

#define EXPORT RT_EXPORT CUresult
#define P(decl) decl;
P(CUresult cuFuncSetBlockShape(CUfunction, int, int, int))
P(CUresult cuFuncSetSharedSize(CUfunction, unsigned))
P(CUresult cuParamSetSize(CUfunction, unsigned))
P(CUresult cuParamSeti(CUfunction, int, unsigned))
P(CUresult cuParamSetf(CUfunction, int, float))
P(CUresult cuParamSetv(CUfunction, int, void *, unsigned))
P(CUresult cuLaunch(CUfunction))
P(CUresult cuLaunchGrid(CUfunction, int, int))
P(CUresult cuLaunchGridAsync(CUfunction, int, int, CUstream))

enum { PARAM_BYTES = 4096 }; /* the parameter space of a launch */

typedef struct legacy {
  const rt_func *f;
  int block[3];
  unsigned shared, size;
  unsigned char params[PARAM_BYTES];
  struct legacy *next;
} legacy;

static legacy *settings;

/* The settings of f, made on first use; NULL when f is no function. */
static legacy *of(CUfunction f) {
  int known = 0;
  for (rt_func *p = rt.funcs; p && !known; p = p->next) known = p == f;
  if (!known) return NULL;
  for (legacy *l = settings; l; l = l->next)
    if (l->f == f) return l;
  legacy *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  l->f = f;
  l->block[0] = l->block[1] = l->block[2] = 1;
  l->next = settings;
  settings = l;
  return l;
}

/* Run set() on f's settings under the lock. */
#define WITH(f, body)                                                                                        \
  do {                                                                                                       \
    rt_begin(0);                                                                                             \
    legacy *l = of(f);                                                                                       \
    CUresult r = l ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;                                               \
    if (l) body;                                                                                             \
    pthread_mutex_unlock(&rt.lock);                                                                          \
    return r;                                                                                                \
  } while (0)

EXPORT cuFuncSetBlockShape(CUfunction f, int x, int y, int z) {
  if (x <= 0 || y <= 0 || z <= 0) return CUDA_ERROR_INVALID_VALUE;
  WITH(f, (l->block[0] = x, l->block[1] = y, l->block[2] = z));
}

EXPORT cuFuncSetSharedSize(CUfunction f, unsigned bytes) { WITH(f, l->shared = bytes); }

EXPORT cuParamSetSize(CUfunction f, unsigned bytes) {
  if (bytes > PARAM_BYTES) return CUDA_ERROR_INVALID_VALUE;
  WITH(f, l->size = bytes);
}

/* Bytes [offset, offset+n) of the buffer, inside the size set. */
static CUresult put(legacy *l, int offset, const void *v, unsigned n) {
  if (offset < 0 || !v || (uint64_t)offset + n > l->size) return CUDA_ERROR_INVALID_VALUE;
  memcpy(l->params + offset, v, n);
  return CUDA_SUCCESS;
}

EXPORT cuParamSeti(CUfunction f, int offset, unsigned v) { WITH(f, r = put(l, offset, &v, sizeof v)); }
EXPORT cuParamSetf(CUfunction f, int offset, float v) { WITH(f, r = put(l, offset, &v, sizeof v)); }
EXPORT cuParamSetv(CUfunction f, int offset, void *p, unsigned n) { WITH(f, r = put(l, offset, p, n)); }

static CUresult launch(CUfunction f, int w, int h, CUstream s) {
  if (w <= 0 || h <= 0) return CUDA_ERROR_INVALID_VALUE;
  rt_begin(0);
  legacy *l = of(f), copy;
  if (l) copy = *l;
  pthread_mutex_unlock(&rt.lock);
  if (!l) return CUDA_ERROR_INVALID_HANDLE;
  size_t size = copy.size;
  void *extra[] = {(void *)1, copy.params, (void *)2, &size, (void *)0};
  return cuLaunchKernel(f, (unsigned)w, (unsigned)h, 1, (unsigned)copy.block[0], (unsigned)copy.block[1],
                        (unsigned)copy.block[2], copy.shared, s, NULL, extra);
}

EXPORT cuLaunch(CUfunction f) { return launch(f, 1, 1, NULL); }
EXPORT cuLaunchGrid(CUfunction f, int w, int h) { return launch(f, w, h, NULL); }
EXPORT cuLaunchGridAsync(CUfunction f, int w, int h, CUstream s) { return launch(f, w, h, s); }
