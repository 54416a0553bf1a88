/* demangle.h: a small Itanium C++ ABI demangler for kernel names, printing exactly what c++filt
 * prints: `_Z3dotPKfS0_Pfi` -> `dot(float const*, float const*, float*, int)`, and for templates
 * the return type too: `_Z6reduceILi256EEvPKfPfi` -> `void reduce<256>(float const*, float*, int)`. */
#ifndef SMEMU_DEMANGLE_H
#define SMEMU_DEMANGLE_H

#include <stddef.h>

/* Writes the demangled form of `mangled` to out (NUL-terminated, truncated to n).
 * Returns 1 if it was demangled, 0 if `mangled` is not a mangled name or uses
 * something unsupported, in which case out gets a copy of `mangled`. Never crashes. */
int demangle(const char *mangled, char *out, size_t n);

#endif
