/* wgmma.h: the warpgroup matrix multiply's per-block state (wgmma.c) as
 * the scheduler sees it (the race checks see its events: hooks.h). */
#ifndef SMEMU_WGMMA_H
#define SMEMU_WGMMA_H
#include "exec/exec.h"
#include <stddef.h>

/* simt_entry.blocked of a warp waiting at wgmma.mma_async for the rest of
 * its warpgroup (barrier ids are blocked - 1 < MAX_BARRIERS). */
#define WG_BLOCKED (MAX_BARRIERS + 1)

/* A new block starts / the worker ends: forget (free) the state. */
void wgmma_block_reset(block *b);
void wgmma_block_free(block *b);

/* After decode: route the kernel's instructions that may read or write a
 * wgmma.mma_async register (D, or A fragment) through a check of whether
 * that register is still in flight (SMEMU_ANALYZE_SYNC reports it).
 * Returns 0, or -1 out of memory. */
int wgmma_guard_pass(program *P);

#endif
