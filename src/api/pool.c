/* pool.c: where smemu_malloc places device memory. As cudaMalloc does
 * (recorded on an H100, tests/hw/sanitizer): small allocations are carved
 * from 2 MiB chunks in 512-byte units, first fit from the chunk's start, so
 * consecutive allocations are neighbours (256 bytes, then 256 more: 512
 * bytes apart) and a freed range is used again; larger ones get chunks of
 * their own. The layout decides which allocation is "nearest" to a bad
 * address in memcheck's report. Each allocation is followed by a red zone
 * of at least ctx->padding bytes (smemu_set_padding), as compute-sanitizer
 * --padding lays memory out (recorded: the next allocation starts
 * units(size + padding) later). Chunks are freed when their last
 * allocation is. */
#include "api/internal.h"
#include <stdlib.h>
#include <string.h>

#define CHUNK (2u << 20)
#define UNIT 512u
#define SMALL (1u << 20) /* larger allocations get a chunk of their own */

static size_t units(size_t n) { return (n + UNIT - 1) / UNIT * UNIT; }

/* The bytes an allocation of n takes: its units, red zone included (the
 * padding after it, compute-sanitizer's --padding), or 0 when that
 * overflows. */
static size_t extent(const smemu_ctx *ctx, size_t n) {
  if (!n) n = 1;
  if (n > SIZE_MAX - ctx->padding - UNIT) return 0;
  return units(n + ctx->padding);
}

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
static uintptr_t fit(const smemu_ctx *ctx, const pool_chunk *c, size_t need) {
  const mem_table *t = &ctx->mem;
  uintptr_t at = c->base, end = c->base + c->size;
  for (size_t i = lower(t, c->base); i < t->n && t->a[i].base < end; i++) {
    if (t->a[i].base - at >= need) return at;
    at = t->a[i].base + extent(ctx, t->a[i].size);
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
  if (size > SIZE_MAX - CHUNK) return NULL; /* the rounding below would wrap */
  void *p = aligned_alloc(CHUNK, (size + CHUNK - 1) / CHUNK * CHUNK);
  if (!p) return NULL;
  pool_chunk *c = &ctx->chunks[ctx->nchunks++];
  *c = (pool_chunk){(uintptr_t)p, (size + CHUNK - 1) / CHUNK * CHUNK, 0, 0, (uintptr_t)p, 0};
  return c;
}

void *pool_alloc(smemu_ctx *ctx, size_t bytes) {
  size_t need = extent(ctx, bytes);
  if (!need) return NULL;
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
        at = fit(ctx, k, need);
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
    c->used -= extent(ctx, bytes);
    c->holes = 1;
    return;
  }
}

smemu_status smemu_set_padding(smemu_ctx *ctx, size_t bytes) {
  if (!ctx) return SMEMU_ERR_INVALID_VALUE;
  if (bytes == ctx->padding) return SMEMU_OK;
  /* live allocations were placed with the old red zones */
  if (ctx->nchunks)
    return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE,
                     "the padding changes only while no device memory is allocated");
  if (bytes > SIZE_MAX / 4) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "padding of %zu bytes", bytes);
  ctx->padding = bytes;
  return SMEMU_OK;
}

void pool_destroy(smemu_ctx *ctx) {
  for (size_t i = 0; i < ctx->nchunks; i++) free((void *)ctx->chunks[i].base);
  free(ctx->chunks);
  ctx->chunks = NULL;
  ctx->nchunks = ctx->capchunks = 0;
}
