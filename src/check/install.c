/* install.c: the table of the analyses' hooks and its installation. The
 * table is file-local so that each compiled copy of this folder (Makefile,
 * DUAL) installs its own functions: checks_install resolves to the copy
 * the CPU runs, and so do the hooks it installs. */
#include "check/install.h"

static const exec_hooks check_hooks = {
    .analysis_new = check_analysis_new,
    .analysis_merge = check_analysis_merge,
    .analysis_free = check_analysis_free,
    .block_start = check_block_start,
    .block_end = check_block_end,
    .mem = check_mem,
    .mem_halves = check_mem_halves,
    .mem_pattern = check_mem_pattern,
    .mem_shape = check_mem_shape,
    .mem_reads = check_mem_reads,
    .banks_halves = check_banks_halves,
    .banks_masks = check_banks_masks,
    .atom = check_atom,
    .copy = check_copy,
    .event = check_event,
};

void checks_install(void) {
  if (exec_hooks_on != &check_hooks) exec_hooks_on = &check_hooks;
}
