/* demangle.h: Itanium C++ ABI name demangling for kernel names. */
#ifndef SMEMU_DEMANGLE_H
#define SMEMU_DEMANGLE_H
#include <stddef.h>
int demangle(const char *mangled, char *out, size_t n);
#endif
