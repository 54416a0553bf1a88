/* api_runtime.c: the parts of the public interface the CUDA runtime drop-in
 * (runtime/) needs beyond the driver-shaped core in api.c: architecture
 * figures for cudaGetDeviceProperties, pointer look-ups for cudaMemcpy's
 * checks, host registration, and settings a program changes while it runs. */
#include "api/internal.h"
#include <string.h>

static void fill_info(const arch_profile *a, smemu_arch_info *o) {
  memset(o, 0, sizeof *o);
  o->name = a->name;
  o->family = a->family;
  o->part = a->part;
  o->major = a->major;
  o->minor = a->minor;
  o->banks = a->banks;
  o->bank_bytes = a->bank_bytes;
  o->bank8_selectable = a->bank8_selectable;
  o->smem_per_sm = a->smem_per_sm;
  o->smem_per_block = a->smem_per_block;
  o->smem_per_block_optin = a->smem_per_block_optin;
  o->smem_reserved_per_block = a->smem_reserved_per_block;
  o->ncarveouts = a->ncarveouts < 12 ? a->ncarveouts : 12;
  for (int i = 0; i < o->ncarveouts; i++) o->carveout_kb[i] = a->carveout_kb[i];
  o->warp_size = a->warp_size;
  o->max_threads_per_block = a->max_threads_per_block;
  for (int i = 0; i < 3; i++) {
    o->max_block_dim[i] = a->max_block_dim[i];
    o->max_grid_dim[i] = a->max_grid_dim[i];
  }
  o->max_threads_per_sm = a->max_threads_per_sm;
  o->max_blocks_per_sm = a->max_blocks_per_sm;
  o->max_warps_per_sm = a->max_warps_per_sm;
  o->regs_per_sm = a->regs_per_sm;
  o->regs_per_block = a->regs_per_block;
  o->regs_per_thread = a->regs_per_thread;
  o->sm_count = a->sm_count;
}

smemu_status smemu_arch_query(const char *name, smemu_arch_info *out) {
  if (!out) return SMEMU_ERR_INVALID_VALUE;
  const arch_profile *a = name ? arch_find(name) : arch_default();
  if (!a) return SMEMU_ERR_NOT_FOUND;
  fill_info(a, out);
  return SMEMU_OK;
}

smemu_status smemu_ctx_arch(const smemu_ctx *ctx, smemu_arch_info *out) {
  if (!ctx || !out) return SMEMU_ERR_INVALID_VALUE;
  fill_info(ctx->arch, out);
  return SMEMU_OK;
}

smemu_status smemu_mem_lookup(const smemu_ctx *ctx, const void *ptr, void **base, size_t *bytes,
                              int *readonly) {
  if (!ctx) return SMEMU_ERR_INVALID_VALUE;
  const alloc *a = mem_find(&ctx->mem, (uintptr_t)ptr, 1);
  if (!a) {
    /* a zero-byte allocation is recorded as one byte; anything else misses */
    return SMEMU_ERR_NOT_FOUND;
  }
  if (base) *base = (void *)a->base;
  if (bytes) *bytes = a->size;
  if (readonly) *readonly = a->readonly;
  return SMEMU_OK;
}

/* Registered host ranges carry this name: smemu_destroy frees only unnamed
 * allocations and smemu_free refuses named ones, so the caller keeps them. */
static const char host_name[] = "host memory (cudaHostRegister)";

smemu_status smemu_host_register(smemu_ctx *ctx, void *ptr, size_t bytes) {
  if (!ctx || !ptr || !bytes) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  uintptr_t p = (uintptr_t)ptr;
  for (size_t i = 0; i < ctx->mem.n; i++) {
    const alloc *a = &ctx->mem.a[i];
    if (a->base < p + bytes && p < a->base + a->size)
      return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "%p (+%zu bytes) overlaps a known allocation", ptr,
                       bytes);
  }
  if (mem_add(&ctx->mem, p, bytes, host_name, 0) < 0)
    return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  return SMEMU_OK;
}

smemu_status smemu_host_unregister(smemu_ctx *ctx, void *ptr) {
  if (!ctx) return SMEMU_ERR_INVALID_VALUE;
  const alloc *a = mem_find(&ctx->mem, (uintptr_t)ptr, 1);
  if (!a || a->base != (uintptr_t)ptr || a->name != host_name)
    return ctx_error(ctx, SMEMU_ERR_NOT_FOUND, "%p is not a registered host range", ptr);
  mem_remove(&ctx->mem, (uintptr_t)ptr);
  return SMEMU_OK;
}

smemu_status smemu_set_bank_mode(smemu_ctx *ctx, int bytes) {
  if (!ctx || (bytes != 4 && bytes != 8))
    return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "bank mode must be 4 or 8");
  ctx->opt.bank_mode = bytes;
  ctx->bank_mode = bytes == 8 && ctx->arch->bank8_selectable ? 8 : ctx->arch->bank_bytes;
  return SMEMU_OK;
}

smemu_status smemu_set_stack_bytes(smemu_ctx *ctx, uint32_t bytes) {
  if (!ctx) return SMEMU_ERR_INVALID_VALUE;
  ctx->opt.stack_bytes = bytes;
  return SMEMU_OK;
}
