/* ptx_link.h: joining PTX modules (ptx_link.c), for the JIT linker. */
#ifndef SMEMU_PTX_LINK_H
#define SMEMU_PTX_LINK_H

#include <stddef.h>

/* The PTX of module a with module b appended as one module (malloc'd), or
 * NULL with the reason in why. serial tells apart the names given to b's
 * local symbols that clash with a's (one number per input linked). */
char *rt_ptx_link(const char *a, const char *b, int serial, char *why, size_t whylen);

#endif
