/* array.h: CUDA arrays, mipmapped arrays, texture and surface objects in
 * the drop-in runtime: the CUDA 13 structures they use (layouts as in
 * driver_types.h / texture_types.h) and the runtime's own array record,
 * shared by array.c (allocation, copies, queries) and texture.c (objects). */
#ifndef SMEMU_RT_ARRAY_H
#define SMEMU_RT_ARRAY_H

#include "rt.h"

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};

struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};

typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};

struct cudaTextureDesc {
  int addressMode[3]; /* enum cudaTextureAddressMode: wrap, clamp, mirror, border */
  int filterMode;     /* point, linear */
  int readMode;       /* element type, normalized float */
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

struct cudaResourceViewDesc {
  int format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
  unsigned int reserved[16];
};

#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

/* A CUDA array: its texels in one block, rows `pitch` apart, 2D slices
 * (3D depth, layers, cube faces) `slice` apart. */
struct cudaArray {
  uint32_t magic; /* ARRAY_MAGIC while live */
  struct cudaChannelFormatDesc desc;
  size_t width, height, depth; /* as allocated (height/depth 0: none) */
  unsigned flags;              /* cudaArray* flags */
  size_t elem;                 /* bytes of one texel */
  size_t pitch, slice, bytes;  /* row, slice and whole sizes in bytes */
  uint8_t *data;
  struct cudaMipmappedArray *owner; /* the mipmapped array of a level, or NULL */
  struct cudaArray *next;           /* live arrays */
};
#define ARRAY_MAGIC 0x41525259u

struct cudaMipmappedArray {
  uint32_t magic; /* MIPMAP_MAGIC while live */
  unsigned nlevels;
  struct cudaArray *level[SMEMU_TEX_MAX_LEVELS];
  struct cudaMipmappedArray *next;
};
#define MIPMAP_MAGIC 0x4d49504du

/* One side of a copy: an array at (x bytes, y, z), or linear memory at p
 * with rows `pitch` apart and `rows` rows a slice. */
typedef struct rt_side {
  struct cudaArray *a;
  size_t x, y, z;
  uint8_t *p;
  size_t pitch, rows;
  int device; /* linear memory that must be device memory */
} rt_side;
#define RT_KIND_SIDES (-1)
/* Copy w bytes x h rows x d slices between two sides (their device flags
 * set) after the queued work, every range checked first (array.c). */
cudaError_t rt_copy_sides(rt_side *dst, rt_side *src, size_t w, size_t h, size_t d, cudaStream_t stream,
                          int async);

/* The live array a handle names, or NULL. */
struct cudaArray *rt_array_get(const void *a);
struct cudaMipmappedArray *rt_mipmap_get(const void *m);
/* Channels and bits per channel of a descriptor, or -1 when it is no
 * format an array or texture can hold. */
int rt_channel_format(const struct cudaChannelFormatDesc *d, int *nch, int *bits);
/* The image of array a (level 0 of the descriptor's levels, geometry). */
void rt_array_image(const struct cudaArray *a, smemu_tex_desc *d);

/* The entry points (array.c, texture.c). */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int flags);
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmap, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int numLevels, unsigned int flags);
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmap,
                                       unsigned int level);
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmap);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                     size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream);
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                   size_t count, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                     size_t count, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
                                   enum cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t t);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t t);
cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                 cudaTextureObject_t t);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t s);

#endif
