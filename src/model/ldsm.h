/* ldsm.h: bank figures of ldmatrix / stmatrix (ldsm.c). */
#ifndef SMEMU_MODEL_LDSM_H
#define SMEMU_MODEL_LDSM_H
#include "model/banks.h"
#include <stdint.h>

/* One ldmatrix/stmatrix of `nmat` 8x8 matrices (1, 2 or 4) whose row i
 * starts at shared byte address row[i] (16-byte aligned), as Nsight Compute
 * counts it on sm_90: requests 0 (its shared ld/st instruction counters
 * leave LDSM/STSM out), wavefronts and ideal (= nmat) as below. */
void ldsm_bank_model(int nmat, const uint32_t row[32], bank_result *out);

#endif
