/* atomsel.h: which SASS form ptxas gives each shared-memory atomic (see
 * atomsel.c), so that the bank model counts what the hardware executes:
 * Nsight Compute counts SASS instructions, and for several PTX atomics
 * ptxas emits something other than one ATOMS per PTX instruction. */
#ifndef SMEMU_MODEL_ATOMSEL_H
#define SMEMU_MODEL_ATOMSEL_H
#include "ptx/ptx.h"
#include <stdint.h>

/* The forms (insn.atom_form). */
enum {
  ATOMSEL_PLAIN = 0, /* one ATOMS, every active lane a unit (banks.c R7/R8) */
  ATOMSEL_POPC_INC,  /* ATOMS.POPC.INC.32: +1 whose result is unused */
  ATOMSEL_AGG_ONE,   /* add at a uniform address, of an immediate whose
                        result is used (VOTEU, POPC) or of a register whose
                        result is not (VOTEU, REDUX.SUM): the lowest active
                        lane adds the warp's total */
  ATOMSEL_AGG_SCAN,  /* used add of a register at a uniform address: a full
                        warp scans (SHFL.UP) and lane 31 adds the total;
                        a partial warp runs the plain ATOMS.ADD */
  ATOMSEL_CAS_LOOP,  /* no native ATOMS: LDS + ATOMS.CAST.SPIN until every
                        lane has swapped (f32/f64 add, 64-bit add/min/max/
                        and/or/xor) */
  ATOMSEL_AGG_LOOP   /* 64-bit add of an immediate at a uniform address,
                        result unused: VOTEU, POPC, and the lowest active
                        lane alone runs the CAS loop */
};

typedef struct atomsel_ctx {
  void *user;                                        /* the decoder's context */
  int32_t (*reg_slot)(void *user, const char *name); /* slot, or -1 */
  void (*mark)(void *user, uint32_t pc, uint8_t form);
  uint32_t nslots;
  uint8_t *nonuni; /* per slot: 1 when the value may differ between lanes */
  uint32_t *uses;  /* per slot: reads of the register */
} atomsel_ctx;

/* Marks the form of every shared atomic of f (first instruction at
 * first_pc, one pc per non-label statement). nonuni and uses must hold
 * nslots entries. */
void atomsel_pass(atomsel_ctx *C, const ptx_func *f, uint32_t first_pc);

/* The form a PTX atomic gets: op and type modifiers as in the PTX
 * (e.g. "add", "u32"), operand kind (1 immediate, with its value in imm;
 * 0 register), whether its result is used, and whether its address is the
 * same for every lane in ptxas's view. */
int atomsel_form(const char *op, const char *type, int imm_operand, int64_t imm, int result_used,
                 int uniform_addr);

#endif
