/* b128.h: 128-bit registers (b128.c): mov and atom forms, and the two
 * register slots of a .b128 operand for ld/st (mem.c). */
#ifndef SMEMU_B128_H
#define SMEMU_B128_H
#include "ir/decode.h"

/* The slots of the low and high halves of .b128 register operand o into h
 * (dst: written); 1 when o is no .b128 register, -1 after an error. */
int b128_halves(dctx *D, const ptx_operand *o, int dst, uint32_t h[2]);
/* mov.b128 (from dec_mov). */
int dec_mov_b128(dctx *D, dstmt *S, insn *in);
/* atom.cas.b128 / atom.exch.b128 (from dec_atom; op an A_* of atom.h). */
int dec_atom_b128(dctx *D, dstmt *S, insn *in, int red, int space, int op);

#endif
