/* arch.c: the table of architecture profiles and its look-ups.
 *
 * Sources (figures not listed there are marked in the row comments):
 *  [G5]  CUDA C Programming Guide 5.0, Appendix F, Table F-2 "Technical
 *        Specifications per Compute Capability" (1.0 to 3.0) and F.3-F.5
 *        (banks: 16 on 1.x, 32 after; 48 KB shared on 2.x/3.0; 16/48 KB and
 *        16/32/48 KB L1/shared splits).
 *  [G12] CUDA C++ Programming Guide, "Features and Technical Specifications"
 *        (3.5 to 9.0) and the "Unified Data Cache Size / SMEM Capacity Sizes"
 *        table (carveouts of 7.5 to 9.0).
 *  [HW]  /work/shared/HARDWARE.md, measured on H100/H200: sharedMemPerBlock
 *        49152, sharedMemPerBlockOptin 232448, sharedMemPerMultiprocessor
 *        233472, reservedSharedMemPerBlock 1024 (first user variable at 0x400).
 *  [M]   from memory of the same tables, to check on the hardware or in the
 *        guide before relying on it.
 * Part names and SM counts are of one representative product. */
#include "model/arch.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define KB 1024u
#define K64 65536u

/* Rows share most figures within a generation; these macros hold them. */
#define CC1X(regs, tps, wps)                                                                                 \
  BANK_RULES_CC1, 16, 4, 0, 16, 16 * KB, 16 * KB, 16 * KB, 0, 1, {16}, 32, 512, {512, 512, 64},              \
      {65535, 65535, 1}, tps, 8, wps, regs, regs, 128
#define CC2X                                                                                                 \
  BANK_RULES_CC2, 32, 4, 0, 32, 48 * KB, 48 * KB, 48 * KB, 0, 2, {16, 48}, 32, 1024, {1024, 1024, 64},       \
      {65535, 65535, 65535}, 1536, 8, 48, 32768, 32768, 63
#define GRID3                                                                                                \
  { 2147483647u, 65535, 65535 }
#define BLK3                                                                                                 \
  { 1024, 1024, 64 }

/* From 3.x: the bank rules, 8-byte banks selectable, shared memory per SM,
 * opt-in maximum per block (both KB), reserved per block (bytes), threads,
 * blocks and warps per SM, registers per SM, block and thread, then the
 * number of carveouts and the carveouts (KB). CC3X, CC5X and CC7X fill in
 * what a generation's rows share. */
#define SM3X(rules, bank8, sm_kb, optin_kb, rsvd, thr, blk, wrp, regs_sm, regs_b, regs_t, ncarve, ...)       \
  rules, 32, 4, bank8, 32, (sm_kb)*KB, 48 * KB, (optin_kb)*KB, rsvd, ncarve, {__VA_ARGS__}, 32, 1024, BLK3,  \
      GRID3, thr, blk, wrp, regs_sm, regs_b, regs_t
#define CC3X(sm_kb, regs_sm, regs_t, ...)                                                                    \
  SM3X(BANK_RULES_CC3, 1, sm_kb, 48, 0, 2048, 16, 64, regs_sm, K64, regs_t, 3, __VA_ARGS__)
#define CC5X(sm_kb, regs_b) SM3X(BANK_RULES_CC5, 0, sm_kb, 48, 0, 2048, 32, 64, K64, regs_b, 255, 1, sm_kb)
#define CC7X(sm_kb, optin_kb, rsvd, thr, blk, wrp, ncarve, ...)                                              \
  SM3X(BANK_RULES_CC5, 0, sm_kb, optin_kb, rsvd, thr, blk, wrp, K64, K64, 255, ncarve, __VA_ARGS__)

static const arch_profile table[] = {
    /* 1.x [G5]; registers per thread 128 [M] (nvcc's sm_1x -maxrregcount
     * limit); kernel parameters live in shared memory on 1.x (not modelled). */
    {"sm_10", "Tesla", 1, 0, CC1X(8192, 768, 24), 16, "GeForce 8800 GTX"},
    {"sm_11", "Tesla", 1, 1, CC1X(8192, 768, 24), 16, "GeForce 9800 GTX"},
    {"sm_12", "Tesla", 1, 2, CC1X(16384, 1024, 32), 12, "GeForce GT 240"},
    {"sm_13", "Tesla", 1, 3, CC1X(16384, 1024, 32), 30, "GeForce GTX 280"},
    /* 2.x [G5] */
    {"sm_20", "Fermi", 2, 0, CC2X, 15, "GeForce GTX 480"},
    {"sm_21", "Fermi", 2, 1, CC2X, 7, "GeForce GTX 460"},
    /* 3.x [G5] for 3.0, [G12]/[M] for 3.2-3.7: 8-byte bank mode selectable;
     * 3.7 (GK210) has 112 KB shared per SM, 128 K registers [M]. */
    {"sm_30", "Kepler", 3, 0, CC3X(48, K64, 63, 16, 32, 48), 8, "GeForce GTX 680"},
    {"sm_32", "Kepler", 3, 2, CC3X(48, K64, 255, 16, 32, 48), 1, "Tegra K1"},
    {"sm_35", "Kepler", 3, 5, CC3X(48, K64, 255, 16, 32, 48), 14, "Tesla K20X"},
    {"sm_37", "Kepler", 3, 7, CC3X(112, 2 * K64, 255, 80, 96, 112), 13, "Tesla K80 (one GPU)"},
    /* 5.x [G12]: dedicated shared memory (no carveout); 5.3 has 32 K
     * registers per block [M]. */
    {"sm_50", "Maxwell", 5, 0, CC5X(64, K64), 5, "GeForce GTX 750 Ti"},
    {"sm_52", "Maxwell", 5, 2, CC5X(96, K64), 16, "GeForce GTX 980"},
    {"sm_53", "Maxwell", 5, 3, CC5X(64, 32768), 2, "Tegra X1"},
    /* 6.x [G12]; 6.2 has 32 K registers per block [M]. */
    {"sm_60", "Pascal", 6, 0, CC5X(64, K64), 56, "Tesla P100"},
    {"sm_61", "Pascal", 6, 1, CC5X(96, K64), 20, "GeForce GTX 1080"},
    {"sm_62", "Pascal", 6, 2, CC5X(64, 32768), 2, "Jetson TX2"},
    /* 7.x [G12]: 7.0/7.2 carveouts 0-96 KB [M]; 7.5 32/64 KB [G12]. */
    {"sm_70", "Volta", 7, 0, CC7X(96, 96, 0, 2048, 32, 64, 6, 0, 8, 16, 32, 64, 96), 80, "Tesla V100"},
    {"sm_72", "Volta", 7, 2, CC7X(96, 96, 0, 2048, 32, 64, 6, 0, 8, 16, 32, 64, 96), 8, "Jetson AGX Xavier"},
    {"sm_75", "Turing", 7, 5, CC7X(64, 64, 0, 1024, 16, 32, 2, 32, 64), 40, "Tesla T4"},
    /* 8.x [G12]; 1 KB reserved per block from 8.0 ([HW] for 9.0; opt-in
     * maximum = per-SM size - 1 KB as the guide's 163/99 KB figures show). */
    {"sm_80", "Ampere", 8, 0, CC7X(164, 163, 1024, 2048, 32, 64, 8, 0, 8, 16, 32, 64, 100, 132, 164), 108,
     "A100"},
    {"sm_86", "Ampere", 8, 6, CC7X(100, 99, 1024, 1536, 16, 48, 6, 0, 8, 16, 32, 64, 100), 82,
     "GeForce RTX 3090"},
    {"sm_87", "Ampere", 8, 7, CC7X(164, 163, 1024, 1536, 16, 48, 8, 0, 8, 16, 32, 64, 100, 132, 164), 16,
     "Jetson AGX Orin"},
    {"sm_89", "Ada", 8, 9, CC7X(100, 99, 1024, 1536, 24, 48, 6, 0, 8, 16, 32, 64, 100), 128,
     "GeForce RTX 4090"},
    /* 9.0 [G12] [HW]; cudaDeviceSetSharedMemConfig(EightByte) is a no-op. */
    {"sm_90", "Hopper", 9, 0,
     CC7X(228, 227, 1024, 2048, 32, 64, 10, 0, 8, 16, 32, 64, 100, 132, 164, 196, 228), 132, "H100 SXM5"},
};

#define NPROFILES ((int)(sizeof table / sizeof table[0]))

int arch_count(void) { return NPROFILES; }

const arch_profile *arch_at(int i) { return i >= 0 && i < NPROFILES ? &table[i] : NULL; }

const arch_profile *arch_default(void) { return &table[NPROFILES - 1]; }

/* Strips a known prefix, case-insensitively; returns the rest or NULL. */
static const char *skip_prefix(const char *s, const char *prefix) {
  size_t n = strlen(prefix);
  for (size_t i = 0; i < n; i++)
    if (tolower((unsigned char)s[i]) != prefix[i]) return NULL;
  return s + n;
}

const arch_profile *arch_find(const char *name) {
  if (!name) return NULL;
  while (isspace((unsigned char)*name)) name++;
  const char *p = name, *q;
  if ((q = skip_prefix(p, "compute_")) || (q = skip_prefix(p, "sm_")) || (q = skip_prefix(p, "sm"))) p = q;
  int major, minor;
  if (!isdigit((unsigned char)p[0])) return NULL;
  if (p[1] == '.') { /* "9.0" */
    if (!isdigit((unsigned char)p[2])) return NULL;
    major = p[0] - '0';
    minor = p[2] - '0';
    p += 3;
  } else if (isdigit((unsigned char)p[1])) { /* "90" */
    major = p[0] - '0';
    minor = p[1] - '0';
    p += 2;
  } else {
    return NULL;
  }
  /* sm_90a / sm_90f name the same compute capability. */
  if (*p == 'a' || *p == 'A' || *p == 'f' || *p == 'F') p++;
  while (isspace((unsigned char)*p)) p++;
  if (*p) return NULL;
  for (int i = 0; i < NPROFILES; i++)
    if (table[i].major == major && table[i].minor == minor) return &table[i];
  return NULL;
}

int arch_print_table(FILE *f) {
  int total = 0, n;
  n = fprintf(f, "%-6s %-8s %4s %5s %-7s %4s %7s %7s %7s %5s  %-34s %5s %6s %4s %5s %7s %6s %4s %4s  %s\n",
              "arch", "family", "cc", "banks", "width", "req", "smem/SM", "/block", "optin", "rsvd",
              "carveouts (KB)", "thr/B", "thr/SM", "B/SM", "wp/SM", "regs/SM", "regs/B", "r/t", "SMs",
              "part");
  if (n < 0) return n;
  total += n;
  for (int i = 0; i < NPROFILES; i++) {
    const arch_profile *a = &table[i];
    char cc[8], width[16], carve[64];
    size_t off = 0;
    snprintf(cc, sizeof cc, "%d.%d", a->major, a->minor);
    snprintf(width, sizeof width, "%dB%s", a->bank_bytes, a->bank8_selectable ? "/8B" : "");
    carve[0] = '\0';
    for (int k = 0; k < a->ncarveouts && off < sizeof carve; k++)
      off += (size_t)snprintf(carve + off, sizeof carve - off, "%s%u", k ? "," : "",
                              (unsigned)a->carveout_kb[k]);
    n = fprintf(
        f, "%-6s %-8s %4s %5d %-7s %4d %6uK %6uK %6uK %5u  %-34s %5d %6d %4d %5d %6uK %5uK %4d %4d  %s\n",
        a->name, a->family, cc, a->banks, width, a->request_lanes, a->smem_per_sm / KB,
        a->smem_per_block / KB, a->smem_per_block_optin / KB, a->smem_reserved_per_block, carve,
        a->max_threads_per_block, a->max_threads_per_sm, a->max_blocks_per_sm, a->max_warps_per_sm,
        a->regs_per_sm / 1024, a->regs_per_block / 1024, a->regs_per_thread, a->sm_count, a->part);
    if (n < 0) return n;
    total += n;
  }
  return total;
}
