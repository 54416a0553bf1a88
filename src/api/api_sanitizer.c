/* api_sanitizer.c: the records compute-sanitizer's memcheck and initcheck
 * print, through smemu.h: the last launch's fault with its address, access
 * and nearest allocation, and its reads of unwritten global memory. */
#include "api/internal.h"
#include "check/ginit.h"
#include "exec/hooks.h"
#include <stdlib.h>
#include <string.h>

static int cmp_fault(const void *x, const void *y) {
  const fault_info *a = x, *b = y;
  if (a->linear != b->linear) return a->linear < b->linear ? -1 : 1;
  if (a->tid != b->tid) return a->tid < b->tid ? -1 : 1;
  return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* The records of SMEMU_ANALYZE_MEMCHECK, sorted (workers finish in any order). */
static void keep_all(smemu_ctx *ctx, launch *L) {
  free(ctx->faults);
  ctx->faults = L->faults;
  ctx->nfaults = L->nfaults;
  ctx->faults_total = L->faults_total;
  ctx->fault_bx = L->block[0];
  ctx->fault_by = L->block[1];
  L->faults = NULL;
  if (ctx->nfaults) qsort(ctx->faults, ctx->nfaults, sizeof *ctx->faults, cmp_fault);
}

static void fill(const smemu_ctx *ctx, const program *P, const fault_info *fi, uint32_t bx, uint32_t by,
                 smemu_fault *f, const char **file) {
  f->kernel = ctx->fault_kernel;
  *file = NULL;
  if (fi->pc < P->ncode) {
    const src_line *sl = &P->lines[fi->pc];
    if (sl->file != ~0u) {
      *file = P->files[sl->file];
      f->line = sl->line;
    } else {
      f->line = sl->ptx_line;
    }
    f->ptx_line = sl->ptx_line;
  }
  memcpy(f->block, fi->block, sizeof f->block);
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
  f->remote_cta = fi->access && fi->space && !strcmp(fi->space, "remote_shared") ? fi->remote_cta : -1;
}

uint64_t smemu_fault_total(const smemu_ctx *ctx) { return ctx && ctx->last_prog ? ctx->faults_total : 0; }
int smemu_fault_count(const smemu_ctx *ctx) { return ctx && ctx->last_prog ? (int)ctx->nfaults : 0; }

smemu_status smemu_fault_get(const smemu_ctx *ctx, int i, smemu_fault *out) {
  if (!ctx || !out || !ctx->last_prog || i < 0 || (uint32_t)i >= ctx->nfaults) return SMEMU_ERR_INVALID_VALUE;
  memset(out, 0, sizeof *out);
  fill(ctx, ctx->last_prog, &ctx->faults[i], ctx->fault_bx ? ctx->fault_bx : 1,
       ctx->fault_by ? ctx->fault_by : 1, out, &out->file);
  out->status = out->misaligned ? SMEMU_ERR_MISALIGNED : SMEMU_ERR_ILLEGAL_ADDRESS;
  out->message = NULL;
  return SMEMU_OK;
}

void fault_keep(smemu_ctx *ctx, launch *L, smemu_status s) {
  smemu_fault *f = &ctx->fault;
  memset(f, 0, sizeof *f);
  keep_all(ctx, L);
  if (s == SMEMU_OK || !L->status) return;
  const char *file;
  snprintf(ctx->fault_kernel, sizeof ctx->fault_kernel, "%s", L->prog->name);
  fill(ctx, L->prog, &L->fault, L->block[0], L->block[1], f, &file);
  f->status = s;
  if (file) {
    snprintf(ctx->fault_file, sizeof ctx->fault_file, "%s", file);
    f->file = ctx->fault_file;
  }
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

size_t smemu_mem_unwritten_sectors(const smemu_ctx *ctx, const void *ptr, size_t bytes, uint64_t *out,
                                   size_t max) {
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
  return ginit_clear(ctx->ginit, (uintptr_t)ptr, bytes) < 0
             ? ctx_error(ctx, SMEMU_ERR_NOT_FOUND, "%p is not tracked", ptr)
             : SMEMU_OK;
}
