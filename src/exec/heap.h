/* heap.h: the device heap behind device-side malloc() and free(). One
 * region per context (CUDA's heap outlives launches: a block malloc'd by
 * one kernel may be used and freed by a later one), registered as one
 * global allocation so every access is bounds-checked against it; blocks
 * inside are 16-byte aligned, as CUDA's are. Thread-safe: the workers that
 * run a launch's blocks allocate at the same time. */
#ifndef SMEMU_HEAP_H
#define SMEMU_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct dev_heap dev_heap;

/* A heap of `bytes` (rounded up to 16); NULL when out of host memory. */
dev_heap *heap_create(size_t bytes);
void heap_destroy(dev_heap *h);
/* The region's first byte and size (for the allocation table). */
uintptr_t heap_base(const dev_heap *h);
size_t heap_size(const dev_heap *h);
/* The address of a fresh block of `bytes`, or 0 when none fits (CUDA's
 * malloc returns NULL then); malloc(0) gives 0 too. */
uint64_t heap_alloc(dev_heap *h, uint64_t bytes);
/* Frees the block at p: 0 when p is 0 or a live block, -1 otherwise (a
 * double free too). With `hold` the block stays taken until heap_flush: a
 * launch checked for global races then never hands one block's freed memory
 * to another block, whose accesses would look like races with the first's. */
int heap_free(dev_heap *h, uint64_t p, int hold);
/* Returns the blocks freed with `hold` (at the start of a launch). */
void heap_flush(dev_heap *h);

#endif
