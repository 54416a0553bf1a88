/* ops.c: the opcode table's names and flags (program.h: op_names,
 * op_flags), expanded from ops.def; the decoder, the CFG, the analyses and
 * the reports read them. */
#include "ir/program.h"

const char *const op_names[OP_ALL] = {
#define OP(id, name, dec, flags) name,
#include "ir/ops.def"
#undef OP
    "rdclock", "localaddr", "nop"};

const uint32_t op_flags[OP_ALL] = {
#define OP(id, name, dec, flags) flags,
#include "ir/ops.def"
#undef OP
    0, 0, 0};
