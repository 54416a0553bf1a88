/* banks.c: how many passes (wavefronts) the shared-memory banks need for one
 * warp instruction, per generation.
 *
 * Common core: a group of lanes is served together; every lane access is cut
 * into "pieces" of the bank width (4 bytes, or 8 in Kepler's 8-byte mode);
 * a piece lives in bank (addr >> bank_shift) % banks; pieces of one bank that
 * fall in the same bank "unit" (addr >> key_shift) are served by one access
 * (broadcast for loads, one write for stores). The group needs as many
 * passes as its busiest bank has distinct units. The request is cut into
 * groups by the generation's rules below; wavefronts = sum over non-empty
 * groups; ideal = the number of non-empty groups (the conflict-free cost;
 * 5.x+ compare-and-swap: see R8).
 *
 * Rules and sources:
 *  CC 5.x-9.x [PG-5]: 32 banks of 4 bytes, bank = (addr / 4) % 32; the
 *   busiest bank's distinct words give the passes [PG-5 "Shared Memory",
 *   CC 5.x]. Measured on H200 (sm_90, Nsight Compute 2025.3.1), the 308
 *   single-warp kernels of tests/hw/banks (vectors.tsv; names below), every
 *   one reproduced exactly by the rules R1-R8:
 *  R1 Loads AND stores of up to 4 bytes: lanes on one 32-bit word are one
 *   unit (loads: broadcast/multicast; stores: one write), whichever bytes of
 *   it they touch; distinct words of one bank conflict. Measured on H200,
 *   vectors ld_u32_s0..s33, s64, s128 and st_u32_s* (stride s words:
 *   gcd(s, 32) passes), ld/st_u32_mc{2,4,8,16}_samebank (G lanes per word,
 *   32/G words in bank 0: 32/G passes, same for stores), *_diffbank and
 *   *_x16pairs (1),
 *   ld/st_u32_two_words_bank0 (2), ld_u32_guide_multicast, *_rand*; u8/u16:
 *   ld/st_u8_4perword_bank0 (4 lanes on each of 8 words of bank 0: 8, not
 *   32), ld/st_u16_2perword_bank0 (16), ld/st_u8_s1, ld/st_u16_s1 (1). With
 *   every lane a unit of its own (no merging) 74 vectors would differ; with
 *   distinct bytes of a word conflicting, 10.
 *  R2 8-byte accesses are served by half-warp (lanes 0-15, 16-31) and
 *   16-byte ones by quarter-warp (8 lanes), each group covering 2 or 4
 *   banks per lane: 128 bytes of data per pass. Measured on H200, vectors
 *   ld/st_u64_s1 and ld_v2u32_s1 (2 wavefronts, 0 conflicts), ld/st_v4_s1
 *   and ld_f4_s1 (4, 0), ld/st_u64_s2 (4, 2), ld/st_v4_s2 (8, 4), ld_v4_s8
 *   (32, 28), ld_u64_s16 (32, 30), ld_u64_x4/x8/x16 and ld_v4_x4/x8/x16
 *   (no fewer passes when lanes n and n^4, n^8 or n^16 share an address).
 *  R3 Pairing, LOADS only: when every active lane n whose partner n^1 is
 *   active has the partner's address, or else the same holds for partner
 *   n^2, the request takes twice as many lanes per group: 8-byte loads by
 *   the whole warp, 16-byte loads by half-warp. Measured on H200, vectors
 *   ld_u64_x1/x2, ld_v2u32_x1 and merge_ld2_x1 (1 wavefront), ld_v4_x1/x2
 *   and ld_f4_x1 (2), ld_u64_s0, ld_u64_half_uniform, ld_u64_quarter_uniform
 *   (1), ld_v4_s0, ld_v4_half_uniform, ld_v4_quarter_uniform, ld_v4_forum_p2
 *   (2: the doubling happens once, never to a whole warp of 16-byte lanes),
 *   ld_u64_x1_s2 (2 wavefronts, 1 conflict: one group of 16 addresses at
 *   stride 16 B), ld_u64_x1_s16 (16, 15), ld_v4_x1_s2 (4, 2), ld_v4_x1_s8
 *   (16, 14). Not n^3: ld_v4_x3 takes 4. Without R3, 25 vectors differ;
 *   with n^1 only, 3 (ld_u64_x2, ld_v4_x2, ld_u64_s1_m33333333).
 *  R4 In R3 a lane whose partner is inactive agrees vacuously: a partial
 *   mask with at most one active lane per pair also pairs. Measured on H200,
 *   vectors ld_u64_s1_m55555555 (16 even lanes at stride 16 B, one group of
 *   the whole warp: lanes 2k and 2k+16 meet in banks 4k, 4k+1: 2
 *   wavefronts, 1 conflict; half-warps would be 2 and 0),
 *   ld_u64_s1_m33333333 (pairs by n^2: 2, 1), ld_v4_s1_m01010101 (lanes
 *   0, 8, 16, 24 all in banks 0-3: halves of 2 lanes, 4 wavefronts, 2
 *   conflicts; quarters would be 4 and 0), ld_v4_s1_m11111111 and
 *   ld_v4_s1_m55555555 (4, 2). Requiring both lanes of a pair active,
 *   these 5 vectors differ.
 *  R5 Stores never pair: 8-byte stores go by half-warp and 16-byte ones by
 *   quarter-warp whatever their addresses. Measured on H200, vectors
 *   st_u64_s0, st_u64_x1, st_u64_x16, st_u64_half_uniform, st_v2u32_s1 (2
 *   wavefronts, 0 conflicts), st_v4_s0, st_v4_x1/x2/x16, st_v4_half_uniform,
 *   st_v4_quarter_uniform, st_v4_forum_p2 (4, 0), st_u64_x1_s2 (2, 0),
 *   st_u64_s1_m55555555 (2, 0), st_v4_s1_m55555555 and st_v4_s1_m01010101
 *   (4, 0). With stores pairing as loads do, these 13 differ.
 *  R6 Partial masks: inactive lanes take no part; a group with no active
 *   lane costs nothing, and "ideal" (wavefronts - bank conflicts in Nsight
 *   Compute) is the number of groups with an active lane. Measured on H200,
 *   vectors ld_u32_s32_m* and ld_u32_s32_div_* (k active lanes of one bank:
 *   k wavefronts, k - 1 conflicts), ld_u64_s1_m0000ffff / mffff0000 (1),
 *   ld_u64_s1_m00ff00ff (lanes 0-7, 16-23: 2 wavefronts, 0 conflicts: two
 *   half-warps, not one 128-byte pass with a conflict), ld_v4_s1_m000f000f
 *   (2, 0), st_v4_s1_m0000ffff (2, 0), ld_v4_s8_m000000ff (8, 7). Neither
 *   ceil(active lanes x bytes / 128) (27 vectors besides the CAS ones
 *   differ) nor ceil(distinct bytes / 128) (33 differ) is the ideal.
 *  R7 Atomics (ATOMS: add, max, exch, red) never merge lanes: every active
 *   lane is a unit of its own, so lanes on one word conflict like distinct
 *   words of one bank; 8-byte atomics go by half-warp and never pair (R5).
 *   Measured on H200, vectors atom_add_s0, atom_max_s0, atom_exch_s0,
 *   red_add_s0 (32 wavefronts, 31 conflicts), atom_add_g2, atom_exch_g2,
 *   red_add_g2 (2 lanes per word: 2, 1), atom_add_g4/g16 (4 and 16
 *   wavefronts),
 *   atom_add_s0_m0000ffff (16, 15), atom_add_s1 (1, 0), atom_exch64_s0
 *   (two half-warps of 16 lanes: 32, 30), atom_exch64_x1 (4, 2),
 *   atom_exch64_s1 (2, 0). Merging lanes on a word, 20 vectors differ.
 *   (These are plain ATOMS. What ptxas emits instead for some atomics -
 *   ATOMS.POPC.INC, warp aggregation, LDS + ATOMS.CAST.SPIN loops - is
 *   counted by model/atomcost.c, measured in tests/hw/model.)
 *  R8 Compare-and-swap (atom.cas, ATOMS.CAS): each pass of R7 costs 2
 *   wavefronts, but Nsight Compute's bank conflicts stay those of R7
 *   (passes - groups), so ideal = passes + groups. Measured on H200,
 *   vectors atom_cas_s0 (32 passes: 64 wavefronts, 31 conflicts; exch on
 *   the same addresses: 32, 31), atom_cas_s1 (2, 0), atom_cas_g2 (4, 1),
 *   atom_cas64_s1 (half-warps, 1 pass each: 4, 0). Only measured with the
 *   compare failing or swapping in an equal value (the array is not
 *   initialised), so whether a successful swap costs the same is open.
 *  These rules hold on 9.0 by measurement; for 5.x-8.x they are assumed (the
 *   pairing of R3 matches the NVIDIA forum thread "Unexpected shared memory
 *   bank conflict", CC 7.0-7.5: LDS.128 with pairs, 4 -> 2 requests).
 *   Untested: an R3 pattern that pairs by n^1 in one part of the warp and
 *   by n^2 in another (smemu then does not pair); 16-byte loads where one
 *   half-warp pairs and the other does not (smemu decides for the warp).
 *  CC 3.x [PG-5 F.5.3]: 32 banks, 64 bits per bank per clock. 8-byte mode:
 *   bank = (addr / 8) % 32, any sub-word of one 64-bit word is served at once.
 *   4-byte mode: bank = (addr / 4) % 32, and words i and i+32 of one
 *   64-word-aligned segment are served at once (unit = addr / 256). Up to
 *   8 bytes per lane: whole warp. 16 bytes: by half-warp (unverified:
 *   256 bytes per pass).
 *  CC 2.x [PG-5 F.4.3]: 32 banks of 4 bytes, multicast of any number of
 *   words; 64-bit accesses conflict only within a half-warp (groups =
 *   half-warps); 128-bit by quarter-warp, "add 1 to the maximum number of
 *   threads in a quarter-warp that access different addresses belonging to
 *   the same bank" (passes = degree + 1 per quarter).
 *  CC 1.x [PG-5 F.3.3]: 16 banks, bank = (addr / 4) % 16; a warp request is
 *   two independent half-warp requests; accesses wider than 32 bits are
 *   split into 32-bit accesses. Reads: per pass one broadcast word serves
 *   all its lanes and every other bank serves one lane (the guide's right
 *   "broadcast" figure is 2-way on 1.x, so a second multicast word costs a
 *   pass); which word is broadcast is unspecified, smemu picks greedily the
 *   word in the bank with most lanes left. 8- and 16-bit reads of one word
 *   conflict unless it is the broadcast word. Writes: one lane per distinct
 *   address ("only one thread per half-warp performs a write"), distinct
 *   byte addresses of one bank conflict.
 * [PG-5] CUDA C Programming Guide 5.0, Appendix F (F.3.3, F.4.3, F.5.3);
 * CC 5.x section of later guides. [HW] /work/shared/HARDWARE.md (leads);
 * the H200 measurements: tests/hw/banks/vectors.tsv (from ncu.csv). */
#include "model/banks.h"

#include <string.h>

/* Address-to-bank mapping of one generation / mode. */
typedef struct unit_map {
  uint32_t bank_mask; /* banks - 1 */
  int bank_shift;     /* bank = (addr >> bank_shift) & bank_mask */
  int key_shift;      /* same bank and same addr >> key_shift: one unit */
  uint32_t piece;     /* bytes a piece covers: the bank width */
  int count_lanes;    /* 1: every lane is its own unit (atomics) */
} unit_map;

/* Worst group seen so far. */
typedef struct worst {
  uint32_t degree, lanes, group;
  int bank;
} worst;

static void note_worst(worst *w, uint32_t degree, int bank, uint32_t lanes, uint32_t group) {
  if (degree > w->degree) {
    w->degree = degree;
    w->bank = bank;
    w->lanes = lanes;
    w->group = group;
  }
}

/* Passes the lanes of `group` need: the largest number of distinct units in
 * one bank. Records the busiest bank in *w. */
static uint32_t group_degree(const unit_map *m, uint32_t group, const uint32_t addr[32], uint32_t bytes,
                             worst *w) {
  if (!group) return 0;
  uint32_t npieces = bytes > m->piece ? bytes / m->piece : 1;
  uint32_t align = bytes > m->piece ? bytes : m->piece;

  /* Fast path: no bank touched twice. */
  uint32_t seen = 0;
  int clash = 0;
  for (uint32_t g = group; g && !clash; g &= g - 1) {
    int lane = __builtin_ctz(g);
    uint32_t a = addr[lane] & ~(align - 1);
    for (uint32_t p = 0; p < npieces; p++) {
      uint32_t bit = 1u << (((a + p * m->piece) >> m->bank_shift) & m->bank_mask);
      if (seen & bit) {
        clash = 1;
        break;
      }
      seen |= bit;
    }
  }
  if (!clash) {
    int lane = __builtin_ctz(group);
    note_worst(w, 1, (int)((addr[lane] >> m->bank_shift) & m->bank_mask), 1u << lane, group);
    return 1;
  }

  /* Per bank, a list of distinct units with the lanes that touch them. */
  struct {
    uint32_t key, lanes;
    int next;
  } ent[32 * 4];
  int head[32], n = 0;
  uint32_t cnt[32] = {0}, lanes_of[32] = {0};
  for (int b = 0; b < 32; b++) head[b] = -1;
  for (uint32_t g = group; g; g &= g - 1) {
    int lane = __builtin_ctz(g);
    uint32_t a = addr[lane] & ~(align - 1);
    for (uint32_t p = 0; p < npieces; p++) {
      uint32_t pa = a + p * m->piece;
      uint32_t b = (pa >> m->bank_shift) & m->bank_mask;
      uint32_t key = pa >> m->key_shift;
      int e = -1;
      if (!m->count_lanes)
        for (e = head[b]; e >= 0 && ent[e].key != key; e = ent[e].next)
          ;
      if (e < 0) {
        ent[n].key = key;
        ent[n].lanes = 0;
        ent[n].next = head[b];
        head[b] = e = n++;
        cnt[b]++;
      }
      ent[e].lanes |= 1u << lane;
      lanes_of[b] |= 1u << lane;
    }
  }
  uint32_t best = 0;
  int bb = 0;
  for (int b = 0; b <= (int)m->bank_mask; b++)
    if (cnt[b] > best) {
      best = cnt[b];
      bb = b;
    }
  note_worst(w, best, bb, lanes_of[bb], group);
  return best;
}

/* 1.x read of one half-warp (32-bit or narrower pieces at addr + off):
 * passes of the broadcast procedure of [PG-5 F.3.3.2]. */
static uint32_t cc1_read_passes(uint32_t group, const uint32_t addr[32], uint32_t off, worst *w) {
  uint32_t left = group, passes = 0;
  int first_bank = -1;
  uint32_t first_lanes = 0;
  while (left) {
    uint32_t per_bank[16] = {0};
    for (uint32_t g = left; g; g &= g - 1) {
      int lane = __builtin_ctz(g);
      per_bank[((addr[lane] + off) >> 2) & 15] |= 1u << lane;
    }
    /* Broadcast word: in the bank with most lanes left, the word most of
     * them read (ties: lowest lane). */
    int bb = 0;
    for (int b = 1; b < 16; b++)
      if (__builtin_popcount(per_bank[b]) > __builtin_popcount(per_bank[bb])) bb = b;
    if (passes == 0) {
      first_bank = bb;
      first_lanes = per_bank[bb];
    }
    uint32_t word_lanes = 0, best = 0;
    for (uint32_t g = per_bank[bb]; g; g &= g - 1) {
      int lane = __builtin_ctz(g);
      uint32_t word = (addr[lane] + off) >> 2, same = 0;
      for (uint32_t h = per_bank[bb]; h; h &= h - 1) {
        int l2 = __builtin_ctz(h);
        if (((addr[l2] + off) >> 2) == word) same |= 1u << l2;
      }
      if ((uint32_t)__builtin_popcount(same) > best) {
        best = (uint32_t)__builtin_popcount(same);
        word_lanes = same;
      }
    }
    left &= ~word_lanes;
    for (int b = 0; b < 16; b++)
      if (b != bb && per_bank[b]) left &= ~(per_bank[b] & (0u - per_bank[b])); /* its lowest lane */
    passes++;
  }
  note_worst(w, passes, first_bank, first_lanes, group);
  return passes;
}

/* R3/R4: every active lane whose partner lane n^x is active has the
 * partner's address (an inactive partner agrees). */
static int partners_agree(uint32_t active, const uint32_t addr[32], int x) {
  for (uint32_t g = active; g; g &= g - 1) {
    int lane = __builtin_ctz(g);
    int p = lane ^ x;
    if (((active >> p) & 1u) && addr[p] != addr[lane]) return 0;
  }
  return 1;
}

static const uint32_t HALVES[2] = {0x0000FFFFu, 0xFFFF0000u};
static const uint32_t QUARTERS[4] = {0x000000FFu, 0x0000FF00u, 0x00FF0000u, 0xFF000000u};

void bank_model(const arch_profile *a, int bank_mode_bytes, int op, uint32_t active_mask,
                const uint32_t addr[32], int access_bytes, bank_result *out) {
  worst w = {0, 0, 0, -1};
  int cas = op == BANK_ATOM_CAS, double_passes = 0;
  if (cas) op = BANK_ATOM; /* older generations: an atomic like any other */
  uint32_t bytes = access_bytes <= 1   ? 1
                   : access_bytes <= 2 ? 2
                   : access_bytes <= 4 ? 4
                   : access_bytes <= 8 ? 8
                                       : 16;
  uint32_t wf = 0, ideal = 0;
  memset(out, 0, sizeof *out);
  out->worst_bank = -1;
  if (!active_mask) return;
  out->requests = 1;

  /* The lane groups served together, and the passes each one costs. */
  const uint32_t *groups = &active_mask;
  int ngroups = 1;
  unit_map m = {31, 2, 2, 4, op == BANK_ATOM};

  switch (a->bank_rules) {
  case BANK_RULES_CC1: {
    /* Half-warps; wider accesses are separate 32-bit accesses. */
    uint32_t nsplit = bytes > 4 ? bytes / 4 : 1;
    unit_map m1 = {15, 2, op == BANK_ST ? 0 : 2, 4, op == BANK_ATOM};
    if (op == BANK_ST) m1.piece = 1; /* distinct byte addresses conflict: the key is the address */
    for (uint32_t s = 0; s < nsplit; s++) {
      uint32_t sub[32];
      for (int l = 0; l < 32; l++) sub[l] = addr[l] + s * 4;
      for (int h = 0; h < 2; h++) {
        uint32_t g = active_mask & HALVES[h];
        if (!g) continue;
        ideal++;
        if (op == BANK_LD)
          wf += cc1_read_passes(g, sub, 0, &w);
        else
          wf += group_degree(&m1, g, sub, 1, &w);
      }
    }
    goto done;
  }
  case BANK_RULES_CC2:
    if (bytes == 8) {
      groups = HALVES;
      ngroups = 2;
    } else if (bytes == 16) {
      groups = QUARTERS;
      ngroups = 4;
      for (int q = 0; q < 4; q++) {
        uint32_t g = active_mask & QUARTERS[q];
        if (!g) continue;
        ideal++;
        wf += group_degree(&m, g, addr, bytes, &w) + 1;
      }
      goto done;
    }
    break;
  case BANK_RULES_CC3:
    if (bank_mode_bytes == 8 && a->bank8_selectable) {
      m.bank_shift = 3;
      m.key_shift = 3;
      m.piece = 8;
    } else {
      m.key_shift = 8; /* words i and i+32 of a 64-word segment pair up */
    }
    if (bytes == 16) {
      groups = HALVES;
      ngroups = 2;
    }
    break;
  case BANK_RULES_CC5:
  default:
    /* R2-R5: half-warps for 8 bytes, quarter-warps for 16; loads whose
     * lanes agree with partner n^1 (or n^2) take groups twice as large. */
    double_passes = cas; /* R8 */
    if (bytes == 8) {
      if (op == BANK_LD && (partners_agree(active_mask, addr, 1) || partners_agree(active_mask, addr, 2))) {
        ngroups = 1;
      } else {
        groups = HALVES;
        ngroups = 2;
      }
    } else if (bytes == 16) {
      if (op == BANK_LD && (partners_agree(active_mask, addr, 1) || partners_agree(active_mask, addr, 2))) {
        groups = HALVES;
        ngroups = 2;
      } else {
        groups = QUARTERS;
        ngroups = 4;
      }
    }
    break;
  }

  for (int i = 0; i < ngroups; i++) {
    uint32_t g = active_mask & groups[i];
    if (!g) continue;
    ideal++;
    wf += group_degree(&m, g, addr, bytes, &w);
  }
  /* R8: a compare-and-swap takes 2 wavefronts per pass; the conflicts
   * Nsight Compute reports stay passes - groups. */
  if (double_passes) {
    ideal += wf;
    wf *= 2;
  }

done:
  out->wavefronts = wf;
  out->ideal = ideal;
  out->worst_bank = w.bank;
  out->worst_degree = w.degree;
  out->worst_lanes = w.lanes;
  out->worst_group = w.group;
}
