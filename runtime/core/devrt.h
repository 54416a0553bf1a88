/* devrt.h: the device runtime functions smemu supplies as PTX (devrt.c). */
#ifndef SMEMU_RT_DEVRT_H
#define SMEMU_RT_DEVRT_H
#include <stddef.h>

/* Define the device runtime functions a module's PTX declares extern
 * (cudaGraphSetConditional, cudaCGGetIntrinsicHandle, cudaCGSynchronize)
 * in place of their declarations, keeping its line numbers; *ptx is
 * malloc'd and may be replaced. */
void rt_devrt_patch_ptx(char **ptx, size_t *len);
/* Whether a linker input named name is NVIDIA's device runtime library
 * (built in here). */
int rt_devrt_library(const char *name);
/* Whether a translation unit's PTX is NVIDIA's device runtime itself (the
 * unit libcudadevrt.a adds to an -rdc link), which smemu replaces. */
int rt_devrt_unit(const char *ptx);
/* The functions a PTX text defines with external linkage (.visible or
 * .weak .func): their names, appended to *names (malloc'd strings; *n
 * counts them). Returns 0, or -1 when out of memory. */
int rt_ptx_defined_funcs(const char *ptx, char ***names, int *n);
/* Turn the `.extern .func` declarations of the n names in *ptx into empty
 * definitions, keeping its line numbers (the lint of one translation unit
 * of an -rdc program, whose other units define them); *ptx is malloc'd and
 * may be replaced. */
void rt_ptx_stub_externs(char **ptx, size_t *len, char *const *names, int n);

#endif
