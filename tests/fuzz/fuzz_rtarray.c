/* fuzz_rtarray.c: the libFuzzer target of the runtime's arrays and texture
 * and surface objects (runtime/array.c, texture.c, array_driver.c). The
 * input is a list of calls: create arrays and mipmapped arrays with any
 * channel descriptor, extent and flags; copy between host memory, device
 * memory and arrays (2D, linear, 3D, array to array, the driver's
 * cuMemcpy2D/3D) with any offsets, pitches and sizes; create texture and
 * surface objects from any resource and texture descriptor; query and
 * destroy them; free what was made. Whatever the runtime accepts it must do
 * inside the memory it owns: ASan catches a copy it let through out of
 * range. Host sides lie in a host buffer the harness owns: a call whose host
 * side would leave it is skipped (pageable memory is the program's to
 * check). tests/fuzz/replay.c runs it over tests/fuzz/corpus_rtarray. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_reader.h"
#include "../../runtime/cudart/array.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int cuMemcpy2D_v2(const void *c);
int cuMemcpy3D_v2(const void *c);

#define HOST_BYTES (1u << 20)
#define NARR 6
#define NOBJ 8

static uint8_t *host;          /* host sides of copies */
static void *dev;              /* a 64 KiB device allocation */
static cudaArray_t arrs[NARR]; /* live arrays (NULL: free slot) */
static cudaMipmappedArray_t mip;
static unsigned long long tex[NOBJ], surf[NOBJ];
static int ntex, nsurf;

/* A size: mostly small, sometimes huge (overflow checks). */
static size_t a_size(reader *r) { return take_size(r, 6, 10, 300, 40); }

static struct cudaChannelFormatDesc a_desc(reader *r) {
  static const int bits[] = {8, 16, 32, 0, 7, 64};
  int b = bits[take(r, 1) % 6], n = (int)(take(r, 1) % 5);
  return cudaCreateChannelDesc(b, n > 1 ? b : 0, n > 2 ? b : 0, n > 3 ? b : 0,
                               (enum cudaChannelFormatKind)(take(r, 1) % 5));
}

static cudaArray_t an_array(reader *r) {
  uint8_t k = (uint8_t)take(r, 1);
  if (k % 8 == 7) return (cudaArray_t)(host + 64); /* not an array */
  return arrs[k % NARR];
}

/* A linear side: host memory (kept in the buffer), the device block at an
 * offset, or NULL; *dev_side says whether it is device memory. */
static void *a_linear(reader *r, size_t span, int *dev_side) {
  uint8_t sel = (uint8_t)take(r, 1) % 4;
  size_t off = take(r, 2);
  *dev_side = sel == 1;
  if (sel == 3) return NULL;
  if (sel == 1) return (uint8_t *)dev + off % 65536; /* inside: a span past the end must be refused */
  if (span > HOST_BYTES / 2) return NULL;
  return host + off % (HOST_BYTES / 2);
}

static void one_call(reader *r) {
  int op = (int)(take(r, 1) % 14), dv;
  switch (op) {
  case 0: { /* arrays */
    struct cudaChannelFormatDesc d = a_desc(r);
    struct cudaExtent ex = {a_size(r), a_size(r) % 64, take(r, 1) % 12};
    unsigned flags = (unsigned)take(r, 1) & 0x1f;
    int slot = (int)(take(r, 1) % NARR);
    if (arrs[slot]) break;
    if (take(r, 1) & 1) cudaMalloc3DArray(&arrs[slot], &d, ex, flags);
    else cudaMallocArray(&arrs[slot], &d, ex.width, ex.height, flags);
    break;
  }
  case 1: { /* free one */
    int slot = (int)(take(r, 1) % NARR);
    if (arrs[slot]) cudaFreeArray(arrs[slot]), arrs[slot] = NULL;
    break;
  }
  case 2: case 3: { /* 2D copies to and from arrays */
    size_t wo = a_size(r), ho = take(r, 1) % 70, w = a_size(r), h = take(r, 1) % 70, pitch = a_size(r);
    int kind = (int)(take(r, 1) % 6);
    size_t span = h && w ? (h - 1 > 0 && pitch > (SIZE_MAX - w) / (h ? h : 1) ? SIZE_MAX : pitch * (h - 1) + w) : 0;
    void *p = a_linear(r, span, &dv);
    if (p && !dv && span > HOST_BYTES / 2) break;
    if (op == 2) cudaMemcpy2DToArray(an_array(r), wo, ho, p, pitch, w, h, (enum cudaMemcpyKind)kind);
    else cudaMemcpy2DFromArray(p, pitch, an_array(r), wo, ho, w, h, (enum cudaMemcpyKind)kind);
    break;
  }
  case 4: { /* linear copies and array to array */
    size_t wo = a_size(r), ho = take(r, 1) % 70, n = a_size(r);
    int kind = (int)(take(r, 1) % 6), which = (int)(take(r, 1) % 3);
    void *p = a_linear(r, n, &dv);
    if (p && !dv && n > HOST_BYTES / 2) break;
    if (which == 0) cudaMemcpyToArray(an_array(r), wo, ho, p, n, (enum cudaMemcpyKind)kind);
    else if (which == 1) cudaMemcpyFromArray(p, an_array(r), wo, ho, n, (enum cudaMemcpyKind)kind);
    else cudaMemcpy2DArrayToArray(an_array(r), wo, ho, an_array(r), a_size(r), take(r, 1) % 70, a_size(r), take(r, 1) % 70,
                                  (enum cudaMemcpyKind)kind);
    break;
  }
  case 5: { /* 3D copies with arrays */
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    size_t pitch = a_size(r), ys = take(r, 1) % 70;
    struct cudaExtent ex = {a_size(r), take(r, 1) % 70, take(r, 1) % 12};
    size_t span = pitch * (ys ? ys : 1) * (ex.depth ? ex.depth : 1) + 4096;
    if (pitch > 4096 || ys * (ex.depth + 1) > 64) break; /* host sides stay in the buffer */
    void *lp = a_linear(r, span, &dv);
    uint8_t sel = (uint8_t)take(r, 1);
    struct cudaPos pos = {take(r, 1) % 80, take(r, 1) % 80, take(r, 1) % 14};
    if (sel & 1) p.srcArray = an_array(r), p.srcPos = pos;
    else p.srcPtr = (struct cudaPitchedPtr){lp, pitch, ex.width, ys};
    if (sel & 2 || !(sel & 1)) p.dstArray = an_array(r), p.dstPos = pos;
    else p.dstPtr = (struct cudaPitchedPtr){lp, pitch, ex.width, ys};
    p.extent = ex;
    p.kind = (enum cudaMemcpyKind)(take(r, 1) % 6);
    cudaMemcpy3D(&p);
    break;
  }
  case 6: { /* the driver's 2D copy with an array side */
    struct {
      size_t sx, sy;
      int st;
      const void *sh;
      unsigned long long sd;
      void *sa;
      size_t sp;
      size_t dx, dy;
      int dt;
      void *dh;
      unsigned long long dd;
      void *da;
      size_t dp;
      size_t w, h;
    } c;
    memset(&c, 0, sizeof c);
    c.w = a_size(r), c.h = take(r, 1) % 70, c.sp = c.dp = a_size(r) % 4096;
    if (c.h * (c.sp + c.w) > HOST_BYTES / 2) break;
    void *lp = a_linear(r, 0, &dv);
    if (take(r, 1) & 1) {
      c.st = 3, c.sa = an_array(r), c.sx = a_size(r), c.sy = take(r, 1) % 70;
      c.dt = dv ? 2 : 1, c.dh = lp, c.dd = (uintptr_t)lp;
    } else {
      c.dt = 3, c.da = an_array(r), c.dx = a_size(r), c.dy = take(r, 1) % 70;
      c.st = dv ? 2 : 1, c.sh = lp, c.sd = (uintptr_t)lp;
    }
    cuMemcpy2D_v2(&c);
    break;
  }
  case 7: case 8: { /* texture objects */
    if (ntex == NOBJ) break;
    struct cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = (enum cudaResourceType)(take(r, 1) % 5);
    if (rd.resType == cudaResourceTypeArray) rd.res.array.array = an_array(r);
    else if (rd.resType == cudaResourceTypeMipmappedArray) rd.res.mipmap.mipmap = take(r, 1) & 1 ? mip : (void *)host;
    else {
      rd.res.pitch2D.devPtr = a_linear(r, 0, &dv);
      rd.res.pitch2D.desc = a_desc(r);
      rd.res.pitch2D.width = a_size(r);
      rd.res.pitch2D.height = a_size(r);
      rd.res.pitch2D.pitchInBytes = a_size(r);
    }
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    for (int k = 0; k < 3; k++) td.addressMode[k] = (int)(take(r, 1) % 6) - 1;
    td.filterMode = (int)(take(r, 1) % 3);
    td.readMode = (int)(take(r, 1) % 3);
    td.normalizedCoords = (int)(take(r, 1) % 2);
    td.mipmapFilterMode = (int)(take(r, 1) % 3);
    if (cudaCreateTextureObject(&tex[ntex], &rd, &td, NULL) == cudaSuccess) ntex++;
    break;
  }
  case 9: { /* surface objects */
    if (nsurf == NOBJ) break;
    struct cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = (enum cudaResourceType)(take(r, 1) % 4);
    rd.res.array.array = an_array(r);
    if (cudaCreateSurfaceObject(&surf[nsurf], &rd) == cudaSuccess) nsurf++;
    break;
  }
  case 10: { /* queries, with live and dead handles */
    struct cudaResourceDesc rd;
    struct cudaTextureDesc td;
    struct cudaChannelFormatDesc cd;
    struct cudaExtent ex;
    unsigned fl;
    unsigned long long h = take(r, 1) & 1 && ntex ? tex[take(r, 1) % ntex] : take(r, 2);
    cudaGetTextureObjectResourceDesc(&rd, h);
    cudaGetTextureObjectTextureDesc(&td, h);
    cudaGetSurfaceObjectResourceDesc(&rd, nsurf ? surf[take(r, 1) % nsurf] : h);
    cudaArrayGetInfo(&cd, &ex, &fl, an_array(r));
    cudaGetChannelDesc(&cd, an_array(r));
    break;
  }
  case 11: /* destroy */
    if (ntex && take(r, 1) & 1) cudaDestroyTextureObject(tex[--ntex]);
    else if (nsurf) cudaDestroySurfaceObject(surf[--nsurf]);
    else cudaDestroyTextureObject(take(r, 2));
    break;
  case 12: { /* mipmapped arrays */
    if (mip && take(r, 1) & 1) {
      cudaFreeMipmappedArray(mip);
      mip = NULL;
      break;
    }
    if (mip) {
      cudaArray_t lv;
      cudaGetMipmappedArrayLevel(&lv, mip, (unsigned)take(r, 1) % 20);
      break;
    }
    struct cudaChannelFormatDesc d = a_desc(r);
    struct cudaExtent ex = {a_size(r) % 300, take(r, 1) % 64, take(r, 1) % 8};
    cudaMallocMipmappedArray(&mip, &d, ex, (unsigned)take(r, 1) % 12, (unsigned)take(r, 1) & 0xf);
    break;
  }
  default: { /* the driver's 3D copy */
    struct {
      size_t sx, sy, sz, slod;
      int st;
      const void *sh;
      unsigned long long sd;
      void *sa, *r0;
      size_t sp, sht;
      size_t dx, dy, dz, dlod;
      int dt;
      void *dh;
      unsigned long long dd;
      void *da, *r1;
      size_t dp, dht;
      size_t w, h, d;
    } c;
    memset(&c, 0, sizeof c);
    c.w = a_size(r), c.h = take(r, 1) % 40, c.d = take(r, 1) % 6;
    c.sp = c.dp = a_size(r) % 2048, c.sht = c.dht = take(r, 1) % 40;
    if ((c.sp + c.w) * (c.sht + c.h + 1) * (c.d + 1) > HOST_BYTES / 2) break;
    void *lp = a_linear(r, 0, &dv);
    c.st = 3, c.sa = an_array(r), c.sx = a_size(r), c.sy = take(r, 1) % 40, c.sz = take(r, 1) % 8;
    c.dt = dv ? 2 : 1, c.dh = lp, c.dd = (uintptr_t)lp;
    cuMemcpy3D_v2(&c);
    break;
  }
  }
  cudaGetLastError();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!host) {
    host = calloc(1, HOST_BYTES);
    if (!host || cudaMalloc(&dev, 65536)) abort();
  }
  reader r = {data, size};
  for (int i = 0; i < 64 && r.n; i++) one_call(&r);
  /* each input starts from nothing */
  while (ntex) cudaDestroyTextureObject(tex[--ntex]);
  while (nsurf) cudaDestroySurfaceObject(surf[--nsurf]);
  for (int i = 0; i < NARR; i++)
    if (arrs[i]) cudaFreeArray(arrs[i]), arrs[i] = NULL;
  if (mip) cudaFreeMipmappedArray(mip), mip = NULL;
  return 0;
}
