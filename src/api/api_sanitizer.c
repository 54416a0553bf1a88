/* api_sanitizer.c: the records compute-sanitizer's memcheck and initcheck
 * print, through smemu.h: the last launch's fault with its address, access
 * and nearest allocation, and its reads of unwritten global memory. */
#include <string.h>
#include "api/internal.h"
#include "check/ginit.h"
#include "exec/hooks.h"

void fault_keep(smemu_ctx *ctx, const launch *L, smemu_status s) {
  smemu_fault *f = &ctx->fault;
  memset(f, 0, sizeof *f);
  if (s == SMEMU_OK || !L->status) return;
  const fault_info *fi = &L->fault;
  const program *P = L->prog;
  f->status = s;
  snprintf(ctx->fault_kernel, sizeof ctx->fault_kernel, "%s", P->name);
  f->kernel = ctx->fault_kernel;
  if (fi->pc < P->ncode) {
    const src_line *sl = &P->lines[fi->pc];
    if (sl->file != ~0u) {
      snprintf(ctx->fault_file, sizeof ctx->fault_file, "%s", P->files[sl->file]);
      f->file = ctx->fault_file;
      f->line = sl->line;
    } else {
      f->line = sl->ptx_line;
    }
    f->ptx_line = sl->ptx_line;
  }
  memcpy(f->block, fi->block, sizeof f->block);
  uint32_t bx = L->block[0], by = L->block[1];
  f->thread[0] = fi->tid % bx;
  f->thread[1] = fi->tid / bx % by;
  f->thread[2] = fi->tid / (bx * by);
  f->has_thread = fi->has_thread;
  f->access = fi->access;
  f->write = fi->write;
  f->misaligned = fi->misaligned;
  f->space = fi->space;
  f->address = fi->addr;
  f->size = fi->size;
  f->near_base = fi->near_base;
  f->near_size = fi->near_size;
}

smemu_status smemu_last_fault(const smemu_ctx *ctx, smemu_fault *out) {
  if (!ctx || !out) return SMEMU_ERR_INVALID_VALUE;
  *out = ctx->fault;
  out->message = ctx->err;
  return ctx->fault.status ? SMEMU_OK : SMEMU_ERR_NOT_FOUND;
}

static const ginit_an *last_gin(const smemu_ctx *ctx) {
  return ctx && ctx->last_an && ctx->last_prog ? ctx->last_an->gin : NULL;
}

uint64_t smemu_uninit_total(const smemu_ctx *ctx) {
  const ginit_an *a = last_gin(ctx);
  return a ? a->total : 0;
}

int smemu_uninit_count(const smemu_ctx *ctx) {
  const ginit_an *a = last_gin(ctx);
  return a ? (int)a->n : 0;
}

smemu_status smemu_uninit_get(const smemu_ctx *ctx, int i, smemu_uninit_read *out) {
  const ginit_an *a = last_gin(ctx);
  if (!a || !out || i < 0 || (uint32_t)i >= a->n) return SMEMU_ERR_INVALID_VALUE;
  const ginit_rec *r = &a->rec[i];
  const program *P = ctx->last_prog;
  const src_line *sl = &P->lines[r->pc];
  memset(out, 0, sizeof *out);
  out->file = sl->file != ~0u ? P->files[sl->file] : NULL;
  out->line = sl->file != ~0u ? sl->line : sl->ptx_line;
  out->ptx_line = sl->ptx_line;
  out->pc = r->pc;
  memcpy(out->block, r->block, sizeof out->block);
  uint32_t bx = ctx->last.block[0] ? ctx->last.block[0] : 1, by = ctx->last.block[1] ? ctx->last.block[1] : 1;
  out->thread[0] = r->tid % bx;
  out->thread[1] = r->tid / bx % by;
  out->thread[2] = r->tid / (bx * by);
  out->address = r->addr;
  out->size = r->size;
  return SMEMU_OK;
}

size_t smemu_mem_unwritten_sectors(const smemu_ctx *ctx, const void *ptr, size_t bytes, uint64_t *out, size_t max) {
  if (!ctx || !ctx->ginit) return 0;
  return ginit_sectors(ctx->ginit, (uintptr_t)ptr, bytes, out, out ? max : 0);
}

smemu_status smemu_mem_set_written(smemu_ctx *ctx, const void *ptr, size_t bytes, int written) {
  if (!ctx || (!ptr && bytes)) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  if (!ctx->ginit) return SMEMU_OK;
  if (written) {
    ginit_mark(ctx->ginit, (uintptr_t)ptr, bytes);
    return SMEMU_OK;
  }
  /* forget: a copy from untracked memory would mark it, so clear by hand */
  if (ginit_unwritten(ctx->ginit, (uintptr_t)ptr, bytes) == bytes) return SMEMU_OK;
  return ginit_clear(ctx->ginit, (uintptr_t)ptr, bytes) < 0 ? ctx_error(ctx, SMEMU_ERR_NOT_FOUND, "%p is not tracked", ptr)
                                                             : SMEMU_OK;
}
