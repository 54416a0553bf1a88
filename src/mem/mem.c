/* mem.c: the sorted allocation table behind global-memory checks. */
#include "mem/mem.h"
#include <stdlib.h>
#include <string.h>

/* Index of the first allocation whose base is above addr. */
static size_t upper(const mem_table *t, uintptr_t addr) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (t->a[mid].base <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int mem_add(mem_table *t, uintptr_t base, size_t size, const char *name, int readonly) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    alloc *a = realloc(t->a, cap * sizeof *a);
    if (!a) return -1;
    t->a = a;
    t->cap = cap;
  }
  size_t i = upper(t, base);
  memmove(&t->a[i + 1], &t->a[i], (t->n - i) * sizeof *t->a);
  t->a[i] = (alloc){base, size, name, readonly};
  t->n++;
  return 0;
}

int mem_remove(mem_table *t, uintptr_t base) {
  size_t i = upper(t, base);
  if (i == 0 || t->a[i - 1].base != base) return -1;
  i--;
  memmove(&t->a[i], &t->a[i + 1], (t->n - i - 1) * sizeof *t->a);
  t->n--;
  return 0;
}

const alloc *mem_find(const mem_table *t, uintptr_t addr, size_t size) {
  size_t i = upper(t, addr);
  if (i == 0) return NULL;
  const alloc *a = &t->a[i - 1];
  if (addr - a->base + size <= a->size) return a;
  return NULL;
}

const alloc *mem_nearest(const mem_table *t, uintptr_t addr) {
  size_t i = upper(t, addr);
  const alloc *best = NULL;
  uintptr_t dist = UINTPTR_MAX;
  if (i > 0) {
    const alloc *a = &t->a[i - 1];
    uintptr_t end = a->base + a->size;
    best = a;
    dist = addr >= end ? addr - end : 0;
  }
  if (i < t->n && t->a[i].base - addr < dist) best = &t->a[i];
  return best;
}

void mem_free_table(mem_table *t) {
  free(t->a);
  memset(t, 0, sizeof *t);
}
