/* install.h: the analyses' implementation of the executor's hooks
 * (exec/hooks.h, exec_hooks), one function per entry of the table, and
 * the call that installs them. */
#ifndef SMEMU_CHECK_INSTALL_H
#define SMEMU_CHECK_INSTALL_H
#include "exec/hooks.h"

analysis *check_analysis_new(const launch *L);
void check_analysis_merge(analysis *into, const analysis *from);
void check_analysis_free(analysis *a);
void check_block_start(block *b);
void check_block_end(block *b);
void check_mem(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);
void check_mem_halves(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                      uint64_t a1, uint32_t stride);
void check_mem_pattern(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                       uint64_t a1, uint64_t stride);
int check_mem_shape(warp *w, const insn *in, uint64_t a0, uint64_t a1, int pat, uint32_t size);
void check_mem_reads(warp *w, simt_entry *t, const insn *code, uint32_t pc, uint64_t which,
                     const uint64_t *pat, uint32_t npat);
int check_banks_halves(warp *w, const insn *in, uint64_t a0, uint64_t a1, uint32_t stride, uint32_t size);
uint32_t check_banks_masks(const warp *w);
void check_atom(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);
void check_copy(warp *w, const insn *in, uint32_t m, const uint64_t src[32], const uint64_t dst[32],
                uint32_t size);
void check_event(const hook_ev *e);

/* Point the executor's hooks at the analyses (idempotent; the API calls it
 * before its first launch). */
void checks_install(void);

#endif
