/* tensormap.c: cuTensorMapEncodeTiled / Im2col / ReplaceAddress as the
 * CUDA driver validates them (the checks and their order follow cuda.h's
 * documentation, corrected by the answers an H100's driver gave for the
 * argument table tests/hw/tma/encode_cases.h), and smemu's encoding of the
 * map (tensormap.h). The runtime's libcuda entry points call these. */
#include "async/tensormap.h"
#include "smemu.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { RC_OK = 0, RC_INVALID = 1 }; /* CUDA_SUCCESS, CUDA_ERROR_INVALID_VALUE */

uint32_t tmap_esize(int dtype) {
  static const uint8_t s[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 1, 1, 1};
  return dtype >= 0 && dtype < 16 ? s[dtype] : 0;
}

int tmap_is_float(int dtype) { return dtype >= 6 && dtype <= 12; }

static uint64_t rd64(const uint8_t *p, int w) {
  uint64_t v;
  memcpy(&v, p + 8 * w, 8);
  return v;
}
static void wr64(uint8_t *p, int w, uint64_t v) { memcpy(p + 8 * w, &v, 8); }

void tmap_encode(const tmap *t, uint8_t *p) {
  memset(p, 0, 128);
  wr64(p, 0, TMAP_MAGIC);
  wr64(p, 1, t->addr);
  for (int i = 0; i < 5; i++) wr64(p, 2 + i, t->dim[i]);
  for (int i = 1; i < 5; i++) wr64(p, 6 + i, t->stride[i]);
  uint64_t b = 0;
  for (int i = 0; i < 4; i++) b |= (uint64_t)(t->box[i] & 0xffff) << (16 * i);
  wr64(p, 11, b);
  uint64_t f = t->box[4] & 0xffff;
  for (int i = 0; i < 5; i++) f |= (uint64_t)(t->estride[i] & 15) << (16 + 4 * i);
  f |= (uint64_t)(t->rank & 7) << 36 | (uint64_t)(t->dtype & 15) << 39 | (uint64_t)(t->interleave & 3) << 43 |
       (uint64_t)(t->swizzle & 7) << 45 | (uint64_t)(t->l2 & 3) << 48 | (uint64_t)(t->nan_fill & 1) << 50 |
       (uint64_t)(t->im2col & 1) << 51;
  wr64(p, 12, f);
  uint64_t lo = 0, up = 0;
  for (int i = 0; i < 3; i++) {
    lo |= (uint64_t)(uint16_t)t->lower[i] << (16 * i);
    up |= (uint64_t)(uint16_t)t->upper[i] << (16 * i);
  }
  wr64(p, 13, lo | (uint64_t)(t->cpp & 0xffff) << 48);
  wr64(p, 14, up | (uint64_t)(t->ppc & 0xffff) << 48);
}

int tmap_decode(const uint8_t *p, tmap *t) {
  memset(t, 0, sizeof *t);
  if (rd64(p, 0) != TMAP_MAGIC) return -1;
  t->addr = rd64(p, 1);
  for (int i = 0; i < 5; i++) t->dim[i] = rd64(p, 2 + i);
  uint64_t b = rd64(p, 11), f = rd64(p, 12), lo = rd64(p, 13), up = rd64(p, 14);
  for (int i = 0; i < 4; i++) t->box[i] = (uint32_t)(b >> (16 * i)) & 0xffff;
  t->box[4] = (uint32_t)f & 0xffff;
  for (int i = 0; i < 5; i++) t->estride[i] = (uint32_t)(f >> (16 + 4 * i)) & 15;
  t->rank = (uint32_t)(f >> 36) & 7;
  t->dtype = (int)(f >> 39) & 15;
  t->interleave = (int)(f >> 43) & 3;
  t->swizzle = (int)(f >> 45) & 7;
  t->l2 = (int)(f >> 48) & 3;
  t->nan_fill = (int)(f >> 50) & 1;
  t->im2col = (int)(f >> 51) & 1;
  for (int i = 0; i < 3; i++) {
    t->lower[i] = (int16_t)(lo >> (16 * i));
    t->upper[i] = (int16_t)(up >> (16 * i));
  }
  t->cpp = (uint32_t)(lo >> 48);
  t->ppc = (uint32_t)(up >> 48);
  t->stride[0] = tmap_esize(t->dtype);
  for (int i = 1; i < 5; i++) t->stride[i] = rd64(p, 6 + i);
  if (t->rank < 1 || t->rank > 5 || !t->stride[0]) return -1;
  return 0;
}

uint32_t tmap_swizzle(int mode, uint32_t off) {
  if (mode < 1 || mode > 3) return off;
  uint32_t mask = (1u << mode) - 1; /* 16-byte chunks per row of the pattern: 2, 4, 8 */
  return off ^ (((off >> 7) & mask) << 4);
}

static int fail(char *msg, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t n, const char *fmt, ...) {
  if (msg && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, n, fmt, ap);
    va_end(ap);
  }
  return RC_INVALID;
}

/* Inner bytes of n elements of a data type (packed types by their bits). */
static uint64_t inner_bytes(int dtype, uint64_t n) {
  if (dtype == 13) return n / 2; /* 16 x U4 in 8 bytes */
  return n * tmap_esize(dtype);
}

/* The checks common to both kinds of map; *t gets the fields checked. */
static int common(tmap *t, void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dim,
                  const uint64_t *strides, const uint32_t *estrides, int interleave, int swizzle, int l2,
                  int oob, char *msg, size_t n) {
  memset(t, 0, sizeof *t);
  /* the H100's driver (580) takes a map at any address (cuda.h asks for
   * 64-byte alignment) and a NULL globalAddress */
  if (!map) return fail(msg, n, "tensorMap is NULL");
  if (dtype < 0 || dtype > 15) return fail(msg, n, "tensorDataType %d is not a CUtensorMapDataType", dtype);
  if (dtype >= 13) return fail(msg, n, "tensorDataType %d (a packed 4/6-bit type) needs sm_100", dtype);
  if (interleave < 0 || interleave > 2)
    return fail(msg, n, "interleave %d is not a CUtensorMapInterleave", interleave);
  if (swizzle < 0 || swizzle > 6) return fail(msg, n, "swizzle %d is not a CUtensorMapSwizzle", swizzle);
  if (swizzle > 3) return fail(msg, n, "swizzle %d (a 128B atom mode) needs sm_100", swizzle);
  if (l2 < 0 || l2 > 3) return fail(msg, n, "l2Promotion %d is not a CUtensorMapL2promotion", l2);
  if (oob < 0 || oob > 1) return fail(msg, n, "oobFill %d is not a CUtensorMapFloatOOBfill", oob);
  if (rank < 1 || rank > 5) return fail(msg, n, "tensorRank %u: it must be 1 to 5", rank);
  if (interleave && rank < 3) return fail(msg, n, "tensorRank %u with interleave: it must be 3 to 5", rank);
  uint32_t align = interleave == 2 || dtype == 14 || dtype == 15 ? 32 : 16;
  if ((uintptr_t)addr % align)
    return fail(msg, n, "globalAddress %p is not aligned to %u bytes", addr, align);
  if (!dim || (rank > 1 && !strides) || !estrides)
    return fail(msg, n, "globalDim, globalStrides or elementStrides is NULL");
  for (uint32_t i = 0; i < rank; i++)
    if (!dim[i] || dim[i] > (1ull << 32))
      return fail(msg, n, "globalDim[%u] = %llu: it must be 1 to 2^32", i, (unsigned long long)dim[i]);
  if ((dtype == 14 || dtype == 15) && dim[0] % 128)
    return fail(msg, n, "globalDim[0] of a 16U4/16U6 ALIGN16B type must be a multiple of 128");
  if (dtype == 13 && dim[0] % 2) return fail(msg, n, "globalDim[0] of 16U4_ALIGN8B must be even");
  uint32_t smul = interleave == 2 || dtype == 14 || dtype == 15 ? 32 : 16;
  for (uint32_t i = 0; i + 1 < rank; i++) {
    if (strides[i] % smul)
      return fail(msg, n, "globalStrides[%u] = %llu is not a multiple of %u", i,
                  (unsigned long long)strides[i], smul);
    if (strides[i] >= (1ull << 40))
      return fail(msg, n, "globalStrides[%u] = %llu: it must be below 2^40", i,
                  (unsigned long long)strides[i]);
  }
  for (uint32_t i = 0; i < rank; i++)
    if (!estrides[i] || estrides[i] > 8)
      return fail(msg, n, "elementStrides[%u] = %u: it must be 1 to 8", i, estrides[i]);
  /* cuda.h: interleave 32B needs swizzle 32B; the driver does not check it */
  if (oob && (!tmap_is_float(dtype)))
    return fail(msg, n, "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType (got %d)", dtype);
  t->addr = (uint64_t)(uintptr_t)addr;
  t->rank = rank;
  t->dtype = dtype;
  t->interleave = interleave;
  t->swizzle = swizzle;
  t->l2 = l2;
  t->nan_fill = oob;
  t->stride[0] = tmap_esize(dtype);
  for (uint32_t i = 0; i < 5; i++) {
    t->dim[i] = i < rank ? dim[i] : 1;
    t->estride[i] = i < rank ? estrides[i] : 1;
    t->box[i] = 1;
  }
  for (uint32_t i = 1; i < 5; i++)
    t->stride[i] = i < rank ? strides[i - 1] : t->stride[i - 1] * t->dim[i - 1];
  return RC_OK;
}

/* The box's inner bytes fit the swizzle span. */
static int swizzle_fits(int interleave, int swizzle, uint64_t inner, char *msg, size_t n) {
  static const uint32_t span[] = {0, 32, 64, 128, 128, 128, 128};
  if (interleave == 0 && swizzle && inner > span[swizzle])
    return fail(msg, n, "the box's inner dimension is %llu bytes, more than the %u-byte swizzle span",
                (unsigned long long)inner, span[swizzle]);
  return RC_OK;
}

int smemu_tensormap_encode_tiled(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dim,
                                 const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
                                 int interleave, int swizzle, int l2, int oob, char *msg, size_t msgsize) {
  tmap t;
  int rc =
      common(&t, map, dtype, rank, addr, dim, strides, estrides, interleave, swizzle, l2, oob, msg, msgsize);
  if (rc) return rc;
  if (!box) return fail(msg, msgsize, "boxDim is NULL");
  for (uint32_t i = 0; i < rank; i++)
    if (!box[i] || box[i] > 256) return fail(msg, msgsize, "boxDim[%u] = %u: it must be 1 to 256", i, box[i]);
  uint64_t inner = inner_bytes(dtype, box[0]);
  /* also with interleave (measured: 8 bytes with interleave 16B fails) */
  if (inner % 16)
    return fail(msg, msgsize, "boxDim[0] x element size = %llu bytes: it must be a multiple of 16",
                (unsigned long long)inner);
  if ((dtype == 14 || dtype == 15) && box[0] != 128)
    return fail(msg, msgsize, "boxDim[0] of a packed ALIGN16B type must be 128");
  if ((rc = swizzle_fits(interleave, swizzle, inner, msg, msgsize))) return rc;
  for (uint32_t i = 0; i < rank; i++) t.box[i] = box[i];
  tmap_encode(&t, map);
  return RC_OK;
}

int smemu_tensormap_encode_im2col(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dim,
                                  const uint64_t *strides, const int *lower, const int *upper, uint32_t cpp,
                                  uint32_t ppc, const uint32_t *estrides, int interleave, int swizzle, int l2,
                                  int oob, char *msg, size_t msgsize) {
  tmap t;
  int rc =
      common(&t, map, dtype, rank, addr, dim, strides, estrides, interleave, swizzle, l2, oob, msg, msgsize);
  if (rc) return rc;
  if (rank < 3) return fail(msg, msgsize, "tensorRank %u: an im2col map has 3 to 5 dimensions", rank);
  if (!lower || !upper) return fail(msg, msgsize, "pixelBoxLowerCorner or pixelBoxUpperCorner is NULL");
  static const int lim[6] = {0, 0, 0, 32768, 128, 16};
  for (uint32_t i = 0; i + 2 < rank; i++) {
    if (lower[i] < -lim[rank] || lower[i] >= lim[rank] || upper[i] < -lim[rank] || upper[i] >= lim[rank])
      return fail(msg, msgsize, "pixel box corner %u (%d, %d) is outside [-%d, %d]", i, lower[i], upper[i],
                  lim[rank], lim[rank] - 1);
    t.lower[i] = lower[i];
    t.upper[i] = upper[i];
  }
  if (!cpp || cpp > 256) return fail(msg, msgsize, "channelsPerPixel %u: it must be 1 to 256", cpp);
  if (!ppc || ppc > 1024) return fail(msg, msgsize, "pixelsPerColumn %u: it must be 1 to 1024", ppc);
  uint64_t inner = inner_bytes(dtype, cpp);
  if (inner % 16)
    return fail(msg, msgsize, "channelsPerPixel x element size = %llu bytes: it must be a multiple of 16",
                (unsigned long long)inner);
  /* the pixel box has an area: dim + upper - lower > 0 in each spatial
   * dimension (measured: 8 + (-4) - 4 fails) */
  for (uint32_t i = 0; i + 2 < rank; i++)
    if ((int64_t)dim[1 + i] + upper[i] - lower[i] <= 0)
      return fail(msg, msgsize,
                  "the pixel box is empty in spatial dimension %u (size %llu, corners %d and %d)", i,
                  (unsigned long long)dim[1 + i], lower[i], upper[i]);
  if ((rc = swizzle_fits(interleave, swizzle, inner, msg, msgsize))) return rc;
  t.cpp = cpp;
  t.ppc = ppc;
  t.im2col = 1;
  tmap_encode(&t, map);
  return RC_OK;
}

int smemu_tensormap_replace_address(void *map, void *addr, char *msg, size_t msgsize) {
  tmap t;
  if (!map) return fail(msg, msgsize, "tensorMap is NULL");
  if (tmap_decode(map, &t) < 0) return fail(msg, msgsize, "tensorMap was not made by cuTensorMapEncode*");
  /* measured: 16-byte alignment, also for an interleave-32B map; NULL,
   * which cuTensorMapEncodeTiled takes, is refused here */
  if (!addr) return fail(msg, msgsize, "globalAddress is NULL");
  if ((uintptr_t)addr % 16) return fail(msg, msgsize, "globalAddress %p is not aligned to 16 bytes", addr);
  uint64_t a = (uint64_t)(uintptr_t)addr;
  memcpy((uint8_t *)map + 8, &a, 8);
  return RC_OK;
}
