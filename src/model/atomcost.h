/* atomcost.h: requests, wavefronts and ideal wavefronts of one warp-level
 * shared atomic in the SASS form ptxas gives it (atomsel.h), as Nsight
 * Compute counts them. */
#ifndef SMEMU_MODEL_ATOMCOST_H
#define SMEMU_MODEL_ATOMCOST_H
#include <stdint.h>

#include "model/arch.h"
#include "model/banks.h"

/* A min/max CAS loop's data: ptxas's loop compares the loaded word with
 * the lane's operand and skips the CAS where the word would not change. */
typedef struct atom_minmax {
  int max; /* 1 max, 0 min */
  int is_signed;
  uint64_t mem[32]; /* each lane's word before the instruction */
  uint64_t val[32]; /* each lane's operand */
} atom_minmax;

/* The figures of one PTX atomic of form `form` (ATOMSEL_*) executed by the
 * lanes of `mask` at shared byte addresses addr[]: *atom gets the atomic
 * family's (ATOMS), *ld the loads the form adds (the LDS of a CAS loop;
 * zero otherwise). op is BANK_ATOM or BANK_ATOM_CAS; bytes the access size;
 * mm: the data of a min/max loop, or NULL (every lane swaps). Returns the
 * number of SASS instructions the warp executed (loop iterations count
 * each time). */
uint32_t atom_cost(const arch_profile *a, int bank_mode_bytes, int form, int op, uint32_t mask,
                   const uint32_t addr[32], int bytes, const atom_minmax *mm, bank_result *atom,
                   bank_result *ld);

/* Whether the profile's code is compiled with these forms (sm_70 and
 * later: the forms were measured on sm_90 and are assumed for 7.x/8.x). */
int atom_forms_apply(const arch_profile *a);

#endif
