/* api_devcall.c: what the CUDA runtime needs for dynamic parallelism: the
 * context's device-call hook (exec/devcall.c calls it) and the kernels a
 * device-side launch names by address. */
#include "api/internal.h"
#include "ir/program.h"
#include <string.h>

smemu_status smemu_set_devcall(smemu_ctx *ctx, smemu_devcall_fn fn, void *user) {
  if (!ctx) return SMEMU_ERR_INVALID_VALUE;
  ctx->devcall = fn;
  ctx->devcall_user = user;
  return SMEMU_OK;
}

smemu_kernel *smemu_kernel_at(smemu_kernel *k, uint64_t addr) {
  if (!k || addr < FUNC_ADDR_BASE || addr - FUNC_ADDR_BASE >= (uint64_t)k->mod->ptx->nfuncs) return NULL;
  const ptx_func *f = &k->mod->ptx->funcs[addr - FUNC_ADDR_BASE];
  for (int i = 0; i < k->mod->nkernels; i++)
    if (k->mod->kernels[i].f == f) return &k->mod->kernels[i];
  return NULL;
}

smemu_module *smemu_kernel_module(smemu_kernel *k) { return k ? k->mod : NULL; }

int smemu_kernel_calls(const smemu_kernel *k, const char *name) {
  if (!k || !k->prog || !name) return 0;
  for (uint32_t i = 0; i < k->prog->nfuncs; i++)
    if (k->prog->funcs[i].builtin == BUILTIN_DEVRT && !strcmp(k->prog->funcs[i].name, name)) return 1;
  return 0;
}

int smemu_kernel_uses_devrt(const smemu_kernel *k) {
  if (!k || !k->prog) return 0;
  for (uint32_t i = 0; i < k->prog->nfuncs; i++)
    if (k->prog->funcs[i].builtin == BUILTIN_DEVRT) return 1;
  return 0;
}
