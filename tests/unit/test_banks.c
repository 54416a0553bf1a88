/* test_banks.c: the bank model against the Programming Guide's worked
 * examples (5.x+, 1.x half-warps, 2.x, 3.x 4- and 8-byte modes) and against
 * every kernel recorded on a GPU in tests/hw/banks (corpus.tsv says what each
 * kernel does, vectors.tsv what Nsight Compute counted; an atomic whose note
 * starts "atom.cas." is modelled as BANK_ATOM_CAS). Kernels listed in
 * tests/hw/banks/known_differences.txt are reported but not failed. The rules
 * measured on H200 (R1-R8 of banks.c) have worked examples of their own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/arch.h"
#include "model/banks.h"

/* ------------------------------------------------------------ helpers ---- */

static bank_result run(const char *arch, int mode, int op, uint32_t mask,
                       const uint32_t addr[32], int bytes)
{
  const arch_profile *a = arch_find(arch);
  assert_non_null(a);
  bank_result r;
  bank_model(a, mode, op, mask, addr, bytes, &r);
  return r;
}

/* Lane l at byte address l * stride_bytes + base. */
static void strided(uint32_t addr[32], uint32_t stride_bytes, uint32_t base)
{
  for (int l = 0; l < 32; l++)
    addr[l] = base + (uint32_t)l * stride_bytes;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
  while (b) {
    uint32_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

#define ALL 0xFFFFFFFFu

/* ------------------------------------------------ CC 5.x and later ------- */

/* "32-Bit Strided Access": threads tid and tid+n share a bank when s*n is a
 * multiple of 32, so stride s costs gcd(s, 32) passes; odd strides are free. */
static void test_cc5_strides(void **state)
{
  (void)state;
  uint32_t addr[32];
  for (uint32_t s = 1; s <= 64; s++) {
    strided(addr, 4 * s, 0);
    bank_result r = run("sm_90", 4, BANK_LD, ALL, addr, 4);
    assert_int_equal(r.requests, 1);
    assert_int_equal(r.ideal, 1);
    assert_int_equal(r.wavefronts, gcd(s, 32));
    r = run("sm_75", 4, BANK_ST, ALL, addr, 4);
    assert_int_equal(r.wavefronts, gcd(s, 32));
  }
  strided(addr, 4 * 32, 0);
  bank_result r = run("sm_90", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(bank_conflicts(&r), 31);
  assert_int_equal(r.worst_bank, 0);
  assert_int_equal(r.worst_degree, 32);
  assert_int_equal(r.worst_lanes, ALL);
}

/* "Irregular accesses" figure: a permutation, a multicast (threads 3, 4, 6,
 * 7 and 9 on one word of bank 5) and a broadcast are all conflict-free. */
static void test_cc5_broadcast_multicast(void **state)
{
  (void)state;
  uint32_t addr[32];
  for (int l = 0; l < 32; l++)
    addr[l] = (uint32_t)((l * 7 + 3) % 32) * 4 + 128u * (uint32_t)(l % 5);
  bank_result r = run("sm_90", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 1);

  int bank = 0;
  for (int l = 0; l < 32; l++) {
    if (l == 3 || l == 4 || l == 6 || l == 7 || l == 9) {
      addr[l] = 5 * 4;
    } else {
      if (bank == 5)
        bank++;
      addr[l] = (uint32_t)bank++ * 4;
    }
  }
  r = run("sm_90", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 1);

  strided(addr, 0, 40);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 1);
  /* Two words of one bank, each read by 16 lanes: 2 passes. */
  for (int l = 0; l < 32; l++)
    addr[l] = (l & 1) ? 128 : 0;
  r = run("sm_90", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  /* Bytes and halves of one word never conflict. */
  strided(addr, 1, 0);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 1);
  assert_int_equal(r.wavefronts, 1);
  strided(addr, 2, 0);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 2);
  assert_int_equal(r.wavefronts, 1);
}

/* Wider accesses: stride-1 64-bit loads take 2 wavefronts, 128-bit 4, both
 * conflict-free; a 128-bit load with lanes 0-15 on one address and 16-31 on
 * another takes 2 (HARDWARE.md). */
static void test_cc5_wide(void **state)
{
  (void)state;
  uint32_t addr[32];
  strided(addr, 8, 0);
  bank_result r = run("sm_90", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(bank_conflicts(&r), 0);
  strided(addr, 16, 0);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 16);
  assert_int_equal(r.wavefronts, 4);
  assert_int_equal(bank_conflicts(&r), 0);
  for (int l = 0; l < 32; l++)
    addr[l] = l < 16 ? 0 : 32;
  r = run("sm_90", 4, BANK_LD, ALL, addr, 16);
  assert_int_equal(r.wavefronts, 2);
  /* 32-byte stride: each quarter-warp spans 256 bytes, 2 passes each. */
  strided(addr, 32, 0);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 16);
  assert_int_equal(r.wavefronts, 8);
  assert_int_equal(bank_conflicts(&r), 4);
  /* The 8-byte bank mode is a no-op on 9.0. */
  strided(addr, 8, 0);
  bank_result r8 = run("sm_90", 8, BANK_LD, ALL, addr, 8);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r8.wavefronts, r.wavefronts);
}

/* Inactive lanes take no part. */
static void test_cc5_masks(void **state)
{
  (void)state;
  uint32_t addr[32];
  strided(addr, 128, 0);
  bank_result r = run("sm_90", 4, BANK_LD, 0xFu, addr, 4);
  assert_int_equal(r.wavefronts, 4);
  assert_int_equal(r.worst_lanes, 0xFu);
  r = run("sm_90", 4, BANK_LD, 0x80000000u, addr, 4);
  assert_int_equal(r.wavefronts, 1);
  assert_int_equal(r.worst_bank, 0);
  r = run("sm_90", 4, BANK_LD, 0, addr, 4);
  assert_int_equal(r.requests, 0);
  assert_int_equal(r.wavefronts, 0);
  assert_int_equal(r.ideal, 0);
  assert_int_equal(r.worst_bank, -1);
  strided(addr, 16, 0);
  r = run("sm_90", 4, BANK_ST, 0x000000FFu, addr, 16);
  assert_int_equal(r.wavefronts, 1);
  assert_int_equal(r.ideal, 1);
}

/* R3/R4/R5 of banks.c (measured on H200): pairing by n^1 or n^2 doubles the
 * group of a load; an inactive partner agrees; stores never pair. */
static void test_cc5_pairing(void **state)
{
  (void)state;
  uint32_t addr[32];
  /* ld_u64_s1_m55555555: u64 at stride 8 B, even lanes only. Every active
   * lane's partner n^1 is inactive, so the warp is one group: lanes 2k at
   * byte 16k cover banks (4k, 4k+1) mod 32, so lanes 2k and 2k+16 share
   * banks: 2 passes for 1 group = 2 wavefronts, 1 conflict. */
  strided(addr, 8, 0);
  bank_result r = run("sm_90", 4, BANK_LD, 0x55555555u, addr, 8);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(r.ideal, 1);
  assert_int_equal(bank_conflicts(&r), 1);
  /* st_u64_s1_m55555555: the same as a store goes by half-warp: 8 lanes of
   * 8 B at stride 16 B span 128 B, banks 0-31 once: 1 + 1 = 2, 0 conflicts. */
  r = run("sm_90", 4, BANK_ST, 0x55555555u, addr, 8);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(bank_conflicts(&r), 0);
  /* ld_v4_s1_m01010101: v4 lanes 0, 8, 16, 24 at bytes 0, 128, 256, 384,
   * all in banks 0-3. Pairs vacuously: half-warps of 2 lanes, 2 passes
   * each = 4 wavefronts, ideal 2, 2 conflicts (quarters would be 4, 0). */
  strided(addr, 16, 0);
  r = run("sm_90", 4, BANK_LD, 0x01010101u, addr, 16);
  assert_int_equal(r.wavefronts, 4);
  assert_int_equal(bank_conflicts(&r), 2);
  /* ...and as a store, 4 quarters of one lane: 4 wavefronts, 0 conflicts. */
  r = run("sm_90", 4, BANK_ST, 0x01010101u, addr, 16);
  assert_int_equal(r.wavefronts, 4);
  assert_int_equal(bank_conflicts(&r), 0);
  /* ld_u64_x1_s2: pairs n, n^1 on byte 16 (n / 2): one warp group of 16
   * addresses of 8 B at stride 16 B = 256 B, each bank twice: 2, 1.
   * ld_u64_x2 (pairs n, n^2): 16 addresses of 8 B = 128 B: 1, 0. */
  for (int l = 0; l < 32; l++)
    addr[l] = 16u * (uint32_t)(l >> 1);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(bank_conflicts(&r), 1);
  for (int l = 0; l < 32; l++)
    addr[l] = 8u * (uint32_t)((l & 1) | ((l >> 2) << 1));
  r = run("sm_90", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 1);
  /* ld_v4_x3 (lanes n and n^3 share): no pairing, quarters of 4 distinct
   * 16-byte slots (64 B): 4 wavefronts, 0 conflicts. ld_v4_s0 (one address
   * for all): pairs, but only to half-warps: 2 wavefronts. */
  for (int l = 0; l < 32; l++) {
    int q = l & 3;
    addr[l] = 64u * (uint32_t)(l >> 2) + 16u * (uint32_t)(q == 0 || q == 3 ? 0 : 1);
  }
  r = run("sm_90", 4, BANK_LD, ALL, addr, 16);
  assert_int_equal(r.wavefronts, 4);
  assert_int_equal(bank_conflicts(&r), 0);
  strided(addr, 0, 0);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 16);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(bank_conflicts(&r), 0);
}

/* R1/R7/R8 of banks.c (measured on H200): stores merge lanes on one word as
 * loads do; atomics never merge; a compare-and-swap costs 2 wavefronts per
 * pass while its conflicts stay passes - groups. */
static void test_cc5_stores_atomics(void **state)
{
  (void)state;
  uint32_t addr[32];
  /* st_u32_mc2_samebank: lanes 2k, 2k+1 on word 32k (bank 0): 16 distinct
   * words in bank 0 = 16 wavefronts, 15 conflicts. */
  for (int l = 0; l < 32; l++)
    addr[l] = 128u * (uint32_t)(l >> 1);
  bank_result r = run("sm_90", 4, BANK_ST, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 16);
  assert_int_equal(bank_conflicts(&r), 15);
  /* st_u8_4perword_bank0: 4 lanes on the 4 bytes of each of 8 words of
   * bank 0: 8 wavefronts (not 32). */
  for (int l = 0; l < 32; l++)
    addr[l] = 128u * (uint32_t)(l >> 2) + (uint32_t)(l & 3);
  r = run("sm_90", 4, BANK_ST, ALL, addr, 1);
  assert_int_equal(r.wavefronts, 8);
  /* atom_add_g2: lanes 2k, 2k+1 on word k (16 banks, 2 lanes each): each
   * lane is a unit, 2 passes = 2 wavefronts, 1 conflict; a load would be 1. */
  for (int l = 0; l < 32; l++)
    addr[l] = 4u * (uint32_t)(l >> 1);
  r = run("sm_90", 4, BANK_ATOM, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(bank_conflicts(&r), 1);
  r = run("sm_90", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 1);
  /* atom_cas_g2: the same 2 passes x 2 = 4 wavefronts, conflicts still
   * 2 - 1 = 1 (ideal 3). */
  r = run("sm_90", 4, BANK_ATOM_CAS, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 4);
  assert_int_equal(r.ideal, 3);
  assert_int_equal(bank_conflicts(&r), 1);
  /* atom_cas_s0: 32 lanes on one word: 32 passes, 64 wavefronts, 31
   * conflicts; atom_exch_s0 on the same: 32 wavefronts, 31 conflicts. */
  strided(addr, 0, 0);
  r = run("sm_90", 4, BANK_ATOM_CAS, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 64);
  assert_int_equal(bank_conflicts(&r), 31);
  r = run("sm_90", 4, BANK_ATOM, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 32);
  assert_int_equal(bank_conflicts(&r), 31);
  /* atom_exch64_s0: 8-byte atomics by half-warp, never paired: 16 lanes on
   * one address per half = 16 + 16 = 32 wavefronts, 32 - 2 = 30 conflicts.
   * atom_cas64_s1: stride 8 B, halves of 1 pass, doubled: 4, 0. */
  r = run("sm_90", 4, BANK_ATOM, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 32);
  assert_int_equal(bank_conflicts(&r), 30);
  strided(addr, 8, 0);
  r = run("sm_90", 4, BANK_ATOM_CAS, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 4);
  assert_int_equal(bank_conflicts(&r), 0);
  assert_int_equal(bank_family(BANK_ATOM_CAS), BANK_ATOM);
  /* Older generations: a CAS is an atomic like any other. */
  strided(addr, 0, 0);
  bank_result a = run("sm_35", 4, BANK_ATOM_CAS, ALL, addr, 4);
  r = run("sm_35", 4, BANK_ATOM, ALL, addr, 4);
  assert_int_equal(a.wavefronts, r.wavefronts);
}

/* -------------------------------------------------------- CC 1.x -------- */

/* 16 banks, half-warps: stride s costs gcd(s, 16) passes per half-warp. */
static void test_cc1_strides(void **state)
{
  (void)state;
  uint32_t addr[32];
  for (uint32_t s = 1; s <= 33; s++) {
    strided(addr, 4 * s, 0);
    bank_result r = run("sm_13", 4, BANK_LD, ALL, addr, 4);
    assert_int_equal(r.ideal, 2);
    assert_int_equal(r.wavefronts, 2 * gcd(s, 16));
  }
  /* No conflict between the two half-warps: lanes l and l+16 on distinct
   * words of one bank. */
  for (int l = 0; l < 32; l++)
    addr[l] = (uint32_t)(l % 16) * 4 + (l >= 16 ? 64 : 0);
  bank_result r = run("sm_10", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
}

/* 1.x broadcast: a half-warp reading one word is conflict-free; two words
 * read by several lanes each cost a pass each (the guide's right figure is
 * 2-way on 1.x); char arrays read as shared[tid] conflict, shared[4*tid]
 * do not; doubles (split into 32-bit accesses of stride 2) are 2-way;
 * struct {float x, y, z;} members (stride 3) are free. */
static void test_cc1_broadcast_and_sizes(void **state)
{
  (void)state;
  uint32_t addr[32];
  strided(addr, 0, 8);
  bank_result r = run("sm_12", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  assert_int_equal(bank_conflicts(&r), 0);

  for (int l = 0; l < 32; l++)
    addr[l] = (l % 16) < 8 ? 0 : 4;
  r = run("sm_12", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 4); /* 2 per half-warp */
  r = run("sm_20", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 1); /* multicast from 2.x on */

  strided(addr, 1, 0); /* char data = shared[BaseIndex + tid] */
  r = run("sm_11", 4, BANK_LD, ALL, addr, 1);
  assert_true(bank_conflicts(&r) > 0);
  strided(addr, 4, 0); /* shared[BaseIndex + 4 * tid] */
  r = run("sm_11", 4, BANK_LD, ALL, addr, 1);
  assert_int_equal(bank_conflicts(&r), 0);

  strided(addr, 8, 0); /* double data = shared[BaseIndex + tid] */
  r = run("sm_13", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.ideal, 4);
  assert_int_equal(r.wavefronts, 8);
  strided(addr, 12, 0); /* struct of 3 floats, one member */
  r = run("sm_13", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(bank_conflicts(&r), 0);
  strided(addr, 8, 0); /* struct of 2 floats, one member */
  r = run("sm_13", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 4);

  /* Writes: one lane per address; distinct bytes of a word conflict. */
  strided(addr, 0, 4);
  r = run("sm_13", 4, BANK_ST, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  strided(addr, 1, 0);
  r = run("sm_13", 4, BANK_ST, ALL, addr, 1);
  assert_int_equal(r.wavefronts, 8);
}

/* -------------------------------------------------------- CC 2.x -------- */

static void test_cc2(void **state)
{
  (void)state;
  uint32_t addr[32];
  strided(addr, 8, 0); /* stride two words: 2-way on 2.x */
  bank_result r = run("sm_20", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  /* 64-bit: conflicts only within a half-warp; doubles at stride 1 free. */
  r = run("sm_20", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.ideal, 2);
  assert_int_equal(r.wavefronts, 2);
  strided(addr, 16, 0); /* 64-bit at stride 16 bytes: 2-way in each half */
  r = run("sm_21", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 4);
  /* 128-bit: ways = 1 + the worst bank's distinct addresses per quarter. */
  r = run("sm_20", 4, BANK_LD, ALL, addr, 16);
  assert_int_equal(r.ideal, 4);
  assert_int_equal(r.wavefronts, 8);
  strided(addr, 1, 0); /* chars: no conflict unlike 1.x */
  r = run("sm_20", 4, BANK_LD, ALL, addr, 1);
  assert_int_equal(r.wavefronts, 1);
}

/* -------------------------------------------------------- CC 3.x -------- */

static void test_cc3_modes(void **state)
{
  (void)state;
  uint32_t addr[32];
  /* 4-byte mode: strides 1, 2 and 3 words conflict-free (figure F-2). */
  for (uint32_t s = 1; s <= 3; s++) {
    strided(addr, 4 * s, 0);
    bank_result r = run("sm_30", 4, BANK_LD, ALL, addr, 4);
    assert_int_equal(r.wavefronts, 1);
  }
  /* Words i and i+32 of one 64-word segment pair up; of two segments not. */
  for (int l = 0; l < 32; l++)
    addr[l] = (uint32_t)(l % 16) * 4 + (l >= 16 ? 128 : 0);
  bank_result r = run("sm_35", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 1);
  r = run("sm_20", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  for (int l = 0; l < 32; l++)
    addr[l] = (uint32_t)(l % 16) * 4 + (l >= 16 ? 384 : 0);
  r = run("sm_35", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 2);
  /* 8-byte mode: bank = (addr / 8) % 32; sub-words of one 64-bit word never
   * conflict; doubles at stride 1 take one pass. */
  strided(addr, 4, 0);
  r = run("sm_35", 8, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 1);
  strided(addr, 8, 0);
  r = run("sm_35", 8, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 1);
  r = run("sm_20", 4, BANK_LD, ALL, addr, 8);
  assert_int_equal(r.wavefronts, 2);
  /* Stride 256 bytes: one bank, 32 distinct 64-bit words in either mode. */
  strided(addr, 256, 0);
  r = run("sm_35", 8, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 32);
  r = run("sm_35", 4, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 32);
  /* 8-byte mode, 4-byte loads at stride 128 bytes: 64-bit words 16 l fall
   * in banks 0 and 16, sixteen distinct ones each. */
  strided(addr, 128, 0);
  r = run("sm_30", 8, BANK_LD, ALL, addr, 4);
  assert_int_equal(r.wavefronts, 16);
}

/* ----------------------------------------------- architecture table ------ */

static void test_arch_table(void **state)
{
  (void)state;
  const char *names[] = {"sm_90", "90", "9.0", "compute_90", "sm_90a", "SM_90"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    assert_ptr_equal(arch_find(names[i]), arch_default());
  assert_null(arch_find("sm_100"));
  assert_null(arch_find("banana"));
  assert_null(arch_find(NULL));
  const arch_profile *h = arch_find("sm_90");
  assert_int_equal(h->smem_per_block, 49152);
  assert_int_equal(h->smem_per_block_optin, 232448);
  assert_int_equal(h->smem_per_sm, 233472);
  assert_int_equal(h->smem_reserved_per_block, 1024);
  assert_int_equal(h->sm_count, 132);
  assert_int_equal(arch_find("1.3")->banks, 16);
  assert_int_equal(arch_find("1.3")->request_lanes, 16);
  assert_true(arch_find("3.5")->bank8_selectable);
  assert_false(arch_find("7.0")->bank8_selectable);
  int n = arch_count();
  assert_true(n >= 24);
  for (int i = 0; i < n; i++) {
    const arch_profile *a = arch_at(i);
    assert_ptr_equal(arch_find(a->name), a);
    assert_true(a->smem_per_block <= a->smem_per_block_optin);
    assert_true(a->smem_per_block_optin + a->smem_reserved_per_block <= a->smem_per_sm);
    assert_int_equal(a->max_threads_per_sm, a->max_warps_per_sm * a->warp_size);
    assert_true(a->ncarveouts >= 1 && a->ncarveouts <= ARCH_MAX_CARVEOUTS);
    assert_int_equal(a->carveout_kb[a->ncarveouts - 1] * 1024u, a->smem_per_sm);
  }
  assert_null(arch_at(n));
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_true(arch_print_table(f) > 0);
  fclose(f);
}

/* ----------------------------------------------- hardware vectors -------- */

#define MAXK 1024
#define MAXL 4096

typedef struct line {
  char kernel[96], form[8];
  int op, bytes;
  uint32_t mask, addr[32];
} line;

typedef struct vec {
  char kernel[96];
  long v[9]; /* inst ld st atom, wavefronts ld st atom, conflicts ld st atom */
  int has[9];
} vec;

static line lines[MAXL];
static int nlines;
static vec vecs[MAXK];
static int nvecs;

/* Opens `rel` under the banks directory (env SMEMU_BANKS_DIR, else the
 * repository-relative paths a test may run from). */
static FILE *open_banks(const char *rel)
{
  const char *env = getenv("SMEMU_BANKS_DIR");
  const char *dirs[] = {env, "tests/hw/banks", "../tests/hw/banks",
                        "../../tests/hw/banks"};
  char path[512];
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    if (!dirs[i])
      continue;
    snprintf(path, sizeof path, "%s/%s", dirs[i], rel);
    FILE *f = fopen(path, "r");
    if (f)
      return f;
  }
  return NULL;
}

/* The kind of a corpus line: its counter family (op column), and for
 * atomics the PTX instruction named at the start of the note
 * ("atom.cas.b32: ..."), as the emulator sees it. */
static int op_of(const char *s, const char *note)
{
  if (!strcmp(s, "ld"))
    return BANK_LD;
  if (!strcmp(s, "st"))
    return BANK_ST;
  if (note && !strncmp(note, "atom.cas.", 9))
    return BANK_ATOM_CAS;
  return BANK_ATOM;
}

static void load_corpus(void)
{
  FILE *f = open_banks("corpus.tsv");
  assert_non_null(f);
  char buf[4096];
  nlines = 0;
  while (fgets(buf, sizeof buf, f)) {
    if (buf[0] == '#' || buf[0] == '\n')
      continue;
    assert_true(nlines < MAXL);
    line *L = &lines[nlines];
    char *save = NULL;
    char *k = strtok_r(buf, "\t", &save), *form = strtok_r(NULL, "\t", &save);
    char *op = strtok_r(NULL, "\t", &save), *nb = strtok_r(NULL, "\t", &save);
    char *mask = strtok_r(NULL, "\t", &save), *ad = strtok_r(NULL, "\t\n", &save);
    char *note = strtok_r(NULL, "\t\n", &save);
    assert_non_null(ad);
    snprintf(L->kernel, sizeof L->kernel, "%s", k);
    snprintf(L->form, sizeof L->form, "%s", form);
    L->op = op_of(op, note);
    L->bytes = atoi(nb);
    L->mask = (uint32_t)strtoul(mask, NULL, 16);
    char *p = ad;
    for (int i = 0; i < 32; i++) {
      L->addr[i] = (uint32_t)strtoul(p, &p, 10);
      if (*p == ',')
        p++;
    }
    nlines++;
  }
  fclose(f);
  assert_true(nlines > 150);
}

/* Returns 0 when vectors.tsv is absent (not recorded yet). */
static int load_vectors(void)
{
  FILE *f = open_banks("vectors.tsv");
  if (!f)
    return 0;
  char buf[4096];
  nvecs = 0;
  while (fgets(buf, sizeof buf, f)) {
    if (buf[0] == '#' || buf[0] == '\n')
      continue;
    assert_true(nvecs < MAXK);
    vec *V = &vecs[nvecs];
    char *save = NULL, *t = strtok_r(buf, "\t\n", &save);
    snprintf(V->kernel, sizeof V->kernel, "%s", t);
    for (int i = 0; i < 9; i++) {
      t = strtok_r(NULL, "\t\n", &save);
      assert_non_null(t);
      V->has[i] = strcmp(t, "-") != 0;
      V->v[i] = V->has[i] ? atol(t) : 0;
    }
    nvecs++;
  }
  fclose(f);
  return 1;
}

/* Is `kernel` listed (first field of a line) in known_differences.txt? */
static int known_difference(const char *kernel)
{
  FILE *f = open_banks("known_differences.txt");
  if (!f)
    return 0;
  char buf[1024];
  int found = 0;
  while (!found && fgets(buf, sizeof buf, f)) {
    if (buf[0] == '#')
      continue;
    size_t n = strcspn(buf, " \t\n");
    found = n == strlen(kernel) && !strncmp(buf, kernel, n);
  }
  fclose(f);
  return found;
}

static void test_hw_vectors(void **state)
{
  (void)state;
  load_corpus();
  if (!load_vectors()) {
    fprintf(stderr, "test_banks: tests/hw/banks/vectors.tsv not recorded yet\n");
    skip();
  }
  const arch_profile *a = arch_find("sm_90");
  int mismatches = 0, known = 0, checked = 0;
  for (int v = 0; v < nvecs; v++) {
    vec *V = &vecs[v];
    int nsass = 0, nptx = 0, nall = 0;
    for (int i = 0; i < nlines; i++) {
      if (strcmp(lines[i].kernel, V->kernel))
        continue;
      nsass += !strcmp(lines[i].form, "sass");
      nptx += !strcmp(lines[i].form, "ptx");
      nall += !strcmp(lines[i].form, "all");
    }
    if (nsass + nptx + nall == 0) {
      fprintf(stderr, "test_banks: %s: recorded but not in corpus.tsv\n", V->kernel);
      mismatches++;
      continue;
    }
    /* Merged forms: the one whose instruction count was recorded. */
    long recorded = V->v[0] + V->v[1] + V->v[2];
    const char *use = nsass && recorded == nsass + nall ? "sass" : "ptx";
    long m[9] = {0};
    for (int i = 0; i < nlines; i++) {
      line *L = &lines[i];
      if (strcmp(L->kernel, V->kernel) ||
          (strcmp(L->form, "all") && strcmp(L->form, use)))
        continue;
      bank_result r;
      bank_model(a, 4, L->op, L->mask, L->addr, L->bytes, &r);
      int fam = bank_family(L->op);
      m[fam] += r.requests;
      m[3 + fam] += r.wavefronts;
      m[6 + fam] += bank_conflicts(&r);
    }
    checked++;
    int bad = 0;
    for (int i = 0; i < 9; i++)
      if (V->has[i] && V->v[i] != m[i])
        bad = 1;
    if (!bad)
      continue;
    int listed = known_difference(V->kernel);
    fprintf(stderr, "test_banks: %s%s: hw inst %ld/%ld/%ld wf %ld/%ld/%ld conf %ld/%ld/%ld;"
            " model inst %ld/%ld/%ld wf %ld/%ld/%ld conf %ld/%ld/%ld (ld/st/atom)\n",
            listed ? "known difference " : "", V->kernel, V->v[0], V->v[1], V->v[2],
            V->v[3], V->v[4], V->v[5], V->v[6], V->v[7], V->v[8], m[0], m[1], m[2],
            m[3], m[4], m[5], m[6], m[7], m[8]);
    if (listed)
      known++;
    else
      mismatches++;
  }
  fprintf(stderr, "test_banks: %d recorded kernels checked, %d mismatches, %d known differences\n",
          checked, mismatches, known);
  assert_true(checked > 0);
  assert_int_equal(mismatches, 0);
}

/* The corpus must be well-formed even before anything is recorded. */
static void test_corpus_wellformed(void **state)
{
  (void)state;
  load_corpus();
  int kernels = 0;
  for (int i = 0; i < nlines; i++) {
    line *L = &lines[i];
    assert_true(L->bytes == 1 || L->bytes == 2 || L->bytes == 4 || L->bytes == 8 ||
                L->bytes == 16);
    assert_true(L->mask != 0);
    for (int l = 0; l < 32; l++)
      assert_int_equal(L->addr[l] % (uint32_t)L->bytes, 0);
    if (i == 0 || strcmp(lines[i - 1].kernel, L->kernel))
      kernels++;
  }
  assert_true(kernels >= 150);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cc5_strides),
    cmocka_unit_test(test_cc5_broadcast_multicast),
    cmocka_unit_test(test_cc5_wide),
    cmocka_unit_test(test_cc5_masks),
    cmocka_unit_test(test_cc5_pairing),
    cmocka_unit_test(test_cc5_stores_atomics),
    cmocka_unit_test(test_cc1_strides),
    cmocka_unit_test(test_cc1_broadcast_and_sizes),
    cmocka_unit_test(test_cc2),
    cmocka_unit_test(test_cc3_modes),
    cmocka_unit_test(test_arch_table),
    cmocka_unit_test(test_corpus_wellformed),
    cmocka_unit_test(test_hw_vectors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
