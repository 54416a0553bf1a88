/* arena.h: a bump allocator. A parsed ptx_module keeps all its memory in one
 * arena (strings, arrays, initializers), so freeing the module is freeing the
 * arena. Allocations are aligned for any C object and never freed one by one. */
#ifndef SMEMU_PTX_ARENA_H
#define SMEMU_PTX_ARENA_H

#include <stddef.h>

typedef struct ptx_arena ptx_arena;

/* A new, empty arena, or NULL when out of memory. */
ptx_arena *ptx_arena_new(void);
/* Frees the arena and everything allocated from it; NULL is fine. */
void ptx_arena_free(ptx_arena *a);
/* `n` bytes, zero-filled; NULL when out of memory or n is absurd. */
void *ptx_arena_alloc(ptx_arena *a, size_t n);
/* A NUL-terminated copy of the `n` bytes at `s`; NULL when out of memory. */
char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n);
/* Bytes held from the system (for statistics and tests). */
size_t ptx_arena_used(const ptx_arena *a);

#endif
