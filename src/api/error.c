/* error.c: status names, the version string and the error message kept on
 * a context (ctx_error, smemu_errmsg): a leaf every file of the API uses. */
#include "api/internal.h"
#include <stdarg.h>
#include <stdio.h>

static const char *const status_names[SMEMU_ERR_COUNT] = {"SMEMU_OK",
                                                          "SMEMU_ERR_INVALID_VALUE",
                                                          "SMEMU_ERR_OUT_OF_MEMORY",
                                                          "SMEMU_ERR_PARSE",
                                                          "SMEMU_ERR_UNSUPPORTED",
                                                          "SMEMU_ERR_NOT_FOUND",
                                                          "SMEMU_ERR_INVALID_CONFIG",
                                                          "SMEMU_ERR_OUT_OF_RESOURCES",
                                                          "SMEMU_ERR_ILLEGAL_ADDRESS",
                                                          "SMEMU_ERR_MISALIGNED",
                                                          "SMEMU_ERR_TRAP",
                                                          "SMEMU_ERR_DEADLOCK",
                                                          "SMEMU_ERR_ILLEGAL_INSTRUCTION",
                                                          "SMEMU_ERR_IO",
                                                          "SMEMU_ERR_LIMIT",
                                                          "SMEMU_ERR_HANG",
                                                          "SMEMU_ERR_CLUSTER_CONFIG",
                                                          "SMEMU_ERR_NOT_PERMITTED",
                                                          "SMEMU_ERR_LAUNCH_FAILURE"};

const char *smemu_status_name(smemu_status s) {
  return (unsigned)s < SMEMU_ERR_COUNT ? status_names[s] : "SMEMU_ERR_UNKNOWN";
}

const char *smemu_version(void) { return SMEMU_VERSION; }

smemu_status ctx_error(smemu_ctx *ctx, smemu_status s, const char *fmt, ...) {
  if (!ctx) return s;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
  va_end(ap);
  return s;
}

const char *smemu_errmsg(const smemu_ctx *ctx) { return ctx ? ctx->err : "no context"; }
