/* ctx_error.c: the error message a context keeps after a failed call
 * (smemu_errmsg), a leaf every file of src/api reports through. */
#include <stdarg.h>
#include <stdio.h>
#include "api/internal.h"

smemu_status ctx_error(smemu_ctx *ctx, smemu_status s, const char *fmt, ...) {
  if (!ctx) return s;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
  va_end(ap);
  return s;
}

const char *smemu_errmsg(const smemu_ctx *ctx) { return ctx ? ctx->err : "no context"; }
