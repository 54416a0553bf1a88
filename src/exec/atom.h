/* atom.h: the read-modify-write operations of atom and red (atom.c), which
 * the other instructions that combine values also use: sured (tex.c),
 * red.async (async/stasync.c), cp.reduce.async.bulk (async/tma.c) and
 * redux.sync (warpops.c). */
#ifndef SMEMU_ATOM_H
#define SMEMU_ATOM_H
#include <stdint.h>

enum { A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_CAS, A_EXCH, A_AND, A_OR, A_XOR };

/* The new value for old value o and operand b (c for cas), both bytes wide
 * (the bits above are ignored), of PTX type t: min and max compare signed
 * for .s32/.s64, add/min/max are float ops for the float types. */
uint64_t atom_apply(int op, int t, uint64_t o, uint64_t b, uint64_t c, int bytes);

#endif
