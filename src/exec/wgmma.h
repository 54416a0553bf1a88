/* wgmma.h: the warpgroup matrix multiply's per-block state (wgmma.c) as
 * the scheduler and the race checks see it. */
#ifndef SMEMU_WGMMA_H
#define SMEMU_WGMMA_H
#include <stddef.h>
#include "exec/exec.h"

/* simt_entry.blocked of a warp waiting at wgmma.mma_async for the rest of
 * its warpgroup (barrier ids are blocked - 1 < MAX_BARRIERS). */
#define WG_BLOCKED (MAX_BARRIERS + 1)

/* A new block starts / the worker ends: forget (free) the state. */
void wgmma_block_reset(block *b);
void wgmma_block_free(block *b);

/* A shared-memory write of lanes m (size bytes at addr[l]): a WAR hazard
 * when a wgmma.mma_async that reads those bytes is still in flight (no
 * wgmma.wait_group has retired it). Called by the race checks. */
void wgmma_write_check(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size);

/* After decode: route the kernel's instructions that may read or write a
 * wgmma.mma_async register (D, or A fragment) through a check of whether
 * that register is still in flight (SMEMU_ANALYZE_SYNC reports it).
 * Returns 0, or -1 out of memory. */
int wgmma_guard_pass(program *P);

/* What warp w (blocked with WG_BLOCKED) waits for, for deadlock reports. */
int wgmma_blocked_text(const block *b, const warp *w, char *buf, size_t n);

#endif
