/* api_heap.c: the context's device heap for device-side malloc/free
 * (src/exec/heap.c). Made by the first launch whose kernel calls malloc or
 * free, with the size cudaDeviceSetLimit(cudaLimitMallocHeapSize) set (8 MB
 * by default, as CUDA's), and kept until the context goes: CUDA's heap
 * outlives launches. */
#include "api/internal.h"
#include "exec/heap.h"
#include "ir/program.h"

static int uses_heap(const program *P) {
  for (uint32_t i = 0; i < P->nfuncs; i++)
    if (P->funcs[i].builtin == BUILTIN_MALLOC || P->funcs[i].builtin == BUILTIN_FREE ||
        P->funcs[i].builtin == BUILTIN_DEVRT_MALLOC || P->funcs[i].builtin == BUILTIN_DEVRT_FREE)
      return 1;
  return 0;
}

smemu_status heap_for_launch(smemu_ctx *ctx, const program *P, struct dev_heap **out) {
  *out = NULL;
  if (!uses_heap(P)) return SMEMU_OK;
  if (!ctx->heap) {
    size_t bytes = ctx->heap_bytes ? ctx->heap_bytes : (size_t)8 << 20;
    dev_heap *h = heap_create(bytes);
    if (!h || mem_add(&ctx->mem, heap_base(h), heap_size(h), "device heap", 0) < 0) {
      heap_destroy(h);
      return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of host memory for a device heap of %zu bytes",
                       bytes);
    }
    ctx->heap = h;
  }
  heap_flush(ctx->heap); /* blocks the last launch freed are free now */
  *out = ctx->heap;
  return SMEMU_OK;
}

void heap_release(smemu_ctx *ctx) {
  if (!ctx->heap) return;
  mem_remove(&ctx->mem, heap_base(ctx->heap));
  heap_destroy(ctx->heap);
  ctx->heap = NULL;
}

smemu_status smemu_set_heap_bytes(smemu_ctx *ctx, size_t bytes) {
  if (!ctx) return SMEMU_ERR_INVALID_VALUE;
  /* as CUDA: the size is fixed once a kernel has used the heap */
  if (ctx->heap)
    return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "the device heap is in use: its size cannot change");
  ctx->heap_bytes = bytes;
  return SMEMU_OK;
}
