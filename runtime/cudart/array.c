/* array.c: CUDA arrays and mipmapped arrays in the drop-in runtime:
 * channel descriptors, allocation (1D, 2D, 3D, layered, cubemap), the
 * queries (cudaArrayGetInfo, cudaGetChannelDesc, levels), and every copy
 * to, from and between arrays (2D, linear, 3D). An array is one host
 * block, rows of width texels, one 2D slice per depth step, layer or cube
 * face; texture and surface objects (texture.c) point into it. Every copy
 * checks its region against the array and the linear side against the
 * allocation it lies in (bounds.c) before it touches anything, and runs
 * after the queued work, as the CUDA copies do. */
#include "array.h"
#include <stdlib.h>
#include <string.h>

static struct cudaArray *arrays;
static struct cudaMipmappedArray *mipmaps;

struct cudaArray *rt_array_get(const void *p) {
  for (struct cudaArray *a = arrays; a; a = a->next)
    if (a == p) return a;
  return NULL;
}

struct cudaMipmappedArray *rt_mipmap_get(const void *p) {
  for (struct cudaMipmappedArray *m = mipmaps; m; m = m->next)
    if (m == p) return m;
  return NULL;
}

RT_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}

int rt_channel_format(const struct cudaChannelFormatDesc *d, int *nch, int *bits) {
  int b = d->x, n = 1;
  if (b != 8 && b != 16 && b != 32) return -1;
  if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned &&
      d->f != cudaChannelFormatKindFloat)
    return -1;
  if (d->f == cudaChannelFormatKindFloat && b == 8) return -1;
  const int more[3] = {d->y, d->z, d->w};
  for (int i = 0; i < 3; i++) {
    if (!more[i]) {
      for (int j = i + 1; j < 3; j++)
        if (more[j]) return -1;
      break;
    }
    if (more[i] != b) return -1;
    n++;
  }
  if (n == 3) return -1; /* three-channel formats do not exist for arrays and textures */
  *nch = n;
  *bits = b;
  return 0;
}

/* A new array of the given extent (texels) and flags, or an error. */
static cudaError_t array_new(const struct cudaChannelFormatDesc *desc, size_t w, size_t h, size_t d,
                             unsigned flags, struct cudaArray **out) {
  int nch, bits;
  if (!desc || rt_channel_format(desc, &nch, &bits) < 0) return cudaErrorInvalidChannelDescriptor;
  if (flags &
      ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather))
    return cudaErrorInvalidValue;
  if (!w || (d && !h && !(flags & cudaArrayLayered))) return cudaErrorInvalidValue;
  if ((flags & cudaArrayCubemap) && (w != h || !d || d % 6)) return cudaErrorInvalidValue;
  if ((flags & cudaArrayLayered) && !d) return cudaErrorInvalidValue;
  /* the device's limits (device.c's maxTexture*) */
  if (w > 131072 || h > 65536 || d > 16384) return cudaErrorInvalidValue;
  struct cudaArray *a = calloc(1, sizeof *a);
  if (!a) return cudaErrorMemoryAllocation;
  a->magic = ARRAY_MAGIC;
  a->desc = *desc;
  a->width = w, a->height = h, a->depth = d;
  a->flags = flags;
  a->elem = (size_t)nch * (size_t)bits / 8;
  a->pitch = w * a->elem;
  a->slice = a->pitch * (h ? h : 1);
  a->bytes = a->slice * (d ? d : 1);
  if (a->bytes > rt_total_memory() || !(a->data = calloc(1, a->bytes))) {
    free(a);
    return cudaErrorMemoryAllocation;
  }
  a->next = arrays;
  arrays = a;
  *out = a;
  return cudaSuccess;
}

static void array_free(struct cudaArray *a) {
  rt_tex_forget(a->data, a->bytes);
  for (struct cudaArray **p = &arrays; *p; p = &(*p)->next)
    if (*p == a) {
      *p = a->next;
      break;
    }
  a->magic = 0;
  free(a->data);
  free(a);
}

RT_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                      size_t width, size_t height, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!array) return rt_end(cudaErrorInvalidValue);
  if (flags & (cudaArrayLayered | cudaArrayCubemap)) return rt_end(cudaErrorInvalidValue);
  return rt_end(array_new(desc, width, height, 0, flags, array));
}

RT_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent extent, unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!array) return rt_end(cudaErrorInvalidValue);
  return rt_end(array_new(desc, extent.width, extent.height, extent.depth, flags, array));
}

RT_EXPORT cudaError_t cudaFreeArray(cudaArray_t array) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!array) return rt_end(cudaSuccess);
  struct cudaArray *a = rt_array_get(array);
  if (!a || a->owner) return rt_end(cudaErrorInvalidValue);
  rt_drain(); /* queued kernels may still read it */
  array_free(a);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                       unsigned int *flags, cudaArray_t array) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  struct cudaArray *a = rt_array_get(array);
  if (!a) return rt_end(cudaErrorInvalidResourceHandle);
  if (desc) *desc = a->desc;
  if (extent) extent->width = a->width, extent->height = a->height, extent->depth = a->depth;
  if (flags) *flags = a->flags;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  struct cudaArray *a = rt_array_get(array);
  if (!a) return rt_end(cudaErrorInvalidResourceHandle);
  if (!desc) return rt_end(cudaErrorInvalidValue);
  *desc = a->desc;
  return rt_end(cudaSuccess);
}

/* ---- mipmapped arrays ---- */

RT_EXPORT cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmap,
                                               const struct cudaChannelFormatDesc *desc,
                                               struct cudaExtent extent, unsigned int numLevels,
                                               unsigned int flags) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!mipmap || !extent.width) return rt_end(cudaErrorInvalidValue);
  size_t big = extent.width > extent.height ? extent.width : extent.height;
  if (extent.depth > big && !(flags & (cudaArrayLayered | cudaArrayCubemap))) big = extent.depth;
  unsigned full = 1;
  while (big >> full) full++;
  if (!numLevels) numLevels = full;
  if (numLevels > full || numLevels > SMEMU_TEX_MAX_LEVELS) return rt_end(cudaErrorInvalidValue);
  struct cudaMipmappedArray *m = calloc(1, sizeof *m);
  if (!m) return rt_end(cudaErrorMemoryAllocation);
  m->magic = MIPMAP_MAGIC;
  m->nlevels = numLevels;
  int layered = (flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;
  for (unsigned l = 0; l < numLevels; l++) {
    size_t w = extent.width >> l, h = extent.height >> l, d = layered ? extent.depth : extent.depth >> l;
    if (!w) w = 1;
    if (extent.height && !h) h = 1;
    if (extent.depth && !d) d = 1;
    if ((e = array_new(desc, w, h, d, flags, &m->level[l]))) {
      while (l--) array_free(m->level[l]);
      free(m);
      return rt_end(e);
    }
    m->level[l]->owner = m;
  }
  m->next = mipmaps;
  mipmaps = m;
  *mipmap = m;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmap,
                                                 unsigned int level) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  struct cudaMipmappedArray *m = rt_mipmap_get(mipmap);
  if (!m) return rt_end(cudaErrorInvalidResourceHandle);
  if (!levelArray || level >= m->nlevels) return rt_end(cudaErrorInvalidValue);
  *levelArray = m->level[level];
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmap) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!mipmap) return rt_end(cudaSuccess);
  struct cudaMipmappedArray *m = rt_mipmap_get(mipmap);
  if (!m) return rt_end(cudaErrorInvalidValue);
  rt_drain();
  for (struct cudaMipmappedArray **p = &mipmaps; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  for (unsigned l = 0; l < m->nlevels; l++) array_free(m->level[l]);
  m->magic = 0;
  free(m);
  return rt_end(cudaSuccess);
}

/* ---- copies ---- */

typedef rt_side side;

/* Whether a region of w bytes x h rows x d slices fits the side. */
static int side_ok(const side *s, size_t w, size_t h, size_t d) {
  if (s->a) {
    const struct cudaArray *a = s->a;
    size_t H = a->height ? a->height : 1, D = a->depth ? a->depth : 1;
    return s->x <= a->pitch && w <= a->pitch - s->x && s->y <= H && h <= H - s->y && s->z <= D &&
           d <= D - s->z;
  }
  if (!s->p || w > s->pitch || (d > 1 && s->rows < h)) return 0;
  size_t hi, a1, a2;
  if (__builtin_mul_overflow(d - 1, s->rows, &a1) || __builtin_add_overflow(a1, h - 1, &a1) ||
      __builtin_mul_overflow(a1, s->pitch, &a2) || __builtin_add_overflow(a2, w, &hi))
    return 0;
  return rt_region_ok(s->p, 0, hi, s->device);
}

static uint8_t *row(const side *s, size_t y, size_t z) {
  if (s->a) return s->a->data + (s->z + z) * s->a->slice + (s->y + y) * s->a->pitch + s->x;
  return s->p + (z * s->rows + y) * s->pitch;
}

/* Copy w bytes x h rows x d slices from src to dst after the queued work. */
static cudaError_t copy_region(side *dst, side *src, size_t w, size_t h, size_t d, int kind,
                               cudaStream_t stream, int async) {
  if (async && !rt_stream_get(stream)) return cudaErrorInvalidResourceHandle;
  if (kind != RT_KIND_SIDES && (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault))
    return cudaErrorInvalidMemcpyDirection;
  if (!w || !h || !d) return cudaSuccess;
  if (kind != RT_KIND_SIDES) {
    dst->device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    src->device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  }
  if (!side_ok(dst, w, h, d) || !side_ok(src, w, h, d)) return cudaErrorInvalidValue;
  rt_drain();
  if (rt.sticky) return rt.sticky;
  for (size_t z = 0; z < d; z++)
    for (size_t y = 0; y < h; y++) memmove(row(dst, y, z), row(src, y, z), w);
  return cudaSuccess;
}

cudaError_t rt_copy_sides(rt_side *dst, rt_side *src, size_t w, size_t h, size_t d, cudaStream_t stream,
                          int async) {
  return copy_region(dst, src, w, h, d, RT_KIND_SIDES, stream, async);
}

static cudaError_t arr_side(const void *a, size_t x, size_t y, side *s) {
  memset(s, 0, sizeof *s);
  if (!(s->a = rt_array_get(a))) return cudaErrorInvalidResourceHandle;
  s->x = x, s->y = y;
  return cudaSuccess;
}

static void lin_side(const void *p, size_t pitch, side *s) {
  memset(s, 0, sizeof *s);
  s->p = (uint8_t *)p;
  s->pitch = pitch;
  s->rows = 1;
}

/* A 2D copy into (to = 1) or out of array a at (wo, ho); lin is the linear
 * side, pitch its pitch. */
static cudaError_t arr2d(cudaArray_const_t a, size_t wo, size_t ho, const void *lin, size_t pitch, size_t w,
                         size_t h, int kind, cudaStream_t stream, int async, int to) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  side d, s;
  if ((e = arr_side(a, wo, ho, to ? &d : &s))) return rt_end(e);
  if (w > pitch && h > 1) return rt_end(cudaErrorInvalidPitchValue);
  lin_side(lin, h > 1 ? pitch : w, to ? &s : &d);
  return rt_end(copy_region(&d, &s, w, h, 1, kind, stream, async));
}

static cudaError_t to2d(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t spitch, size_t w,
                        size_t h, int kind, cudaStream_t stream, int async) {
  return arr2d(dst, wo, ho, src, spitch, w, h, kind, stream, async, 1);
}

static cudaError_t from2d(void *dst, size_t dpitch, cudaArray_const_t src, size_t wo, size_t ho, size_t w,
                          size_t h, int kind, cudaStream_t stream, int async) {
  return arr2d(src, wo, ho, dst, dpitch, w, h, kind, stream, async, 0);
}

RT_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height,
                                          enum cudaMemcpyKind kind) {
  return to2d(dst, wOffset, hOffset, src, spitch, width, height, kind, 0, 0);
}
RT_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t spitch, size_t width, size_t height,
                                               enum cudaMemcpyKind kind, cudaStream_t stream) {
  return to2d(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, 1);
}
RT_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height,
                                            enum cudaMemcpyKind kind) {
  return from2d(dst, dpitch, src, wOffset, hOffset, width, height, kind, 0, 0);
}
RT_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream) {
  return from2d(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, 1);
}

RT_EXPORT cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height, enum cudaMemcpyKind kind) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  side d, s;
  if ((e = arr_side(dst, wOffsetDst, hOffsetDst, &d)) || (e = arr_side(src, wOffsetSrc, hOffsetSrc, &s)))
    return rt_end(e);
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return rt_end(cudaErrorInvalidMemcpyDirection);
  return rt_end(copy_region(&d, &s, width, height, 1, kind, 0, 0));
}

/* The linear copies (deprecated API): count bytes from (wOffset, hOffset)
 * on, row after row; a copy that runs past a row goes on in the next. */
static cudaError_t linear_copy(struct cudaArray *a, size_t wo, size_t ho, void *mem, size_t count,
                               int to_array, int kind, cudaStream_t stream, int async) {
  if (async && !rt_stream_get(stream)) return cudaErrorInvalidResourceHandle;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
  size_t H = a->height ? a->height : 1, off;
  if (wo > a->pitch || ho >= H + (count == 0)) return cudaErrorInvalidValue;
  off = ho * a->pitch + wo;
  if (off > a->slice || count > a->slice - off) return cudaErrorInvalidValue;
  if (!count) return cudaSuccess;
  int dev = to_array ? (kind == cudaMemcpyDeviceToDevice) : (kind == cudaMemcpyDeviceToDevice);
  if (!rt_side_ok(mem, count, dev)) return cudaErrorInvalidValue;
  rt_drain();
  if (rt.sticky) return rt.sticky;
  if (to_array)
    memmove(a->data + off, mem, count);
  else
    memmove(mem, a->data + off, count);
  return cudaSuccess;
}

static cudaError_t lin(cudaArray_const_t arr, size_t wo, size_t ho, void *mem, size_t n, int to, int kind,
                       cudaStream_t stream, int async) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  struct cudaArray *a = rt_array_get(arr);
  if (!a) return rt_end(cudaErrorInvalidResourceHandle);
  return rt_end(linear_copy(a, wo, ho, mem, n, to, kind, stream, async));
}

RT_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, enum cudaMemcpyKind kind) {
  return lin(dst, wOffset, hOffset, (void *)src, count, 1, kind, 0, 0);
}
RT_EXPORT cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, enum cudaMemcpyKind kind, cudaStream_t stream) {
  return lin(dst, wOffset, hOffset, (void *)src, count, 1, kind, stream, 1);
}
RT_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, enum cudaMemcpyKind kind) {
  return lin(src, wOffset, hOffset, dst, count, 0, kind, 0, 0);
}
RT_EXPORT cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                               size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                               cudaStream_t stream) {
  return lin(src, wOffset, hOffset, dst, count, 0, kind, stream, 1);
}

RT_EXPORT cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                             size_t count, enum cudaMemcpyKind kind) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  struct cudaArray *d = rt_array_get(dst), *s = rt_array_get(src);
  if (!d || !s) return rt_end(cudaErrorInvalidResourceHandle);
  size_t so = hOffsetSrc * s->pitch + wOffsetSrc, dof = hOffsetDst * d->pitch + wOffsetDst;
  if (wOffsetSrc > s->pitch || wOffsetDst > d->pitch || so > s->slice || dof > d->slice ||
      count > s->slice - so || count > d->slice - dof)
    return rt_end(cudaErrorInvalidValue);
  rt_drain();
  if (rt.sticky) return rt_end(rt.sticky);
  memmove(d->data + dof, s->data + so, count);
  return rt_end(cudaSuccess);
}

/* cudaMemcpy3D with an array on one or both sides: extent in texels for
 * an array side (width in bytes when both sides are linear). */
cudaError_t rt_copy3d_array(const struct cudaMemcpy3DParms *p) {
  side d, s;
  const struct cudaArray *ref = p->srcArray ? rt_array_get(p->srcArray) : rt_array_get(p->dstArray);
  if (!ref || (p->srcArray && !rt_array_get(p->srcArray)) || (p->dstArray && !rt_array_get(p->dstArray)))
    return cudaErrorInvalidResourceHandle;
  size_t es = ref->elem, w;
  if (__builtin_mul_overflow(p->extent.width, es, &w)) return cudaErrorInvalidValue;
  const struct cudaPitchedPtr *pp[2] = {&p->dstPtr, &p->srcPtr};
  const struct cudaPos *pos[2] = {&p->dstPos, &p->srcPos};
  cudaArray_t arr[2] = {p->dstArray, p->srcArray};
  side *sd[2] = {&d, &s};
  for (int k = 0; k < 2; k++) {
    size_t x;
    if (__builtin_mul_overflow(pos[k]->x, es, &x)) return cudaErrorInvalidValue;
    if (arr[k]) {
      cudaError_t e = arr_side(arr[k], x, pos[k]->y, sd[k]);
      if (e) return e;
      sd[k]->z = pos[k]->z;
      if (sd[k]->a->elem != es) return cudaErrorInvalidValue;
    } else {
      lin_side(pp[k]->ptr, pp[k]->pitch, sd[k]);
      sd[k]->rows = pp[k]->ysize;
      size_t off;
      /* the linear side's position: (pos.z * ysize + pos.y) * pitch + pos.x bytes */
      if (__builtin_mul_overflow(pos[k]->z, pp[k]->ysize, &off) ||
          __builtin_add_overflow(off, pos[k]->y, &off) || __builtin_mul_overflow(off, pp[k]->pitch, &off) ||
          __builtin_add_overflow(off, x, &off))
        return cudaErrorInvalidValue;
      if (pp[k]->ptr) sd[k]->p += off;
    }
  }
  return copy_region(&d, &s, w, p->extent.height, p->extent.depth, p->kind, 0, 0);
}

/* ---- the image a texture or surface object sees ---- */

void rt_array_image(const struct cudaArray *a, smemu_tex_desc *d) {
  int nch = 1, bits = 8;
  rt_channel_format(&a->desc, &nch, &bits);
  d->nch = nch;
  d->bits = bits;
  d->kind = a->desc.f == cudaChannelFormatKindSigned     ? SMEMU_TEX_SIGNED
            : a->desc.f == cudaChannelFormatKindUnsigned ? SMEMU_TEX_UNSIGNED
                                                         : SMEMU_TEX_FLOAT;
  int layered = (a->flags & cudaArrayLayered) != 0, cube = (a->flags & cudaArrayCubemap) != 0;
  d->layered = layered;
  d->cube = cube;
  d->dims = cube ? 2 : layered ? (a->height ? 2 : 1) : a->depth ? 3 : a->height ? 2 : 1;
  d->layers = layered || cube ? (uint32_t)a->depth : 0;
  smemu_tex_level *l = &d->level[0];
  l->base = a->data;
  l->width = (uint32_t)a->width;
  l->height = a->height ? (uint32_t)a->height : 1;
  l->depth = d->dims == 3 ? (uint32_t)a->depth : 1;
  l->pitch = a->pitch;
  l->slice = a->slice;
}
