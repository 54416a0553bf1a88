/* api_link.c: loading several relocatable PTX modules as one linked module
 * (smemu_module_load_linked), the device half of nvcc -rdc=true. */
#include <stdlib.h>
#include <string.h>

#include "api/internal.h"
#include "ir/decode.h"
#include "ptx/link.h"

static int provided(const char *name, void *user) {
  (void)user;
  return ir_is_builtin(name);
}

smemu_status smemu_module_load_linked(smemu_ctx *ctx, const char *const *ptx, const size_t *len,
                                      const char *const *names, int n, const char *name, smemu_module **out) {
  if (!ctx || !ptx || !len || n <= 0 || !out)
    return ctx_error(ctx, SMEMU_ERR_INVALID_VALUE, "invalid argument");
  *out = NULL;
  smemu_module *m = calloc(1, sizeof *m);
  if (!m || !(m->parts = calloc((size_t)n, sizeof *m->parts)) || !(m->name = strdup(name ? name : "<ptx>"))) {
    if (m) free(m->parts);
    free(m);
    return ctx_error(ctx, SMEMU_ERR_OUT_OF_MEMORY, "out of memory");
  }
  m->ctx = ctx;
  char err[1024];
  smemu_status s = SMEMU_OK;
  for (int i = 0; i < n && s == SMEMU_OK; i++) {
    const char *nm = names && names[i] ? names[i] : m->name;
    if (!ptx[i] || ptx_parse(ptx[i], len[i], nm, &m->parts[i], err, sizeof err) < 0)
      s = ctx_error(ctx, SMEMU_ERR_PARSE, "%s", ptx[i] ? err : "missing PTX");
    else
      m->nparts++;
  }
  if (s == SMEMU_OK && ptx_link(m->parts, n, provided, NULL, &m->ptx, err, sizeof err) < 0)
    s = ctx_error(ctx, SMEMU_ERR_PARSE, "%s", err);
  if (s != SMEMU_OK) {
    for (int i = 0; i < m->nparts; i++) ptx_free(m->parts[i]);
    free(m->parts);
    free(m->name);
    free(m);
    return s;
  }
  return api_module_finish(ctx, m, out);
}
