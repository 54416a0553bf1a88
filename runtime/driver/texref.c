/* texref.c: module-scope texture and surface references (.texref /
 * .surfref) through the driver's legacy calls, which CUDA 13's cuda.h
 * still declares (deprecated): cuModuleGetTexRef / cuModuleGetSurfRef and
 * cuTexRefSet* / cuTexRefGet* / cuSurfRefSetArray. smemu keeps a reference
 * as an 8-byte module variable holding an object handle (src/ptx: a
 * .texref is a .u64 variable; src/exec/tex.c reads the handle through it
 * at each tex/suld/sust/txq); each Set call here records the state and
 * binds a new texture (surface) object made with the runtime's
 * cudaCreateTextureObject from it, as the reference's state then says.
 * An unbound reference holds 0 (no live object: a lane that samples it
 * faults). */
#include "cu_abi.h"
#include "cudart/array.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int cu_format_desc(int format, unsigned nch, struct cudaChannelFormatDesc *d); /* array_driver.c */

enum { CU_TRSF_READ_AS_INTEGER = 1, CU_TRSF_NORMALIZED_COORDINATES = 2, CU_TRSF_SRGB = 0x10 };
enum { BIND_NONE, BIND_ARRAY, BIND_MIPMAP, BIND_LINEAR, BIND_PITCH };

typedef struct texref {
  struct texref *next;
  CUmodule mod;
  char *name;
  CUdeviceptr var; /* the module variable holding the handle; 0: a cuTexRefCreate one */
  int surf;
  int bind; /* BIND_* */
  struct cudaArray *arr;
  struct cudaMipmappedArray *mip;
  CUdeviceptr ptr;
  size_t bytes, width, height, pitch;
  int format, nch;
  unsigned flags;            /* CU_TRSF_*: read mode, normalized coordinates, sRGB */
  struct cudaTextureDesc td; /* the rest of the sampling state, as set */
  unsigned long long obj;
} texref;

typedef texref *CUtexref, *CUsurfref;

/* Array descriptor as cuTexRefSetAddress2D takes it (the driver's
 * CUDA_ARRAY_DESCRIPTOR). */
typedef struct {
  size_t w, h;
  int format;
  unsigned nch;
} array2d;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static texref *refs;

/* The reference `name` of module m (one handle per name, as the driver
 * gives), made on first use. */
static CUresult get_ref(texref **out, CUmodule m, const char *name, int surf) {
  if (!out || !name) return CUDA_ERROR_INVALID_VALUE;
  CUdeviceptr var;
  size_t n;
  CUresult r = cuModuleGetGlobal_v2(&var, &n, m, name);
  if (r) return r == CUDA_ERROR_INVALID_HANDLE ? r : CUDA_ERROR_NOT_FOUND;
  pthread_mutex_lock(&lock);
  texref *t = refs;
  while (t && !(t->mod == m && !strcmp(t->name, name))) t = t->next;
  if (t && t->var != var) {
    /* a module loaded where an unloaded one was: a new reference */
    t->var = var;
    t->bind = BIND_NONE;
    t->obj = 0;
  }
  if (!t && (t = calloc(1, sizeof *t)) && (t->name = strdup(name))) {
    t->mod = m;
    t->var = var;
    t->surf = surf;
    t->format = 0x20; /* float, one channel: the driver's default */
    t->nch = 1;
    t->next = refs;
    refs = t;
  } else if (t && !t->name) {
    free(t);
    t = NULL;
  }
  pthread_mutex_unlock(&lock);
  *out = t;
  return t ? (t->surf == surf ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND) : CUDA_ERROR_OUT_OF_MEMORY;
}

RT_EXPORT CUresult cuModuleGetTexRef(CUtexref *p, CUmodule m, const char *name);
CUresult cuModuleGetTexRef(CUtexref *p, CUmodule m, const char *name) { return get_ref(p, m, name, 0); }
RT_EXPORT CUresult cuModuleGetSurfRef(CUsurfref *p, CUmodule m, const char *name);
CUresult cuModuleGetSurfRef(CUsurfref *p, CUmodule m, const char *name) { return get_ref(p, m, name, 1); }

/* Make the object the state describes and store its handle in the
 * module's variable. */
static CUresult rebind(texref *t) {
  if (t->bind == BIND_NONE) return CUDA_SUCCESS;
  struct cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  switch (t->bind) {
  case BIND_ARRAY:
    r.resType = cudaResourceTypeArray;
    r.res.array.array = t->arr;
    break;
  case BIND_MIPMAP:
    r.resType = cudaResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = t->mip;
    break;
  case BIND_LINEAR:
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = (void *)(uintptr_t)t->ptr;
    r.res.linear.sizeInBytes = t->bytes;
    if (cu_format_desc(t->format, (unsigned)t->nch, &r.res.linear.desc)) return CUDA_ERROR_INVALID_VALUE;
    break;
  default:
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = (void *)(uintptr_t)t->ptr;
    r.res.pitch2D.width = t->width;
    r.res.pitch2D.height = t->height;
    r.res.pitch2D.pitchInBytes = t->pitch;
    if (cu_format_desc(t->format, (unsigned)t->nch, &r.res.pitch2D.desc)) return CUDA_ERROR_INVALID_VALUE;
  }
  unsigned long long h = 0;
  cudaError_t e;
  if (t->surf) {
    e = cudaCreateSurfaceObject(&h, &r);
  } else {
    struct cudaTextureDesc d = t->td;
    /* integers read as normalized floats unless READ_AS_INTEGER */
    d.readMode = t->flags & CU_TRSF_READ_AS_INTEGER ? 0 : 1;
    d.normalizedCoords = (t->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    d.sRGB = (t->flags & CU_TRSF_SRGB) != 0;
    e = cudaCreateTextureObject(&h, &r, &d, NULL);
  }
  if (e) return (CUresult)e == cudaErrorInvalidChannelDescriptor ? CUDA_ERROR_INVALID_VALUE : (CUresult)e;
  if (t->obj) (void)(t->surf ? cudaDestroySurfaceObject(t->obj) : cudaDestroyTextureObject(t->obj));
  t->obj = h;
  if (t->var && cudaMemcpy((void *)(uintptr_t)t->var, &h, sizeof h, cudaMemcpyHostToDevice))
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

/* A setter: check the handle, change the state under the lock (set may
 * refuse), bind again. */
#define SETTER(name, params, check, body)                                                                    \
  RT_EXPORT CUresult name params;                                                                            \
  CUresult name params {                                                                                     \
    if (!t || (check)) return CUDA_ERROR_INVALID_VALUE;                                                      \
    pthread_mutex_lock(&lock);                                                                               \
    body;                                                                                                    \
    CUresult r_ = rebind(t);                                                                                 \
    pthread_mutex_unlock(&lock);                                                                             \
    return r_;                                                                                               \
  }

SETTER(cuTexRefSetArray, (CUtexref t, struct cudaArray *a, unsigned int flags), !a || t->surf, {
  t->bind = BIND_ARRAY;
  t->arr = a;
})
SETTER(cuTexRefSetMipmappedArray, (CUtexref t, struct cudaMipmappedArray *a, unsigned int flags),
       !a || t->surf, {
         t->bind = BIND_MIPMAP;
         t->mip = a;
       })
SETTER(cuSurfRefSetArray, (CUsurfref t, struct cudaArray *a, unsigned int flags), !a || !t->surf, {
  t->bind = BIND_ARRAY;
  t->arr = a;
})
SETTER(cuTexRefSetAddress_v2, (size_t * off, CUtexref t, CUdeviceptr p, size_t bytes), t->surf, {
  /* bound at the address rounded down to the texture alignment (512, as
   * the runtime's objects need); *off is what fetches must add, in bytes */
  size_t o = (size_t)(p % 512);
  if (off) *off = o;
  t->bind = p ? BIND_LINEAR : BIND_NONE;
  t->ptr = p - o;
  t->bytes = bytes + o;
})
SETTER(cuTexRefSetAddress2D_v3, (CUtexref t, const array2d *d, CUdeviceptr p, size_t pitch), !d || t->surf, {
  t->bind = BIND_PITCH;
  t->ptr = p;
  t->pitch = pitch;
  t->width = d->w;
  t->height = d->h;
  t->format = d->format;
  t->nch = (int)d->nch;
})
SETTER(cuTexRefSetFormat, (CUtexref t, int fmt, int n), t->surf, {
  t->format = fmt;
  t->nch = n;
})
SETTER(cuTexRefSetAddressMode, (CUtexref t, int dim, int am), dim<0 || dim> 2 || am < 0 || am > 3,
       t->td.addressMode[dim] = am)
SETTER(cuTexRefSetFilterMode, (CUtexref t, int fm), fm<0 || fm> 1, t->td.filterMode = fm)
SETTER(cuTexRefSetMipmapFilterMode, (CUtexref t, int fm), fm<0 || fm> 1, t->td.mipmapFilterMode = fm)
SETTER(cuTexRefSetMipmapLevelBias, (CUtexref t, float b), 0, t->td.mipmapLevelBias = b)
SETTER(cuTexRefSetMipmapLevelClamp, (CUtexref t, float lo, float hi), 0, {
  t->td.minMipmapLevelClamp = lo;
  t->td.maxMipmapLevelClamp = hi;
})
SETTER(cuTexRefSetMaxAnisotropy, (CUtexref t, unsigned int a), 0, t->td.maxAnisotropy = a)
SETTER(cuTexRefSetBorderColor, (CUtexref t, float *c), !c,
       memcpy(t->td.borderColor, c, sizeof t->td.borderColor))
SETTER(cuTexRefSetFlags, (CUtexref t, unsigned int f), 0, t->flags = f)

/* A getter: read the state under the lock. */
#define GETTER(name, params, check, body)                                                                    \
  RT_EXPORT CUresult name params;                                                                            \
  CUresult name params {                                                                                     \
    if (!t || (check)) return CUDA_ERROR_INVALID_VALUE;                                                      \
    pthread_mutex_lock(&lock);                                                                               \
    body;                                                                                                    \
    pthread_mutex_unlock(&lock);                                                                             \
    return CUDA_SUCCESS;                                                                                     \
  }

GETTER(cuTexRefGetAddress_v2, (CUdeviceptr * p, CUtexref t), !p,
       *p = t->bind == BIND_LINEAR || t->bind == BIND_PITCH ? t->ptr : 0)
GETTER(cuTexRefGetArray, (struct cudaArray * *p, CUtexref t), !p, *p = t->bind == BIND_ARRAY ? t->arr : NULL)
GETTER(cuSurfRefGetArray, (struct cudaArray * *p, CUsurfref t), !p,
       *p = t->bind == BIND_ARRAY ? t->arr : NULL)
GETTER(cuTexRefGetMipmappedArray, (struct cudaMipmappedArray * *p, CUtexref t), !p,
       *p = t->bind == BIND_MIPMAP ? t->mip : NULL)
GETTER(cuTexRefGetAddressMode, (int *p, CUtexref t, int dim), !p || dim < 0 || dim > 2,
       *p = t->td.addressMode[dim])
GETTER(cuTexRefGetFilterMode, (int *p, CUtexref t), !p, *p = t->td.filterMode)
GETTER(cuTexRefGetMipmapFilterMode, (int *p, CUtexref t), !p, *p = t->td.mipmapFilterMode)
GETTER(cuTexRefGetFormat, (int *f, int *n, CUtexref t), !f && !n, {
  if (f) *f = t->format;
  if (n) *n = t->nch;
})
GETTER(cuTexRefGetMipmapLevelBias, (float *p, CUtexref t), !p, *p = t->td.mipmapLevelBias)
GETTER(cuTexRefGetMipmapLevelClamp, (float *lo, float *hi, CUtexref t), !lo || !hi, {
  *lo = t->td.minMipmapLevelClamp;
  *hi = t->td.maxMipmapLevelClamp;
})
GETTER(cuTexRefGetMaxAnisotropy, (int *p, CUtexref t), !p, *p = (int)t->td.maxAnisotropy)
GETTER(cuTexRefGetBorderColor, (float *p, CUtexref t), !p,
       memcpy(p, t->td.borderColor, sizeof t->td.borderColor))
GETTER(cuTexRefGetFlags, (unsigned int *p, CUtexref t), !p, *p = t->flags)

/* cuTexRefCreate: a reference of no module (binding it reaches no
 * kernel), as the driver still makes them. */
RT_EXPORT CUresult cuTexRefCreate(CUtexref *p);
CUresult cuTexRefCreate(CUtexref *p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  texref *t = calloc(1, sizeof *t);
  if (!t) return CUDA_ERROR_OUT_OF_MEMORY;
  t->format = 0x20;
  t->nch = 1;
  *p = t;
  return CUDA_SUCCESS;
}
RT_EXPORT CUresult cuTexRefDestroy(CUtexref t);
CUresult cuTexRefDestroy(CUtexref t) {
  if (!t || t->var) return CUDA_ERROR_INVALID_VALUE; /* module references live with their module */
  if (t->obj) cudaDestroyTextureObject(t->obj);
  free(t);
  return CUDA_SUCCESS;
}
