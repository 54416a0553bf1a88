/* bankstat.c: the bank model's statistics per instruction (the banks
 * row of the table of checks): requests, wavefronts and ideal wavefronts
 * of every shared-memory instruction per pc, and its worst execution for
 * the conflict report; the accesses of re-unrolled loop bodies are
 * recounted in the order the SASS runs them when the block ends. */
#include "check/checks.h"
#include "check/install.h"
#include "exec/addr.h"
#include "exec/contend.h"
#include "exec/hooks.h"
#include "ir/merge.h"
#include "model/atomcost.h"
#include "model/atomsel.h"
#include "model/bankcache.h"
#include "model/banks.h"
#include "model/ldsm.h"
#include <stdlib.h>
#include <string.h>

/* The kind of an instruction for the bank counters. */
static int bank_op(const insn *in) {
  uint32_t f = op_flags[in->op];
  if (f & OPF_ATOMIC) return in->op == OP_ATOM && in->mode == ATOM_MODE_CAS ? BANK_ATOM_CAS : BANK_ATOM;
  return (f & OPF_WRITE) ? BANK_ST : BANK_LD;
}

static void remember(bank_stat *s, uint32_t period, uint32_t sm, uint32_t size, uint32_t base,
                     const uint32_t rel[32], uint32_t req, uint32_t waves, uint32_t ideal) {
  s->pat_mask = sm;
  s->pat_size = size;
  s->pat_base = base & (period - 1);
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
      for (k = 0; k < n && sec[k] != x; k++) {
      }
      if (k == n && n < 64) sec[n++] = x;
    }
  });
  s->dsh_requests++;
  s->dsh_sectors += n;
}

static void banks_one(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  analysis *a = w->blk->an;
  uint32_t sh[32], sm = 0, rm = 0;
  uint64_t remote[32];
  if (!a || !a->banks) return;
  /* accesses ptxas merges count once, as the wide access of the group's
   * first (lowest) address (ir/merge.c) */
  if (in->merge == MERGE_FOLLOW) return;
  if (in->merge) size *= in->merge;
  if (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_SHARED_CLUSTER &&
      in->space != PTX_SPACE_GENERIC && !in->gen_atom)
    return; /* no lane can reach shared memory */
  if (in->space == PTX_SPACE_SHARED && m == FULL_MASK) {
    for (int l = 0; l < 32; l++) sh[l] = (uint32_t)addr[l];
    sm = FULL_MASK;
  } else {
    LANES(m, {
      uint64_t x = addr[l];
      /* a shared::cluster access to the own block counts as shared; one to
       * another block of the cluster does not (Nsight Compute counts it as
       * distributed shared memory, dshared: tests/hw/cluster) */
      if (in->space == PTX_SPACE_SHARED ||
          (in->space == PTX_SPACE_SHARED_CLUSTER && (x & 0xffffffffu) < CLUSTER_BASE)) {
        sh[l] = (uint32_t)x;
        sm |= 1u << l;
      } else if (in->space == PTX_SPACE_SHARED_CLUSTER) {
        remote[l] = x & 0xffffffffu;
        rm |= 1u << l;
      } else if (in->space == PTX_SPACE_GENERIC && x - SHARED_WINDOW < CLUSTER_BASE) {
        sh[l] = (uint32_t)(x - SHARED_WINDOW);
        sm |= 1u << l;
      } else if (in->space == PTX_SPACE_GENERIC && x - SHARED_WINDOW < WINDOW_SIZE) {
        remote[l] = x - SHARED_WINDOW;
        rm |= 1u << l;
      }
    });
    if (rm) dshared(&a->banks[w->pc], rm, remote, size);
    if (!sm) {
      /* a generic ATOM whose lanes all reach global memory still takes one
       * wavefront of the shared pipe, no instruction of it (an H100:
       * tests/hw/sass_programs generic_ptr launch 5, 16 ATOM.E, 16 wavefronts) */
      if (in->gen_atom && m) {
        bank_stat *s0 = &a->banks[w->pc];
        s0->wavefronts += 1;
        s0->ideal += 1;
      }
      return;
    }
    for (int l = 0; l < 32; l++)
      if (!(sm >> l & 1)) sh[l] = 0;
  }
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
    if (in->atom_form == ATOMSEL_CAS_LOOP && size == 4 && !pmm && r.requests && ldr.requests) {
      /* the rounds other warps of the block in the same loop add: each an
       * LDS and a CAST.SPIN as the warp's own (exec/contend.c; the 64-bit
       * loop, measured only in tests/programs atomic_double, contends far
       * less and counts as alone) */
      uint32_t x = contend_loop(w, sm, sh, r.requests);
      ldr.wavefronts += x * (ldr.wavefronts / ldr.requests);
      ldr.ideal += x * (ldr.ideal / ldr.requests);
      ldr.requests += x;
      r.wavefronts += x * (r.wavefronts / r.requests);
      r.ideal += x * (r.ideal / r.requests);
      r.requests += x;
    }
    s->ld_requests += ldr.requests;
    s->ld_wavefronts += ldr.wavefronts;
    s->ld_ideal += ldr.ideal;
    s->requests += r.requests;
    s->wavefronts += r.wavefronts;
    s->ideal += r.ideal;
    goto worst;
  }
  /* a pattern seen at this pc (loads and stores: an atomic's cost may
   * depend on the values): lanes affine by half-warps in the cache, any
   * other the last one */
  uint32_t rel[32], base = sh[__builtin_ctz(sm)], abase = 0, astride = 0, agap = 0;
  int cache = bank_family(op) != BANK_ATOM, aff = 0;
  uint32_t period = bank_cache_period(w->L->arch, w->L->bank_mode, size);
  if (in->op == OP_LDMATRIX || in->op == OP_STMATRIX) period = BANK_CACHE_PERIOD; /* (16 would do) */
  if (cache) {
    aff = size < 65536 && bank_affine(sm, sh, &abase, &astride, &agap);
    if (aff) {
      const bank_centry *e = bank_cache_find(&s->cache, period, sm, size, abase, astride, agap);
      if (e) {
        s->requests += e->req;
        s->wavefronts += e->waves;
        s->ideal += e->ideal;
        return; /* same figures: no new worst instance */
      }
    } else {
      uint32_t diff = 0;
      for (int l = 0; l < 32; l++) rel[l] = (sm >> l & 1) ? sh[l] - base : 0;
      for (int l = 0; l < 32; l++) diff |= rel[l] ^ s->pat_rel[l];
      if (s->pat_mask == sm && s->pat_size == size && s->pat_base == (base & (period - 1)) && !diff) {
        s->requests += s->pat_req;
        s->wavefronts += s->pat_waves;
        s->ideal += s->pat_ideal;
        return;
      }
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
        if (k < 8)
          words[b][k] = wd;
        else
          overflow = 1;
        if (++cnt[b] > waves) waves = cnt[b];
      }
    });
    if (!overflow) {
      s->requests += 1;
      s->wavefronts += waves;
      s->ideal += 1;
      counted = 1;
      if (aff)
        bank_cache_put(&s->cache, period, sm, size, abase, astride, agap, 1, waves, 1);
      else
        remember(s, period, sm, size, base, rel, 1, waves, 1);
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
    if (aff)
      bank_cache_put(&s->cache, period, sm, size, abase, astride, agap, r.requests, r.wavefronts, r.ideal);
    else if (cache)
      remember(s, period, sm, size, base, rel, r.requests, r.wavefronts, r.ideal);
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

/* The sink record of pc (program.h, load_sink; sorted by pc), or NULL. */
static const load_sink *sink_at(const program *P, uint32_t pc) {
  uint32_t lo = 0, hi = P->nsinks;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (P->sinks[mid].pc < pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < P->nsinks && P->sinks[lo].pc == pc ? &P->sinks[lo] : NULL;
}

int check_banks_halves(warp *w, const insn *in, uint64_t a0, uint64_t a1, uint32_t stride, uint32_t size) {
  analysis *a = w->blk->an;
  if (!a || !a->banks) return 1;
  if (in->merge == MERGE_FOLLOW) return 1; /* counted with its group's leader */
  if (in->usect || in->space != PTX_SPACE_SHARED || bank_family(bank_op(in)) == BANK_ATOM) return 0;
  if (w->L->prog->nsinks && sink_at(w->L->prog, w->pc)) return 0; /* (banks_sunk) */
  if (in->merge) size *= in->merge;
  bank_stat *s = &a->banks[w->pc];
  /* bank_affine's key of these lanes: lane 0's address, the stride, lane
   * 16's offset */
  const bank_centry *e = bank_cache_find(&s->cache, bank_cache_period(w->L->arch, w->L->bank_mode, size),
                                         FULL_MASK, size, (uint32_t)a0, stride, (uint32_t)(a1 - a0));
  if (!e) return 0;
  s->requests += e->req;
  s->wavefronts += e->waves;
  s->ideal += e->ideal;
  return 1;
}

/* The record of warp w at pc, made on first use; NULL when none can be. */
static urec *urec_get(analysis *a, warp *w, uint32_t pc) {
  usect_state *u = a->us;
  if (!u) {
    if (!(u = a->us = calloc(1, sizeof *u))) return NULL;
    u->nwarps = w->blk->nwarps;
    if (!(u->rec = calloc((size_t)u->nwarps * UREC_PCS, sizeof *u->rec))) {
      free(u);
      a->us = NULL;
      return NULL;
    }
  }
  if (w->index >= u->nwarps) return NULL;
  int slot = -1;
  for (int i = 0; i < u->npcs; i++)
    if (u->pcs[i] == pc) slot = i;
  if (slot < 0) {
    if (u->npcs == UREC_PCS) return NULL;
    slot = u->npcs;
    u->pcs[u->npcs++] = pc;
  }
  return &u->rec[w->index * UREC_PCS + (uint32_t)slot];
}

static void usect_recount(analysis *a, const launch *L, usect_state *u, uint32_t wi, int id);

/* Recounts warp wi's records of body id and clears them. */
static void usect_flush(analysis *a, const launch *L, uint32_t wi, int id) {
  usect_state *u = a->us;
  usect_recount(a, L, u, wi, id);
  for (int i = 0; i < u->npcs; i++)
    if (L->prog->code[u->pcs[i]].usect == id) {
      urec *r = &u->rec[wi * UREC_PCS + (uint32_t)i];
      memset(r->cnt, 0, sizeof r->cnt);
      r->bad = 0;
      r->last_mask = 0;
      r->req = r->waves = r->ideal = 0;
    }
}

/* v wrapped to w bytes and extended to 64 bits (signed: sg). */
static uint64_t operand(uint64_t v, int w, int sg) {
  int sh = 64 - 8 * w;
  return sg ? (uint64_t)((int64_t)(v << sh) >> sh) : v << sh >> sh;
}

/* The lanes of m that do not leave at the sunk load k's exit: those the
 * SASS runs the load with. */
static uint32_t sink_stay(const warp *w, const load_sink *k, uint32_t m) {
  uint32_t stay = 0;
  LANES(m, {
    /* both operands in the comparison's width and signedness: their order
     * as -1, 0, 1 */
    uint64_t a = operand(operand(w->r[k->ra][l] + (uint64_t)k->oa, k->wa, k->sa), k->bytes, k->sgn),
             b = operand(operand(w->r[k->rb][l] + (uint64_t)k->ob, k->wb, k->sb), k->bytes, k->sgn);
    int d = k->sgn ? ((int64_t)a > (int64_t)b) - ((int64_t)a < (int64_t)b) : (a > b) - (a < b);
    int c = k->cmp == SINK_EQ   ? d == 0
            : k->cmp == SINK_NE ? d != 0
            : k->cmp == SINK_LT ? d < 0
            : k->cmp == SINK_LE ? d <= 0
            : k->cmp == SINK_GT ? d > 0
                                : d >= 0;
    if (c != k->leave) stay |= 1u << l;
  });
  return stay;
}

/* A sunk load: counted with the lanes that stay, none when all leave (no
 * warp of them runs the LDS); never through the pc's pattern cache, which
 * compiled code reads without the exit's condition. */
static void banks_sunk(warp *w, const insn *in, const load_sink *k, uint32_t m, const uint64_t addr[32],
                       uint32_t size) {
  analysis *a = w->blk->an;
  uint32_t sm = sink_stay(w, k, m), sh[32] = {0};
  if (!sm || in->merge == MERGE_FOLLOW) return;
  if (in->merge) size *= in->merge;
  LANES(sm, sh[l] = (uint32_t)addr[l]);
  bank_result r;
  bank_model(w->L->arch, w->L->bank_mode, BANK_LD, sm, sh, (int)size, &r);
  bank_stat *s = &a->banks[w->pc];
  s->requests += r.requests;
  s->wavefronts += r.wavefronts;
  s->ideal += r.ideal;
}

/* An access of a re-unrolled loop body (insn.usect): counted in PTX order
 * now (that count stands if the recount cannot be made), its lanes'
 * addresses kept for the recount at the block's end (hook_block_end). */
static void banks(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size) {
  analysis *a = w->blk->an;
  if (!a || !a->banks) return;
  const load_sink *k = w->L->prog->nsinks ? sink_at(w->L->prog, w->pc) : NULL;
  if (k) {
    banks_sunk(w, in, k, m, addr, size);
    return;
  }
  if (!in->usect || in->merge == MERGE_FOLLOW) {
    banks_one(w, in, m, addr, size);
    return;
  }
  bank_stat *s = &a->banks[w->pc];
  uint64_t r0 = s->requests, w0 = s->wavefronts, i0 = s->ideal;
  banks_one(w, in, m, addr, size);
  /* this execution's figures in PTX order */
  uint64_t dr = s->requests - r0, dw = s->wavefronts - w0, di = s->ideal - i0;
  urec *r = urec_get(a, w, w->pc);
  if (!r) return;
  /* the loop entered again (a lane that had left is back): recount the
   * instance that ended */
  uint32_t any = 0;
  for (int l = 0; l < 32; l++) any |= r->cnt[l];
  if (any && (m & ~r->last_mask)) usect_flush(a, w->L, w->index, in->usect);
  r->last_mask = m;
  if (r->bad) return;
  r->req += dr;
  r->waves += dw;
  r->ideal += di;
  r->size = size * (in->merge ? in->merge : 1);
  LANES(m, {
    uint64_t x = addr[l];
    uint32_t sh;
    if (in->space == PTX_SPACE_SHARED)
      sh = (uint32_t)x;
    else if (in->space == PTX_SPACE_GENERIC && x - SHARED_WINDOW < WINDOW_SIZE)
      sh = (uint32_t)(x - SHARED_WINDOW);
    else
      continue;
    if (r->cnt[l] == r->cap[l]) {
      uint32_t cap = r->cap[l] ? r->cap[l] * 2 : 16;
      uint32_t *p = cap <= 65536 ? realloc(r->addr[l], cap * sizeof *p) : NULL;
      if (!p) {
        r->bad = 1;
        return;
      }
      r->addr[l] = p;
      r->cap[l] = cap;
    }
    r->addr[l][r->cnt[l]++] = sh;
  });
}

/* The recount of one warp's re-unrolled body `id` (program.h): each lane
 * takes the sections greedily; the warp runs section i's j-th round with
 * the lanes that have more than j rounds in it, each lane at its own body;
 * every leader of the body is one SASS instruction per body copy. */
static void usect_recount(analysis *a, const launch *L, usect_state *u, uint32_t wi, int id) {
  const program *P = L->prog;
  const unroll_sect *x = &P->usects[id - 1];
  urec *lead[UREC_PCS];
  uint32_t lpc[UREC_PCS];
  int nl = 0;
  for (int i = 0; i < u->npcs; i++)
    if (P->code[u->pcs[i]].usect == id) {
      urec *r = &u->rec[wi * UREC_PCS + (uint32_t)i];
      if (r->bad) return;
      lpc[nl] = u->pcs[i];
      lead[nl++] = r;
    }
  if (!nl) return;
  uint32_t t[32][USECT_MAX], start[32][USECT_MAX], most[USECT_MAX] = {0}, any = 0;
  for (int l = 0; l < 32; l++) {
    uint32_t n = lead[0]->cnt[l], done = 0;
    for (int g = 1; g < nl; g++)
      if (lead[g]->cnt[l] != n) return; /* the body's accesses ran unequally */
    any |= n;
    for (int i = 0; i < x->n; i++) {
      uint32_t rem = n - done;
      t[l][i] = x->loop[i] ? rem / x->m[i] : rem >= x->m[i];
      start[l][i] = done;
      done += t[l][i] * x->m[i];
      if (t[l][i] > most[i]) most[i] = t[l][i];
    }
    if (done != n) return; /* the sections do not take every body */
  }
  if (!any) return;
  uint64_t req[UREC_PCS] = {0}, waves[UREC_PCS] = {0}, ideal[UREC_PCS] = {0};
  bank_cache rc[UREC_PCS];
  memset(rc, 0, sizeof rc);
  for (int i = 0; i < x->n; i++)
    for (uint32_t j = 0; j < most[i]; j++)
      for (int c = 0; c < x->m[i]; c++)
        for (int g = 0; g < nl; g++) {
          uint32_t mask = 0, sh[32] = {0};
          for (int l = 0; l < 32; l++)
            if (t[l][i] > j) {
              mask |= 1u << l;
              sh[l] = lead[g]->addr[l][start[l][i] + j * x->m[i] + (uint32_t)c];
            }
          bank_result r;
          const insn *lin = &P->code[lpc[g]];
          int hit;
          if (lin->op == OP_LDMATRIX || lin->op == OP_STMATRIX)
            bank_model(L->arch, L->bank_mode, bank_op(lin), mask, sh, (int)lead[g]->size, &r);
          else /* a cache of this recount's own: a pattern put in the pc's
                * would skip the worst-instance test when it runs */
            bank_model_cached(&rc[g], L->arch, L->bank_mode, bank_op(lin), mask, sh, (int)lead[g]->size, &r,
                              &hit);
          req[g] += r.requests;
          waves[g] += r.wavefronts;
          ideal[g] += r.ideal;
        }
  for (int g = 0; g < nl; g++) {
    bank_stat *s = &a->banks[lpc[g]];
    s->requests += req[g] - lead[g]->req;
    s->wavefronts += waves[g] - lead[g]->waves;
    s->ideal += ideal[g] - lead[g]->ideal;
  }
}

/* loops of the block before (exec/contend.c) are not this one's */
static void banks_block_start(block *b) {
  (void)b;
  contend_loop_reset();
}

static void banks_block_end(block *b) {
  analysis *a = b->an;
  usect_state *u = a ? a->us : NULL;
  if (!u || !b->nwarps) return;
  const launch *L = b->warps[0].L;
  for (uint32_t wi = 0; wi < u->nwarps; wi++)
    for (uint32_t id = 1; id <= L->prog->nusects; id++) usect_flush(a, L, wi, (int)id);
}

/* A full warp's shared access whose lanes are affine by half-warps (lane
 * l at a0 + (l % 16) * stride + (l / 16) * gap, bank_affine's key) counted
 * from the pc's bank cache through hook_banks_halves: 1 when it was. */
static inline int banks_affine_hit(warp *w, const insn *in, uint32_t m, const uint64_t addr[32],
                                   uint32_t size) {
  if (m != FULL_MASK || in->space != PTX_SPACE_SHARED || in->usect || in->op == OP_LDMATRIX ||
      in->op == OP_STMATRIX)
    return 0;
  uint32_t b = (uint32_t)addr[0], s = (uint32_t)(addr[1] - addr[0]), g = (uint32_t)(addr[16] - addr[0]),
           diff = 0;
  for (uint32_t l = 0; l < 32; l++) diff |= (uint32_t)addr[l] - (b + (l & 15) * s + (l >> 4) * g);
  return !diff && check_banks_halves(w, in, addr[0], addr[16], s, size);
}

/* bank_cache_period(...) - 1 of warp w's launch for accesses of 4, 8 and
 * 16 or more bytes per lane (merged widths), in bytes 0, 1 and 2: compiled
 * code (jit.c) looks its patterns up in the bank cache itself. */
uint32_t check_banks_masks(const warp *w) {
  const launch *L = w->L;
  return (bank_cache_period(L->arch, L->bank_mode, 4) - 1) |
         (bank_cache_period(L->arch, L->bank_mode, 8) - 1) << 8 |
         (bank_cache_period(L->arch, L->bank_mode, 16) - 1) << 16;
}

/* ---- the row ---- */

static int banks_wanted(const launch *L) { return L->want_banks; }

static int banks_new(analysis *a, const launch *L) {
  return (a->banks = calloc(a->ncode, sizeof *a->banks)) ? 0 : -1;
}

static void usect_free(usect_state *u) {
  if (!u) return;
  for (uint32_t i = 0; u->rec && i < u->nwarps * UREC_PCS; i++)
    for (int l = 0; l < 32; l++) free(u->rec[i].addr[l]);
  free(u->rec);
  free(u);
}

static void banks_free(analysis *a) {
  usect_free(a->us);
  free(a->banks);
}

static void banks_merge(analysis *into, const analysis *from) {
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

/* hook_mem: a full warp's lanes affine by half-warps are counted from the
 * cache without the model; an atomic's cost may depend on the values */
static void banks_mem(warp *w, const insn *in, uint32_t m, const uint64_t addr[32], uint32_t size, int kind) {
  if (kind == ACC_ATOMIC || !banks_affine_hit(w, in, m, addr, size)) banks(w, in, m, addr, size);
}

static void banks_mem_halves(warp *w, const insn *in, const uint64_t addr[32], uint32_t size, uint64_t a0,
                             uint64_t a1, uint32_t stride, int kind) {
  if (!check_banks_halves(w, in, a0, a1, stride, size)) banks(w, in, FULL_MASK, addr, size);
}

const check_row check_banks = {
    .name = "banks",
    .bit = CHECK_BANKS,
    .wanted = banks_wanted,
    .make = banks_new,
    .drop = banks_free,
    .merge = banks_merge,
    .block_start = banks_block_start,
    .block_end = banks_block_end,
    .mem = banks_mem,
    .mem_halves = banks_mem_halves,
};
