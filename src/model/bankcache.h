/* bankcache.h: the bank model's results cached per address pattern.
 *
 * A warp's shared addresses are recognised as "affine by halves": lane l at
 * base + (l % 16) * stride + (l / 16) * gap. That covers a whole warp at a
 * stride (gap = 16 * stride), a broadcast (stride = gap = 0), and each
 * half-warp on its own row or its own word (the 2D tiles' As[ty][k] and
 * Bs[k][tx]). The figures bank_model gives for such a pattern depend only on
 * (kind of instruction, bytes per lane, active lanes, stride, gap, base mod
 * BANK_CACHE_PERIOD) within one architecture and bank mode: moving every
 * lane by a multiple of 256 bytes keeps every bank (banks of 4 bytes: period
 * 128; 16 banks: 64; Kepler's 8-byte mode and the 64-word segments of its
 * 4-byte mode: 256; ldmatrix's 16-byte rows: 128) and which lanes share a
 * word, a unit or a segment. A smaller period would be wrong: on 3.x in
 * 4-byte mode, words i and i + 32 of one 256-byte segment are one unit, so
 * lanes at 0 and 128 take one pass from base 0 and two from base 136 (the
 * same modulo 8); on 1.x the broadcast word is chosen by bank number.
 *
 * A cache belongs to one instruction (pc) of one launch and one worker, so
 * the architecture, bank mode, instruction kind and the model used (bank or
 * ldmatrix) are the same for all its entries; a repeat costs the pattern
 * test and a look-up in a few entries instead of the model. */
#ifndef SMEMU_MODEL_BANKCACHE_H
#define SMEMU_MODEL_BANKCACHE_H

#include <stdint.h>

#include "model/banks.h"

#define BANK_CACHE_PERIOD 256u
#define BANK_CACHE_WAYS 4

typedef struct bank_centry {
  uint32_t stride, gap;  /* lane l at base + (l%16)*stride + (l/16)*gap */
  uint32_t mask;         /* active lanes; 0: an empty entry */
  uint16_t size;         /* bytes per lane (the merged width) */
  uint8_t base;          /* base mod BANK_CACHE_PERIOD */
  uint8_t pad_;
  uint32_t req, waves, ideal; /* the model's figures */
} bank_centry;

typedef struct bank_cache {
  bank_centry e[BANK_CACHE_WAYS];
  uint32_t next;         /* the entry replaced next (round robin) */
} bank_cache;

/* Are the active lanes (mask) at base + (l%16)*stride + (l/16)*gap? Sets
 * *base, *stride and *gap. The stride comes from the first active lane and
 * the next one (0 when that one is inactive), the gap from the first active
 * lane of the upper half (0 when no lower lane is active): the same key for
 * every pattern that is a translation of another with the same lanes. */
static inline int bank_affine(uint32_t mask, const uint32_t addr[32], uint32_t *base, uint32_t *stride,
                              uint32_t *gap) {
  if (!mask) return 0;
  uint32_t f = (uint32_t)__builtin_ctz(mask), b, s = 0, g = 0, diff = 0;
  if (f < 31 && (mask >> (f + 1) & 1)) s = addr[f + 1] - addr[f];
  b = addr[f] - (f & 15) * s;
  uint32_t up = f < 16 ? mask & 0xffff0000u : 0;
  if (up) {
    uint32_t u = (uint32_t)__builtin_ctz(up);
    g = addr[u] - (u & 15) * s - b;
  }
  /* (upper half only: b is lane 16's virtual address, the gap 0) */
  if (mask == 0xffffffffu) {
    for (int l = 0; l < 32; l++) diff |= addr[l] - (b + (uint32_t)(l & 15) * s + (uint32_t)(l >> 4) * g);
  } else {
    for (int l = 0; l < 32; l++)
      if (mask >> l & 1) diff |= addr[l] - (b + (uint32_t)(l & 15) * s + (uint32_t)(l >> 4) * g);
  }
  *base = b;
  *stride = s;
  *gap = g;
  return !diff;
}

/* The entry for this pattern, or NULL. */
static inline const bank_centry *bank_cache_find(const bank_cache *c, uint32_t mask, uint32_t size, uint32_t base,
                                                 uint32_t stride, uint32_t gap) {
  uint8_t b = (uint8_t)(base % BANK_CACHE_PERIOD);
  for (int i = 0; i < BANK_CACHE_WAYS; i++) {
    const bank_centry *e = &c->e[i];
    if (e->mask == mask && e->stride == stride && e->gap == gap && e->base == b && e->size == size) return e;
  }
  return NULL;
}

/* Remembers the figures of a pattern (replacing the oldest entry). */
void bank_cache_put(bank_cache *c, uint32_t mask, uint32_t size, uint32_t base, uint32_t stride, uint32_t gap,
                    uint32_t req, uint32_t waves, uint32_t ideal);

/* bank_model through cache c (c: one per architecture, bank mode and op):
 * the same requests, wavefronts and ideal; the worst-bank fields are the
 * model's on a miss and -1/0 on a hit (*hit says which). */
void bank_model_cached(bank_cache *c, const arch_profile *a, int bank_mode_bytes, int op, uint32_t active_mask,
                       const uint32_t addr[32], int access_bytes, bank_result *out, int *hit);

#endif
