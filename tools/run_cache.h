/* run_cache.h: compiling `smemu run FILE.cu...` into the private compile
 * cache (run_cache.c). */
#ifndef SMEMU_RUN_CACHE_H
#define SMEMU_RUN_CACHE_H
#include <stddef.h>

/* Compile srcs with nvcc (-cudart shared -lineinfo -arch=sm_CC where nvcc
 * knows the target; *ptx_any is set when it does not) unless the cache
 * holds a build of the same inputs; out receives the program's path.
 * Returns 0, or -1 after printing why. */
int rc_compile(const char *nvcc, const char *const *srcs, int nsrc, int cc, char *out, size_t n,
               int *ptx_any);

#endif
