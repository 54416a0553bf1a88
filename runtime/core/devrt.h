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

#endif
