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

static const char *file_of(const program *P, uint32_t i) { return i < P->nfiles ? P->files[i] : NULL; }

/* The function instruction pc belongs to (0: the kernel). */
static uint32_t func_of(const program *P, uint32_t pc) {
  for (uint32_t i = 1; i < P->nfuncs; i++)
    if (pc >= P->funcs[i].entry && pc < P->funcs[i].end) return i;
  return 0;
}

/* Where instruction pc is, in compute-sanitizer's terms: inside inlined
 * functions the innermost position (*file, *line, *func) and the call
 * sites outwards (fr, *n), the last in the function being run (`kernel`,
 * or the device function called); in a called device function its name.
 * Leaves *file and *line alone when pc is in no inlined function. */
static void frames_at(const program *P, uint32_t pc, const char *kernel, const char **file, uint32_t *line,
                      const char **func, smemu_frame *fr, uint32_t *n) {
  *func = NULL;
  *n = 0;
  if (pc >= P->ncode) return;
  uint32_t fi = func_of(P, pc);
  const char *outer = fi ? P->funcs[fi].name : kernel;
  *func = fi ? outer : NULL;
  const src_line *sl = &P->lines[pc];
  if (!sl->frame || sl->frame > P->ninl || sl->file == ~0u) {
    /* a called device function: its call site, where there is only one
     * (the frames of a call made from several places are the warp's, which
     * the record does not keep) */
    for (uint32_t depth = 0; fi && depth < SMEMU_MAX_FRAMES; depth++) {
      uint32_t site = ~0u, sites = 0;
      for (uint32_t k = 0; k < P->ncode && sites < 2; k++)
        if ((op_flags[P->code[k].op] & OPF_CALL) && P->code[k].target == fi) site = k, sites++;
      if (sites != 1) return;
      uint32_t up = func_of(P, site);
      const src_line *cl = &P->lines[site];
      fr[(*n)++] =
          (smemu_frame){up ? P->funcs[up].name : kernel, cl->file != ~0u ? file_of(P, cl->file) : NULL,
                        cl->file != ~0u ? cl->line : cl->ptx_line};
      fi = up;
    }
    return;
  }
  const ptx_inline *f = &P->inl[sl->frame - 1];
  *file = file_of(P, f->file);
  *line = f->line;
  *func = f->func;
  /* (a chain longer than the table is a cycle: malformed input) */
  for (uint32_t depth = 0; f && depth < P->ninl; depth++) {
    const ptx_inline *up = f->parent && f->parent <= P->ninl ? &P->inl[f->parent - 1] : NULL;
    if (*n < SMEMU_MAX_FRAMES)
      fr[(*n)++] = (smemu_frame){up ? up->func : outer, file_of(P, f->call_file), f->call_line};
    f = up;
  }
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
    frames_at(P, fi->pc, f->kernel, file, &f->line, &f->func, f->frames, &f->nframes);
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
  frames_at(P, r->pc, ctx->last_kernel, &out->file, &out->line, &out->func, out->frames, &out->nframes);
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
