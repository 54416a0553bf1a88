/* mem.h: the table of global allocations. Device pointers are host pointers;
 * every allocation (smemu_malloc, module .global/.const variables) is
 * recorded so that a kernel's global access is checked with one look-up. */
#ifndef SMEMU_MEM_H
#define SMEMU_MEM_H

#include <stddef.h>
#include <stdint.h>

typedef struct alloc {
  uintptr_t base;   /* first byte */
  size_t size;      /* bytes */
  const char *name; /* variable name, or NULL for a malloc */
  int readonly;     /* .const variable */
} alloc;

typedef struct mem_table {
  alloc *a; /* sorted by base */
  size_t n, cap;
} mem_table;

int mem_add(mem_table *t, uintptr_t base, size_t size, const char *name, int readonly);
int mem_remove(mem_table *t, uintptr_t base);
/* The allocation holding [addr, addr+size), or NULL. */
const alloc *mem_find(const mem_table *t, uintptr_t addr, size_t size);
/* The allocation nearest to addr (for messages), or NULL. */
const alloc *mem_nearest(const mem_table *t, uintptr_t addr);
void mem_free_table(mem_table *t);

#endif
