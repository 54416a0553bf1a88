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
 *  AGG_LOOP: the CAS loop below run by the lowest active lane alone: 1 LDS,
 *   1 CAST.SPIN of 2 wavefronts (add64_su_s0).
 *  AGG_SCAN: a full warp: one ATOMS.ADD by lane 31; a partial warp: the
 *   plain ATOMS.ADD of every active lane (addreg_used_su_s0, _m0000ffff,
 *   _m00000001).
 *  CAS_LOOP: per iteration one LDS (load family, the usual load rules) and
 *   one ATOMS.CAST.SPIN by the lanes that have not yet swapped. CAST.SPIN
 *   is no ATOMS.CAS (R8): it makes a single pass per lane group (the warp
 *   for 4 bytes, each half-warp for 8: R2/R5) and costs 2 wavefronts per
 *   group with no bank conflicts counted; in that pass a lane swaps only if
 *   no lower lane of the warp swapped its word and none of its group took
 *   one of its banks; the others fail and loop. Measured: fadd_s0 (32 lanes on one word: 32
 *   iterations, 64 wavefronts, 0 conflicts), dadd_s0 / add64_s0 (64-bit:
 *   lanes 0-15 win first, so 16 iterations of 2 half-warps then 16 of one:
 *   96), add64_s16 (32 distinct words in banks 0-1: one lane per half-warp
 *   per pass, 16 iterations; its LDS.64 sum 272 wavefronts), fadd_g2,
 *   dadd_g2, fadd_rand64 (2, 2, 4 iterations), fadd_s1, dadd_s1 (1).
 *   That is one warp alone; with several warps on the same words the GPU
 *   iterates more (another warp swaps in between: tests/programs
 *   atomic_double), which smemu does not model: counts are those of the
 *   uncontended case. A min/max loop compares after the LDS and skips the
 *   CAS in lanes whose word would not change (max64_s0/s1 on the GPU's
 *   uninitialised memory: the LDS only; max64_init_*, min64_init_s1): the
 *   emulator passes the words and operands (atom_minmax), and a winner's
 *   value is what the remaining lanes on its word compare with next. */
#include "model/atomcost.h"

#include <string.h>

#include "model/atomsel.h"

static const uint32_t HALVES[2] = {0x0000FFFFu, 0xFFFF0000u};
static const uint32_t FULL = 0xFFFFFFFFu;

int atom_forms_apply(const arch_profile *a) { return a && a->major >= 7; }

static void add_result(bank_result *to, const bank_result *r) {
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

/* Whether v replaces word m in a min/max loop. */
static int improves(const atom_minmax *mm, uint64_t m, uint64_t v, int bytes) {
  if (bytes < 8) {
    m &= 0xffffffffu;
    v &= 0xffffffffu;
  }
  if (mm->is_signed) {
    int64_t sm = bytes < 8 ? (int32_t)m : (int64_t)m, sv = bytes < 8 ? (int32_t)v : (int64_t)v;
    return mm->max ? sv > sm : sv < sm;
  }
  return mm->max ? v > m : v < m;
}

uint32_t atom_cost(const arch_profile *a, int bank_mode_bytes, int form, int op, uint32_t mask,
                   const uint32_t addr[32], int bytes, const atom_minmax *mm, bank_result *atom,
                   bank_result *ld) {
  memset(atom, 0, sizeof *atom);
  memset(ld, 0, sizeof *ld);
  atom->worst_bank = ld->worst_bank = -1;
  if (!mask) return 0;
  if (!atom_forms_apply(a)) form = ATOMSEL_PLAIN;
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
  case ATOMSEL_AGG_LOOP: /* the leader alone loops */
    mask &= 0u - mask;
    /* fall through */
  case ATOMSEL_CAS_LOOP: {
    uint32_t left = mask, n = 0;
    const uint32_t *groups = bytes > 4 ? HALVES : &FULL;
    int ngroups = bytes > 4 ? 2 : 1;
    uint32_t pieces = bytes > 4 ? (uint32_t)bytes / 4 : 1;
    uint64_t cur[32]; /* min/max: each lane's word as the loop sees it */
    if (mm) memcpy(cur, mm->mem, sizeof cur);
    while (left) {
      bank_result r;
      bank_model(a, bank_mode_bytes, BANK_LD, left, addr, bytes, &r);
      add_result(ld, &r);
      n++;
      if (mm) /* lanes whose word would not change leave without a CAS */
        for (uint32_t h = left; h; h &= h - 1) {
          int l = __builtin_ctz(h);
          if (!improves(mm, cur[l], mm->val[l], bytes)) left &= ~(1u << l);
        }
      if (!left) break;
      uint32_t won = 0;
      atom->requests++;
      for (int g = 0; g < ngroups; g++) {
        uint32_t lanes = left & groups[g], banks = 0;
        if (!lanes) continue;
        atom->wavefronts += 2;
        atom->ideal += 2;
        for (uint32_t h = lanes; h; h &= h - 1) {
          int l = __builtin_ctz(h);
          uint32_t mine = 0;
          for (uint32_t p = 0; p < pieces; p++)
            mine |= 1u << (((addr[l] & ~(uint32_t)(bytes - 1)) / 4 + p) & 31);
          int taken = 0; /* a lower lane of the warp swapped this word */
          for (uint32_t w = won; w && !taken; w &= w - 1) taken = addr[__builtin_ctz(w)] == addr[l];
          if (!taken && !(banks & mine)) {
            banks |= mine;
            won |= 1u << l;
          }
        }
      }
      n++;
      left &= ~won;
      if (mm) /* the winners' values are what the others load next */
        for (uint32_t h = won; h; h &= h - 1) {
          int l = __builtin_ctz(h);
          for (uint32_t g = left; g; g &= g - 1)
            if (addr[__builtin_ctz(g)] == addr[l]) cur[__builtin_ctz(g)] = mm->val[l];
        }
    }
    return n;
  }
  default:
    bank_model(a, bank_mode_bytes, op, mask, addr, bytes, atom);
    return 1;
  }
}
