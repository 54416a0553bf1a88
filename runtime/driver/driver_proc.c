/* driver_proc.c: cuGetProcAddress, how cuda-bindings (cuda-python, hence
 * numba-cuda and CuPy) and the static CUDA runtime find every driver entry
 * point. A symbol resolves to this library's own export with the highest
 * ABI suffix (_v3, _v2, then the plain name): CUDA 13 callers ask for the
 * current versions. The static runtime cannot run on smemu (it needs the
 * driver's private tables), so a program carrying its own fatbinary in the
 * executable is told, once, to rebuild with `nvcc -cudart shared`. */
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cu_abi.h"

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags, int *status);
CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags);

/* 1 when the executable has a .nv_fatbin section: device code linked into
 * it, the mark of nvcc's static runtime (a shared-runtime program registers
 * the same section, but never calls cuGetProcAddress). */
static int exe_has_fatbin(void) {
  FILE *f = fopen("/proc/self/exe", "rb");
  if (!f) return 0;
  Elf64_Ehdr eh;
  int found = 0;
  if (fread(&eh, sizeof eh, 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
      eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum && eh.e_shnum < 4096 && eh.e_shstrndx < eh.e_shnum) {
    Elf64_Shdr *sh = calloc(eh.e_shnum, sizeof *sh);
    if (sh && !fseek(f, (long)eh.e_shoff, SEEK_SET) && fread(sh, sizeof *sh, eh.e_shnum, f) == eh.e_shnum) {
      const Elf64_Shdr *ss = &sh[eh.e_shstrndx];
      char *names = ss->sh_size < (1u << 24) ? malloc(ss->sh_size + 1) : NULL;
      if (names && !fseek(f, (long)ss->sh_offset, SEEK_SET) && fread(names, 1, ss->sh_size, f) == ss->sh_size) {
        names[ss->sh_size] = 0;
        for (int i = 0; i < eh.e_shnum && !found; i++)
          found = sh[i].sh_name < ss->sh_size && !strcmp(names + sh[i].sh_name, ".nv_fatbin");
      }
      free(names);
    }
    free(sh);
  }
  fclose(f);
  return found;
}

/* This library, for dlsym. */
static void *self(void) {
  static void *h;
  Dl_info info;
  if (!h && dladdr((void *)&exe_has_fatbin, &info) && info.dli_fname)
    h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  return h;
}

/* A stub (runtime/entries.def) gives way to an implemented older version
 * of the same function: cuCtxSynchronize before a stubbed
 * cuCtxSynchronize_v2. A symbol with only stubs resolves to the newest, so
 * its caller gets "not supported" rather than "not found". */
void *rt_driver_symbol(const char *symbol) {
  void *h = self(), *stub = NULL;
  static const char *const suffix[] = {"_v3", "_v2", ""};
  char name[256];
  for (size_t i = 0; h && i < sizeof suffix / sizeof suffix[0]; i++) {
    if (snprintf(name, sizeof name, "%s%s", symbol, suffix[i]) >= (int)sizeof name) break;
    void *fn = dlsym(h, name);
    if (!fn) continue;
    if (!rt_is_stub(name)) return fn;
    if (!stub) stub = fn;
  }
  return stub;
}

RT_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags,
                                       int *status) {
  (void)version;
  (void)flags;
  static int checked, is_static;
  if (!checked++) is_static = exe_has_fatbin();
  if (is_static) {
    static int said;
    if (!said++)
      fprintf(stderr, "smemu: cuGetProcAddress is not available%s%s. A program linked with the static CUDA "
                      "runtime (nvcc's default) cannot run on smemu: rebuild it with `nvcc -cudart shared`.\n",
              symbol && *symbol ? " for " : "", symbol && *symbol ? symbol : "");
    if (pfn) *pfn = NULL;
    if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  *pfn = rt_driver_symbol(symbol);
  if (status) *status = *pfn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

RT_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}
