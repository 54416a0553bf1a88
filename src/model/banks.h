/* banks.h: the shared-memory bank model. Given one warp-level shared-memory
 * instruction (the active lanes and each lane's shared byte address), it
 * returns the figures Nsight Compute reports for it: requests (instructions),
 * wavefronts (passes through the banks) and ideal wavefronts, so that bank
 * conflicts = wavefronts - ideal. The rules per generation, with their
 * sources, are in banks.c. */
#ifndef SMEMU_MODEL_BANKS_H
#define SMEMU_MODEL_BANKS_H

#include <stdint.h>

#include "model/arch.h"

/* The kind of instruction. BANK_LD, BANK_ST and BANK_ATOM are also the
 * counter families of Nsight Compute (ld, st, atom). BANK_ATOM_CAS is a
 * compare-and-swap (atom.cas), counted in the atom family but costing two
 * wavefronts per pass on 5.x and later (see banks.c); bank_family() gives the
 * family of any kind. */
enum { BANK_LD, BANK_ST, BANK_ATOM, BANK_ATOM_CAS };

/* Counter family (BANK_LD, BANK_ST or BANK_ATOM) of an instruction kind. */
static inline int bank_family(int op) { return op == BANK_ATOM_CAS ? BANK_ATOM : op; }

typedef struct bank_result {
  uint32_t requests;     /* warp-level instructions: 1 if any lane is active, else 0 */
  uint32_t wavefronts;   /* passes through the banks */
  uint32_t ideal;        /* wavefronts - bank conflicts, as Nsight Compute counts
                            them: the wavefronts without conflicts (for a CAS on
                            5.x+, not quite: see banks.c) */
  int worst_bank;        /* bank of the worst group's most loaded bank; -1: no lane */
  uint32_t worst_degree; /* distinct words (lanes, for atomics) that bank serves */
  uint32_t worst_lanes;  /* mask of the lanes that touch that bank in that group */
  uint32_t worst_group;  /* mask of the lanes processed together with them */
} bank_result;

/* Bank conflicts of a result, as Nsight Compute counts them. */
static inline uint32_t bank_conflicts(const bank_result *r) { return r->wavefronts - r->ideal; }

/* Models one warp instruction on architecture `a`.
 * bank_mode_bytes: 4, or 8 for the 8-byte bank mode where the profile has one
 *   (3.x; ignored elsewhere, as the hardware ignores it on 5.x and later).
 * op: BANK_LD, BANK_ST, BANK_ATOM or BANK_ATOM_CAS.
 * active_mask: lanes that execute it (inactive lanes take no part).
 * addr[32]: shared byte address per lane (naturally aligned to access_bytes).
 * access_bytes: bytes per lane, 1, 2, 4, 8 or 16 (other sizes are rounded
 *   up to the next of these). */
void bank_model(const arch_profile *a, int bank_mode_bytes, int op, uint32_t active_mask,
                const uint32_t addr[32], int access_bytes, bank_result *out);

#endif
