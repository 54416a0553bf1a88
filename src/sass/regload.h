/* regload.h: the mapping's (map.c) view of PTX accesses and the rules of
 * regload.c: addresses resolved through copies of a base register,
 * neighbouring loads of a shared variable that ptxas reads as one LDS.128
 * or takes from a vector load it already made, and loads it sinks past a
 * conditional exit. */
#ifndef SMEMU_SASS_REGLOAD_H
#define SMEMU_SASS_REGLOAD_H
#include <stdint.h>

#include "ir/program.h"
#include "sass/sass.h"

/* One PTX access as the mapping groups it. */
typedef struct acc {
  uint32_t pc;   /* the instruction */
  uint32_t base; /* address register (SR_ZERO: an absolute shared address) */
  int64_t off;   /* offset from it */
  int size;      /* bytes per lane */
  int used;      /* taken by a group (map.c's scratch) */
} acc;

/* Resolves *base through registers of pcs [lo, hi) (one function) defined
 * once, by an add of a constant to a register that is itself defined at
 * most once: [%r2+4] with %r2 = %r1 + 8 is [%r1+12]. */
void sass_canon_base(const program *P, uint32_t lo, uint32_t hi, uint32_t *base, int64_t *off);

/* Whether pcs (p, q] of a function starting at lo hold no join (targets[]:
 * 1 for each pc some branch reaches) and (p, q) no shared or generic
 * write, atomic, barrier, fence, call, branch or exit: straight-line code
 * in which ptxas may combine the accesses at p and q. */
int sass_straight(const program *P, uint32_t lo, uint32_t p, uint32_t q, const uint8_t *targets);

/* The loads a[0..*na) of one line (or function) that ptxas combines by the
 * words of an aligned 16-byte window of an absolute shared address, in
 * straight-line code: a load whose words a vector load of the window
 * reads and uses is taken from that vector's registers (nothing runs);
 * loads that together read 3 or 4 of the window's words, where no vector
 * load with 3 or more used words covers them, are one LDS.128 (a vector
 * load with fewer used words counts by them). Each LDS.128 formed takes
 * one 16-byte width from w[0..*nw); without one left the window is left
 * alone. The loads placed are marked in P and M and removed from a.
 * Returns how many were removed. */
int sass_window_loads(program *P, sass_map *M, uint32_t lo, uint32_t hi, const uint8_t *targets, acc *a,
                      int *na, int *w, int *nw);

/* Finds the kernel's shared loads whose SASS runs after a conditional
 * exit (F's LDS in a block that follows `@P EXIT`) and records them in
 * P->sinks (ir/program.h), replacing what an earlier mapping set; none
 * unless F has at least as many such LDS as the PTX has candidates.
 * Returns 0, or -1 when out of memory. */
int sass_sink_loads(program *P, const sass_func *F);

#endif
