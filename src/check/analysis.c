/* analysis.c: the analyses behind hooks.h. The bank model counts requests,
 * wavefronts and ideal wavefronts of every shared-memory instruction per
 * pc, and keeps its worst execution for the conflict report. */
#include <stdlib.h>
#include "check/ginit.h"
#include "exec/cluster.h"
#include "exec/hooks.h"
#include "ir/merge.h"
#include <string.h>
#include "model/atomcost.h"
#include "model/atomsel.h"
#include "model/banks.h"
#include "model/ldsm.h"

analysis *analysis_new(const launch *L) {
  analysis *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->ncode = L->prog->ncode;
  if (L->want_banks && !(a->banks = calloc(a->ncode, sizeof *a->banks))) {
    free(a);
    return NULL;
  }
  if (L->want_races || L->want_sync || L->want_init || L->want_global_races) {
    if (race_init(&a->race, L) < 0) {
      analysis_free(a);
      return NULL;
    }
    a->has_race = 1;
  }
  if (L->ginit && !(a->gin = ginit_an_new(a->ncode))) {
    analysis_free(a);
    return NULL;
  }
  return a;
}

void analysis_free(analysis *a) {
  if (!a) return;
  if (a->has_race) race_free(&a->race);
  ginit_an_free(a->gin);
  free(a->banks);
  free(a);
}

void analysis_merge(analysis *into, const analysis *from) {
  if (into->has_race && from->has_race) race_merge(&into->race, &from->race);
  if (into->gin && from->gin) ginit_an_merge(into->gin, from->gin);
  if (!into->banks || !from->banks) return;
  for (uint32_t i = 0; i < into->ncode; i++) {
    bank_stat *d = &into->banks[i];
    const bank_stat *s = &from->banks[i];
    d->requests += s->requests;
    d->wavefronts += s->wavefronts;
    d->ideal += s->ideal;
    d->ld_requests += s->ld_requests;
    d->ld_wavefronts += s->ld_wavefronts;
    d->ld_ideal += s->ld_ideal;
    d->dsh_requests += s->dsh_requests;
    d->dsh_sectors += s->dsh_sectors;
    if (s->worst_degree > d->worst_degree) {
      bank_stat sum = *d;
      *d = *s;
      d->dsh_requests = sum.dsh_requests;
      d->dsh_sectors = sum.dsh_sectors;
      d->requests = sum.requests;
      d->wavefronts = sum.wavefronts;
      d->ideal = sum.ideal;
      d->ld_requests = sum.ld_requests;
      d->ld_wavefronts = sum.ld_wavefronts;
      d->ld_ideal = sum.ld_ideal;
    }
  }
}

/* The kind of an instruction for the bank counters. */
static int bank_op(const insn *in) {
  uint32_t f = op_flags[in->op];
  if (f & OPF_ATOMIC) return in->op == OP_ATOM && in->mode == ATOM_MODE_CAS ? BANK_ATOM_CAS : BANK_ATOM;
  return (f & OPF_WRITE) ? BANK_ST : BANK_LD;
}

static void remember(bank_stat *s, uint32_t sm, uint32_t size, uint32_t base, const uint32_t rel[32],
                     uint32_t req, uint32_t waves, uint32_t ideal) {
  s->pat_mask = sm;
  s->pat_size = size;
  s->pat_align = base & 7;
  memcpy(s->pat_rel, rel, sizeof s->pat_rel);
  s->pat_req = req;
  s->pat_waves = waves;
  s->pat_ideal = ideal;
}

/* Lanes of an access to other blocks' shared memory (distributed shared
 * memory): one dshared request and the distinct 32-byte sectors touched
 * (recorded on the H100: 4 for 32 lanes' consecutive words, 8 at stride 2:
 * tests/hw/cluster, ncu_dsmem.csv). */
static void dshared(bank_stat *s, uint32_t rm, const uint64_t rel[32], uint32_t size) {
  uint64_t sec[64];
  uint32_t n = 0;
  LANES(rm, {
    for (uint64_t x = rel[l] / 32; x <= (rel[l] + size - 1) / 32; x++) {
      uint32_t k;
      for (k = 0; k < n && sec[k] != x; k++) {}
      if (k == n && n < 64) sec[n++] = x;
    }
  });
  s->dsh_requests++;
  s->dsh_sectors += n;
}

static void banks(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  analysis *a = w->blk->an;
  uint32_t sh[32], sm = 0, rm = 0;
  uint64_t remote[32];
  if (!a || !a->banks) return;
  /* accesses ptxas merges count once, as the wide access of the group's
   * first (lowest) address (ir/merge.c) */
  if (in->merge == MERGE_FOLLOW) return;
  if (in->merge) size *= in->merge;
  LANES(m, {
    uint64_t x = addr[l];
    /* a shared::cluster access to the own block counts as shared; one to
     * another block of the cluster does not (Nsight Compute counts it as
     * distributed shared memory, dshared: tests/hw/cluster) */
    if (in->space == PTX_SPACE_SHARED || (in->space == PTX_SPACE_SHARED_CLUSTER && (x & 0xffffffffu) < CLUSTER_BASE)) {
      sh[l] = (uint32_t)x;
      sm |= 1u << l;
    } else if (in->space == PTX_SPACE_SHARED_CLUSTER) {
      remote[l] = x & 0xffffffffu;
      rm |= 1u << l;
    }
    else if (in->space == PTX_SPACE_GENERIC && x - SHARED_WINDOW < CLUSTER_BASE) {
      sh[l] = (uint32_t)(x - SHARED_WINDOW);
      sm |= 1u << l;
    } else if (in->space == PTX_SPACE_GENERIC && x - SHARED_WINDOW < WINDOW_SIZE) {
      remote[l] = x - SHARED_WINDOW;
      rm |= 1u << l;
    }
  });
  if (rm) dshared(&a->banks[w->pc], rm, remote, size);
  if (!sm) return;
  for (int l = 0; l < 32; l++)
    if (!(sm >> l & 1)) sh[l] = 0;
  bank_result r;
  int op = bank_op(in), counted = 0;
  bank_stat *s = &a->banks[w->pc];
  if (bank_family(op) == BANK_ATOM && in->atom_form && atom_forms_apply(w->L->arch)) {
    /* the SASS ptxas makes of it (model/atomsel.h): POPC.INC, warp
     * aggregation, CAS loop (whose LDS count as loads) */
    bank_result ldr;
    atom_minmax mm, *pmm = NULL;
    if ((in->atom_form == ATOMSEL_CAS_LOOP || in->atom_form == ATOMSEL_AGG_LOOP) &&
        (in->mode == ATOM_MODE_MIN || in->mode == ATOM_MODE_MAX)) {
      /* the loop skips the CAS where the word would not change: the words
       * before this instruction (it runs after the hook) and the operands */
      const uint64_t *B = w->r[in->b];
      mm.max = in->mode == ATOM_MODE_MAX;
      mm.is_signed = (in->flags & IF_SIGNED) != 0;
      memset(mm.mem, 0, sizeof mm.mem);
      memset(mm.val, 0, sizeof mm.val);
      LANES(sm, {
        const uint8_t *p = exec_addr(w, l, in->space, addr[l], size, 0);
        if (p) memcpy(&mm.mem[l], p, size <= 8 ? size : 8);
        mm.val[l] = B[l];
      });
      pmm = &mm;
    }
    atom_cost(w->L->arch, w->L->bank_mode, in->atom_form, op, sm, sh, (int)size, pmm, &r, &ldr);
    s->ld_requests += ldr.requests;
    s->ld_wavefronts += ldr.wavefronts;
    s->ld_ideal += ldr.ideal;
    s->requests += r.requests;
    s->wavefronts += r.wavefronts;
    s->ideal += r.ideal;
    goto worst;
  }
  /* a pattern seen last time at this pc (loads and stores: an atomic's cost
   * may depend on the values) */
  uint32_t rel[32], base = sh[__builtin_ctz(sm)];
  int cache = bank_family(op) != BANK_ATOM;
  if (cache) {
    for (int l = 0; l < 32; l++) rel[l] = (sm >> l & 1) ? sh[l] - base : 0;
    if (s->pat_mask == sm && s->pat_size == size && s->pat_align == (base & 7) &&
        !memcmp(rel, s->pat_rel, sizeof rel)) {
      s->requests += s->pat_req;
      s->wavefronts += s->pat_waves;
      s->ideal += s->pat_ideal;
      return; /* same figures: no new worst instance */
    }
  }
  if (size <= 4 && bank_family(op) != BANK_ATOM && w->L->arch->major >= 5) {
    /* the common case, rule R1 of banks.c: lanes on one word are one unit,
     * the busiest bank's distinct words are the passes, ideal is one. Only a
     * new worst instance goes through the full model (for its lanes). */
    uint32_t words[32][8], cnt[32] = {0}, waves = 0;
    int overflow = 0;
    LANES(sm, {
      uint32_t wd = sh[l] >> 2, b = wd & 31, k;
      for (k = 0; k < cnt[b] && k < 8; k++)
        if (words[b][k] == wd) break;
      if (k == cnt[b] || k == 8) {
        if (k < 8) words[b][k] = wd;
        else overflow = 1;
        if (++cnt[b] > waves) waves = cnt[b];
      }
    });
    if (!overflow) {
      s->requests += 1;
      s->wavefronts += waves;
      s->ideal += 1;
      counted = 1;
      remember(s, sm, size, base, rel, 1, waves, 1);
      if (waves <= s->worst_degree) return;
    }
  }
  if (in->op == OP_LDMATRIX || in->op == OP_STMATRIX) /* by 8x8 matrix: model/ldsm.c */
    ldsm_bank_model(__builtin_popcount(sm) / 8, sh, &r);
  else
    bank_model(w->L->arch, w->L->bank_mode, op, sm, sh, (int)size, &r);
  if (!counted) {
    s->requests += r.requests;
    s->wavefronts += r.wavefronts;
    s->ideal += r.ideal;
    if (cache) remember(s, sm, size, base, rel, r.requests, r.wavefronts, r.ideal);
  }
worst:;
  uint32_t deg = r.wavefronts - r.ideal + 1;
  if (deg > s->worst_degree) {
    s->worst_degree = deg;
    s->worst_waves = r.wavefronts;
    s->worst_lanes = r.worst_lanes;
    s->worst_bank = r.worst_bank;
    s->bank_degree = r.worst_degree;
    s->worst_active = sm;
    s->worst_size = size;
    for (int l = 0; l < 32; l++) s->worst_addr[l] = sh[l];
  }
}

void hook_mem(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  if (w->L->want_banks) banks(w, in, m, addr, size);
  if (w->blk->an->has_race) {
    int kind = (op_flags[in->op] & OPF_WRITE) ? ACC_WRITE : ACC_READ;
    race_access(w, in, m, addr, size, kind);
    if (w->blk->crace) cl_race_access(w, in, m, addr, size, kind);
    if (w->L->want_global_races) race_global(w, in, m, addr, size, kind);
  }
  if (w->L->ginit) ginit_access(w, in, m, addr, size, (op_flags[in->op] & OPF_WRITE) ? ACC_WRITE : ACC_READ);
}

void hook_atom(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  if (w->L->want_banks) banks(w, in, m, addr, size);
  if (w->blk->an->has_race) {
    race_access(w, in, m, addr, size, ACC_ATOMIC);
    if (w->blk->crace) cl_race_access(w, in, m, addr, size, ACC_ATOMIC);
    if (w->L->want_global_races) race_global(w, in, m, addr, size, ACC_ATOMIC);
  }
  if (w->L->ginit) ginit_access(w, in, m, addr, size, ACC_ATOMIC);
}

void hook_block_start(block *b) {
  if (b->an && b->an->has_race) race_block_start(&b->an->race, b);
}

void hook_copy(warp *w, const insn *in, uint32_t m, const uint64_t src[32], const uint64_t dst[32], uint32_t size) {
  insn ld = *in, st = *in;
  ld.space = PTX_SPACE_GLOBAL;
  st.space = PTX_SPACE_SHARED;
  if (w->L->ginit) ginit_access(w, &ld, m, src, size, ACC_READ);
  if (!w->blk->an->has_race) return;
  race_access(w, &st, m, dst, size, ACC_WRITE);
  if (w->L->want_global_races) race_global(w, &ld, m, src, size, ACC_READ);
}
