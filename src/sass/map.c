/* map.c: PTX shared accesses onto SASS instructions (sass.h).
 *
 * Per source line (the outermost location on both sides: PTX .loc with
 * inlined_at, nvdisasm -gi), the kernel's PTX shared loads, stores and
 * atomics are matched with the SASS LDS/STS/ATOMS of that line:
 *  - atomics: one PTX atomic and ATOMS.POPC.INC -> POPC_INC; ATOMS.CAST.SPIN
 *    (with its LDS) -> CAS_LOOP; a VOTE on the line and one ATOMS -> one
 *    lane adds the warp's total, two ATOMS -> the scan aggregation; one
 *    ATOMS -> plain. Several PTX atomics match one SASS atomic each, in
 *    order, or not at all.
 *  - loads and stores: the SASS widths must be covered by the PTX accesses:
 *    each SASS access of W bytes takes W/s PTX accesses of s bytes on one
 *    base register (or absolute shared addresses) at consecutive offsets
 *    (at an aligned address when it is absolute; three of four words for a
 *    16-byte load, which ptxas emits too: the x, y, z of a 16-byte struct
 *    or of neighbouring variables). If the PTX-level marks
 *    already give the same widths they are kept (agree); else the SASS
 *    grouping is applied (set).
 *  - generic ld/st/atom/red: with LD/ST/ATOM/RED of the line (or, with the
 *    shared ones, LDS/STS when ptxas proved the address shared); none:
 *    global in the SASS, not a shared access.
 *  - ldmatrix/stmatrix: one LDSM/STSM each, of as many matrices.
 *  - a loop body unrolled again (its copies in several SASS blocks):
 *    sections, recounted at run time (map_sections; program.h).
 * The kernel's called functions are mapped too (onto their own SASS, or the
 * kernel's where ptxas inlined them). Lines that do not match on their own
 * are pooled per kind and matched once more together (ptxas merges
 * accesses of neighbouring lines into one instruction attributed to one of
 * them). Where that fails too, the instruction counts differ from the
 * PTX's (a loop unrolled in the SASS only, loads ptxas proved redundant or
 * moved between lines): each line is grouped by the widths its SASS uses,
 * the grouping whose counts come closest (a whole multiple best; `relaxed`),
 * and the lines without SASS of their kind by the pool's remaining widths.
 * Without line info on either side (a release build: PTX without .loc, a
 * cubin without a line table) the function is one line: atomics pair with
 * the SASS atomics in order, loads and stores group by the function's
 * widths. What still does not match keeps the PTX-level marks (fallback)
 * and is listed for the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/hooks.h" /* ATOM_MODE_CAS */
#include "ir/merge.h"
#include "ir/program.h"
#include "model/atomsel.h"
#include "sass/regload.h" /* (and sass.h) */

/* PTX atomics of one line the mapping places (a function without line
 * info is one line) */
#define MAX_ATOMS 512

/* PTX kinds beyond SASS_LD/ST/ATOM: ldmatrix, stmatrix */
enum { K_LDSM = 3, K_STSM = 4, NKINDS = 5 };

/* The kind of a PTX access the mapping considers (-1: none): shared-space
 * loads, stores, atomics, ldmatrix/stmatrix, and generic-address ld, st,
 * atom and red (which may reach shared memory); *gen says which. */
static int kind_of(const insn *in, int *gen) {
  uint32_t f = op_flags[in->op];
  *gen = 0;
  if (!(f & OPF_MEM)) return -1;
  if (in->space == PTX_SPACE_GENERIC &&
      (in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED))
    *gen = 1;
  else if (in->space != PTX_SPACE_SHARED)
    return -1;
  if (in->op == OP_LDMATRIX) return K_LDSM;
  if (in->op == OP_STMATRIX) return K_STSM;
  if (f & OPF_ATOMIC) return SASS_ATOM;
  return (f & OPF_WRITE) ? SASS_ST : SASS_LD;
}

static int size_of(const insn *in) {
  int s = ptx_type_size(in->type);
  return s * (in->vec > 1 ? in->vec : 1);
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Whether SASS file index sf names program file pf. */
static int same_file(const program *P, uint32_t pf, const sass_text *S, int sf) {
  if (sf < 0 || pf == ~0u || pf >= P->nfiles || !P->files[pf]) return 0;
  const char *a = P->files[pf], *b = S->files[sf];
  return !strcmp(a, b) || !strcmp(base_name(a), base_name(b));
}

static int cmp_acc(const void *x, const void *y) {
  const acc *a = x, *b = y;
  if (a->base != b->base) return a->base < b->base ? -1 : 1;
  if (a->off != b->off) return a->off < b->off ? -1 : 1;
  return a->pc < b->pc ? -1 : a->pc > b->pc;
}

static int cmp_int_desc(const void *x, const void *y) { return *(const int *)y - *(const int *)x; }

/* Takes a[i] and the k - 1 unused accesses of its base and size that follow
 * it in a[i..end) (a load of 4 may lack its last) as one group of width
 * k * size, marking merge[] (0 alone, k for the leader, MERGE_FOLLOW).
 * 1 when taken. */
static int take_group(acc *a, int i, int end, int k, int loads, uint8_t *merge) {
  int idx[4], found = 0;
  for (int j = 0; j < k; j++) {
    idx[j] = -1;
    for (int m = i; m < end; m++)
      if (!a[m].used && a[m].base == a[i].base && a[m].size == a[i].size &&
          a[m].off == a[i].off + (int64_t)j * a[i].size) {
        idx[j] = m;
        break;
      }
    found += idx[j] >= 0;
  }
  if (found != k && !(loads && k == 4 && found == 3 && idx[3] < 0)) return 0;
  for (int j = 0; j < k; j++)
    if (idx[j] >= 0) {
      a[idx[j]].used = 1;
      merge[idx[j]] = k == 1 ? 0 : j == 0 ? (uint8_t)k : MERGE_FOLLOW;
    }
  return 1;
}

/* Groups accs (sorted) to cover widths w[0..nw) (sorted descending); fills
 * merge[i] per acc (0 alone, 2/4 leader, MERGE_FOLLOW). 1 on success. */
static int cover(acc *a, int na, const int *w, int nw, int loads, uint8_t *merge) {
  for (int i = 0; i < na; i++) {
    a[i].used = 0;
    merge[i] = 0;
  }
  for (int t = 0; t < nw; t++) {
    int W = w[t], done = 0;
    for (int i = 0; i < na && !done; i++) {
      /* (an access of no size, an mbarrier or a copy, covers no width) */
      if (a[i].used || !a[i].size || W % a[i].size) continue;
      int k = W / a[i].size;
      if (k != 1 && k != 2 && k != 4) continue;
      int abs = a[i].base == SR_ZERO;
      if (abs && k > 1 && a[i].off % W) continue;
      done = take_group(a, i, na, k, loads, merge);
    }
    if (!done) return 0;
  }
  for (int i = 0; i < na; i++)
    if (!a[i].used) return 0;
  return 1;
}

/* The widths the PTX-level marks give accs. */
static int ptx_widths(const program *P, const acc *a, int na, int *w) {
  int n = 0;
  for (int i = 0; i < na; i++) {
    uint8_t m = P->code[a[i].pc].merge;
    if (m == MERGE_FOLLOW) continue;
    w[n++] = a[i].size * (m ? m : 1);
  }
  qsort(w, (size_t)n, sizeof *w, cmp_int_desc);
  return n;
}

static void note_fb(sass_map *M, const program *P, uint32_t pc) {
  const src_line *l = &P->lines[pc];
  uint32_t key = ((l->file & 0xfffu) << 20) | (l->line & 0xfffffu);
  for (int i = 0; i < M->nfb_lines; i++)
    if (M->fb_lines[i] == key) return;
  if (M->nfb_lines < 16) M->fb_lines[M->nfb_lines++] = key;
}

/* The SASS name of a load/store group of `bytes`. */
static void name_op(char *out, int loads, int bytes, int gen) {
  const char *w = bytes == 16 ? ".128" : bytes == 8 ? ".64" : bytes == 2 ? ".U16" : bytes == 1 ? ".U8" : "";
  snprintf(out, 24, "%s%s", gen ? (loads ? "LD.E" : "ST.E") : loads ? "LDS" : "STS", w);
}

/* Names each group's instructions after the marks. */
static void name_groups(const program *P, sass_map *M, const acc *a, int na, int loads) {
  for (int i = 0; i < na; i++) {
    uint8_t m = P->code[a[i].pc].merge;
    if (m != MERGE_FOLLOW)
      name_op(M->op[a[i].pc], loads, a[i].size * (m ? m : 1), P->code[a[i].pc].space == PTX_SPACE_GENERIC);
  }
  /* followers: the name of their group's leader (the last leader before
   * them in address order: accs are sorted) */
  const char *lead = NULL;
  for (int i = 0; i < na; i++) {
    if (P->code[a[i].pc].merge != MERGE_FOLLOW)
      lead = M->op[a[i].pc];
    else if (lead)
      snprintf(M->op[a[i].pc], 24, "%s", lead);
  }
}

/* Groups accs (sorted) with the widths of mask (bit t: widths[t], widest
 * first), as ptxas groups them: widest first, each group k accesses of one
 * base at consecutive offsets. Fills merge[] and g[t], the groups of each
 * width; 1 when every access is in a group. */
static int group_with(acc *a, int na, const int *widths, int nwidths, unsigned mask, int loads,
                      uint8_t *merge, int *g) {
  for (int i = 0; i < na; i++) {
    a[i].used = 0;
    merge[i] = 0;
  }
  for (int t = 0; t < nwidths; t++) {
    g[t] = 0;
    if (!(mask >> t & 1)) continue;
    int W = widths[t];
    for (int i = 0; i < na; i++) {
      if (a[i].used || !a[i].size || W % a[i].size) continue;
      int k = W / a[i].size;
      if (k != 1 && k != 2 && k != 4) continue;
      if (a[i].base == SR_ZERO && k > 1 && a[i].off % W) continue;
      g[t] += take_group(a, i, na, k, loads, merge);
    }
  }
  for (int i = 0; i < na; i++)
    if (!a[i].used) return 0;
  return 1;
}

/* How far group counts g are from the SASS's instruction counts c (per
 * width): 0 when c is a whole multiple of g (the same groups, unrolled m
 * times), else the instructions that differ. */
static int distance(const int *g, const int *c, int n) {
  int m = 0, d = 0, mult = 1;
  for (int t = 0; t < n; t++) {
    d += g[t] > c[t] ? g[t] - c[t] : c[t] - g[t];
    if (!g[t] != !c[t] || (g[t] && c[t] % g[t])) mult = 0;
    if (g[t] && mult) {
      if (!m) m = c[t] / g[t];
      if (m != c[t] / g[t]) mult = 0;
    }
  }
  return mult && m ? 0 : d;
}

/* Where the instruction counts differ (a loop ptxas unrolled, loads it
 * proved redundant, accesses it moved to or from other lines), the widths
 * still say how the accesses are grouped: of the groupings that use only
 * widths the SASS has, the one whose counts are closest to the SASS's (a
 * whole multiple best; widest-first on a tie). 1 when one covers every
 * access; *exact: its counts are a multiple of the SASS's. */
static int relaxed(const program *P, acc *a, int na, const int *w, int nw, int loads, uint8_t *merge,
                   int *exact) {
  int widths[8], cnt[8], nwd = 0;
  for (int i = 0; i < nw; i++) {
    int t = 0;
    while (t < nwd && widths[t] != w[i]) t++;
    if (t == nwd) {
      if (nwd == 8) return 0;
      widths[nwd] = w[i];
      cnt[nwd++] = 0;
    }
    cnt[t]++;
  }
  /* widest first */
  for (int i = 1; i < nwd; i++)
    for (int j = i; j > 0 && widths[j] > widths[j - 1]; j--) {
      int x = widths[j];
      widths[j] = widths[j - 1];
      widths[j - 1] = x;
      x = cnt[j];
      cnt[j] = cnt[j - 1];
      cnt[j - 1] = x;
    }
  uint8_t *tmp = malloc((size_t)na);
  if (!tmp) return 0;
  int best = -1;
  unsigned best_mask = 0;
  for (unsigned mask = (1u << nwd) - 1; mask; mask--) {
    int g[8];
    if (!group_with(a, na, widths, nwd, mask, loads, tmp, g)) continue;
    int d = distance(g, cnt, nwd);
    if (best < 0 || d < best) {
      best = d;
      best_mask = mask;
    }
  }
  free(tmp);
  /* counts that are no whole multiple say little about the grouping: the
   * PTX-level one stands where the SASS has each of its widths (measured:
   * cub's radix sort on an H200, tests/hw/sass_cub) */
  if (best != 0) {
    int ok = 1;
    for (int i = 0; i < na && ok; i++) {
      uint8_t m = P->code[a[i].pc].merge;
      int W = m == MERGE_FOLLOW ? 0 : a[i].size * (m ? m : 1), have = !W;
      for (int t = 0; t < nwd && !have; t++) have = widths[t] == W;
      ok = have;
      merge[i] = m;
    }
    if (ok) {
      *exact = 0;
      return 1;
    }
  }
  if (best < 0) return 0;
  int g[8];
  group_with(a, na, widths, nwd, best_mask, loads, merge, g);
  *exact = best == 0;
  return 1;
}

/* Matches accs with SASS widths; applies, or leaves them for the pool.
 * Returns 1 when matched. */
static int match_accs(program *P, sass_map *M, acc *a, int na, int *w, int nw, int loads, int relax) {
  if (!na && !nw) return 1;
  if (!na || !nw) return 0;
  qsort(a, (size_t)na, sizeof *a, cmp_acc);
  qsort(w, (size_t)nw, sizeof *w, cmp_int_desc);
  int *pw = malloc((size_t)na * sizeof *pw);
  uint8_t *merge = malloc((size_t)na);
  int ok = 0, exact = 1;
  if (pw && merge) {
    int npw = ptx_widths(P, a, na, pw);
    if (npw == nw && !memcmp(pw, w, (size_t)nw * sizeof *w)) {
      for (int i = 0; i < na; i++) M->status[a[i].pc] = SASS_MAP_AGREE;
      ok = 1;
    } else if (cover(a, na, w, nw, loads, merge)) {
      for (int i = 0; i < na; i++) {
        P->code[a[i].pc].merge = merge[i];
        M->status[a[i].pc] = SASS_MAP_SET;
      }
      ok = 1;
    } else if (relax && relaxed(P, a, na, w, nw, loads, merge, &exact)) {
      for (int i = 0; i < na; i++) {
        insn *in = &P->code[a[i].pc];
        M->status[a[i].pc] = in->merge == merge[i] ? SASS_MAP_AGREE : SASS_MAP_SET;
        in->merge = merge[i];
        M->approx += !exact;
      }
      ok = 1;
    }
  }
  free(pw);
  free(merge);
  if (ok) name_groups(P, M, a, na, loads);
  return ok;
}

/* The form the SASS of one line gives its n PTX atomics; -1 ambiguous. */
static int atom_forms(const sass_insn *const *s, int ns, int votes, int n, int *forms) {
  int cast = 0, popc = 0, other = 0;
  for (int i = 0; i < ns; i++) {
    cast += s[i]->variant == SASS_AT_CAST_SPIN;
    popc += s[i]->variant == SASS_AT_POPC_INC;
    other += s[i]->variant == SASS_AT_PLAIN || s[i]->variant == SASS_AT_CAS;
  }
  if (n == 1) {
    if (popc == 1 && ns == 1)
      forms[0] = ATOMSEL_POPC_INC;
    else if (cast >= 1 && cast == ns)
      forms[0] = votes ? ATOMSEL_AGG_LOOP : ATOMSEL_CAS_LOOP;
    else if (ns == 1 && votes)
      forms[0] = ATOMSEL_AGG_ONE;
    else if (ns == 2 && other == 2 && votes)
      forms[0] = ATOMSEL_AGG_SCAN;
    else if (ns == 1)
      forms[0] = ATOMSEL_PLAIN;
    else
      return -1;
    return 0;
  }
  if (ns != n || cast || votes) return -1;
  for (int i = 0; i < n; i++) forms[i] = s[i]->variant == SASS_AT_POPC_INC ? ATOMSEL_POPC_INC : ATOMSEL_PLAIN;
  return 0;
}

/* Whether a VOTE precedes SASS instruction s in its basic block (a warp
 * aggregation's ballot; VOTEU, a uniform predicate's vote ptxas adds
 * around unrolled code, is none). */
static int vote_before(const sass_func *F, const sass_insn *s) {
  for (const sass_insn *t = s; t > F->ins && t[-1].block == s->block;) {
    t--;
    if (t->cls == SASS_VOTE && strncmp(t->text, "VOTEU", 5)) return 1;
  }
  return 0;
}

/* When the line's SASS atomics do not single out one form (several PTX
 * atomics and votes on the line, or a function without line info): as
 * many SASS atomics as PTX ones pair up in order, each its own form (a
 * plain one after a vote in its block aggregated); a different number of
 * them, all of one variant and no votes, give every PTX atomic that form
 * (ptxas unrolled or merged copies). -1 when neither holds. */
static int atom_forms_relaxed(const sass_func *F, const sass_insn *const *s, int ns, int votes, int n,
                              int *forms) {
  if (!ns) return -1;
  if (ns == n) {
    for (int i = 0; i < n; i++) {
      int agg = vote_before(F, s[i]);
      forms[i] = s[i]->variant == SASS_AT_POPC_INC    ? ATOMSEL_POPC_INC
                 : s[i]->variant == SASS_AT_CAST_SPIN ? (agg ? ATOMSEL_AGG_LOOP : ATOMSEL_CAS_LOOP)
                 : agg                                ? ATOMSEL_AGG_ONE
                                                      : ATOMSEL_PLAIN;
    }
    return 0;
  }
  for (int i = 1; i < ns; i++)
    if (s[i]->variant != s[0]->variant) return -1;
  if (votes && s[0]->variant != SASS_AT_POPC_INC) return -1;
  for (int i = 0; i < n; i++)
    forms[i] = s[0]->variant == SASS_AT_POPC_INC    ? ATOMSEL_POPC_INC
               : s[0]->variant == SASS_AT_CAST_SPIN ? ATOMSEL_CAS_LOOP
                                                    : ATOMSEL_PLAIN;
  return 0;
}

/* Sets the atomics' forms from the line's SASS atomics, or marks them
 * fallback. */
static void map_atoms(program *P, sass_map *M, const sass_func *F, const uint32_t *atoms, int natoms,
                      const sass_insn *const *sat, int nsat, int votes) {
  int forms[MAX_ATOMS];
  if (!natoms) return;
  if (atom_forms(sat, nsat, votes, natoms, forms) < 0 &&
      atom_forms_relaxed(F, sat, nsat, votes, natoms, forms) < 0) {
    for (int i = 0; i < natoms; i++) {
      M->status[atoms[i]] = SASS_MAP_FALLBACK;
      note_fb(M, P, atoms[i]);
    }
    return;
  }
  for (int i = 0; i < natoms; i++) {
    insn *in = &P->code[atoms[i]];
    M->status[atoms[i]] = in->atom_form == forms[i] ? SASS_MAP_AGREE : SASS_MAP_SET;
    in->atom_form = (uint8_t)forms[i];
    const sass_insn *s = natoms == 1 ? (nsat ? sat[nsat - 1] : NULL) : i < nsat ? sat[i] : sat[nsat - 1];
    if (s)
      snprintf(M->op[atoms[i]], 24, "%.18s%s", s->text,
               forms[i] == ATOMSEL_CAS_LOOP || forms[i] == ATOMSEL_AGG_LOOP ? " loop" : "");
  }
}

static int cmp_int(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }

/* ldmatrix/stmatrix: each PTX instruction is one LDSM/STSM of as many
 * matrices; the line's lists must agree (the bank model already counts
 * them by matrix, model/ldsm.c). */
static void map_ldsm(program *P, sass_map *M, const uint32_t *pcs, int n, const sass_insn *const *ss,
                     int ns) {
  int a[64], b[64], ok = n == ns && n <= 64;
  for (int i = 0; ok && i < n; i++) {
    a[i] = P->code[pcs[i]].vec;
    b[i] = ss[i]->bytes;
  }
  if (ok) {
    qsort(a, (size_t)n, sizeof *a, cmp_int);
    qsort(b, (size_t)n, sizeof *b, cmp_int);
    ok = !memcmp(a, b, (size_t)n * sizeof *a);
  }
  for (int i = 0; i < n; i++) {
    M->status[pcs[i]] = ok ? SASS_MAP_AGREE : SASS_MAP_FALLBACK;
    if (!ok) {
      note_fb(M, P, pcs[i]);
      continue;
    }
    for (int j = 0; j < ns; j++)
      if (ss[j]->bytes == P->code[pcs[i]].vec) {
        snprintf(M->op[pcs[i]], 24, "%.23s", ss[j]->text);
        break;
      }
  }
}

/* A line's loads or stores (kind `loads`) whose SASS spreads over several
 * basic blocks as copies of the same groups: a loop body that ptxas
 * unrolled again (program.h, unroll_sect). The PTX accesses of one base
 * register form a unit, grouped with the widths the SASS uses (widest
 * first); every SASS block must hold m copies of exactly one unit's groups.
 * A unit in one block, once, is a plain mapping; a unit in several blocks
 * (or copied) gets the blocks as its sections, in address order. Returns 1
 * when the line mapped. */
static int map_sections(program *P, sass_map *M, const sass_func *F, acc *a, int na,
                        const sass_insn *const *ss, int ns, int loads) {
  enum { MAXU = 8, MAXB = USECT_MAX * MAXU };
  int blocks[MAXB], nblk = 0;
  for (int i = 0; i < ns; i++) {
    int seen = 0;
    for (int j = 0; j < nblk; j++) seen |= blocks[j] == ss[i]->block;
    if (!seen) {
      if (nblk == MAXB) return 0;
      blocks[nblk++] = ss[i]->block;
    }
  }
  if (nblk < 2 || na < 1 || na > 64) return 0;
  qsort(blocks, (size_t)nblk, sizeof *blocks, cmp_int);
  qsort(a, (size_t)na, sizeof *a, cmp_acc);
  /* the SASS widths, widest first */
  int ws[8], nws = 0;
  for (int i = 0; i < ns; i++) {
    int have = 0;
    for (int j = 0; j < nws; j++) have |= ws[j] == ss[i]->bytes;
    if (!have && nws < 8) ws[nws++] = ss[i]->bytes;
  }
  qsort(ws, (size_t)nws, sizeof *ws, cmp_int_desc);
  /* units and their groups */
  int ustart[MAXU + 1], nu = 0, gw[MAXU][64], ng[MAXU];
  uint8_t merge[64];
  for (int i = 0; i < na; i++)
    if (!i || a[i].base != a[i - 1].base) {
      if (nu == MAXU) return 0;
      ustart[nu++] = i;
    }
  ustart[nu] = na;
  for (int i = 0; i < na; i++) {
    a[i].used = 0;
    merge[i] = 0;
  }
  for (int u = 0; u < nu; u++) {
    ng[u] = 0;
    for (int t = 0; t < nws; t++) {
      int W = ws[t];
      for (int i = ustart[u]; i < ustart[u + 1]; i++) {
        if (a[i].used || !a[i].size || W % a[i].size) continue;
        int k = W / a[i].size;
        if (k != 1 && k != 2 && k != 4) continue;
        if (a[i].base == SR_ZERO && k > 1 && a[i].off % W) continue;
        if (take_group(a, i, ustart[u + 1], k, loads, merge)) gw[u][ng[u]++] = W;
      }
    }
    for (int i = ustart[u]; i < ustart[u + 1]; i++)
      if (!a[i].used) return 0;
    qsort(gw[u], (size_t)ng[u], sizeof(int), cmp_int_desc);
  }
  /* each block: m copies of one unit's groups */
  int bu[MAXB], bm[MAXB], nbu[MAXU] = {0};
  for (int b = 0; b < nblk; b++) {
    int wb[64], nb = 0;
    for (int i = 0; i < ns; i++)
      if (ss[i]->block == blocks[b]) {
        if (nb == 64) return 0;
        wb[nb++] = ss[i]->bytes;
      }
    qsort(wb, (size_t)nb, sizeof *wb, cmp_int_desc);
    bu[b] = -1;
    for (int u = 0; u < nu; u++) {
      if (!ng[u] || nb % ng[u]) continue;
      int m = nb / ng[u], ok = 1;
      for (int i = 0; i < nb && ok; i++) ok = wb[i] == gw[u][i / m];
      if (!ok) continue;
      if (bu[b] >= 0) return 0; /* two units fit: ambiguous */
      bu[b] = u;
      bm[b] = m;
    }
    if (bu[b] < 0 || bm[b] > 255) return 0;
    nbu[bu[b]]++;
  }
  for (int u = 0; u < nu; u++)
    if (!nbu[u] || nbu[u] > USECT_MAX) return 0;
  /* apply */
  for (int u = 0; u < nu; u++) {
    uint8_t id = 0;
    int plain = nbu[u] == 1;
    for (int b = 0; b < nblk && plain; b++) plain = bu[b] != u || bm[b] == 1;
    if (!plain) {
      if (P->nusects >= 255) return 0;
      unroll_sect *us = realloc(P->usects, (P->nusects + 1) * sizeof *us);
      if (!us) return 0;
      P->usects = us;
      unroll_sect *x = &us[P->nusects++];
      memset(x, 0, sizeof *x);
      for (int b = 0; b < nblk; b++)
        if (bu[b] == u) {
          x->m[x->n] = (uint8_t)bm[b];
          x->loop[x->n++] = (uint8_t)sass_block_loops(F, blocks[b]);
        }
      id = (uint8_t)P->nusects;
    }
    for (int i = ustart[u]; i < ustart[u + 1]; i++) {
      insn *in = &P->code[a[i].pc];
      M->status[a[i].pc] = in->merge == merge[i] && !id ? SASS_MAP_AGREE : SASS_MAP_SET;
      in->merge = merge[i];
      in->usect = id;
    }
  }
  name_groups(P, M, a, na, loads);
  return 1;
}

/* Whether shared load pc repeats an earlier load of the function [lo, pc)
 * that ptxas keeps in a register: the same base register, offset and size,
 * unguarded, in straight-line code with no shared or generic write,
 * atomic, barrier, fence, call or branch between, nothing there writing
 * the base register, and no branch into the stretch (targets[]: 1 for
 * each pc some branch reaches). */
static int repeats_load(const program *P, uint32_t lo, uint32_t pc, const uint8_t *targets) {
  const insn *L = &P->code[pc];
  if (L->op != OP_LD || L->space != PTX_SPACE_SHARED || L->guard >= 0) return 0;
  for (uint32_t q = pc; q > lo;) {
    if (targets[q - lo]) return 0;
    const insn *e = &P->code[--q];
    uint32_t f = op_flags[e->op];
    if (f & (OPF_WRITE | OPF_ATOMIC | OPF_BRANCH | OPF_CALL | OPF_RET | OPF_EXIT | OPF_BARRIER | OPF_FENCE))
      return 0;
    if (e->op == OP_LD && e->space == PTX_SPACE_SHARED && e->guard < 0 && e->a == L->a && e->imm == L->imm &&
        e->type == L->type && e->vec == L->vec && e->d != L->a)
      return 1;
    if (e->d == L->a || e->d2 == L->a) return 0;
    for (int i = 0; i < 4; i++)
      if (e->v[i] == L->a) return 0;
  }
  return 0;
}

/* A line's accesses and SASS widths in the pool (map_func). */
typedef struct seg {
  int a0, na, w0, nw;
} seg;

/* Maps the accesses of pcs [lo, hi) (one function) onto F. */
static int map_func(program *P, const sass_text *S, const sass_func *F, sass_map *M, uint32_t lo,
                    uint32_t hi) {
  uint32_t n = hi > lo ? hi - lo : 0;
  size_t fn = (size_t)F->n + 1;
  /* per kind (ld, st) and space (0 shared, 1 generic): this line's PTX
   * accesses and SASS widths; the pool of lines that did not match alone */
  acc *pool[2] = {malloc((n + 1) * sizeof(acc)), malloc((n + 1) * sizeof(acc))};
  acc *la[2][2] = {{malloc((n + 1) * sizeof(acc)), malloc((n + 1) * sizeof(acc))},
                   {malloc((n + 1) * sizeof(acc)), malloc((n + 1) * sizeof(acc))}};
  acc *uni = malloc((n + 1) * sizeof(acc));
  int *pool_w[2] = {malloc(fn * sizeof(int)), malloc(fn * sizeof(int))};
  int *lw[2][2] = {{malloc(fn * sizeof(int)), malloc(fn * sizeof(int))},
                   {malloc(fn * sizeof(int)), malloc(fn * sizeof(int))}};
  int *uw = malloc(fn * sizeof(int));
  const sass_insn **sat = malloc(fn * sizeof *sat), **gsat = malloc(fn * sizeof *gsat);
  const sass_insn **sm[2] = {malloc(fn * sizeof *sat), malloc(fn * sizeof *sat)};
  const sass_insn **lss[2] = {malloc(fn * sizeof *sat), malloc(fn * sizeof *sat)};
  uint8_t *seen = calloc(n + 1, 1);
  uint8_t *sass_used = calloc(fn, 1);
  seg *segs[2] = {malloc((n + 1) * sizeof(seg)), malloc((n + 1) * sizeof(seg))};
  uint8_t *targets = calloc(n + 1, 1);
  int npool[2] = {0, 0}, npool_w[2] = {0, 0}, nsegs[2] = {0, 0}, rc = -1;
  if (!pool[0] || !pool[1] || !la[0][0] || !la[0][1] || !la[1][0] || !la[1][1] || !uni || !pool_w[0] ||
      !pool_w[1] || !lw[0][0] || !lw[0][1] || !lw[1][0] || !lw[1][1] || !uw || !sat || !gsat || !sm[0] ||
      !sm[1] || !lss[0] || !lss[1] || !seen || !sass_used || !segs[0] || !segs[1] || !targets)
    goto out;
  for (uint32_t pc = lo; pc < hi; pc++)
    if ((op_flags[P->code[pc].op] & OPF_BRANCH) && P->code[pc].target >= lo && P->code[pc].target < hi)
      targets[P->code[pc].target - lo] = 1;
  int gen;
  for (uint32_t pc0 = lo; pc0 < hi; pc0++) {
    if (seen[pc0 - lo] || kind_of(&P->code[pc0], &gen) < 0) continue;
    const src_line *L0 = &P->lines[pc0];
    /* this line's PTX accesses */
    int na[2][2] = {{0, 0}, {0, 0}};
    uint32_t atoms[2][MAX_ATOMS], mats[2][64];
    int natoms[2] = {0, 0}, nmats[2] = {0, 0};
    for (uint32_t pc = pc0; pc < hi; pc++) {
      const src_line *L = &P->lines[pc];
      int k = kind_of(&P->code[pc], &gen);
      if (k < 0 || seen[pc - lo] || L->file != L0->file || L->line != L0->line) continue;
      seen[pc - lo] = 1;
      const insn *in = &P->code[pc];
      if (k == SASS_ATOM || k == K_LDSM || k == K_STSM) {
        uint32_t *list = k == SASS_ATOM ? atoms[gen] : mats[k == K_STSM];
        int *cnt = k == SASS_ATOM ? &natoms[gen] : &nmats[k == K_STSM];
        if (*cnt < (k == SASS_ATOM ? MAX_ATOMS : 64))
          list[(*cnt)++] = pc;
        else {
          M->status[pc] = SASS_MAP_FALLBACK;
          note_fb(M, P, pc);
        }
        continue;
      }
      acc x = {pc, in->a, in->imm, size_of(in), 0};
      sass_canon_base(P, lo, hi, &x.base, &x.off);
      la[k][gen][na[k][gen]++] = x;
    }
    /* this line's SASS */
    int nw[2][2] = {{0, 0}, {0, 0}}, nsat = 0, ngsat = 0, votes = 0, ncast = 0, ngcas = 0, nsm[2] = {0, 0};
    int nlss[2] = {0, 0};
    for (int i = 0; i < F->n; i++) {
      const sass_insn *s = &F->ins[i];
      /* (without line info on both sides the function is one line) */
      if (L0->file == ~0u ? s->file >= 0 : s->line != L0->line || !same_file(P, L0->file, S, s->file))
        continue;
      sass_used[i] = 1;
      if (s->cls == SASS_VOTE)
        votes++;
      else if (s->cls == SASS_ATOM) {
        if (s->gen) {
          gsat[ngsat++] = s;
          ngcas += s->variant == SASS_AT_CAS;
        } else {
          sat[nsat++] = s;
          ncast += s->variant == SASS_AT_CAST_SPIN;
        }
      } else if (s->variant == 1 && (s->cls == SASS_LD || s->cls == SASS_ST)) {
        sm[s->cls][nsm[s->cls]++] = s; /* LDSM/STSM */
      } else if (s->cls == SASS_LD || s->cls == SASS_ST) {
        lw[s->cls][s->gen][nw[s->cls][s->gen]++] = s->bytes;
        if (!s->gen) lss[s->cls][nlss[s->cls]++] = s;
      }
    }
    /* a CAS loop's load belongs to the atomic: LDS before ATOMS.CAST.SPIN,
     * LD before a generic ATOM.CAS that no PTX atom.cas explains */
    int gcas_ptx = 0; /* generic PTX atom.cas: their ATOM.E.CAS are their own */
    for (int i = 0; i < natoms[1]; i++)
      gcas_ptx += P->code[atoms[1][i]].op == OP_ATOM && P->code[atoms[1][i]].mode == ATOM_MODE_CAS;
    for (int g = 0; g < 2; g++) {
      int loops = g ? (natoms[1] > gcas_ptx ? ngcas - gcas_ptx : 0) : ncast;
      for (int c = 0; c < loops && nw[0][g] > 0; c++) {
        int best = -1;
        for (int i = 0; i < nw[0][g]; i++)
          if (best < 0 || lw[0][g][i] < lw[0][g][best]) best = i;
        lw[0][g][best] = lw[0][g][--nw[0][g]];
      }
    }
    /* atomics: shared ones with ATOMS, generic ones with ATOM/RED (none:
     * the address is global in the SASS, nothing to map) */
    map_atoms(P, M, F, atoms[0], natoms[0], sat, nsat, votes);
    if (ngsat) {
      map_atoms(P, M, F, atoms[1], natoms[1], gsat, ngsat, votes);
      for (int i = 0; i < natoms[1]; i++)
        P->code[atoms[1][i]].gen_atom = M->status[atoms[1][i]] != SASS_MAP_FALLBACK;
    }
    /* ldmatrix, stmatrix */
    for (int k = 0; k < 2; k++)
      if (nmats[k]) map_ldsm(P, M, mats[k], nmats[k], sm[k], nsm[k]);
    /* loads and stores: shared with LDS/STS and generic with LD/ST; if
     * that fails, all of them together (ptxas may prove a generic access
     * shared); then the pool */
    for (int k = 0; k < 2; k++) {
      int ok_s = match_accs(P, M, la[k][0], na[k][0], lw[k][0], nw[k][0], k == 0, 0);
      if (!na[k][1] && !nw[k][1] && ok_s) continue;
      if (!nw[k][1] && ok_s) continue; /* the generic ones are global in the SASS */
      if (ok_s && match_accs(P, M, la[k][1], na[k][1], lw[k][1], nw[k][1], k == 0, 0)) continue;
      int nu = 0, nuw = 0;
      for (int g = 0; g < 2; g++) {
        for (int i = 0; i < na[k][g]; i++) uni[nu++] = la[k][g][i];
        for (int i = 0; i < nw[k][g]; i++) uw[nuw++] = lw[k][g][i];
      }
      if (match_accs(P, M, uni, nu, uw, nuw, k == 0, 0)) continue;
      if (!na[k][1] && !nw[k][1] && map_sections(P, M, F, uni, nu, lss[k], nlss[k], k == 0)) continue;
      /* loads with no LDS on their line that repeat an earlier load:
       * ptxas reuses the register, nothing executes (counted as nothing,
       * as a merged group's follower); the rest as before */
      if (k == 0 && nuw < nu) {
        int kept = 0;
        for (int i = 0; i < nu; i++) {
          if (repeats_load(P, lo, uni[i].pc, targets)) {
            P->code[uni[i].pc].merge = MERGE_FOLLOW;
            M->status[uni[i].pc] = SASS_MAP_SET;
            snprintf(M->op[uni[i].pc], 24, "(register)");
          } else
            uni[kept++] = uni[i];
        }
        int dropped = nu - kept;
        nu = kept;
        /* loads ptxas reads with their neighbours of one 16-byte window */
        dropped += sass_window_loads(P, M, lo, hi, targets, uni, &nu, uw, &nuw);
        if (!nu || (dropped && match_accs(P, M, uni, nu, uw, nuw, k == 0, 0))) continue;
      }
      seg *sg = &segs[k][nsegs[k]++];
      sg->a0 = npool[k];
      sg->w0 = npool_w[k];
      /* (generic accesses without generic SASS on their line: global) */
      for (int i = 0; i < nu; i++)
        if (nw[k][1] || P->code[uni[i].pc].space != PTX_SPACE_GENERIC) pool[k][npool[k]++] = uni[i];
      for (int i = 0; i < nuw && npool_w[k] < F->n; i++) pool_w[k][npool_w[k]++] = uw[i];
      sg->na = npool[k] - sg->a0;
      sg->nw = npool_w[k] - sg->w0;
    }
  }
  /* SASS accesses on lines without PTX accesses (moved there by ptxas) */
  for (int i = 0; i < F->n; i++) {
    const sass_insn *s = &F->ins[i];
    if (!sass_used[i] && (s->cls == SASS_LD || s->cls == SASS_ST) && s->variant != 1 && !s->gen &&
        npool_w[s->cls] < F->n)
      pool_w[s->cls][npool_w[s->cls]++] = s->bytes;
  }
  /* the pool: all together exactly (ptxas merged accesses of several
   * lines); else each line by the widths of its own SASS, and what is
   * left (lines without SASS of their kind) by the rest */
  for (int k = 0; k < 2; k++) {
    if (!npool[k]) continue;
    memcpy(uni, pool[k], (size_t)npool[k] * sizeof *uni);
    memcpy(uw, pool_w[k], (size_t)npool_w[k] * sizeof *uw);
    if (match_accs(P, M, uni, npool[k], uw, npool_w[k], k == 0, 0)) continue;
    int nl = 0, nlw = 0, w_end = 0;
    for (int j = 0; j < nsegs[k]; j++) {
      const seg *sg = &segs[k][j];
      w_end = sg->w0 + sg->nw;
      if (sg->nw && match_accs(P, M, pool[k] + sg->a0, sg->na, pool_w[k] + sg->w0, sg->nw, k == 0, 1))
        continue;
      memmove(uni + nl, pool[k] + sg->a0, (size_t)sg->na * sizeof *uni);
      nl += sg->na;
      memmove(uw + nlw, pool_w[k] + sg->w0, (size_t)sg->nw * sizeof *uw);
      nlw += sg->nw;
    }
    for (int i = w_end; i < npool_w[k]; i++) uw[nlw++] = pool_w[k][i];
    if (!nl || match_accs(P, M, uni, nl, uw, nlw, k == 0, 1)) continue;
    for (int i = 0; i < nl; i++) {
      M->status[uni[i].pc] = SASS_MAP_FALLBACK;
      note_fb(M, P, uni[i].pc);
    }
  }
  rc = 0;
out:
  free(pool[0]);
  free(pool[1]);
  free(segs[0]);
  free(segs[1]);
  free(targets);
  for (int k = 0; k < 2; k++)
    for (int g = 0; g < 2; g++) {
      free(la[k][g]);
      free(lw[k][g]);
    }
  free(uni);
  free(uw);
  free(pool_w[0]);
  free(pool_w[1]);
  free(sat);
  free(gsat);
  free(sm[0]);
  free(sm[1]);
  free(lss[0]);
  free(lss[1]);
  free(seen);
  free(sass_used);
  return rc;
}

int sass_apply(program *P, const sass_text *S, const sass_func *F, sass_map *M) {
  memset(M, 0, sizeof *M);
  if (!P->nfuncs) return 0;
  if (!(M->status = calloc(P->ncode ? P->ncode : 1, 1)) ||
      !(M->op = calloc(P->ncode ? P->ncode : 1, sizeof *M->op))) {
    free(M->status);
    M->status = NULL;
    return -1;
  }
  /* what an earlier mapping of this program set */
  for (uint32_t pc = 0; pc < P->ncode; pc++) P->code[pc].usect = P->code[pc].gen_atom = 0;
  free(P->usects);
  P->usects = NULL;
  P->nusects = 0;
  /* the kernel, then the functions it calls: with their own SASS where
   * ptxas kept them functions, else the kernel's (where it inlined them,
   * their lines are the callee's) */
  int rc = 0;
  for (uint32_t f = 0; f < P->nfuncs && !rc; f++) {
    const sass_func *Ff = f && P->funcs[f].name ? sass_find(S, P->funcs[f].name) : NULL;
    rc = map_func(P, S, Ff ? Ff : F, M, P->funcs[f].entry, P->funcs[f].end);
  }
  if (!rc) rc = sass_sink_loads(P, F);
  if (rc < 0) {
    free(M->status);
    free(M->op);
    M->status = NULL;
    M->op = NULL;
    return -1;
  }
  for (uint32_t pc = 0; pc < P->ncode; pc++) {
    /* shared accesses, and generic ones whose SASS is generic or shared
     * (those the SASS makes global are no shared accesses) */
    int gen, k = kind_of(&P->code[pc], &gen);
    M->accesses += k >= 0 && (!gen || M->status[pc] != SASS_MAP_NONE);
    M->agree += M->status[pc] == SASS_MAP_AGREE;
    M->set += M->status[pc] == SASS_MAP_SET;
    M->fallback += M->status[pc] == SASS_MAP_FALLBACK;
  }
  return 0;
}

void sass_map_free(sass_map *m) {
  free(m->status);
  free(m->op);
  m->status = NULL;
  m->op = NULL;
}

const char *sass_op_of(const sass_map *m, uint32_t pc) {
  return m && m->op && m->status && m->status[pc] != SASS_MAP_FALLBACK && m->op[pc][0] ? m->op[pc] : NULL;
}
