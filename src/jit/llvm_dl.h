/* llvm_dl.h: LLVM loaded when the first kernel is compiled, not with the
 * program. Linking libLLVM costs every process about 49 MB of resident
 * memory (its relocations and static constructors) before anything runs;
 * most runs never compile a kernel (the default tier compiles only kernels
 * that ran long). Included once, by jit.c, after the LLVM-C headers: the
 * generated llvm_syms.h (mk/jit.mk, from the LLVM functions src/jit names)
 * declares a pointer per function, the table that fills them, and renames
 * each call to go through its pointer. */
#ifndef SMEMU_LLVM_DL_H
#define SMEMU_LLVM_DL_H
#include "llvm_syms.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SMEMU_LLVM_LIB
#define SMEMU_LLVM_LIB "libLLVM-19.so"
#endif
#define LLVM_DL_STR2(x) #x
#define LLVM_DL_STR(x) LLVM_DL_STR2(x)

/* The library to load: $SMEMU_LLVM_LIB (a libLLVM 19 installed elsewhere
 * than where this build found it, e.g. on a host without llvm-19-dev),
 * else the one this build was made against. */
static const char *llvm_dl_path(void) {
  const char *e = getenv("SMEMU_LLVM_LIB");
  return e && *e ? e : SMEMU_LLVM_LIB;
}

/* Is the library there to load (without loading it)? */
static int llvm_dl_present(void) {
  const char *path = llvm_dl_path();
  FILE *f = fopen(path, "rb");
  if (!f) return path[0] != '/'; /* a bare name: the loader searches */
  fclose(f);
  return 1;
}

/* Load LLVM, fill the pointers and initialise the native target (what
 * LLVMInitializeNativeTarget and LLVMInitializeNativeAsmPrinter do);
 * -1 with why on failure. Called once, under jit.c's lock. */
static int llvm_dl_load(char *why, size_t n) {
  /* (lazy: the calls through LLVM's PLT bound at their first use; the
   * most of them are never made here) */
  void *lib = dlopen(llvm_dl_path(), RTLD_LAZY | RTLD_LOCAL);
  if (!lib) {
    snprintf(why, n, "LLVM could not be loaded: %s", dlerror());
    return -1;
  }
  for (size_t i = 0; i < sizeof smemu_dl_syms / sizeof *smemu_dl_syms; i++)
    if (!(*smemu_dl_syms[i].p = dlsym(lib, smemu_dl_syms[i].name))) {
      snprintf(why, n, "LLVM has no %s", smemu_dl_syms[i].name);
      return -1;
    }
  static const char *const init[] = {LLVM_DL_STR(LLVM_NATIVE_TARGETINFO), LLVM_DL_STR(LLVM_NATIVE_TARGET),
                                     LLVM_DL_STR(LLVM_NATIVE_TARGETMC), LLVM_DL_STR(LLVM_NATIVE_ASMPRINTER)};
  for (size_t i = 0; i < sizeof init / sizeof *init; i++) {
    void (*f)(void);
    *(void **)&f = dlsym(lib, init[i]);
    if (!f) {
      snprintf(why, n, "LLVM has no %s", init[i]);
      return -1;
    }
    f();
  }
  return 0;
}

#endif
