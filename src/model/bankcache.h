/* bankcache.h: the bank model's results cached per address pattern.
 *
 * A warp's shared addresses are recognised as "affine by halves": lane l at
 * base + (l % 16) * stride + (l / 16) * gap. That covers a whole warp at a
 * stride (gap = 16 * stride), a broadcast (stride = gap = 0), and each
 * half-warp on its own row or its own word (the 2D tiles' As[ty][k] and
 * Bs[k][tx]). The figures bank_model gives for such a pattern depend only on
 * (kind of instruction, bytes per lane, active lanes, stride, gap, base
 * modulo a period) within one architecture and bank mode; the period is
 * what moving every lane by a multiple of it keeps (bank_cache_period):
 *  - 2.x and 5.x+ (and ldmatrix's 16-byte rows): the bank width or the
 *    access's alignment (4, 8 or 16 bytes), whichever is larger: it rotates
 *    the banks, and each bank keeps its distinct words and lanes; the
 *    worst bank's number changes, but a repeat never becomes a new worst
 *    instance (its degree was counted when it was first seen);
 *  - 3.x in 8-byte mode: the same with 8-byte banks;
 *  - 3.x in 4-byte mode: 256, a 64-word segment (words i and i + 32 of one
 *    segment are one unit, so lanes at stride 128 take 16 passes from base
 *    0 and 17 from base 136, the same modulo 8);
 *  - 1.x: 256 (the broadcast word is chosen by bank number, so rotating the
 *    banks may change the passes).
 *
 * A cache belongs to one instruction (pc) of one launch and one worker, so
 * the architecture, bank mode, instruction kind and the model used (bank or
 * ldmatrix) are the same for all its entries; a repeat costs the pattern
 * test and a look-up in a few entries instead of the model. */
#ifndef SMEMU_MODEL_BANKCACHE_H
#define SMEMU_MODEL_BANKCACHE_H

#include <stdint.h>

#include "model/banks.h"

#define BANK_CACHE_PERIOD 256u /* the largest period */

/* The period of the base in the key (see above) for bank_model on
 * architecture a in bank mode bank_mode_bytes with bytes-wide lanes. */
static inline uint32_t bank_cache_period(const arch_profile *a, int bank_mode_bytes, uint32_t bytes) {
  uint32_t align = bytes <= 4 ? 4 : bytes <= 8 ? 8 : 16; /* as bank_model rounds, at least a bank */
  switch (a->bank_rules) {
  case BANK_RULES_CC1:
    return BANK_CACHE_PERIOD;
  case BANK_RULES_CC3:
    return bank_mode_bytes == 8 && a->bank8_selectable ? (align < 8 ? 8 : align) : BANK_CACHE_PERIOD;
  default:
    return align;
  }
}
#define BANK_CACHE_WAYS 4

typedef struct bank_centry {
  uint32_t stride, gap; /* lane l at base + (l%16)*stride + (l/16)*gap */
  uint32_t mask;        /* active lanes; 0: an empty entry */
  uint16_t size;        /* bytes per lane (the merged width) */
  uint8_t base;         /* base mod the period (bank_cache_period) */
  uint8_t pad_;
  uint32_t req, waves, ideal; /* the model's figures */
} bank_centry;

typedef struct bank_cache {
  bank_centry e[BANK_CACHE_WAYS];
  uint32_t next; /* the entry replaced next (round robin) */
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

/* The entry for this pattern, or NULL (period: bank_cache_period's for
 * this size). */
static inline const bank_centry *bank_cache_find(const bank_cache *c, uint32_t period, uint32_t mask,
                                                 uint32_t size, uint32_t base, uint32_t stride,
                                                 uint32_t gap) {
  uint8_t b = (uint8_t)(base & (period - 1));
  for (int i = 0; i < BANK_CACHE_WAYS; i++) {
    const bank_centry *e = &c->e[i];
    if (e->mask == mask && e->stride == stride && e->gap == gap && e->base == b && e->size == size) return e;
  }
  return NULL;
}

/* Remembers the figures of a pattern (replacing the oldest entry). */
void bank_cache_put(bank_cache *c, uint32_t period, uint32_t mask, uint32_t size, uint32_t base,
                    uint32_t stride, uint32_t gap, uint32_t req, uint32_t waves, uint32_t ideal);

/* bank_model through cache c (c: one per architecture, bank mode and op):
 * the same requests, wavefronts and ideal; the worst-bank fields are the
 * model's on a miss and -1/0 on a hit (*hit says which). */
void bank_model_cached(bank_cache *c, const arch_profile *a, int bank_mode_bytes, int op,
                       uint32_t active_mask, const uint32_t addr[32], int access_bytes, bank_result *out,
                       int *hit);

#endif
