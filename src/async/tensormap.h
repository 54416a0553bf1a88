/* tensormap.h: the tensor map (CUtensorMap, a TMA descriptor) as smemu
 * encodes it in its 128 opaque bytes, and its decoded form.
 *
 * smemu's encoding (16 little-endian 64-bit words):
 *   word 0      magic "smemuTM1": a map cuTensorMapEncode* wrote
 *   word 1      global address
 *   words 2..6  global dimensions (elements)
 *   words 7..10 global strides of dimensions 1..4 (bytes)
 *   word 11     box dimensions 0..3, 16 bits each (tiled maps)
 *   word 12     bits 0..15 box dimension 4; 16..35 element strides, 4 bits
 *               each; 36..38 rank; 39..42 data type; 43..44 interleave;
 *               45..47 swizzle; 48..49 L2 promotion; 50 NaN fill;
 *               51 im2col
 *   word 13     im2col: lower corner, 3 x 16 bits; channels per pixel
 *   word 14     im2col: upper corner, 3 x 16 bits; pixels per column
 *   word 15     0
 * tensormap.replace writes the same fields. */
#ifndef SMEMU_TENSORMAP_H
#define SMEMU_TENSORMAP_H
#include <stddef.h>
#include <stdint.h>

#define TMAP_MAGIC 0x314d5475656d6573ull /* "smemuTM1" */

typedef struct tmap {
  uint64_t addr;          /* global address */
  uint64_t dim[5];        /* elements per dimension */
  uint64_t stride[5];     /* bytes; stride[0] is the element size */
  uint32_t box[5];        /* tiled: box size per dimension (elements traversed) */
  uint32_t estride[5];    /* traversal strides */
  int lower[3], upper[3]; /* im2col bounding-box corners (W, H, D order) */
  uint32_t cpp, ppc;      /* im2col channels per pixel, pixels per column */
  uint32_t rank;
  int dtype;      /* CUtensorMapDataType */
  int interleave; /* 0 none, 1 16B, 2 32B */
  int swizzle;    /* 0 none, 1 32B, 2 64B, 3 128B (4..6: the 128B atom forms) */
  int l2;         /* L2 promotion (unused) */
  int nan_fill;   /* OOB_FILL_NAN_REQUEST_ZERO_FMA */
  int im2col;     /* 1: an im2col map */
} tmap;

/* Element size in bytes of a data type (packed types: 1), 0 if unknown. */
uint32_t tmap_esize(int dtype);
/* 1 for the floating-point data types. */
int tmap_is_float(int dtype);
/* Decode the 128 bytes at p: 0, or -1 when they are not a map smemu
 * encoded (never encoded, overwritten). */
int tmap_decode(const uint8_t *p, tmap *t);
/* Encode t into 128 bytes. */
void tmap_encode(const tmap *t, uint8_t *p);
/* The swizzle of byte offset `off` of a shared tile (mode 1..3: the 16-byte
 * chunk index XOR the 128-byte row index within the pattern). */
uint32_t tmap_swizzle(int mode, uint32_t off);

#endif
