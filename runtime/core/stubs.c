/* stubs.c: a stub for every entry point runtime/entries.def does not mark
 * IMPL, so that a program calling one gets the error a GPU gives for a
 * feature it lacks (cudaErrorNotSupported, recorded as the thread's last
 * error; CUDA_ERROR_NOT_SUPPORTED from the driver) and a message naming it,
 * instead of the dynamic linker's "undefined symbol". Turning an entry's
 * status into IMPL removes its stub. This file includes no CUDA
 * declaration: each stub is defined without parameters and ignores the
 * caller's arguments (on x86-64 the caller owns its argument registers and
 * stack), so its prototype cannot clash with the real one. */
#include <stddef.h>
#include <string.h>

#define RT_EXPORT __attribute__((visibility("default")))

/* lifecycle.c: the entry-point dance of a stub (returns the error) */
int rt_stub(const char *name, int driver, int nodev, int *said);
/* Whether an exported name is one of these stubs (driver_proc.c). */
int rt_is_stub(const char *name);

#define STUB_RT(name, nodev)                                                                                 \
  RT_EXPORT int name(void);                                                                                  \
  int name(void) {                                                                                           \
    static int said;                                                                                         \
    return rt_stub(#name, 0, nodev, &said);                                                                  \
  }
#define STUB_CU(name, nodev)                                                                                 \
  RT_EXPORT int name(void);                                                                                  \
  int name(void) {                                                                                           \
    static int said;                                                                                         \
    return rt_stub(#name, 1, nodev, &said);                                                                  \
  }
#define ENTRY_IMPL(api, name)
#define ENTRY_STUB(api, name) STUB_##api(name, 0)
#define ENTRY_NODEV(api, name) STUB_##api(name, 1)
#define ENTRY(api, name, area, status) ENTRY_##status(api, name)
#include "entries.def"
#undef ENTRY
#undef ENTRY_STUB
#undef ENTRY_NODEV

#define ENTRY_STUB(api, name) #name,
#define ENTRY_NODEV(api, name) #name,
#define ENTRY(api, name, area, status) ENTRY_##status(api, name)
static const char *const stub_names[] = {
#include "entries.def"
    NULL};

int rt_is_stub(const char *name) {
  for (size_t i = 0; name && stub_names[i]; i++)
    if (!strcmp(stub_names[i], name)) return 1;
  return 0;
}
