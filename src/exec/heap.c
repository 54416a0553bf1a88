/* heap.c: the device heap (see heap.h): first fit over the gaps between the
 * live blocks, kept sorted by offset; a mutex because several workers run
 * blocks of one launch at once. Small and simple: kernels that malloc are
 * rare and allocate few blocks. */
#include "exec/heap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
  size_t off, size;
  int held;
} span; /* held: freed, not yet reusable */

struct dev_heap {
  uint8_t *mem;
  size_t size;
  span *live; /* sorted by off */
  size_t n, cap;
  pthread_mutex_t lock;
};

dev_heap *heap_create(size_t bytes) {
  dev_heap *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  h->size = (bytes + 15) & ~(size_t)15;
  if (!h->size) h->size = 16;
  h->mem = aligned_alloc(4096, (h->size + 4095) & ~(size_t)4095);
  if (!h->mem) {
    free(h);
    return NULL;
  }
  memset(h->mem, 0, h->size);
  pthread_mutex_init(&h->lock, NULL);
  return h;
}

void heap_destroy(dev_heap *h) {
  if (!h) return;
  pthread_mutex_destroy(&h->lock);
  free(h->live);
  free(h->mem);
  free(h);
}

uintptr_t heap_base(const dev_heap *h) { return (uintptr_t)h->mem; }
size_t heap_size(const dev_heap *h) { return h->size; }

uint64_t heap_alloc(dev_heap *h, uint64_t bytes) {
  if (!bytes || bytes > h->size) return 0;
  size_t need = ((size_t)bytes + 15) & ~(size_t)15;
  uint64_t r = 0;
  pthread_mutex_lock(&h->lock);
  if (h->n == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 64;
    span *l = realloc(h->live, cap * sizeof *l);
    if (!l) goto out;
    h->live = l;
    h->cap = cap;
  }
  size_t at = 0, i = 0;
  for (; i <= h->n; i++) {
    size_t end = i < h->n ? h->live[i].off : h->size;
    if (end - at >= need) break;
    if (i < h->n) at = h->live[i].off + h->live[i].size;
  }
  if (i > h->n) goto out;
  memmove(&h->live[i + 1], &h->live[i], (h->n - i) * sizeof *h->live);
  h->live[i] = (span){at, need, 0};
  h->n++;
  r = (uint64_t)(uintptr_t)(h->mem + at);
out:
  pthread_mutex_unlock(&h->lock);
  return r;
}

int heap_free(dev_heap *h, uint64_t p, int hold) {
  if (!p) return 0;
  if (p < (uint64_t)(uintptr_t)h->mem || p >= (uint64_t)(uintptr_t)h->mem + h->size) return -1;
  size_t off = (size_t)(p - (uint64_t)(uintptr_t)h->mem);
  int rc = -1;
  pthread_mutex_lock(&h->lock);
  size_t lo = 0, hi = h->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (h->live[mid].off < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < h->n && h->live[lo].off == off && !h->live[lo].held) {
    if (hold)
      h->live[lo].held = 1;
    else {
      memmove(&h->live[lo], &h->live[lo + 1], (h->n - lo - 1) * sizeof *h->live);
      h->n--;
    }
    rc = 0;
  }
  pthread_mutex_unlock(&h->lock);
  return rc;
}

void heap_flush(dev_heap *h) {
  pthread_mutex_lock(&h->lock);
  size_t k = 0;
  for (size_t i = 0; i < h->n; i++)
    if (!h->live[i].held) h->live[k++] = h->live[i];
  h->n = k;
  pthread_mutex_unlock(&h->lock);
}
