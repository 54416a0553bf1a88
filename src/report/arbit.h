/* arbit.h: the last launch's arbitration estimate (model/arbit.h) for the
 * report writers. */
#ifndef SMEMU_REPORT_ARBIT_H
#define SMEMU_REPORT_ARBIT_H
#include "model/arbit.h"
#include "smemu.h"
#include <stdio.h>

/* The estimate of the last launch; -1 when the bank model did not run. */
int report_arbit(const smemu_ctx *ctx, arbit_est *e);
/* The JSON member "shared_arbitration_est": {"case", "warps_per_sm", "ld":
 * [lo, hi], "st": [...], "atom": [...]}; -1 (nothing written) without the
 * bank model. */
int report_arbit_json(const smemu_ctx *ctx, FILE *f);
/* The bank report's line: the range per operation and the case. */
void report_arbit_text(const smemu_ctx *ctx, FILE *f);

#endif
