/* bankcache.c: the bank model's figures per address pattern (bankcache.h). */
#include "model/bankcache.h"

#include <string.h>

void bank_cache_put(bank_cache *c, uint32_t period, uint32_t mask, uint32_t size, uint32_t base,
                    uint32_t stride, uint32_t gap, uint32_t req, uint32_t waves, uint32_t ideal) {
  bank_centry *e = &c->e[c->next];
  c->next = (c->next + 1) % BANK_CACHE_WAYS;
  e->mask = mask;
  e->size = (uint16_t)size;
  e->base = (uint8_t)(base & (period - 1));
  e->stride = stride;
  e->gap = gap;
  e->req = req;
  e->waves = waves;
  e->ideal = ideal;
}

void bank_model_cached(bank_cache *c, const arch_profile *a, int bank_mode_bytes, int op,
                       uint32_t active_mask, const uint32_t addr[32], int access_bytes, bank_result *out,
                       int *hit) {
  uint32_t base, stride, gap;
  int aff = access_bytes > 0 && access_bytes < 65536 && bank_affine(active_mask, addr, &base, &stride, &gap);
  uint32_t period = bank_cache_period(a, bank_mode_bytes, (uint32_t)access_bytes);
  if (aff) {
    const bank_centry *e = bank_cache_find(c, period, active_mask, (uint32_t)access_bytes, base, stride, gap);
    if (e) {
      memset(out, 0, sizeof *out);
      out->worst_bank = -1;
      out->requests = e->req;
      out->wavefronts = e->waves;
      out->ideal = e->ideal;
      *hit = 1;
      return;
    }
  }
  *hit = 0;
  bank_model(a, bank_mode_bytes, op, active_mask, addr, access_bytes, out);
  if (aff)
    bank_cache_put(c, period, active_mask, (uint32_t)access_bytes, base, stride, gap, out->requests,
                   out->wavefronts, out->ideal);
}
