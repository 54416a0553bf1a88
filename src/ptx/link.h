/* link.h: linking relocatable PTX modules (nvcc -rdc=true) into one module,
 * as nvlink does for device code: .extern declarations of functions and
 * variables resolve against the .visible (or .weak/.common) definitions of
 * the other modules; symbols without linkage stay private to their module. */
#ifndef SMEMU_PTX_LINK_H
#define SMEMU_PTX_LINK_H

#include <stddef.h>

#include "ptx/ptx.h"

/* Whether the caller provides a function that no module defines (vprintf,
 * malloc, the device-runtime calls); NULL means none is provided. */
typedef int (*ptx_link_provided)(const char *name, void *user);

/* Links `n` parsed modules. On success *out gets the linked module and 0 is
 * returned. The linked module borrows the bodies, strings and initializers
 * of the inputs: free it (ptx_free) before them. Private symbols that
 * collide across modules are renamed NAME$mI (I: the module's index); .file
 * indices are renumbered so every module keeps its own line table. On an
 * error -1 is returned, *out is NULL and err gets an nvlink-style message
 * naming the symbol and the modules (their filename): multiple definition,
 * undefined reference (unless `provided` accepts the name), or a
 * declaration whose type differs from the definition. */
int ptx_link(ptx_module *const *mods, int n, ptx_link_provided provided, void *user, ptx_module **out,
             char *err, size_t errsize);

#endif
