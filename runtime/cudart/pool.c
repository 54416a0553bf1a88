/* pool.c: memory pools and the stream-ordered allocator (cudaMallocAsync,
 * cudaFreeAsync, cudaMallocFromPoolAsync, cudaMemPool*), the runtime side;
 * driver_pool.c maps the driver's cuMemPool* onto these.
 *
 * A pool allocation is an ordinary device allocation: smemu_malloc places
 * it, the allocation table holds it (kind ALLOC_DEVICE, flags marking the
 * pool block), so bounds, race and init checks, cudaPointerGetAttributes
 * and cudaFree see it like any cudaMalloc. Fresh or reused, its bytes start
 * unwritten for the init check, as the GPU gives no guarantee about them.
 *
 * Stream order: all work runs in issue order on one queue (queue.c), so an
 * allocation issued after a free, on whichever stream, is ordered after it.
 * cudaFreeAsync runs the queued work first (the kernels that may use the
 * memory) and releases the block at once; the next allocation of the same
 * size gets the same address back (smemu_malloc's first fit), as a pool
 * reusing a block does on the GPU.
 *
 * The pool's figures are an H100/H200's (tests/runtime/pools/pools.expected):
 * used memory counts the bytes asked for; the pool reserves memory in
 * 32 MiB granules, keeps freed granules for later allocations, and gives
 * back what exceeds its release threshold at the next synchronisation
 * (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize) or
 * cudaMemPoolTrimTo. A pool allocation released by cudaFree stays counted
 * as used (the GPU's pool never hears of it) but no longer holds reserved
 * memory. Reserved bytes are bookkeeping: smemu holds no memory for them. */
#include "pool.h"
#include <stdlib.h>
#include <string.h>

#define POOL_GRAIN (32ull << 20) /* the pool reserves memory in these */
#define POOL_FLAG 0x80000000u    /* rt_alloc.flags of a pool block: FLAG | id */

typedef struct pool_block {
  void *p;
  size_t size;
  unsigned tag; /* rt_alloc.flags it was registered with */
  struct rt_pool *pool;
  struct pool_block *next;
} pool_block;

struct rt_pool {
  int is_default;
  int destroyed;      /* cudaMemPoolDestroy ran; blocks may remain */
  uint64_t threshold; /* cudaMemPoolAttrReleaseThreshold */
  int reuse[3];       /* the three reuse policies (1 = allowed) */
  uint64_t reserved, reserved_high, used, used_high;
  uint64_t live;   /* bytes of the live blocks */
  size_t max_size; /* cudaMemPoolProps.maxSize, 0 none */
  struct rt_pool *next;
};

static rt_pool default_pool = {1, 0, 0, {1, 1, 1}, 0, 0, 0, 0, 0, 0, NULL};
static rt_pool *pools = &default_pool; /* every pool, the default first */
static rt_pool *current = &default_pool;
static pool_block *blocks; /* live allocations of every pool */
static unsigned next_tag;

static uint64_t round_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

rt_pool *rt_pool_get(cudaMemPool_t h) {
  for (rt_pool *p = pools; p; p = p->next)
    if ((cudaMemPool_t)p == h && !p->destroyed) return p;
  return NULL;
}

/* Give back reserved memory over `keep` (rounded up to granules), never
 * what live allocations use. */
static void trim(rt_pool *p, uint64_t keep) {
  uint64_t floor = round_up(p->live, POOL_GRAIN);
  keep = round_up(keep, POOL_GRAIN);
  if (keep < floor) keep = floor;
  if (p->reserved > keep) p->reserved = keep;
}

/* Drop a block's record; `freed` when the pool freed it (cudaFreeAsync). */
static void block_gone(pool_block **pp, int freed) {
  pool_block *b = *pp;
  rt_pool *p = b->pool;
  if (freed) p->used -= b->size;
  p->live -= b->size;
  *pp = b->next;
  free(b);
  /* a destroyed pool releases everything once nothing is left in it */
  if (p->destroyed && !p->live) p->reserved = 0;
}

/* Forget blocks freed behind the pool's back: cudaFree of a pool pointer,
 * cudaDeviceReset (the table no longer holds them as registered). */
static void prune(void) {
  for (pool_block **pp = &blocks; *pp;) {
    rt_alloc *a = rt_alloc_find((*pp)->p);
    if (a && a->p == (*pp)->p && a->kind == ALLOC_DEVICE && a->flags == (*pp)->tag)
      pp = &(*pp)->next;
    else
      block_gone(pp, 0);
  }
}

void rt_pool_sync(void) {
  prune();
  for (rt_pool *p = pools; p; p = p->next)
    if (p->reserved > p->threshold) trim(p, p->threshold);
}

/* cudaDeviceReset: pools are the device's and outlive the context, as on
 * an H200: the current pool, created pools, attributes and figures stay
 * (an allocation that was outstanding stays counted as used); only the
 * blocks, whose memory went with the context, are forgotten. */
void rt_pool_reset(void) {
  while (blocks) block_gone(&blocks, 0);
}

cudaError_t rt_pool_alloc(rt_pool *pool, void **ptr, size_t size, cudaStream_t stream) {
  if (!ptr) return cudaErrorInvalidValue;
  if (!rt_stream_get(stream)) return cudaErrorInvalidResourceHandle;
  if (!size) {
    *ptr = NULL;
    return cudaSuccess;
  }
  prune();
  uint64_t avail = pool->reserved - pool->live;
  uint64_t need = avail >= size ? 0 : size - avail;
  uint64_t grow = round_up(need, POOL_GRAIN);
  if (grow < need || (pool->max_size && pool->reserved + grow > pool->max_size))
    return cudaErrorMemoryAllocation;
  if (size > rt_total_memory() || rt.allocated > rt_total_memory() - size) return cudaErrorMemoryAllocation;
  pool_block *b = calloc(1, sizeof *b);
  void *p = NULL;
  if (!b || smemu_malloc(rt.ctx, &p, size) != SMEMU_OK) {
    free(b);
    return cudaErrorMemoryAllocation;
  }
  b->p = p;
  b->size = size;
  b->pool = pool;
  b->tag = POOL_FLAG | (next_tag++ & ~POOL_FLAG);
  /* a stale record of the same address (freed by cudaFree) goes first */
  for (pool_block **pp = &blocks; *pp; pp = &(*pp)->next)
    if ((*pp)->p == p) {
      block_gone(pp, 0);
      break;
    }
  if (rt_alloc_add(p, size, ALLOC_DEVICE, b->tag) < 0) {
    smemu_free(rt.ctx, p);
    free(b);
    return cudaErrorMemoryAllocation;
  }
  /* reused or fresh, the bytes are zero here but unwritten to the checks */
  memset(p, 0, size);
  smemu_mem_set_written(rt.ctx, p, size, 0);
  b->next = blocks;
  blocks = b;
  pool->reserved += grow;
  pool->used += size;
  pool->live += size;
  if (pool->reserved > pool->reserved_high) pool->reserved_high = pool->reserved;
  if (pool->used > pool->used_high) pool->used_high = pool->used;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t rt_pool_free(void *ptr, cudaStream_t stream) {
  if (!rt_stream_get(stream)) return cudaErrorInvalidResourceHandle;
  if (!ptr) return cudaSuccess;
  rt_alloc *a = rt_alloc_find(ptr);
  if (!a || a->p != ptr || a->kind != ALLOC_DEVICE) return cudaErrorInvalidValue;
  /* the queued work that may use the memory runs first */
  rt_drain();
  prune();
  for (pool_block **pp = &blocks; *pp; pp = &(*pp)->next)
    if ((*pp)->p == ptr) {
      block_gone(pp, 1);
      break;
    }
  rt_alloc_remove(ptr);
  smemu_free(rt.ctx, ptr);
  return rt.sticky;
}

rt_pool *rt_pool_current(void) { return current; }

/* ---- the runtime API ---- */

/* The device of a cudaMemLocation: 0 for device 0; -1 otherwise. */
static int location_device(const struct cudaMemLocation *l) {
  return l && l->type == cudaMemLocationTypeDevice && l->id == 0 ? 0 : -1;
}

/* The pool queries: bad is the error the arguments make (checked once the
 * runtime is up), else *memPool is the default or the current pool. */
static cudaError_t give_pool(cudaMemPool_t *memPool, cudaError_t bad, int dflt) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (bad) return rt_end(bad);
  *memPool = (cudaMemPool_t)(dflt ? &default_pool : current);
  return rt_end(cudaSuccess);
}

static cudaError_t device_pool(cudaMemPool_t *memPool, int device, int dflt) {
  return give_pool(memPool,
                   !memPool      ? cudaErrorInvalidValue
                   : device != 0 ? cudaErrorInvalidDevice
                                 : cudaSuccess,
                   dflt);
}

RT_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
  return device_pool(memPool, device, 1);
}

RT_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
  return device_pool(memPool, device, 0);
}

RT_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  /* a pool belongs to device 0: another device is an invalid value */
  if (!p || device != 0) return rt_end(cudaErrorInvalidValue);
  current = p;
  return rt_end(cudaSuccess);
}

/* cudaMemGet(Default)MemPool: pinned allocations on the device only. */
static cudaError_t location_pool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                 enum cudaMemAllocationType type, int dflt) {
  int bad = !memPool || location_device(location) < 0 || type != cudaMemAllocationTypePinned;
  return give_pool(memPool, bad ? cudaErrorInvalidValue : cudaSuccess, dflt);
}

RT_EXPORT cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                               enum cudaMemAllocationType type) {
  return location_pool(memPool, location, type, 1);
}

RT_EXPORT cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                        enum cudaMemAllocationType type) {
  return location_pool(memPool, location, type, 0);
}

RT_EXPORT cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                                        cudaMemPool_t memPool) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p || location_device(location) < 0 || type != cudaMemAllocationTypePinned)
    return rt_end(cudaErrorInvalidValue);
  current = p;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *props) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!memPool || !props || props->allocType != cudaMemAllocationTypePinned)
    return rt_end(cudaErrorInvalidValue);
  if (props->location.type != cudaMemLocationTypeDevice) {
    /* host-located pools (cudaMemLocationTypeHost*) are not modelled */
    if (props->location.type >= cudaMemLocationTypeHost &&
        props->location.type <= cudaMemLocationTypeHostNumaCurrent)
      return rt_end(cudaErrorNotSupported);
    return rt_end(cudaErrorInvalidValue);
  }
  if (props->location.id != 0) return rt_end(cudaErrorInvalidValue);
  if (props->handleTypes & ~(unsigned)cudaMemHandleTypePosixFileDescriptor)
    return rt_end(cudaErrorInvalidValue);
  rt_pool *p = calloc(1, sizeof *p);
  if (!p) return rt_end(cudaErrorMemoryAllocation);
  p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
  p->max_size = props->maxSize;
  /* after the default pool, which stays first */
  p->next = default_pool.next;
  default_pool.next = p;
  *memPool = (cudaMemPool_t)p;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p || p->is_default) return rt_end(cudaErrorInvalidValue);
  /* its live allocations stay usable until they are freed */
  p->destroyed = 1;
  if (current == p) current = &default_pool;
  prune();
  if (!p->live) p->reserved = 0;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p) return rt_end(cudaErrorInvalidValue);
  prune();
  trim(p, minBytesToKeep);
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p || !value) return rt_end(cudaErrorInvalidValue);
  switch (attr) {
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    p->reuse[attr - 1] = *(const int *)value != 0;
    break;
  case cudaMemPoolAttrReleaseThreshold:
    p->threshold = *(const uint64_t *)value;
    break;
  /* the high watermarks can only be reset, to the current figure */
  case cudaMemPoolAttrReservedMemHigh:
    if (*(const uint64_t *)value) return rt_end(cudaErrorInvalidValue);
    prune();
    p->reserved_high = p->reserved;
    break;
  case cudaMemPoolAttrUsedMemHigh:
    if (*(const uint64_t *)value) return rt_end(cudaErrorInvalidValue);
    prune();
    p->used_high = p->used;
    break;
  default:
    return rt_end(cudaErrorInvalidValue);
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p || !value) return rt_end(cudaErrorInvalidValue);
  prune();
  uint64_t v;
  switch (attr) {
  case cudaMemPoolReuseFollowEventDependencies:
  case cudaMemPoolReuseAllowOpportunistic:
  case cudaMemPoolReuseAllowInternalDependencies:
    *(int *)value = p->reuse[attr - 1];
    return rt_end(cudaSuccess);
  case cudaMemPoolAttrReleaseThreshold:
    v = p->threshold;
    break;
  case cudaMemPoolAttrReservedMemCurrent:
    v = p->reserved;
    break;
  case cudaMemPoolAttrReservedMemHigh:
    v = p->reserved_high;
    break;
  case cudaMemPoolAttrUsedMemCurrent:
    v = p->used;
    break;
  case cudaMemPoolAttrUsedMemHigh:
    v = p->used_high;
    break;
  default:
    return rt_end(cudaErrorInvalidValue);
  }
  *(uint64_t *)value = v;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                           size_t count) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p || (count && !descList)) return rt_end(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; i++) {
    const struct cudaMemAccessDesc *d = &descList[i];
    if (d->location.type != cudaMemLocationTypeDevice) return rt_end(cudaErrorInvalidValue);
    if (d->location.id != 0) return rt_end(cudaErrorInvalidDevice);
    /* the pool's own device always reads and writes it */
    if (d->flags != cudaMemAccessFlagsProtReadWrite) return rt_end(cudaErrorInvalidDevice);
  }
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                           struct cudaMemLocation *location) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p || !flags || !location || location->type != cudaMemLocationTypeDevice || location->id != 0)
    return rt_end(cudaErrorInvalidValue);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return rt_end(cudaSuccess);
}

RT_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                              cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  rt_pool *p = rt_pool_get(memPool);
  if (!p) return rt_end(cudaErrorInvalidValue);
  return rt_end(rt_pool_alloc(p, ptr, size, stream));
}

RT_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  int c = rt_capture_malloc(devPtr, size, stream); /* a captured stream makes a node */
  if (c >= 0) return rt_end((cudaError_t)c);
  return rt_end(rt_pool_alloc(current, devPtr, size, stream));
}

RT_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream) {
  cudaError_t e = rt_begin(1);
  if (e) return rt_end(e);
  if (!rt_stream_get(stream)) return rt_end(cudaErrorInvalidResourceHandle);
  int c = rt_capture_free(devPtr, stream);
  if (c >= 0) return rt_end((cudaError_t)c);
  return rt_end(rt_pool_free(devPtr, stream));
}
