/* texture.c: texture and surface objects in the drop-in runtime. A create
 * call checks the resource and texture descriptors as the driver does (the
 * answers recorded on an H200: tests/hw/textures), turns them into the
 * emulator's image description (smemu_tex_desc) and registers it; the
 * handle it gets is what kernels pass to tex/suld/sust. The descriptors as
 * given are kept for the cudaGet*Object*Desc queries. Destroying an object
 * waits for the queued work first, which may still sample it. */
#include "array.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct rt_texobj {
  uint64_t h; /* smemu handle */
  int surface;
  struct cudaResourceDesc res;
  struct cudaTextureDesc tex;
  struct cudaResourceViewDesc view;
  int has_view;
  int live;           /* 0 once its memory was freed (rt_tex_forget) */
  smemu_tex_desc img; /* the image, for rt_tex_forget */
  struct rt_texobj *next;
} rt_texobj;

static rt_texobj *objs;

static rt_texobj *obj_get(uint64_t h, int surface) {
  for (rt_texobj *o = objs; o; o = o->next)
    if (o->h == h && o->surface == surface) return o;
  return NULL;
}

static int kind_of(enum cudaChannelFormatKind f) {
  return f == cudaChannelFormatKindSigned     ? SMEMU_TEX_SIGNED
         : f == cudaChannelFormatKindUnsigned ? SMEMU_TEX_UNSIGNED
                                              : SMEMU_TEX_FLOAT;
}

/* What txq/suq .channel_data_type give: the driver's CU_AD_FORMAT code. */
static int channel_type(int kind, int bits) {
  if (kind == SMEMU_TEX_FLOAT) return bits == 16 ? 0x10 : 0x20;
  int b = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  return (kind == SMEMU_TEX_UNSIGNED ? 0x01 : 0x08) + b;
}

/* The image of a resource descriptor into d. */
static cudaError_t image_of(const struct cudaResourceDesc *r, smemu_tex_desc *d, int surface) {
  memset(d, 0, sizeof *d);
  d->nlevels = 1;
  d->surface = surface;
  switch (r->resType) {
  case cudaResourceTypeArray: {
    struct cudaArray *a = rt_array_get(r->res.array.array);
    if (!a) return cudaErrorInvalidResourceHandle;
    rt_array_image(a, d);
    break;
  }
  case cudaResourceTypeMipmappedArray: {
    struct cudaMipmappedArray *m = rt_mipmap_get(r->res.mipmap.mipmap);
    if (!m) return cudaErrorInvalidResourceHandle;
    if (surface) return cudaErrorInvalidValue;
    rt_array_image(m->level[0], d);
    d->nlevels = (int)m->nlevels;
    for (unsigned l = 1; l < m->nlevels; l++) {
      smemu_tex_desc t;
      memset(&t, 0, sizeof t);
      rt_array_image(m->level[l], &t);
      d->level[l] = t.level[0];
    }
    break;
  }
  case cudaResourceTypeLinear:
  case cudaResourceTypePitch2D: {
    if (surface) return cudaErrorInvalidValue;
    int lin = r->resType == cudaResourceTypeLinear;
    const struct cudaChannelFormatDesc *cd = lin ? &r->res.linear.desc : &r->res.pitch2D.desc;
    void *p = lin ? r->res.linear.devPtr : r->res.pitch2D.devPtr;
    int nch, bits;
    if (rt_channel_format(cd, &nch, &bits) < 0) return cudaErrorInvalidChannelDescriptor;
    size_t es = (size_t)nch * (size_t)bits / 8;
    /* the device's textureAlignment (512) and texturePitchAlignment (32) */
    if (!p || (uintptr_t)p % 512) return cudaErrorInvalidValue;
    d->nch = nch, d->bits = bits, d->kind = kind_of(cd->f);
    smemu_tex_level *l = &d->level[0];
    l->base = p;
    if (lin) {
      size_t n = r->res.linear.sizeInBytes / es;
      if (!rt_side_ok(p, r->res.linear.sizeInBytes, 1) || n > (1u << 28)) return cudaErrorInvalidValue;
      d->dims = 1;
      d->linear = 1;
      /* an empty range is allowed: every fetch reads 0 */
      l->width = n ? (uint32_t)n : 1, l->height = l->depth = 1;
      if (!n) l->width = 0;
      l->pitch = l->slice = r->res.linear.sizeInBytes;
    } else {
      size_t w = r->res.pitch2D.width, h = r->res.pitch2D.height, pitch = r->res.pitch2D.pitchInBytes;
      if (!w || !h || w > 131072 || h > 65000 || pitch % 32 || pitch < w * es ||
          !rt_side_ok(p, rt_span(pitch, w * es, h), 1))
        return cudaErrorInvalidValue;
      d->dims = 2;
      l->width = (uint32_t)w, l->height = (uint32_t)h, l->depth = 1;
      l->pitch = pitch, l->slice = pitch * h;
    }
    break;
  }
  default:
    return cudaErrorInvalidValue;
  }
  d->channel_type = channel_type(d->kind, d->bits);
  return cudaSuccess;
}

static cudaError_t add_obj(uint64_t h, int surface, const struct cudaResourceDesc *r,
                           const struct cudaTextureDesc *t, const struct cudaResourceViewDesc *v,
                           const smemu_tex_desc *img) {
  rt_texobj *o = calloc(1, sizeof *o);
  if (!o) return cudaErrorMemoryAllocation;
  o->h = h, o->surface = surface, o->res = *r, o->live = 1, o->img = *img;
  if (t) o->tex = *t;
  if (v) o->view = *v, o->has_view = 1;
  o->next = objs;
  objs = o;
  return cudaSuccess;
}

RT_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                              const struct cudaResourceDesc *pResDesc,
                                              const struct cudaTextureDesc *pTexDesc,
                                              const struct cudaResourceViewDesc *pResViewDesc) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!pTexObject || !pResDesc || !pTexDesc) return rt_end(cudaErrorInvalidValue);
  if (pResViewDesc) {
    rt_msg("cudaCreateTextureObject: resource views are not supported by smemu's runtime");
    return rt_end(cudaErrorNotSupported);
  }
  smemu_tex_desc d;
  if ((e = image_of(pResDesc, &d, 0))) return rt_end(e);
  const struct cudaTextureDesc *t = pTexDesc;
  for (int k = 0; k < 3; k++) {
    if (t->addressMode[k] < 0 || t->addressMode[k] > 3) return rt_end(cudaErrorInvalidValue);
    d.addr[k] = t->addressMode[k];
  }
  if (t->filterMode < 0 || t->filterMode > 1 || t->mipmapFilterMode < 0 || t->mipmapFilterMode > 1 ||
      t->readMode < 0 || t->readMode > 1)
    return rt_end(cudaErrorInvalidValue);
  /* normalized reads exist for 8- and 16-bit integers; others read as they are */
  d.read_norm = t->readMode == 1 && d.kind != SMEMU_TEX_FLOAT && d.bits < 32;
  int float_read = d.kind == SMEMU_TEX_FLOAT || d.read_norm;
  if (t->filterMode == 1 && !float_read) return rt_end(cudaErrorInvalidFilterSetting);
  if (t->sRGB) {
    rt_msg("cudaCreateTextureObject: sRGB textures are not supported by smemu's runtime");
    return rt_end(cudaErrorNotSupported);
  }
  d.filter = t->filterMode;
  d.mip_filter = t->mipmapFilterMode;
  d.norm_coords = t->normalizedCoords != 0;
  memcpy(d.border, t->borderColor, sizeof d.border);
  d.lod_bias = t->mipmapLevelBias;
  d.min_lod = t->minMipmapLevelClamp;
  d.max_lod = t->maxMipmapLevelClamp;
  uint64_t h = smemu_tex_register(&d);
  if (!h) return rt_end(cudaErrorMemoryAllocation);
  if ((e = add_obj(h, 0, pResDesc, pTexDesc, NULL, &d))) {
    smemu_tex_unregister(h);
    return rt_end(e);
  }
  *pTexObject = h;
  return rt_end(cudaSuccess);
}

static cudaError_t destroy(uint64_t h, int surface) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!h && !obj_get(h, surface)) return rt_end(cudaSuccess);
  rt_texobj *o = obj_get(h, surface);
  if (!o) return rt_end(cudaErrorInvalidValue);
  rt_drain(); /* queued kernels may still use it */
  for (rt_texobj **p = &objs; *p; p = &(*p)->next)
    if (*p == o) {
      *p = o->next;
      break;
    }
  if (o->live) smemu_tex_unregister(o->h);
  free(o);
  return rt_end(cudaSuccess);
}

void rt_tex_forget(const void *p, size_t n) {
  uintptr_t lo = (uintptr_t)p, hi = n > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + n;
  for (rt_texobj *o = objs; o; o = o->next) {
    if (!o->live) continue;
    for (int l = 0; l < o->img.nlevels; l++) {
      const smemu_tex_level *v = &o->img.level[l];
      size_t count = o->img.layered || o->img.cube ? o->img.layers : v->depth;
      uintptr_t b = (uintptr_t)v->base, e = b + v->slice * (count ? count : 1);
      if (b < hi && lo < e) {
        smemu_tex_unregister(o->h);
        o->live = 0;
        break;
      }
    }
  }
}

RT_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return destroy(texObject, 0);
}
RT_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return destroy(surfObject, 1);
}

RT_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                              const struct cudaResourceDesc *pResDesc) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!pSurfObject || !pResDesc) return rt_end(cudaErrorInvalidValue);
  if (pResDesc->resType != cudaResourceTypeArray) return rt_end(cudaErrorInvalidValue);
  smemu_tex_desc d;
  if ((e = image_of(pResDesc, &d, 1))) return rt_end(e);
  /* (an array without cudaArraySurfaceLoadStore is accepted, as the
   * H200's driver accepts it) */
  for (int k = 0; k < 3; k++) d.addr[k] = SMEMU_ADDR_CLAMP;
  uint64_t h = smemu_tex_register(&d);
  if (!h) return rt_end(cudaErrorMemoryAllocation);
  if ((e = add_obj(h, 1, pResDesc, NULL, NULL, &d))) {
    smemu_tex_unregister(h);
    return rt_end(e);
  }
  *pSurfObject = h;
  return rt_end(cudaSuccess);
}

static cudaError_t get(uint64_t h, int surface, rt_texobj **o) {
  cudaError_t e = rt_begin(1);
  if (e) return e;
  *o = obj_get(h, surface);
  return *o ? cudaSuccess : cudaErrorInvalidValue;
}

/* *out = the descriptor at offset off (size bytes) of texture or surface
 * object h */
static cudaError_t get_desc(uint64_t h, int surface, void *out, size_t off, size_t size) {
  rt_texobj *o;
  cudaError_t e = get(h, surface, &o);
  if (!e && !out) e = cudaErrorInvalidValue;
  if (!e) memcpy(out, (const char *)o + off, size);
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaTextureObject_t t) {
  return get_desc(t, 0, pResDesc, offsetof(rt_texobj, res), sizeof *pResDesc);
}

RT_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                      cudaTextureObject_t t) {
  return get_desc(t, 0, pTexDesc, offsetof(rt_texobj, tex), sizeof *pTexDesc);
}

RT_EXPORT cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                           cudaTextureObject_t t) {
  rt_texobj *o;
  cudaError_t e = get(t, 0, &o);
  if (!e && !pResViewDesc) e = cudaErrorInvalidValue;
  if (!e) {
    if (o->has_view)
      *pResViewDesc = o->view;
    else
      memset(pResViewDesc, 0, sizeof *pResViewDesc);
  }
  return rt_end(e);
}

RT_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                       cudaSurfaceObject_t s) {
  return get_desc(s, 1, pResDesc, offsetof(rt_texobj, res), sizeof *pResDesc);
}
