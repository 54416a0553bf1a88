/* kernel_name.h: how a name a user types (--kernel, smemu_module_get_kernel)
 * matches a kernel's mangled PTX name: the mangled name itself, what c++filt
 * prints (with or without a template's return type), the qualified name with
 * its template arguments (`reduce<256>`, `ns::k`), or the bare name
 * (`reduce`, `k`). */
#ifndef SMEMU_KERNEL_NAME_H
#define SMEMU_KERNEL_NAME_H

#include <stddef.h>

/* How strongly `name` names the kernel `mangled`: 4 the mangled name, 3 the
 * demangled signature, 2 the qualified name with template arguments, 1 the
 * bare name, 0 no match. */
int kernel_name_match(const char *mangled, const char *name);

/* Writes "MANGLED (DEMANGLED)" or just MANGLED to out: for listing candidates. */
void kernel_name_describe(const char *mangled, char *out, size_t n);

#endif
