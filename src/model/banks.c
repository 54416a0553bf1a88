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
 * groups; ideal = the number of non-empty groups (the conflict-free cost).
 *
 * Rules and sources:
 *  CC 5.x-9.x [PG-5]: 32 banks of 4 bytes, bank = (addr / 4) % 32; lanes on
 *   one 32-bit word are served at once (loads: broadcast/multicast; stores:
 *   one lane writes); bytes of one word never conflict [PG-5 "Shared
 *   Memory", CC 5.x]. 8-byte accesses go by half-warp, 16-byte ones by
 *   quarter-warp [HW: stride-1 LDS.64 = 2 wavefronts, LDS.128 = 4]. For
 *   LOADS, when every active lane n has the same address as lane n^1 (or
 *   every one as lane n^2) the return data is packed and the grouping
 *   doubles: 8-byte by the whole warp, 16-byte by half-warp [NVIDIA forum,
 *   "Unexpected shared memory bank conflict", CC 7.0-7.5: LDS.128 4 -> 2
 *   requests; HW: 128-bit load with lanes 0-15 on one address and 16-31 on
 *   another takes 2]. Atomics: lanes on one word are not merged [HW]; each
 *   lane is a unit of its own. All of this is to be confirmed by the
 *   recorded vectors in tests/hw/banks (vector names are given there).
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
 * CC 5.x section of later guides. [HW] /work/shared/HARDWARE.md. */
#include "model/banks.h"

#include <string.h>

/* Address-to-bank mapping of one generation / mode. */
typedef struct unit_map {
  uint32_t bank_mask;  /* banks - 1 */
  int bank_shift;      /* bank = (addr >> bank_shift) & bank_mask */
  int key_shift;       /* same bank and same addr >> key_shift: one unit */
  uint32_t piece;      /* bytes a piece covers: the bank width */
  int count_lanes;     /* 1: every lane is its own unit (atomics) */
} unit_map;

/* Worst group seen so far. */
typedef struct worst {
  uint32_t degree, lanes, group;
  int bank;
} worst;

static void note_worst(worst *w, uint32_t degree, int bank, uint32_t lanes,
                       uint32_t group)
{
  if (degree > w->degree) {
    w->degree = degree;
    w->bank = bank;
    w->lanes = lanes;
    w->group = group;
  }
}

/* Passes the lanes of `group` need: the largest number of distinct units in
 * one bank. Records the busiest bank in *w. */
static uint32_t group_degree(const unit_map *m, uint32_t group,
                             const uint32_t addr[32], uint32_t bytes, worst *w)
{
  if (!group)
    return 0;
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
    note_worst(w, 1, (int)((addr[lane] >> m->bank_shift) & m->bank_mask),
               1u << lane, group);
    return 1;
  }

  /* Per bank, a list of distinct units with the lanes that touch them. */
  struct { uint32_t key, lanes; int next; } ent[32 * 4];
  int head[32], n = 0;
  uint32_t cnt[32] = {0}, lanes_of[32] = {0};
  for (int b = 0; b < 32; b++)
    head[b] = -1;
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
static uint32_t cc1_read_passes(uint32_t group, const uint32_t addr[32],
                                uint32_t off, worst *w)
{
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
      if (__builtin_popcount(per_bank[b]) > __builtin_popcount(per_bank[bb]))
        bb = b;
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
        if (((addr[l2] + off) >> 2) == word)
          same |= 1u << l2;
      }
      if ((uint32_t)__builtin_popcount(same) > best) {
        best = (uint32_t)__builtin_popcount(same);
        word_lanes = same;
      }
    }
    left &= ~word_lanes;
    for (int b = 0; b < 16; b++)
      if (b != bb && per_bank[b])
        left &= ~(per_bank[b] & (0u - per_bank[b])); /* its lowest lane */
    passes++;
  }
  note_worst(w, passes, first_bank, first_lanes, group);
  return passes;
}

/* Lanes whose partner lane n^x, when active, has the same address. */
static int partners_agree(uint32_t active, const uint32_t addr[32], int x)
{
  for (uint32_t g = active; g; g &= g - 1) {
    int lane = __builtin_ctz(g);
    int p = lane ^ x;
    if (((active >> p) & 1u) && addr[p] != addr[lane])
      return 0;
  }
  return 1;
}

static const uint32_t HALVES[2] = {0x0000FFFFu, 0xFFFF0000u};
static const uint32_t QUARTERS[4] = {0x000000FFu, 0x0000FF00u, 0x00FF0000u,
                                     0xFF000000u};

void bank_model(const arch_profile *a, int bank_mode_bytes, int op,
                uint32_t active_mask, const uint32_t addr[32], int access_bytes,
                bank_result *out)
{
  worst w = {0, 0, 0, -1};
  uint32_t bytes = access_bytes <= 1 ? 1 : access_bytes <= 2 ? 2
                 : access_bytes <= 4 ? 4 : access_bytes <= 8 ? 8 : 16;
  uint32_t wf = 0, ideal = 0;
  memset(out, 0, sizeof *out);
  out->worst_bank = -1;
  if (!active_mask)
    return;
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
    if (op == BANK_ST)
      m1.piece = 1; /* distinct byte addresses conflict: the key is the address */
    for (uint32_t s = 0; s < nsplit; s++) {
      uint32_t sub[32];
      for (int l = 0; l < 32; l++)
        sub[l] = addr[l] + s * 4;
      for (int h = 0; h < 2; h++) {
        uint32_t g = active_mask & HALVES[h];
        if (!g)
          continue;
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
        if (!g)
          continue;
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
    if (bytes == 8) {
      if (op == BANK_LD && (partners_agree(active_mask, addr, 1) ||
                            partners_agree(active_mask, addr, 2))) {
        ngroups = 1;
      } else {
        groups = HALVES;
        ngroups = 2;
      }
    } else if (bytes == 16) {
      if (op == BANK_LD && (partners_agree(active_mask, addr, 1) ||
                            partners_agree(active_mask, addr, 2))) {
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
    if (!g)
      continue;
    ideal++;
    wf += group_degree(&m, g, addr, bytes, &w);
  }

done:
  out->wavefronts = wf;
  out->ideal = ideal;
  out->worst_bank = w.bank;
  out->worst_degree = w.degree;
  out->worst_lanes = w.lanes;
  out->worst_group = w.group;
}
