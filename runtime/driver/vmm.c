/* vmm.c: virtual memory management (cuMemAddressReserve, cuMemCreate,
 * cuMemMap, cuMemSetAccess, ...). A reservation is a range of the
 * process's address space with no access; a physical allocation is an
 * anonymous memory file of its size, counted against the device's memory
 * like cudaMalloc's; mapping puts (part of) the file at an address of a
 * reservation, so two mappings of one allocation see the same bytes, as on
 * the GPU; granting access makes the mapping device memory the kernels,
 * copies and checks see (a tracked allocation of kind ALLOC_MAPPED). The
 * granularity is the H100's 2 MiB. Read-only access is granted as read and
 * write (smemu does not fault a kernel's write to it). */
#include "cu_abi.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT RT_EXPORT CUresult
#define P(decl) decl;

enum { GRANULE = 2u << 20, PROP_PINNED = 1, LOC_DEVICE = 1, ACCESS_NONE = 0, ACCESS_READ = 1, ACCESS_RW = 3 };

typedef struct mem_prop {
  int type, handle_types;
  int loc_type, loc_id;
  void *win32;
  unsigned char flags[8];
} mem_prop; /* CUmemAllocationProp */

typedef struct access_desc {
  int loc_type, loc_id;
  int flags;
} access_desc; /* CUmemAccessDesc */

typedef struct phys {
  int fd;
  size_t size;
  mem_prop prop;
  unsigned handles; /* the handle's references: cuMemCreate's and each retain's */
  unsigned maps;    /* mappings of it */
  struct phys *next;
} phys;

typedef struct region {
  uintptr_t base;
  size_t size;
  phys *mem;  /* a mapping: its allocation; NULL for a reservation */
  int access; /* a mapping: ACCESS_* granted */
  struct region *next;
} region;

static phys *allocs;
static region *reserved, *mapped;

P(CUresult cuMemGetAllocationGranularity(size_t *, const mem_prop *, int))
P(CUresult cuMemCreate(unsigned long long *, size_t, const mem_prop *, unsigned long long))
P(CUresult cuMemRelease(unsigned long long))
P(CUresult cuMemAddressReserve(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long))
P(CUresult cuMemAddressFree(CUdeviceptr, size_t))
P(CUresult cuMemMap(CUdeviceptr, size_t, size_t, unsigned long long, unsigned long long))
P(CUresult cuMemUnmap(CUdeviceptr, size_t))
P(CUresult cuMemSetAccess(CUdeviceptr, size_t, const access_desc *, size_t))
P(CUresult cuMemGetAccess(unsigned long long *, const int *, CUdeviceptr))
P(CUresult cuMemRetainAllocationHandle(unsigned long long *, void *))
P(CUresult cuMemGetAllocationPropertiesFromHandle(mem_prop *, unsigned long long))

static CUresult prop_ok(const mem_prop *p) {
  if (!p || p->type != PROP_PINNED || p->loc_type != LOC_DEVICE) return CUDA_ERROR_INVALID_VALUE;
  return p->loc_id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

static phys *phys_of(unsigned long long h) {
  for (phys *p = allocs; p; p = p->next)
    if ((unsigned long long)(uintptr_t)p == h) return p;
  return NULL;
}

/* Free p once no handle reference and no mapping is left. */
static void phys_check(phys *p) {
  if (p->handles || p->maps) return;
  for (phys **q = &allocs; *q; q = &(*q)->next)
    if (*q == p) {
      *q = p->next;
      break;
    }
  close(p->fd);
  rt.allocated -= p->size;
  free(p);
}

/* The region of list holding [a, a+n), or NULL. */
static region *holding(region *list, uintptr_t a, size_t n) {
  for (region *r = list; r; r = r->next)
    if (a >= r->base && n <= r->size && a - r->base <= r->size - n) return r;
  return NULL;
}

static int overlaps_mapping(uintptr_t a, size_t n) {
  for (region *r = mapped; r; r = r->next)
    if (a < r->base + r->size && r->base < a + n) return 1;
  return 0;
}

#define LOCKED(expr)                                                                                         \
  do {                                                                                                       \
    rt_begin(0);                                                                                             \
    CUresult r_ = (expr);                                                                                    \
    pthread_mutex_unlock(&rt.lock);                                                                          \
    return r_;                                                                                               \
  } while (0)

EXPORT cuMemGetAllocationGranularity(size_t *g, const mem_prop *prop, int option) {
  if (!g || option < 0 || option > 1) return CUDA_ERROR_INVALID_VALUE;
  CUresult r = prop_ok(prop);
  if (!r) *g = GRANULE;
  return r;
}

static CUresult create(unsigned long long *h, size_t size, const mem_prop *prop, unsigned long long flags) {
  CUresult r = prop_ok(prop);
  if (r) return r;
  if (!h || flags || !size || size % GRANULE) return CUDA_ERROR_INVALID_VALUE;
  if (size > rt_total_memory() - rt.allocated) return CUDA_ERROR_OUT_OF_MEMORY;
  phys *p = calloc(1, sizeof *p);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  p->fd = memfd_create("smemu-vmm", MFD_CLOEXEC);
  if (p->fd < 0 || ftruncate(p->fd, (off_t)size)) {
    if (p->fd >= 0) close(p->fd);
    free(p);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  p->size = size;
  p->prop = *prop;
  p->handles = 1;
  p->next = allocs;
  allocs = p;
  rt.allocated += size;
  *h = (unsigned long long)(uintptr_t)p;
  return CUDA_SUCCESS;
}
EXPORT cuMemCreate(unsigned long long *h, size_t size, const mem_prop *prop, unsigned long long flags) {
  LOCKED(create(h, size, prop, flags));
}

static CUresult release(unsigned long long h) {
  phys *p = phys_of(h);
  /* a handle released more often than made and retained is refused, even
   * while mappings keep its memory */
  if (!p || !p->handles) return CUDA_ERROR_INVALID_VALUE;
  p->handles--;
  phys_check(p);
  return CUDA_SUCCESS;
}
EXPORT cuMemRelease(unsigned long long h) { LOCKED(release(h)); }

static CUresult reserve(CUdeviceptr *ptr, size_t size, size_t align) {
  if (!ptr || !size || size % GRANULE) return CUDA_ERROR_INVALID_VALUE;
  if (!align) align = GRANULE;
  if (align % GRANULE || (align & (align - 1)) || size > SIZE_MAX - align) return CUDA_ERROR_INVALID_VALUE;
  region *r = calloc(1, sizeof *r);
  void *m = r ? mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
              : MAP_FAILED;
  if (m == MAP_FAILED) {
    free(r);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  uintptr_t lo = (uintptr_t)m, base = (lo + align - 1) & ~(uintptr_t)(align - 1);
  if (base > lo) munmap(m, base - lo);
  if (base + size < lo + size + align) munmap((void *)(base + size), lo + size + align - (base + size));
  r->base = base;
  r->size = size;
  r->next = reserved;
  reserved = r;
  *ptr = base;
  return CUDA_SUCCESS;
}
EXPORT cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t align, CUdeviceptr addr,
                           unsigned long long flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  LOCKED(reserve(ptr, size, align)); /* the address hint is a hint */
}

static CUresult address_free(CUdeviceptr ptr, size_t size) {
  for (region **q = &reserved; *q; q = &(*q)->next)
    if ((*q)->base == ptr && (*q)->size == size) {
      if (overlaps_mapping(ptr, size)) return CUDA_ERROR_INVALID_VALUE; /* still mapped */
      region *r = *q;
      *q = r->next;
      munmap((void *)r->base, r->size);
      free(r);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}
EXPORT cuMemAddressFree(CUdeviceptr ptr, size_t size) { LOCKED(address_free(ptr, size)); }

static CUresult map(CUdeviceptr ptr, size_t size, size_t offset, unsigned long long h) {
  phys *p = phys_of(h);
  if (!p || !p->handles || !size || size % GRANULE || ptr % GRANULE || offset % GRANULE)
    return CUDA_ERROR_INVALID_VALUE;
  if (offset > p->size || size > p->size - offset) return CUDA_ERROR_INVALID_VALUE;
  if (!holding(reserved, ptr, size) || overlaps_mapping(ptr, size)) return CUDA_ERROR_INVALID_VALUE;
  region *r = calloc(1, sizeof *r);
  if (!r) return CUDA_ERROR_OUT_OF_MEMORY;
  if (mmap((void *)ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, p->fd, (off_t)offset) == MAP_FAILED) {
    free(r);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *r = (region){ptr, size, p, ACCESS_NONE, mapped};
  mapped = r;
  p->maps++;
  return CUDA_SUCCESS;
}
EXPORT cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, unsigned long long h, unsigned long long flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  LOCKED(map(ptr, size, offset, h));
}

/* Take a mapping's access away: the device no longer sees it. */
static void vmm_revoke(region *r) {
  if (r->access == ACCESS_NONE) return;
  rt_drain(); /* queued work may still use it */
  rt_alloc_remove((void *)r->base);
  if (rt.ctx) smemu_host_unregister(rt.ctx, (void *)r->base);
  mprotect((void *)r->base, r->size, PROT_NONE);
  r->access = ACCESS_NONE;
}

static CUresult unmap(CUdeviceptr ptr, size_t size) {
  /* the range is whole mappings */
  size_t covered = 0;
  for (region *r = mapped; r; r = r->next)
    if (r->base >= ptr && r->base - ptr < size) {
      if (r->size > size - (r->base - ptr)) return CUDA_ERROR_INVALID_VALUE;
      covered += r->size;
    }
  if (!size || covered != size) return CUDA_ERROR_INVALID_VALUE;
  for (region **q = &mapped; *q;) {
    region *r = *q;
    if (r->base >= ptr && r->base - ptr < size) {
      vmm_revoke(r);
      *q = r->next;
      mmap((void *)r->base, r->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
           0);
      r->mem->maps--;
      phys_check(r->mem);
      free(r);
    } else
      q = &r->next;
  }
  return CUDA_SUCCESS;
}
EXPORT cuMemUnmap(CUdeviceptr ptr, size_t size) { LOCKED(unmap(ptr, size)); }

static CUresult set_access(CUdeviceptr ptr, size_t size, const access_desc *d, size_t n) {
  if (!d || !n || !size) return CUDA_ERROR_INVALID_VALUE;
  int access = ACCESS_NONE;
  for (size_t i = 0; i < n; i++) {
    if (d[i].loc_type != LOC_DEVICE) return CUDA_ERROR_INVALID_VALUE;
    if (d[i].loc_id != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (d[i].flags != ACCESS_NONE && d[i].flags != ACCESS_READ && d[i].flags != ACCESS_RW)
      return CUDA_ERROR_INVALID_VALUE;
    access = d[i].flags;
  }
  /* every byte of the range is mapped, by whole mappings */
  size_t covered = 0;
  for (region *r = mapped; r; r = r->next)
    if (r->base >= ptr && r->base - ptr < size) {
      if (r->size > size - (r->base - ptr)) return CUDA_ERROR_INVALID_VALUE;
      covered += r->size;
    }
  if (covered != size) return CUDA_ERROR_INVALID_VALUE;
  if (access != ACCESS_NONE && !rt_ctx()) return CUDA_ERROR_NOT_INITIALIZED;
  for (region *r = mapped; r; r = r->next) {
    if (!(r->base >= ptr && r->base - ptr < size)) continue;
    if (access == ACCESS_NONE) {
      vmm_revoke(r);
      continue;
    }
    if (r->access == ACCESS_NONE) {
      if (mprotect((void *)r->base, r->size, PROT_READ | PROT_WRITE)) return CUDA_ERROR_OUT_OF_MEMORY;
      if (smemu_host_register(rt.ctx, (void *)r->base, r->size) != SMEMU_OK ||
          rt_alloc_add((void *)r->base, r->size, ALLOC_MAPPED, 0) < 0) {
        mprotect((void *)r->base, r->size, PROT_NONE);
        return CUDA_ERROR_OUT_OF_MEMORY;
      }
    }
    r->access = access;
  }
  return CUDA_SUCCESS;
}
EXPORT cuMemSetAccess(CUdeviceptr ptr, size_t size, const access_desc *d, size_t n) {
  LOCKED(set_access(ptr, size, d, n));
}

static CUresult get_access(unsigned long long *flags, const int *loc, CUdeviceptr ptr) {
  if (!flags || !loc) return CUDA_ERROR_INVALID_VALUE;
  if (loc[0] != LOC_DEVICE) return CUDA_ERROR_INVALID_VALUE;
  if (loc[1] != 0) return CUDA_ERROR_INVALID_DEVICE;
  region *r = holding(mapped, ptr, 1);
  if (!r) return CUDA_ERROR_INVALID_VALUE;
  *flags = (unsigned long long)r->access;
  return CUDA_SUCCESS;
}
EXPORT cuMemGetAccess(unsigned long long *flags, const int *loc, CUdeviceptr ptr) {
  LOCKED(get_access(flags, loc, ptr));
}

static CUresult retain(unsigned long long *h, void *addr) {
  region *r = holding(mapped, (uintptr_t)addr, 1);
  if (!h || !r) return CUDA_ERROR_INVALID_VALUE;
  r->mem->handles++;
  *h = (unsigned long long)(uintptr_t)r->mem;
  return CUDA_SUCCESS;
}
EXPORT cuMemRetainAllocationHandle(unsigned long long *h, void *addr) { LOCKED(retain(h, addr)); }

static CUresult props(mem_prop *out, unsigned long long h) {
  phys *p = phys_of(h);
  if (!out || !p || !p->handles) return CUDA_ERROR_INVALID_VALUE;
  *out = p->prop;
  return CUDA_SUCCESS;
}
EXPORT cuMemGetAllocationPropertiesFromHandle(mem_prop *out, unsigned long long h) { LOCKED(props(out, h)); }
