/* atomcost.c: how the SASS forms of atomsel.c count (measured on an H200,
 * tests/hw/model/vectors.tsv; kernel names below).
 *  PLAIN: one ATOMS, the rules R7/R8 of banks.c.
 *  POPC_INC: ATOMS.POPC.INC.32. Lanes on one 32-bit word are one unit (the
 *   increment is popc of their mask), so the instruction costs what a store
 *   to those addresses costs (banks.c R1): add1_s0 (32 lanes, one word: 1
 *   wavefront), add1_s32 (32 words of bank 0: 32), add1_mc4sb (8 words of
 *   bank 0, 4 lanes each: 8), add1_rand256 / rand64 (the busiest bank's
 *   distinct words).
 *  AGG_ONE: one ATOMS.ADD by the lowest active lane: 1 request, 1 wavefront
 *   (cnt_used_s0, add1_used_su_s0, addreg_su_s0 and their partial-mask
 *   variants).
 *  AGG_SCAN: a full warp: one ATOMS.ADD by lane 31; a partial warp: the
 *   plain ATOMS.ADD of every active lane (addreg_used_su_s0, _m0000ffff,
 *   _m00000001).
 *  CAS_LOOP: per iteration one LDS (load family) and one ATOMS.CAST.SPIN
 *   (a compare-and-swap, R8) by the lanes that have not yet swapped; of the
 *   lanes on one word one swaps per iteration, so the loop runs as many
 *   times as the most lanes on one word. Uncontended (distinct words:
 *   fadd_s1, dadd_s1, add64_s1): 1 LDS + 1 CAS. Contended counts depend on
 *   timing on the GPU (another warp may swap in between); smemu counts the
 *   single-warp order above (see tests/hw/model for what was recorded). */
#include "model/atomcost.h"

#include <string.h>

#include "model/atomsel.h"

int atom_forms_apply(const arch_profile *a)
{
  return a && a->major >= 7;
}

static void add_result(bank_result *to, const bank_result *r)
{
  to->requests += r->requests;
  to->wavefronts += r->wavefronts;
  to->ideal += r->ideal;
  if (r->worst_degree > to->worst_degree || to->worst_bank < 0) {
    to->worst_bank = r->worst_bank;
    to->worst_degree = r->worst_degree;
    to->worst_lanes = r->worst_lanes;
    to->worst_group = r->worst_group;
  }
}

uint32_t atom_cost(const arch_profile *a, int bank_mode_bytes, int form, int op, uint32_t mask,
                   const uint32_t addr[32], int bytes, bank_result *atom, bank_result *ld)
{
  memset(atom, 0, sizeof *atom);
  memset(ld, 0, sizeof *ld);
  atom->worst_bank = ld->worst_bank = -1;
  if (!mask)
    return 0;
  if (!atom_forms_apply(a))
    form = ATOMSEL_PLAIN;
  switch (form) {
  case ATOMSEL_POPC_INC:
    bank_model(a, bank_mode_bytes, BANK_ST, mask, addr, bytes, atom);
    return 1;
  case ATOMSEL_AGG_ONE:
    bank_model(a, bank_mode_bytes, op, mask & (0u - mask), addr, bytes, atom);
    return 1;
  case ATOMSEL_AGG_SCAN:
    bank_model(a, bank_mode_bytes, op, mask == 0xffffffffu ? 0x80000000u : mask, addr, bytes, atom);
    return 1;
  case ATOMSEL_CAS_LOOP: {
    uint32_t left = mask, n = 0;
    while (left) {
      bank_result r;
      bank_model(a, bank_mode_bytes, BANK_LD, left, addr, bytes, &r);
      add_result(ld, &r);
      bank_model(a, bank_mode_bytes, BANK_ATOM_CAS, left, addr, bytes, &r);
      add_result(atom, &r);
      n += 2;
      /* the lowest lane on each word swaps */
      uint32_t won = 0;
      for (uint32_t g = left; g; g &= g - 1) {
        int l = __builtin_ctz(g);
        int first = 1;
        for (uint32_t h = won; h && first; h &= h - 1)
          if (addr[__builtin_ctz(h)] == addr[l])
            first = 0;
        if (first)
          won |= 1u << l;
      }
      left &= ~won;
    }
    return n;
  }
  default:
    bank_model(a, bank_mode_bytes, op, mask, addr, bytes, atom);
    return 1;
  }
}
