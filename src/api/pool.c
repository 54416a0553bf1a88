/* pool.c: where smemu_malloc places device memory. As cudaMalloc does
 * (recorded on an H100, tests/hw/sanitizer): small allocations are carved
 * from 2 MiB chunks in 512-byte units, first fit from the chunk's start, so
 * consecutive allocations are neighbours (256 bytes, then 256 more: 512
 * bytes apart) and a freed range is used again; larger ones get chunks of
 * their own. The layout decides which allocation is "nearest" to a bad
 * address in memcheck's report. Chunks are freed when their last
 * allocation is. */
#include "api/internal.h"
#include <stdlib.h>
#include <string.h>

#define CHUNK (2u << 20)
#define UNIT 512u
#define SMALL (1u << 20) /* larger allocations get a chunk of their own */

static size_t units(size_t n) { return (n + UNIT - 1) / UNIT * UNIT; }

/* Index of the first allocation of the table at or above p. */
static size_t lower(const mem_table *t, uintptr_t p) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (t->a[mid].base < p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The first gap of `need` bytes in chunk c, or 0. */
static uintptr_t fit(const mem_table *t, const pool_chunk *c, size_t need) {
  uintptr_t at = c->base, end = c->base + c->size;
  for (size_t i = lower(t, c->base); i < t->n && t->a[i].base < end; i++) {
    if (t->a[i].base - at >= need) return at;
    at = t->a[i].base + units(t->a[i].size);
  }
  return end - at >= need ? at : 0;
}

static pool_chunk *new_chunk(smemu_ctx *ctx, size_t size) {
  if (ctx->nchunks == ctx->capchunks) {
    size_t cap = ctx->capchunks ? ctx->capchunks * 2 : 16;
    pool_chunk *c = realloc(ctx->chunks, cap * sizeof *c);
    if (!c) return NULL;
    ctx->chunks = c;
    ctx->capchunks = cap;
  }
  void *p = aligned_alloc(CHUNK, (size + CHUNK - 1) / CHUNK * CHUNK);
  if (!p) return NULL;
  pool_chunk *c = &ctx->chunks[ctx->nchunks++];
  *c = (pool_chunk){(uintptr_t)p, (size + CHUNK - 1) / CHUNK * CHUNK, 0, 0, (uintptr_t)p, 0};
  return c;
}

void *pool_alloc(smemu_ctx *ctx, size_t bytes) {
  size_t need = units(bytes ? bytes : 1);
  if (need < bytes) return NULL;
  pool_chunk *c = NULL;
  uintptr_t at = 0;
  if (need <= SMALL)
    for (size_t i = 0; i < ctx->nchunks && !at; i++) {
      pool_chunk *k = &ctx->chunks[i];
      if (k->size != CHUNK || k->size - k->used < need) continue;
      /* without frees the only room is above top: no scan */
      if (!k->holes)
        at = k->base + k->size - k->top >= need ? k->top : 0;
      else
        at = fit(&ctx->mem, k, need);
      if (at) c = k;
    }
  if (!at) {
    if (!(c = new_chunk(ctx, need))) return NULL;
    at = c->base;
  }
  c->live++;
  c->used += need;
  if (at + need > c->top) c->top = at + need;
  return (void *)at;
}

void pool_free(smemu_ctx *ctx, void *p, size_t bytes) {
  uintptr_t a = (uintptr_t)p;
  for (size_t i = 0; i < ctx->nchunks; i++) {
    pool_chunk *c = &ctx->chunks[i];
    if (a - c->base >= c->size) continue;
    if (--c->live == 0) {
      free((void *)c->base);
      ctx->chunks[i] = ctx->chunks[--ctx->nchunks];
      return;
    }
    c->used -= units(bytes ? bytes : 1);
    c->holes = 1;
    return;
  }
}

void pool_destroy(smemu_ctx *ctx) {
  for (size_t i = 0; i < ctx->nchunks; i++) free((void *)ctx->chunks[i].base);
  free(ctx->chunks);
  ctx->chunks = NULL;
  ctx->nchunks = ctx->capchunks = 0;
}
