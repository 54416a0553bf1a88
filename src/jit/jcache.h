/* jcache.h: the size limit of the compiled tier's disk cache (jit.c keeps
 * one object file per compiled kernel variant there). Plain C: built with
 * or without LLVM. */
#ifndef SMEMU_JCACHE_H
#define SMEMU_JCACHE_H

#include <stdint.h>

/* The limit in bytes: SMEMU_JIT_CACHE_MAX (a number with an optional K, M
 * or G suffix; 0 means no limit), else JIT_CACHE_DEFAULT_MAX. */
#define JIT_CACHE_DEFAULT_MAX ((uint64_t)1 << 30)
uint64_t jit_cache_limit(void);

/* When the cache objects of dir (regular files of this user named as
 * jit.c names them: 32 hex digits and ".o") take more than limit bytes,
 * removes the least recently used (oldest modification time: a cache hit
 * refreshes it) until they take at most three quarters of it; removes
 * temporary files (".tmp-*") older than an hour in any case. Leaves every
 * other name alone. Returns the files removed, -1 when dir can't be
 * read. limit 0: only the temporary files. */
int jit_cache_trim(const char *dir, uint64_t limit);

#endif
