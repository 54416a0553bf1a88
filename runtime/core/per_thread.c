/* per_thread.c: the per-thread default-stream names of runtime/entries_pt.def
 * (cudaMemcpy_ptds, cuLaunchKernel_ptsz, ...). A program built for
 * per-thread default streams calls these; one in-order queue makes the
 * per-thread default stream the default stream, so each is its base entry
 * point, implemented or stub. Each variant is a jump to its base: the
 * caller's arguments (registers and stack) reach the base untouched, so
 * no signature is needed here. */

#if defined(__x86_64__)
#define JUMP(base) "jmp " #base "@PLT"
#elif defined(__aarch64__)
#define JUMP(base) "b " #base
#else
#error "per_thread.c: no tail jump for this architecture"
#endif

#define PT(variant, base)                                                                                    \
  __asm__(".text\n"                                                                                          \
          ".globl " #variant "\n"                                                                            \
          ".type " #variant ", %function\n"                                                                  \
          ".p2align 4\n" #variant ":\n\t" JUMP(base) "\n"                                                    \
                                                     ".size " #variant ", .-" #variant "\n");
#include "entries_pt.def"
