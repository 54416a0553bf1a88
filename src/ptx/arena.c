/* arena.c: the bump allocator behind ptx_module. Memory comes in chunks of
 * 64 KiB (or one chunk of exactly the size asked, for big requests); a chunk
 * is never reused until the whole arena is freed. */
#include "ptx/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 64 * 1024, ALIGN = alignof(max_align_t) };

typedef struct chunk {
  struct chunk *next; /* previously filled chunk */
  size_t size;        /* usable bytes in data */
  size_t used;        /* bytes handed out */
  alignas(max_align_t) unsigned char data[];
} chunk;

struct ptx_arena {
  chunk *head;  /* chunk being filled (newest) */
  size_t total; /* bytes obtained with malloc */
};

ptx_arena *ptx_arena_new(void) { return calloc(1, sizeof(ptx_arena)); }

void ptx_arena_free(ptx_arena *a) {
  if (!a) return;
  for (chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

static chunk *new_chunk(ptx_arena *a, size_t size) {
  chunk *c = malloc(sizeof(chunk) + size);
  if (!c) return NULL;
  c->size = size;
  c->used = 0;
  a->total += sizeof(chunk) + size;
  return c;
}

/* `n` zero-filled bytes at a multiple of `align` (a power of two <= ALIGN). */
static void *bump(ptx_arena *a, size_t n, size_t align) {
  if (n > SIZE_MAX / 2) return NULL;
  if (n == 0) n = 1;
  chunk *c = a->head;
  size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
  if (!c || at > c->size || c->size - at < n) {
    if (n > CHUNK / 4) {
      /* A big block gets a chunk of its own, linked behind the current one so
       * the current chunk's free space is not abandoned. */
      chunk *big = new_chunk(a, n);
      if (!big) return NULL;
      if (c) {
        big->next = c->next;
        c->next = big;
      } else {
        big->next = NULL;
        a->head = big;
      }
      big->used = n;
      memset(big->data, 0, n);
      return big->data;
    }
    c = new_chunk(a, CHUNK);
    if (!c) return NULL;
    c->next = a->head;
    a->head = c;
    at = 0;
  }
  void *p = c->data + at;
  c->used = at + n;
  memset(p, 0, n);
  return p;
}

void *ptx_arena_alloc(ptx_arena *a, size_t n) { return bump(a, n, ALIGN); }

char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n) {
  char *p = n < SIZE_MAX / 2 ? bump(a, n + 1, 1) : NULL;
  if (!p) return NULL;
  memcpy(p, s, n);
  return p;
}

size_t ptx_arena_used(const ptx_arena *a) { return a ? a->total : 0; }
