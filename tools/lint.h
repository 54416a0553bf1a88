/* lint.h: the `smemu lint` command (lint.c) and the .cu compiler it shares
 * with `smemu exec` (smemu.c). */
#ifndef SMEMU_TOOLS_LINT_H
#define SMEMU_TOOLS_LINT_H

#include <stddef.h>

int smemu_cmd_lint(int argc, char **argv);
/* CUDA C to PTX with nvcc for arch; the PTX (malloc'd, *len bytes) or NULL
 * with err telling why. */
char *cu_to_ptx(const char *cu, const char *arch, size_t *len, char *err, size_t en);

#endif
