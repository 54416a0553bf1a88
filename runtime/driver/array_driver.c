/* array_driver.c: the driver API's arrays, copies that reach them, and
 * texture and surface objects (cuArrayCreate, cuMemcpy2D/3D, cuTexObject*,
 * cuSurfObject*, ...). Each translates the driver's descriptors (formats
 * as CUarray_format and a channel count, flags instead of read modes) into
 * the runtime's and runs the runtime's implementation (array.c,
 * texture.c), so both APIs share one set of arrays and objects. */
#include "cudart/array.h"
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct cudaArray *CUarray;
typedef struct cudaMipmappedArray *CUmipmappedArray;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;

enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };
enum { CU_TRSF_READ_AS_INTEGER = 1, CU_TRSF_NORMALIZED_COORDINATES = 2, CU_TRSF_SRGB = 0x10 };

typedef struct CUDA_ARRAY_DESCRIPTOR {
  size_t Width, Height;
  int Format; /* CUarray_format */
  unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR;

typedef struct CUDA_ARRAY3D_DESCRIPTOR {
  size_t Width, Height, Depth;
  int Format;
  unsigned int NumChannels;
  unsigned int Flags;
} CUDA_ARRAY3D_DESCRIPTOR;

typedef struct CUDA_MEMCPY2D {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
} CUDA_MEMCPY2D;

typedef struct CUDA_MEMCPY3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D;

typedef struct CUDA_RESOURCE_DESC {
  int resType; /* CUresourcetype: array, mipmapped array, linear, pitch2D */
  union {
    struct {
      CUarray hArray;
    } array;
    struct {
      CUmipmappedArray hMipmappedArray;
    } mipmap;
    struct {
      CUdeviceptr devPtr;
      int format;
      unsigned int numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      CUdeviceptr devPtr;
      int format;
      unsigned int numChannels;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
} CUDA_RESOURCE_DESC;

typedef struct CUDA_TEXTURE_DESC {
  int addressMode[3];
  int filterMode;
  unsigned int flags;
  unsigned int maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
} CUDA_TEXTURE_DESC;

/* The driver's codes: the runtime's numbers where both have the error. */
static CUresult cu(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidChannelDescriptor:
  case cudaErrorInvalidFilterSetting:
  case cudaErrorInvalidPitchValue:
  case cudaErrorInvalidMemcpyDirection:
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  default:
    return (CUresult)e;
  }
}

/* CUarray_format codes with the width and kind of their channels. */
static const struct {
  int format, bits, kind;
} formats[] = {
    {0x01, 8, cudaChannelFormatKindUnsigned},  {0x02, 16, cudaChannelFormatKindUnsigned},
    {0x03, 32, cudaChannelFormatKindUnsigned}, {0x08, 8, cudaChannelFormatKindSigned},
    {0x09, 16, cudaChannelFormatKindSigned},   {0x0a, 32, cudaChannelFormatKindSigned},
    {0x10, 16, cudaChannelFormatKindFloat},    {0x20, 32, cudaChannelFormatKindFloat},
};

/* CUarray_format and a channel count as a channel descriptor (texref.c
 * uses it too). */
int cu_format_desc(int format, unsigned nch, struct cudaChannelFormatDesc *d);
int cu_format_desc(int format, unsigned nch, struct cudaChannelFormatDesc *d) {
  size_t i = 0;
  while (i < sizeof formats / sizeof *formats && formats[i].format != format) i++;
  if (i == sizeof formats / sizeof *formats) return -1;
  int bits = formats[i].bits, kind = formats[i].kind;
  if (nch != 1 && nch != 2 && nch != 4) return -1;
  *d = cudaCreateChannelDesc(bits, nch > 1 ? bits : 0, nch > 2 ? bits : 0, nch > 3 ? bits : 0,
                             (enum cudaChannelFormatKind)kind);
  return 0;
}

/* The other way: a descriptor as CUarray_format and channels. */
static void format_of(const struct cudaChannelFormatDesc *d, int *format, unsigned *nch) {
  int n = 1, bits = 8;
  rt_channel_format(d, &n, &bits);
  int b = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  *format = d->f == cudaChannelFormatKindFloat    ? (bits == 16 ? 0x10 : 0x20)
            : d->f == cudaChannelFormatKindSigned ? 0x08 + b
                                                  : 0x01 + b;
  *nch = (unsigned)n;
}

RT_EXPORT CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *p);
CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *p) {
  struct cudaChannelFormatDesc d;
  if (!p || cu_format_desc(p->Format, p->NumChannels, &d)) return 1;
  return cu(cudaMallocArray(pHandle, &d, p->Width, p->Height, 0));
}

RT_EXPORT CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p);
CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p) {
  struct cudaChannelFormatDesc d;
  if (!p || cu_format_desc(p->Format, p->NumChannels, &d)) return 1;
  struct cudaExtent ex = {p->Width, p->Height, p->Depth};
  /* CUDA_ARRAY3D_LAYERED/SURFACE_LDST/CUBEMAP/TEXTURE_GATHER are the runtime's flag bits */
  return cu(cudaMalloc3DArray(pHandle, &d, ex, p->Flags));
}

RT_EXPORT CUresult cuArrayDestroy(CUarray h);
CUresult cuArrayDestroy(CUarray h) {
  if (!h) return 400; /* CUDA_ERROR_INVALID_HANDLE */
  return cu(cudaFreeArray(h));
}

/* What both descriptor queries read of an array: its extent, flags and format. */
static CUresult array_info(CUarray h, struct cudaExtent *ex, unsigned *flags, int *format, unsigned *nch) {
  struct cudaChannelFormatDesc d;
  cudaError_t e = cudaArrayGetInfo(&d, ex, flags, h);
  if (e) return cu(e);
  format_of(&d, format, nch);
  return 0;
}

RT_EXPORT CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *p, CUarray h);
RT_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *p, CUarray h);
CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *p, CUarray h) {
  struct cudaExtent ex;
  unsigned flags;
  if (!p) return 1;
  CUresult r = array_info(h, &ex, &flags, &p->Format, &p->NumChannels);
  if (!r) p->Width = ex.width, p->Height = ex.height, p->Depth = ex.depth, p->Flags = flags;
  return r;
}

/* the 3D descriptor's first four fields */
CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *p, CUarray h) {
  CUDA_ARRAY3D_DESCRIPTOR d;
  if (!p) return 1;
  CUresult r = cuArray3DGetDescriptor_v2(&d, h);
  if (!r) p->Width = d.Width, p->Height = d.Height, p->Format = d.Format, p->NumChannels = d.NumChannels;
  return r;
}

RT_EXPORT CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p,
                                          unsigned int numLevels);
CUresult cuMipmappedArrayCreate(CUmipmappedArray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p,
                                unsigned int numLevels) {
  struct cudaChannelFormatDesc d;
  if (!p || cu_format_desc(p->Format, p->NumChannels, &d)) return 1;
  struct cudaExtent ex = {p->Width, p->Height, p->Depth};
  return cu(cudaMallocMipmappedArray(pHandle, &d, ex, numLevels, p->Flags));
}

RT_EXPORT CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray h, unsigned int level);
CUresult cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray h, unsigned int level) {
  return cu(cudaGetMipmappedArrayLevel(pLevelArray, h, level));
}

RT_EXPORT CUresult cuMipmappedArrayDestroy(CUmipmappedArray h);
CUresult cuMipmappedArrayDestroy(CUmipmappedArray h) {
  if (!h) return 400;
  return cu(cudaFreeMipmappedArray(h));
}

/* ---- copies ---- */

/* A side of cuMemcpy2D/3D. Host and unified memory may be any memory the
 * program owns; device memory must be a tracked allocation. */
static CUresult side_of(int type, const void *host, CUdeviceptr dev, CUarray arr, size_t x, size_t y,
                        size_t z, size_t pitch, size_t rows, rt_side *s) {
  memset(s, 0, sizeof *s);
  switch (type) {
  case CU_MEMORYTYPE_ARRAY:
    if (!(s->a = rt_array_get(arr))) return 400;
    s->x = x, s->y = y, s->z = z;
    return 0;
  case CU_MEMORYTYPE_HOST:
  case CU_MEMORYTYPE_DEVICE:
  case CU_MEMORYTYPE_UNIFIED: {
    uint8_t *p = type == CU_MEMORYTYPE_HOST ? (uint8_t *)host : (uint8_t *)(uintptr_t)dev;
    size_t off;
    if (!p) return 1;
    if (__builtin_mul_overflow(z, rows, &off) || __builtin_add_overflow(off, y, &off) ||
        __builtin_mul_overflow(off, pitch, &off) || __builtin_add_overflow(off, x, &off))
      return 1;
    s->p = p + off;
    s->pitch = pitch;
    s->rows = rows;
    s->device = type == CU_MEMORYTYPE_DEVICE;
    return 0;
  }
  default:
    return 1;
  }
}

static CUresult copy2d(const CUDA_MEMCPY2D *c, cudaStream_t stream, int async) {
  if (!c) return 1;
  rt_side d, s;
  CUresult r;
  if ((r = side_of(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY, 0,
                   c->srcPitch, 1, &s)) ||
      (r = side_of(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY, 0,
                   c->dstPitch, 1, &d)))
    return r;
  /* a pitch below the width is invalid for linear sides (one row needs none) */
  if (c->Height > 1 && ((!s.a && c->srcPitch < c->WidthInBytes) || (!d.a && c->dstPitch < c->WidthInBytes)))
    return 1;
  if (c->Height <= 1) {
    if (!s.a) s.pitch = c->WidthInBytes;
    if (!d.a) d.pitch = c->WidthInBytes;
  }
  if (!s.a && !d.a) {
    /* linear on both sides: the runtime's copy, which the checks see
     * (initcheck's written bytes) and stream capture records */
    enum cudaMemcpyKind kind = (enum cudaMemcpyKind)(s.device * 2 + d.device);
    if (c->srcMemoryType == CU_MEMORYTYPE_UNIFIED || c->dstMemoryType == CU_MEMORYTYPE_UNIFIED)
      kind = cudaMemcpyDefault;
    return cu(async ? cudaMemcpy2DAsync(d.p, d.pitch, s.p, s.pitch, c->WidthInBytes, c->Height, kind, stream)
                    : cudaMemcpy2D(d.p, d.pitch, s.p, s.pitch, c->WidthInBytes, c->Height, kind));
  }
  cudaError_t e = rt_begin(1);
  if (!e) e = rt_copy_sides(&d, &s, c->WidthInBytes, c->Height, 1, stream, async);
  rt_end(cudaSuccess);
  return cu(e);
}

RT_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *c);
CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *c) { return copy2d(c, 0, 0); }
RT_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *c);
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *c) { return copy2d(c, 0, 0); }
RT_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *c, cudaStream_t s);
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *c, cudaStream_t s) { return copy2d(c, s, 1); }

static CUresult copy3d(const CUDA_MEMCPY3D *c, cudaStream_t stream, int async) {
  if (!c || c->reserved0 || c->reserved1 || c->srcLOD || c->dstLOD) return 1;
  rt_side d, s;
  CUresult r;
  if ((r = side_of(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes, c->srcY, c->srcZ,
                   c->srcPitch, c->srcHeight, &s)) ||
      (r = side_of(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes, c->dstY, c->dstZ,
                   c->dstPitch, c->dstHeight, &d)))
    return r;
  if (c->Depth > 1 && ((!s.a && c->srcHeight < c->Height) || (!d.a && c->dstHeight < c->Height))) return 1;
  if ((!s.a && c->Height > 1 && c->srcPitch < c->WidthInBytes) ||
      (!d.a && c->Height > 1 && c->dstPitch < c->WidthInBytes))
    return 1;
  if (c->Height <= 1 && c->Depth <= 1) {
    if (!s.a) s.pitch = c->WidthInBytes;
    if (!d.a) d.pitch = c->WidthInBytes;
  }
  cudaError_t e = rt_begin(1);
  if (!e) e = rt_copy_sides(&d, &s, c->WidthInBytes, c->Height, c->Depth, stream, async);
  rt_end(cudaSuccess);
  return cu(e);
}

RT_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *c);
CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *c) { return copy3d(c, 0, 0); }
RT_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *c, cudaStream_t s);
CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *c, cudaStream_t s) { return copy3d(c, s, 1); }

/* The one-dimensional array copies: a byte range of an array's texels, row
 * after row (what the runtime's cudaMemcpyToArray does). */
RT_EXPORT CUresult cuMemcpyHtoA_v2(CUarray dst, size_t off, const void *src, size_t n);
CUresult cuMemcpyHtoA_v2(CUarray dst, size_t off, const void *src, size_t n) {
  return cu(cudaMemcpyToArray(dst, off, 0, src, n, cudaMemcpyHostToDevice));
}
RT_EXPORT CUresult cuMemcpyAtoH_v2(void *dst, CUarray src, size_t off, size_t n);
CUresult cuMemcpyAtoH_v2(void *dst, CUarray src, size_t off, size_t n) {
  return cu(cudaMemcpyFromArray(dst, src, off, 0, n, cudaMemcpyDeviceToHost));
}
RT_EXPORT CUresult cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n);
CUresult cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n) {
  return cu(cudaMemcpyToArray(dst, off, 0, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToDevice));
}
RT_EXPORT CUresult cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n);
CUresult cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n) {
  return cu(cudaMemcpyFromArray((void *)(uintptr_t)dst, src, off, 0, n, cudaMemcpyDeviceToDevice));
}
RT_EXPORT CUresult cuMemcpyAtoA_v2(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n);
CUresult cuMemcpyAtoA_v2(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n) {
  return cu(cudaMemcpyArrayToArray(dst, doff, 0, src, soff, 0, n, cudaMemcpyDeviceToDevice));
}

/* ---- texture and surface objects ---- */

static CUresult res_of(const CUDA_RESOURCE_DESC *r, struct cudaResourceDesc *o) {
  memset(o, 0, sizeof *o);
  if (r->flags) return 1;
  o->resType = (enum cudaResourceType)r->resType;
  switch (r->resType) {
  case cudaResourceTypeArray:
    o->res.array.array = r->res.array.hArray;
    return 0;
  case cudaResourceTypeMipmappedArray:
    o->res.mipmap.mipmap = r->res.mipmap.hMipmappedArray;
    return 0;
  case cudaResourceTypeLinear:
    o->res.linear.devPtr = (void *)(uintptr_t)r->res.linear.devPtr;
    o->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
    return cu_format_desc(r->res.linear.format, r->res.linear.numChannels, &o->res.linear.desc) ? 1 : 0;
  case cudaResourceTypePitch2D:
    o->res.pitch2D.devPtr = (void *)(uintptr_t)r->res.pitch2D.devPtr;
    o->res.pitch2D.width = r->res.pitch2D.width;
    o->res.pitch2D.height = r->res.pitch2D.height;
    o->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
    return cu_format_desc(r->res.pitch2D.format, r->res.pitch2D.numChannels, &o->res.pitch2D.desc) ? 1 : 0;
  default:
    return 1;
  }
}

static void res_back(const struct cudaResourceDesc *o, CUDA_RESOURCE_DESC *r) {
  memset(r, 0, sizeof *r);
  r->resType = o->resType;
  switch (o->resType) {
  case cudaResourceTypeArray:
    r->res.array.hArray = o->res.array.array;
    break;
  case cudaResourceTypeMipmappedArray:
    r->res.mipmap.hMipmappedArray = o->res.mipmap.mipmap;
    break;
  case cudaResourceTypeLinear:
    r->res.linear.devPtr = (CUdeviceptr)(uintptr_t)o->res.linear.devPtr;
    r->res.linear.sizeInBytes = o->res.linear.sizeInBytes;
    format_of(&o->res.linear.desc, &r->res.linear.format, &r->res.linear.numChannels);
    break;
  default:
    r->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)o->res.pitch2D.devPtr;
    r->res.pitch2D.width = o->res.pitch2D.width;
    r->res.pitch2D.height = o->res.pitch2D.height;
    r->res.pitch2D.pitchInBytes = o->res.pitch2D.pitchInBytes;
    format_of(&o->res.pitch2D.desc, &r->res.pitch2D.format, &r->res.pitch2D.numChannels);
    break;
  }
}

RT_EXPORT CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                     const CUDA_TEXTURE_DESC *pTexDesc, const void *pResViewDesc);
CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc, const void *pResViewDesc) {
  if (!pResDesc || !pTexDesc) return 1;
  if (pResViewDesc) return 801; /* CUDA_ERROR_NOT_SUPPORTED, as the runtime says */
  struct cudaResourceDesc r;
  if (res_of(pResDesc, &r)) return 1;
  struct cudaTextureDesc t;
  memset(&t, 0, sizeof t);
  for (int k = 0; k < 3; k++) t.addressMode[k] = pTexDesc->addressMode[k];
  t.filterMode = pTexDesc->filterMode;
  /* the driver reads integers as normalized floats unless READ_AS_INTEGER */
  t.readMode = pTexDesc->flags & CU_TRSF_READ_AS_INTEGER ? 0 : 1;
  t.normalizedCoords = (pTexDesc->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
  t.sRGB = (pTexDesc->flags & CU_TRSF_SRGB) != 0;
  t.maxAnisotropy = pTexDesc->maxAnisotropy;
  t.mipmapFilterMode = pTexDesc->mipmapFilterMode;
  t.mipmapLevelBias = pTexDesc->mipmapLevelBias;
  t.minMipmapLevelClamp = pTexDesc->minMipmapLevelClamp;
  t.maxMipmapLevelClamp = pTexDesc->maxMipmapLevelClamp;
  memcpy(t.borderColor, pTexDesc->borderColor, sizeof t.borderColor);
  return cu(cudaCreateTextureObject(pTexObject, &r, &t, NULL));
}

RT_EXPORT CUresult cuTexObjectDestroy(CUtexObject t);
CUresult cuTexObjectDestroy(CUtexObject t) { return cu(cudaDestroyTextureObject(t)); }

/* A texture or surface object's resource in the driver's terms, read with
 * the runtime's query get. */
static CUresult res_desc(CUDA_RESOURCE_DESC *p, unsigned long long h,
                         cudaError_t (*get)(struct cudaResourceDesc *, unsigned long long)) {
  struct cudaResourceDesc r;
  if (!p) return 1;
  cudaError_t e = get(&r, h);
  if (!e) res_back(&r, p);
  return cu(e);
}

RT_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *p, CUtexObject t);
CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *p, CUtexObject t) {
  return res_desc(p, t, cudaGetTextureObjectResourceDesc);
}

RT_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *p, CUtexObject t);
CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *p, CUtexObject t) {
  struct cudaTextureDesc d;
  if (!p) return 1;
  cudaError_t e = cudaGetTextureObjectTextureDesc(&d, t);
  if (e) return cu(e);
  memset(p, 0, sizeof *p);
  for (int k = 0; k < 3; k++) p->addressMode[k] = d.addressMode[k];
  p->filterMode = d.filterMode;
  p->flags = (d.readMode ? 0 : CU_TRSF_READ_AS_INTEGER) |
             (d.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (d.sRGB ? CU_TRSF_SRGB : 0);
  p->maxAnisotropy = d.maxAnisotropy;
  p->mipmapFilterMode = d.mipmapFilterMode;
  p->mipmapLevelBias = d.mipmapLevelBias;
  p->minMipmapLevelClamp = d.minMipmapLevelClamp;
  p->maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  memcpy(p->borderColor, d.borderColor, sizeof p->borderColor);
  return 0;
}

RT_EXPORT CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc);
CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc) {
  struct cudaResourceDesc r;
  if (!pResDesc || res_of(pResDesc, &r)) return 1;
  return cu(cudaCreateSurfaceObject(pSurfObject, &r));
}

RT_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject s);
CUresult cuSurfObjectDestroy(CUsurfObject s) { return cu(cudaDestroySurfaceObject(s)); }

RT_EXPORT CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *p, CUsurfObject s);
CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *p, CUsurfObject s) {
  return res_desc(p, s, cudaGetSurfaceObjectResourceDesc);
}
