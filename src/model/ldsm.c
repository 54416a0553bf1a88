/* ldsm.c: the bank model of ldmatrix / stmatrix, measured on an H100
 * (tests/hw/modern/recorded/ldsm_vectors.tsv: 102 launches of .x1/.x2/.x4,
 * with and without .trans, 13 row patterns; ncu 2025.3):
 *  - the matrices are served one after another, never together: even when
 *    all 32 rows are one address an .x4 takes 4 wavefronts;
 *  - a matrix's 8 rows (16 bytes each, so 4 banks each) take as many
 *    wavefronts as the most distinct rows that fall on one group of 4
 *    banks (rows at one address are one: an 8-row broadcast is 1);
 *  - ideal is one wavefront per matrix, conflicts the rest;
 *  - .trans does not change the figures (it moves the same rows);
 *  - LDSM/STSM are not in ncu's shared ld/st instruction counts
 *    (smsp__sass_inst_executed_op_shared_{ld,st} stay 0 for them) but their
 *    wavefronts and conflicts are in the op_ld/op_st ones.
 * The 16-byte-load rules of banks.c (quarter-warp pairing) would give an
 * all-same .x4 2 wavefronts and an .x2 1; the GPU gives 4 and 2. */
#include "model/ldsm.h"

void ldsm_bank_model(int nmat, const uint32_t row[32], bank_result *out) {
  out->requests = 0;
  out->wavefronts = 0;
  out->ideal = (uint32_t)nmat;
  out->worst_bank = -1;
  out->worst_degree = 0;
  out->worst_lanes = 0;
  out->worst_group = 0;
  uint32_t worst = 0;
  for (int i = 0; i < nmat; i++) {
    uint32_t seen[8][8], cnt[8] = {0}, lanes[8] = {0}, most = 0;
    int most_q = 0;
    for (int r = 0; r < 8; r++) {
      int l = 8 * i + r;
      uint32_t a = row[l] >> 4, q = a & 7, k;
      for (k = 0; k < cnt[q] && seen[q][k] != a; k++) {
      }
      if (k == cnt[q]) seen[q][cnt[q]++] = a;
      lanes[q] |= 1u << l;
      if (cnt[q] > most) {
        most = cnt[q];
        most_q = (int)q;
      }
    }
    out->wavefronts += most;
    if (most > worst) {
      worst = most;
      out->worst_bank = 4 * most_q;
      out->worst_degree = most;
      out->worst_lanes = lanes[most_q];
      out->worst_group = 0xffu << (8 * i);
    }
  }
}
