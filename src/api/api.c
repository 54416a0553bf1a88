/* api.c: the public interface (smemu.h): contexts, modules, device memory
 * and launches, with CUDA's launch checks and an error message kept on
 * the context after every failed call. */
#include "api/demangle.h"
#include "api/internal.h"
#include "api/kernel_name.h"
#include "check/ginit.h"
#include "check/install.h"
#include "check/race.h"
#include "exec/dispatch.h"
#include "exec/hooks.h"
#include "jit/jit.h"
#include "mem/bytes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

smemu_status smemu_create(const smemu_options *opt, smemu_ctx **out) {
  if (!out) return SMEMU_ERR_INVALID_VALUE;
  *out = NULL;
  /* the executor reaches the analyses through the table they install */
  checks_install();
  smemu_ctx *c = calloc(1, sizeof *c);
  if (!c) return SMEMU_ERR_OUT_OF_MEMORY;
  if (opt) c->opt = *opt;
  c->arch = c->opt.arch ? arch_find(c->opt.arch) : arch_default();
  if (!c->arch) {
    free(c);
    return SMEMU_ERR_INVALID_VALUE;
  }
  c->threads = c->opt.threads > 0 ? c->opt.threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (c->threads < 1) c->threads = 1;
  c->bank_mode = c->arch->bank_bytes;
  if (c->opt.bank_mode == 8 && c->arch->bank8_selectable) c->bank_mode = 8;
  c->want_banks = (c->opt.analyses & SMEMU_ANALYZE_BANKS) != 0;
  c->tier = c->opt.tier;
  if (c->tier < SMEMU_TIER_INTERP || c->tier > SMEMU_TIER_AUTO) {
    const char *e = getenv("SMEMU_TIER");
    c->tier = !e                     ? SMEMU_TIER_AUTO
              : !strcmp(e, "interp") ? SMEMU_TIER_INTERP
              : !strcmp(e, "jit")    ? SMEMU_TIER_JIT
                                     : SMEMU_TIER_AUTO;
  }
  if (!jit_available()) c->tier = SMEMU_TIER_INTERP;
  const char *hot = getenv("SMEMU_JIT_HOT");
  c->jit_hot = hot && *hot ? strtoull(hot, NULL, 10) : 10000000ull;
  c->padding = SMEMU_DEFAULT_PADDING;
  if ((c->opt.analyses & SMEMU_ANALYZE_INIT) && !(c->ginit = ginit_new())) {
    free(c);
    return SMEMU_ERR_OUT_OF_MEMORY;
  }
  *out = c;
  return SMEMU_OK;
}

void smemu_destroy(smemu_ctx *ctx) {
  if (!ctx) return;
  while (ctx->mods) smemu_module_unload(ctx->mods);
  heap_release(ctx);
  pool_destroy(ctx);
  mem_free_table(&ctx->mem);
  ginit_free(ctx->ginit);
  free(ctx->faults);
  analysis_free(ctx->last_an);
  free(ctx->hz);
  free(ctx->sy);
  free(ctx);
}

/* ---- modules ---- */
static uint64_t var_size(const ptx_var *v) {
  return (uint64_t)ptx_type_size(v->type) * (uint64_t)(v->vec ? v->vec : 1) * v->nelems;
}

/* The bytes variable v takes in its module's block: its size rounded up
 * to its alignment (16 at least), and one more alignment unit after it. */
static uint64_t var_span(const ptx_var *v, uint64_t *align) {
  uint64_t al = v->align > 16 ? (uint64_t)v->align : 16;
  *align = al;
  return (var_size(v) + al - 1) / al * al + al;
}

static int var_placed(const ptx_var *v) {
  return (v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST) && v->type != PTX_T_NONE;
}

/* One zeroed mapping for all of a module's variables, asked for at an
 * address chosen from their names and sizes. The compiled tier builds a
 * variable's address into its code and its disk cache's key, so a module
 * whose variables land at the same addresses in the next run finds its
 * code there (a __device__ counter or __constant__ table missed the cache
 * on every run otherwise). The address is a hint: where it is taken the
 * kernel puts the mapping elsewhere and the code is compiled again. */
static void *vars_block(const ptx_module *p, uint64_t total) {
  uint64_t h = 0xcbf29ce484222325ull ^ total;
  for (int i = 0; i < p->nvars; i++) {
    const ptx_var *v = &p->vars[i];
    if (!var_placed(v)) continue;
    for (const char *c = v->name; *c; c++) h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
    h = (h ^ var_size(v)) * 0x100000001b3ull;
  }
  /* 1 MB slots from 0x5c0000000000: above a PIE program's heap, below
   * where the kernel puts mappings and stacks */
  uintptr_t hint = (uintptr_t)0x5c0000000000ull + (uintptr_t)(h % 0x40000u) * 0x100000u;
  void *b = mmap((void *)hint, (size_t)total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return b == MAP_FAILED ? NULL : b;
}

static smemu_status place_globals(smemu_ctx *ctx, smemu_module *m) {
  const ptx_module *p = m->ptx;
  m->var_addr = calloc((size_t)p->nvars + 1, sizeof *m->var_addr);
  if (!m->var_addr) return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  uint64_t total = 0, al;
  for (int i = 0; i < p->nvars; i++) {
    const ptx_var *v = &p->vars[i];
    if (!var_placed(v)) continue;
    if (var_size(v) > ((uint64_t)1 << 32))
      return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "variable %s is too large", v->name);
    uint64_t span = var_span(v, &al);
    total = (total + al - 1) / al * al + span;
  }
  if (!total) return SMEMU_OK;
  uint8_t *blk = vars_block(p, total);
  if (!blk) return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory for the module's variables");
  m->vars_mem = blk;
  m->vars_bytes = total;
  uint64_t at = 0;
  for (int i = 0; i < p->nvars; i++) {
    const ptx_var *v = &p->vars[i];
    if (!var_placed(v)) continue;
    uint64_t size = var_size(v), span = var_span(v, &al);
    at = (at + al - 1) / al * al;
    void *mem = blk + at;
    at += span;
    if (v->init) memcpy(mem, v->init, v->init_size < size ? v->init_size : size);
    m->var_addr[i] = mem;
    mem_add(&ctx->mem, (uintptr_t)mem, size ? size : 1, v->name, v->space == PTX_SPACE_CONST);
  }
  /* addresses in initializers */
  for (int i = 0; i < p->nvars; i++) {
    const ptx_var *v = &p->vars[i];
    for (int r = 0; r < v->nrelocs && m->var_addr[i]; r++) {
      const ptx_reloc *rl = &v->relocs[r];
      uint64_t a = 0;
      int found = 0;
      for (int j = 0; j < p->nvars; j++)
        if (!strcmp(p->vars[j].name, rl->symbol) && m->var_addr[j]) {
          a = (uint64_t)(uintptr_t)m->var_addr[j];
          found = 1;
        }
      /* a function's address: FUNC_ADDR_BASE + its module index (the body's) */
      for (int j = 0; !found && j < p->nfuncs; j++)
        if (!strcmp(p->funcs[j].name, rl->symbol) && p->funcs[j].has_body) {
          a = FUNC_ADDR_BASE + (uint64_t)j;
          found = 1;
        }
      if (!found) continue;
      a += (uint64_t)rl->addend;
      if (rl->offset + (uint64_t)rl->size <= var_size(v))
        memcpy((uint8_t *)m->var_addr[i] + rl->offset, &a, (size_t)rl->size);
    }
  }
  return SMEMU_OK;
}

smemu_status smemu_module_load_data(smemu_ctx *ctx, const char *ptx, size_t len, const char *name,
                                    smemu_module **out) {
  if (!ctx || !ptx || !out) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  *out = NULL;
  smemu_module *m = calloc(1, sizeof *m);
  if (!m) return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  m->ctx = ctx;
  m->name = strdup(name ? name : "<ptx>");
  char err[1024];
  if (!m->name || ptx_parse(ptx, len, m->name, &m->ptx, err, sizeof err) < 0) {
    free(m->name);
    free(m);
    return ctx_error(ctx, SMEMU_ERR_PARSE, "%s", err);
  }
  return api_module_finish(ctx, m, out);
}

smemu_status api_module_finish(smemu_ctx *ctx, smemu_module *m, smemu_module **out) {
  char err[1024];
  smemu_status s = place_globals(ctx, m);
  int nk = 0;
  for (int i = 0; i < m->ptx->nfuncs; i++) nk += m->ptx->funcs[i].is_entry && m->ptx->funcs[i].has_body;
  m->kernels = calloc((size_t)nk + 1, sizeof *m->kernels);
  if (s == SMEMU_OK && !m->kernels) s = ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  decode_env env = {ctx->arch->smem_reserved_per_block, m->var_addr};
  /* A kernel that does not decode (an instruction smemu does not know)
   * keeps its error for smemu_module_get_kernel; the module fails to load
   * only when no kernel decodes, so one bad kernel of a library does not
   * stop the others. */
  int good = 0;
  smemu_status first_bad = SMEMU_OK;
  for (int i = 0; s == SMEMU_OK && i < m->ptx->nfuncs; i++) {
    const ptx_func *f = &m->ptx->funcs[i];
    if (!f->is_entry || !f->has_body) continue;
    smemu_kernel *k = &m->kernels[m->nkernels++];
    k->mod = m;
    k->f = f;
    k->max_dyn_smem = -1;
    k->carveout = -1;
    if (decode_kernel(m->ptx, f, &env, &k->prog, err, sizeof err) < 0) {
      k->status =
          strstr(err, "unknown instruction") || strstr(err, "not supported") || strstr(err, "unsupported")
              ? SMEMU_ERR_UNSUPPORTED
              : SMEMU_ERR_PARSE;
      k->err = strdup(err);
      if (first_bad == SMEMU_OK) {
        first_bad = (smemu_status)k->status;
        ctx_error(ctx, first_bad, "%s (kernel %s cannot run)", err, f->name);
      }
    } else {
      good++;
    }
  }
  if (s == SMEMU_OK && !good && first_bad != SMEMU_OK) s = first_bad;
  m->next = ctx->mods;
  ctx->mods = m;
  if (s != SMEMU_OK) {
    char keep[sizeof ctx->err];
    memcpy(keep, ctx->err, sizeof keep);
    smemu_module_unload(m);
    memcpy(ctx->err, keep, sizeof keep);
    return s;
  }
  *out = m;
  return SMEMU_OK;
}

smemu_status smemu_module_load_file(smemu_ctx *ctx, const char *path, smemu_module **out) {
  if (!ctx || !path || !out) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  size_t n;
  int err;
  char *buf = file_read(path, &n, &err);
  if (err == FILE_NO_OPEN) return ctx_error(ctx, SMEMU_ERR_IO, "cannot open %s", path);
  if (err) {
    free(buf);
    return ctx_error(ctx, err == FILE_NO_READ ? SMEMU_ERR_IO : SMEMU_ERR_OUT_OF_MEMORY, "cannot read %s",
                     path);
  }
  smemu_status s = smemu_module_load_data(ctx, buf, n, path, out);
  free(buf);
  return s;
}

void smemu_module_unload(smemu_module *m) {
  if (!m) return;
  smemu_ctx *ctx = m->ctx;
  for (smemu_module **p = &ctx->mods; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  if (ctx->last_prog_owner == m) {
    analysis_free(ctx->last_an);
    ctx->last_an = NULL;
    ctx->last_prog = NULL;
    ctx->last_sass = NULL;
    ctx->last_prog_owner = NULL;
  }
  for (int i = 0; i < m->nkernels; i++) {
    sass_kernel_free(&m->kernels[i]);
    for (int v = 0; v < 2; v++)
      if (m->kernels[i].bg[v]) jit_bg_cancel(m->kernels[i].bg[v]);
    for (int v = 0; v < 2; v++) jit_free(m->kernels[i].jit[v]);
    program_free(m->kernels[i].prog);
    free(m->kernels[i].err);
  }
  for (int i = 0; m->ptx && m->var_addr && i < m->ptx->nvars; i++)
    if (m->var_addr[i]) {
      mem_remove(&ctx->mem, (uintptr_t)m->var_addr[i]);
    }
  if (m->vars_mem) munmap(m->vars_mem, (size_t)m->vars_bytes);
  free(m->var_addr);
  free(m->kernels);
  ptx_free(m->ptx);
  for (int i = 0; i < m->nparts; i++) ptx_free(m->parts[i]);
  free(m->parts);
  free(m->name);
  free(m);
}

smemu_status smemu_module_get_kernel(smemu_module *m, const char *name, smemu_kernel **out) {
  if (!m || !name || !out) return ctx_error(m ? m->ctx : NULL, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  /* the strongest form of the name that matches decides (kernel_name.h) */
  smemu_kernel *hit = NULL;
  int nhits = 0, best = 0;
  for (int i = 0; i < m->nkernels; i++) {
    int s = kernel_name_match(m->kernels[i].f->name, name);
    if (s > best) {
      best = s;
      nhits = 0;
    }
    if (s && s == best) {
      hit = &m->kernels[i];
      nhits++;
    }
  }
  if (nhits == 1) {
    if (!hit->prog)
      return ctx_error(m->ctx, (smemu_status)hit->status, "%s",
                       hit->err ? hit->err : "kernel did not decode");
    *out = hit;
    return SMEMU_OK;
  }
  if (nhits > 1) {
    int k = snprintf(m->ctx->err, sizeof m->ctx->err, "kernel name '%s' is ambiguous: give one of", name);
    for (int i = 0; i < m->nkernels && k > 0 && (size_t)k < sizeof m->ctx->err; i++) {
      if (kernel_name_match(m->kernels[i].f->name, name) != best) continue;
      char d[512];
      kernel_name_describe(m->kernels[i].f->name, d, sizeof d);
      k += snprintf(m->ctx->err + k, sizeof m->ctx->err - (size_t)k, " %s", d);
    }
    return SMEMU_ERR_NOT_FOUND;
  }
  int k = snprintf(m->ctx->err, sizeof m->ctx->err, "no kernel '%s' in %s; kernels:", name, m->name);
  for (int i = 0; i < m->nkernels && k > 0 && (size_t)k < sizeof m->ctx->err; i++)
    k += snprintf(m->ctx->err + k, sizeof m->ctx->err - (size_t)k, " %s", m->kernels[i].f->name);
  return SMEMU_ERR_NOT_FOUND;
}

int smemu_module_kernel_count(const smemu_module *m) { return m ? m->nkernels : 0; }
smemu_kernel *smemu_module_kernel(smemu_module *m, int i) {
  return m && i >= 0 && i < m->nkernels ? &m->kernels[i] : NULL;
}

smemu_status smemu_module_get_global(smemu_module *m, const char *name, void **ptr, size_t *bytes) {
  if (!m || !name) return ctx_error(m ? m->ctx : NULL, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  for (int i = 0; i < m->ptx->nvars; i++)
    if (m->var_addr[i] && !strcmp(m->ptx->vars[i].name, name)) {
      if (ptr) *ptr = m->var_addr[i];
      if (bytes) *bytes = (size_t)var_size(&m->ptx->vars[i]);
      return SMEMU_OK;
    }
  return ctx_error(m->ctx, SMEMU_ERR_NOT_FOUND, "no .global or .const variable '%s'", name);
}

int smemu_module_global_is_managed(const smemu_module *m, const char *name) {
  if (!m || !name) return 0;
  for (int i = 0; i < m->ptx->nvars; i++)
    if (!strcmp(m->ptx->vars[i].name, name)) return m->ptx->vars[i].managed;
  return 0;
}

const char *smemu_kernel_name(const smemu_kernel *k) { return k ? k->f->name : NULL; }
int smemu_kernel_param_count(const smemu_kernel *k) { return k && k->prog ? (int)k->prog->nparams : 0; }
smemu_status smemu_kernel_param(const smemu_kernel *k, int i, smemu_param_info *out) {
  if (!k || !k->prog || !out || i < 0 || (uint32_t)i >= k->prog->nparams) return SMEMU_ERR_INVALID_VALUE;
  const kparam *p = &k->prog->params[i];
  *out = (smemu_param_info){p->name, p->offset, p->size, p->align, p->is_pointer, p->is_local};
  return SMEMU_OK;
}
uint32_t smemu_kernel_static_shared(const smemu_kernel *k) { return k && k->prog ? k->prog->smem_static : 0; }

smemu_status smemu_kernel_set_attribute(smemu_kernel *k, smemu_attr a, int64_t v) {
  if (!k || !k->prog) return SMEMU_ERR_INVALID_VALUE;
  const arch_profile *ar = k->mod->ctx->arch;
  switch (a) {
  case SMEMU_ATTR_MAX_DYNAMIC_SHARED:
    if (v < 0 || (uint64_t)v + k->prog->smem_static > ar->smem_per_block_optin)
      return ctx_error(
          k->mod->ctx, SMEMU_ERR_INVALID_VALUE,
          "invalid argument: %lld dynamic + %u static shared bytes exceed the %s opt-in limit of %u",
          (long long)v, k->prog->smem_static, ar->name, ar->smem_per_block_optin);
    k->max_dyn_smem = v;
    return SMEMU_OK;
  case SMEMU_ATTR_PREFERRED_CARVEOUT:
    if (v < -1 || v > 100)
      return ctx_error(k->mod->ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument: carveout %lld", (long long)v);
    k->carveout = v;
    return SMEMU_OK;
  case SMEMU_ATTR_NON_PORTABLE_CLUSTER:
    /* any non-zero value allows them (the H100 takes 2) */
    if (v < 0)
      return ctx_error(k->mod->ctx, SMEMU_ERR_INVALID_VALUE,
                       "invalid argument: non-portable cluster size %lld", (long long)v);
    k->nonportable = v != 0;
    return SMEMU_OK;
  case SMEMU_ATTR_CLUSTER_WIDTH:
  case SMEMU_ATTR_CLUSTER_HEIGHT:
  case SMEMU_ATTR_CLUSTER_DEPTH:
    /* the H100 answers invalid value (not "not permitted" as documented) */
    if (k->prog->reqncluster[0])
      return ctx_error(k->mod->ctx, SMEMU_ERR_INVALID_VALUE,
                       "invalid argument: kernel %s has compile-time cluster dimensions (%u,%u,%u)",
                       k->prog->name, k->prog->reqncluster[0], k->prog->reqncluster[1],
                       k->prog->reqncluster[2]);
    if (v < 0 || v > 16)
      return ctx_error(k->mod->ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument: cluster dimension %lld",
                       (long long)v);
    k->req_cluster[a - SMEMU_ATTR_CLUSTER_WIDTH] = (uint32_t)v;
    return SMEMU_OK;
  case SMEMU_ATTR_CLUSTER_POLICY:
    if (v < 0 || v > 2)
      return ctx_error(k->mod->ctx, SMEMU_ERR_INVALID_VALUE,
                       "invalid argument: cluster scheduling policy %lld", (long long)v);
    k->cluster_policy = (int)v;
    return SMEMU_OK;
  default:
    return ctx_error(k->mod->ctx, SMEMU_ERR_INVALID_VALUE, "attribute %d is read-only", (int)a);
  }
}

smemu_status smemu_kernel_get_attribute(const smemu_kernel *k, smemu_attr a, int64_t *v) {
  if (!k || !k->prog || !v) return SMEMU_ERR_INVALID_VALUE;
  const arch_profile *ar = k->mod->ctx->arch;
  const program *P = k->prog;
  switch (a) {
  case SMEMU_ATTR_MAX_DYNAMIC_SHARED:
    *v = k->max_dyn_smem >= 0 ? k->max_dyn_smem : (int64_t)ar->smem_per_block - P->smem_static;
    if (*v < 0) *v = 0;
    return SMEMU_OK;
  case SMEMU_ATTR_PREFERRED_CARVEOUT:
    *v = k->carveout;
    return SMEMU_OK;
  case SMEMU_ATTR_STATIC_SHARED:
    *v = P->smem_static;
    return SMEMU_OK;
  case SMEMU_ATTR_MAX_THREADS: {
    int64_t mx = ar->max_threads_per_block;
    if (P->maxntid[0]) {
      int64_t t =
          (int64_t)P->maxntid[0] * (P->maxntid[1] ? P->maxntid[1] : 1) * (P->maxntid[2] ? P->maxntid[2] : 1);
      if (t < mx) mx = t;
    }
    *v = mx;
    return SMEMU_OK;
  }
  case SMEMU_ATTR_PARAM_BYTES:
    *v = P->param_bytes;
    return SMEMU_OK;
  case SMEMU_ATTR_NON_PORTABLE_CLUSTER:
    *v = k->nonportable;
    return SMEMU_OK;
  case SMEMU_ATTR_CLUSTER_WIDTH:
  case SMEMU_ATTR_CLUSTER_HEIGHT:
  case SMEMU_ATTR_CLUSTER_DEPTH: {
    int i = a - SMEMU_ATTR_CLUSTER_WIDTH;
    *v = P->reqncluster[0] ? P->reqncluster[i] : k->req_cluster[i];
    return SMEMU_OK;
  }
  case SMEMU_ATTR_CLUSTER_MUST_BE_SET:
    *v = P->explicit_cluster;
    return SMEMU_OK;
  case SMEMU_ATTR_CLUSTER_POLICY:
    *v = k->cluster_policy;
    return SMEMU_OK;
  case SMEMU_ATTR_LOCAL_BYTES:
    *v = P->funcs[0].frame_bytes;
    return SMEMU_OK;
  default:
    return SMEMU_ERR_INVALID_VALUE;
  }
}

/* ---- memory ---- */
smemu_status smemu_malloc(smemu_ctx *ctx, void **ptr, size_t bytes) {
  if (!ctx || !ptr) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  void *p = pool_alloc(ctx, bytes);
  if (!p) return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory allocating %zu bytes", bytes);
  if (mem_add(&ctx->mem, (uintptr_t)p, bytes ? bytes : 1, NULL, 0) < 0) {
    pool_free(ctx, p, bytes);
    return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  }
  /* fresh device memory is unwritten for the init check */
  if (ctx->ginit && ginit_track(ctx->ginit, (uintptr_t)p, bytes, 0) < 0) {
    mem_remove(&ctx->mem, (uintptr_t)p);
    pool_free(ctx, p, bytes);
    return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  }
  *ptr = p;
  return SMEMU_OK;
}

smemu_status smemu_free(smemu_ctx *ctx, void *ptr) {
  if (!ctx) return SMEMU_ERR_INVALID_VALUE;
  if (!ptr) return SMEMU_OK;
  const alloc *a = mem_find(&ctx->mem, (uintptr_t)ptr, 1);
  if (!a || a->base != (uintptr_t)ptr || a->name)
    return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "free of %p, which smemu_malloc did not return", ptr);
  size_t size = a->size;
  mem_remove(&ctx->mem, (uintptr_t)ptr);
  ginit_forget(ctx->ginit, (uintptr_t)ptr);
  pool_free(ctx, ptr, size);
  return SMEMU_OK;
}

smemu_status smemu_memcpy(smemu_ctx *ctx, void *dst, const void *src, size_t bytes) {
  if (!ctx || (!dst || !src)) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  memmove(dst, src, bytes);
  /* a copy writes its destination, whatever the source held (as initcheck) */
  if (ctx->ginit) ginit_mark(ctx->ginit, (uintptr_t)dst, bytes);
  return SMEMU_OK;
}

smemu_status smemu_memset(smemu_ctx *ctx, void *dst, int value, size_t bytes) {
  if (!ctx || !dst) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  memset(dst, value, bytes);
  if (ctx->ginit) ginit_mark(ctx->ginit, (uintptr_t)dst, bytes);
  return SMEMU_OK;
}

/* ---- launch ---- */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static smemu_status check_config(smemu_ctx *ctx, const smemu_kernel *k, const uint32_t g[3],
                                 const uint32_t b[3], uint64_t shared) {
  const program *P = k->prog;
  const arch_profile *a = ctx->arch;
  uint64_t nt = (uint64_t)b[0] * b[1] * b[2];
  for (int i = 0; i < 3; i++) {
    if (!b[i] || b[i] > (uint32_t)a->max_block_dim[i] || nt > (uint64_t)a->max_threads_per_block)
      return ctx_error(ctx, SMEMU_ERR_INVALID_CONFIG,
                       "invalid configuration argument: block (%u,%u,%u) (%s allows at most %d threads, "
                       "(%d,%d,%d) per dimension)",
                       b[0], b[1], b[2], a->name, a->max_threads_per_block, a->max_block_dim[0],
                       a->max_block_dim[1], a->max_block_dim[2]);
    if (!g[i] || g[i] > a->max_grid_dim[i])
      return ctx_error(ctx, SMEMU_ERR_INVALID_CONFIG,
                       "invalid configuration argument: grid (%u,%u,%u) (%s allows (%u,%u,%u))", g[0], g[1],
                       g[2], a->name, a->max_grid_dim[0], a->max_grid_dim[1], a->max_grid_dim[2]);
  }
  if (P->reqntid[0] && (P->reqntid[0] != b[0] || (P->reqntid[1] ? P->reqntid[1] : 1) != b[1] ||
                        (P->reqntid[2] ? P->reqntid[2] : 1) != b[2]))
    return ctx_error(ctx, SMEMU_ERR_INVALID_CONFIG,
                     "invalid configuration argument: kernel %s requires a block of (%u,%u,%u) (.reqntid)",
                     P->name, P->reqntid[0], P->reqntid[1] ? P->reqntid[1] : 1,
                     P->reqntid[2] ? P->reqntid[2] : 1);
  if (P->maxntid[0]) {
    uint64_t mx =
        (uint64_t)P->maxntid[0] * (P->maxntid[1] ? P->maxntid[1] : 1) * (P->maxntid[2] ? P->maxntid[2] : 1);
    if (nt > mx)
      return ctx_error(ctx, SMEMU_ERR_INVALID_CONFIG,
                       "too many resources requested for launch: %s allows %llu threads per block (.maxntid)",
                       P->name, (unsigned long long)mx);
  }
  /* CUDA: dynamic bytes above the kernel's MaxDynamicSharedMemorySize (48 KB
   * less the static bytes unless raised) fail with "invalid argument" */
  int64_t maxdyn;
  smemu_kernel_get_attribute(k, SMEMU_ATTR_MAX_DYNAMIC_SHARED, &maxdyn);
  if (shared > (uint64_t)maxdyn || P->smem_static + shared > a->smem_per_block_optin)
    return ctx_error(
        ctx, SMEMU_ERR_OUT_OF_RESOURCES,
        "too much shared memory for kernel %s: %u static + %llu dynamic bytes; the kernel allows "
        "%lld dynamic bytes on %s%s",
        P->name, P->smem_static, (unsigned long long)shared, (long long)maxdyn, a->name,
        k->max_dyn_smem < 0 && a->smem_per_block_optin > a->smem_per_block
            ? " (more than 48 KB needs the MaxDynamicSharedMemorySize attribute, up to the opt-in limit)"
            : "");
  return SMEMU_OK;
}

/* The kernel's compiled code on a jit context: made at its first launch
 * and kept with the kernel; NULL (interpret) where it cannot be made.
 * *bg_seconds gets the seconds of a background compile whose code this
 * launch is the first to use. */
static pthread_mutex_t jit_kernels = PTHREAD_MUTEX_INITIALIZER;
static const jit_code *kernel_jit(smemu_ctx *ctx, smemu_kernel *k, int hooked, double *bg_seconds) {
  *bg_seconds = -1;
  if (ctx->tier == SMEMU_TIER_INTERP) return NULL;
  /* auto: a kernel that has run jit_hot warp instructions, or whose code
   * an earlier run left in the disk cache (nothing to compile); with
   * initcheck too (its compiled variant runs faster than the interpreter
   * there since merged shared accesses take the halves' path: bench --one
   * init and all, every bench kernel) */
  int is_auto = ctx->tier == SMEMU_TIER_AUTO;
  if (is_auto && k->ran_insns < ctx->jit_hot && !k->jit_tried[hooked] && !k->bg[hooked] &&
      !jit_cached(k->prog, hooked))
    return NULL;
  pthread_mutex_lock(&jit_kernels);
  char why[256] = "";
  /* with SMEMU_JIT_BG=1 a hot kernel in auto compiles in the background,
   * its launches interpreted until the code is ready. Off by default: it
   * forks inside the user's program, and on the GPU host's samples (2
   * workers on 2 cores) it gave no first-run gain over compiling in the
   * launch (bench/results/h200host_16cores_jitbg.txt) */
  const char *bge = getenv("SMEMU_JIT_BG");
  if (is_auto && !k->jit_tried[hooked] && !k->bg[hooked] && bge && !strcmp(bge, "1") &&
      !jit_cached(k->prog, hooked) && (jit_bg_busy() || (k->bg[hooked] = jit_compile_bg(k->prog, hooked)))) {
    pthread_mutex_unlock(&jit_kernels);
    return NULL;
  }
  if (k->bg[hooked]) {
    if (!jit_bg_ready(k->bg[hooked]) && is_auto) {
      pthread_mutex_unlock(&jit_kernels);
      return NULL;
    }
    k->jit[hooked] = jit_bg_finish(k->bg[hooked], bg_seconds, why, sizeof why);
    k->bg[hooked] = NULL;
    k->jit_tried[hooked] = 2;
    if (!k->jit[hooked] && getenv("SMEMU_JIT_STATS"))
      fprintf(stderr, "jit %s: not compiled: %s\n", k->prog->name, why);
  }
  if (!k->jit_tried[hooked]) {
    k->jit_tried[hooked] = 2; /* compiled now: this launch reports the time */
    k->jit[hooked] = jit_compile(k->prog, hooked, why, sizeof why);
    if (!k->jit[hooked] && getenv("SMEMU_JIT_STATS"))
      fprintf(stderr, "jit %s: not compiled: %s\n", k->prog->name, why);
  }
  pthread_mutex_unlock(&jit_kernels);
  return k->jit[hooked];
}

smemu_status smemu_launch(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3], const uint32_t blk[3],
                          uint32_t shared, void **args) {
  return smemu_launch_cluster(ctx, k, grid, blk, NULL, shared, args);
}

static smemu_status launch_impl(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3],
                                const uint32_t blk[3], const uint32_t cdims[3], uint32_t shared, void **args,
                                int coop);

smemu_status smemu_launch_cluster(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3],
                                  const uint32_t blk[3], const uint32_t cdims[3], uint32_t shared,
                                  void **args) {
  return launch_impl(ctx, k, grid, blk, cdims, shared, args, 0);
}

smemu_status smemu_launch_cooperative(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3],
                                      const uint32_t blk[3], const uint32_t cdims[3], uint32_t shared,
                                      void **args) {
  return launch_impl(ctx, k, grid, blk, cdims, shared, args, 1);
}

/* The cooperative groups' grid workspace (cooperative_groups/details/
 * driver_abi.h: a 32-bit size, then the grid barrier's arrival word), in
 * device memory: one per context, made at the first cooperative launch,
 * its size word 16 and the barrier 0 at every cooperative launch. On an
 * H200 (tests/coop/recorded) %envreg1:%envreg2 read 0 in a plain launch
 * before any cooperative one, so grid.sync() traps, and the last
 * cooperative launch's workspace after one (grid.is_valid() is true). */
enum { GRID_WS_BYTES = 16 };

static smemu_status launch_impl(smemu_ctx *ctx, smemu_kernel *k, const uint32_t grid[3],
                                const uint32_t blk[3], const uint32_t cdims[3], uint32_t shared, void **args,
                                int coop) {
  if (!ctx || !k || !grid || !blk) return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  if (!k->prog)
    return ctx_error(ctx, (smemu_status)k->status, "%s", k->err ? k->err : "kernel did not decode");
  const program *P = k->prog;
  smemu_launch_stats *st = &ctx->last;
  memset(st, 0, sizeof *st);
  snprintf(ctx->last_kernel, sizeof ctx->last_kernel, "%s", P->name);
  st->kernel = ctx->last_kernel;
  memcpy(st->grid, grid, sizeof st->grid);
  memcpy(st->block, blk, sizeof st->block);
  st->shared_static_bytes = P->smem_static;
  /* OpenCL __local buffers: byte counts, placed after the dynamic area */
  uint64_t local_total = 0;
  for (uint32_t i = 0; args && i < P->nparams; i++)
    if (P->params[i].is_local && args[i]) {
      uint64_t n;
      memcpy(&n, args[i], sizeof n);
      local_total += (n + 15) / 16 * 16;
    }
  smemu_status s = check_config(ctx, k, grid, blk, (uint64_t)shared + local_total);
  if (s) return s;
  uint32_t cdim[3];
  int cexplicit;
  if ((s = cluster_config(ctx, k, grid, cdims, cdim, &cexplicit))) return s;
  uint64_t nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
  if (coop && nblocks > (uint64_t)ctx->arch->sm_count * (uint64_t)ctx->arch->max_blocks_per_sm)
    return ctx_error(ctx, SMEMU_ERR_INVALID_CONFIG,
                     "a cooperative launch of %llu blocks: at most %d can be resident at once (%d SMs of %d "
                     "blocks)",
                     (unsigned long long)nblocks, ctx->arch->sm_count * ctx->arch->max_blocks_per_sm,
                     ctx->arch->sm_count, ctx->arch->max_blocks_per_sm);
  /* __local arguments are dynamic shared memory (an OpenCL runtime passes
   * them as such to the launch), so they count as dynamic bytes: in the
   * figures and in %dynamic_smem_size. check_config bounded the sum. */
  st->shared_dynamic_bytes = (uint32_t)((uint64_t)shared + local_total);
  struct dev_heap *heap = NULL;
  if ((s = heap_for_launch(ctx, P, &heap))) return s;
  if (P->nparams && !args)
    return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "kernel %s takes %u parameters; args is NULL", P->name,
                     P->nparams);
  uint8_t *params = calloc(1, P->param_bytes + 16);
  launch *L = calloc(1, sizeof *L);
  if (!params || !L) {
    free(params);
    free(L);
    return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  }
  uint32_t dyn_base =
      (P->smem_reserved + P->smem_static + P->smem_dyn_align - 1) / P->smem_dyn_align * P->smem_dyn_align;
  uint64_t local_at = (dyn_base + (uint64_t)shared + 15) / 16 * 16;
  for (uint32_t i = 0; i < P->nparams; i++) {
    if (!args[i]) {
      free(params);
      free(L);
      return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "argument %u of %s is NULL", i, P->name);
    }
    if (P->params[i].is_local) {
      uint64_t n;
      memcpy(&n, args[i], sizeof n);
      memcpy(params + P->params[i].offset, &local_at, P->params[i].size > 8 ? 8 : P->params[i].size);
      local_at += (n + 15) / 16 * 16;
      continue;
    }
    memcpy(params + P->params[i].offset, args[i], P->params[i].size);
  }
  L->prog = P;
  L->mem = &ctx->mem;
  if (coop) {
    if (!ctx->grid_ws && (s = smemu_malloc(ctx, &ctx->grid_ws, GRID_WS_BYTES))) {
      free(params);
      free(L);
      return s;
    }
    /* written as the driver writes it: the initialisation check sees it */
    uint32_t size = GRID_WS_BYTES;
    smemu_memset(ctx, ctx->grid_ws, 0, GRID_WS_BYTES);
    smemu_memcpy(ctx, ctx->grid_ws, &size, sizeof size);
    L->cooperative = 1;
  }
  L->grid_ws = (uint64_t)(uintptr_t)ctx->grid_ws;
  memcpy(L->grid, grid, sizeof L->grid);
  memcpy(L->block, blk, sizeof L->block);
  L->nthreads_block = blk[0] * blk[1] * blk[2];
  memcpy(L->cdim, cdim, sizeof L->cdim);
  L->csize = cdim[0] * cdim[1] * cdim[2];
  L->cluster_explicit = cexplicit;
  L->dyn_smem = st->shared_dynamic_bytes;
  L->smem_size = (shared || local_total) ? (uint32_t)local_at : P->smem_reserved + P->smem_static;
  /* %aggr_smem_size: reserved + static (to the dynamic area's alignment) +
   * dynamic, exactly (measured on sm_90: tests/hw/fidelity/) */
  L->smem_aggr = local_total ? (uint32_t)local_at : dyn_base + shared;
  L->params = params;
  L->heap = heap;
  L->devcall = ctx->devcall;
  L->devcall_user = ctx->devcall_user;
  L->kernel = k;
  uint32_t stack = ctx->opt.stack_bytes ? ctx->opt.stack_bytes : 1024;
  uint32_t frame0 = P->funcs[0].frame_bytes;
  L->local_size = (frame0 > stack ? frame0 : stack) + (P->has_calls ? stack : 0);
  L->local_size = (L->local_size + 15) / 16 * 16;
  L->nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
  L->max_warp_insns = ctx->opt.max_warp_instructions;
  L->timeout = ctx->opt.timeout_seconds;
  L->progress = ctx->opt.progress;
  L->progress_user = ctx->opt.progress_user;
  L->nsm = (uint32_t)ctx->arch->sm_count;
  L->arch = ctx->arch;
  L->bank_mode = ctx->bank_mode;
  L->want_banks = ctx->want_banks;
  L->want_races = (ctx->opt.analyses & SMEMU_ANALYZE_RACES) != 0;
  L->racecheck_compat = (ctx->opt.analyses & SMEMU_ANALYZE_RACECHECK_COMPAT) != 0;
  L->want_sync = (ctx->opt.analyses & SMEMU_ANALYZE_SYNC) != 0;
  L->want_init = (ctx->opt.analyses & SMEMU_ANALYZE_INIT) != 0;
  L->want_global_races = (ctx->opt.analyses & SMEMU_ANALYZE_GLOBAL_RACES) != 0;
  L->want_pipeline = (ctx->opt.analyses & SMEMU_ANALYZE_PIPELINE) != 0;
  if (L->want_global_races) {
    L->gshadow = gshadow_new(L->prog, L->nblocks, L->nthreads_block);
    /* no memory leaves the check off, said once per launch rather than
     * silently */
    if (!L->gshadow) {
      fprintf(stderr,
              "smemu: warning: %s: global-memory race checks are off for this launch (out of memory)\n",
              k->f->name);
      L->want_global_races = 0;
    }
  }
  L->ginit = ctx->ginit;
  L->fault_all = (ctx->opt.analyses & SMEMU_ANALYZE_MEMCHECK) != 0;
  L->schedule_random = ctx->opt.schedule == SMEMU_SCHEDULE_RANDOM;
  L->seed = ctx->opt.seed;
  L->hooks = L->want_banks || L->want_races || L->want_sync || L->want_init || L->want_global_races ||
             L->want_pipeline;
  double tj = now();
  int hv = L->hooks != 0;
  double bgs;
  L->jit = kernel_jit(ctx, k, hv, &bgs);
  st->jit_seconds = L->jit && k->jit_tried[hv] == 2 ? (bgs >= 0 ? bgs : now() - tj) : 0;
  if (k->jit_tried[hv] == 2) k->jit_tried[hv] = 1;
  st->tier = L->jit ? "jit" : "interp";
  pthread_mutex_init(&L->lock, NULL);
  if (L->hooks) L->result = analysis_new(L);
  double t0 = now();
  s = (smemu_status)exec_launch(L, ctx->threads);
  st->seconds = now() - t0;
  st->warp_instructions = atomic_load(&L->warp_insns);
  k->ran_insns += st->warp_instructions;
  st->thread_instructions = atomic_load(&L->thread_insns);
  st->shared_contention = atomic_load(&L->contention);
  if (s) ctx_error(ctx, s, "%s", L->msg);
  fault_keep(ctx, L, s);
  if (L->result) ginit_an_finish(L->result->gin);
  analysis_free(ctx->last_an);
  ctx->last_an = L->result;
  ctx->cached = NULL;
  free(ctx->hz);
  free(ctx->sy);
  ctx->hz = NULL;
  ctx->sy = NULL;
  ctx->nhz = ctx->nsy = 0;
  ctx->last_prog = P;
  ctx->last_sass = k->sass;
  ctx->last_prog_owner = k->mod;
  pthread_mutex_destroy(&L->lock);
  gshadow_free(L->gshadow);
  free(L->faults);
  free(params);
  free(L);
  return s;
}

int smemu_jit_available(void) { return jit_available(); }

const smemu_launch_stats *smemu_last_stats(const smemu_ctx *ctx) { return ctx ? &ctx->last : NULL; }

int smemu_demangle(const char *mangled, char *out, size_t n) { return demangle(mangled, out, n); }
int smemu_print_archs(FILE *f) { return arch_print_table(f); }
