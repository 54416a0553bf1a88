/* banks_report.c: the bank-conflict report of a launch, as text and JSON.
 * Per-instruction counters (check/analysis.c) are summed per source line and
 * operation; the text form shows the lines with the most conflicts with
 * their source, the lanes, banks and words of the worst instance, and a hint
 * for the patterns that have a known fix. */
#include "api/internal.h"
#include "exec/hooks.h"
#include "ir/merge.h"
#include "model/arch.h"
#include "report/arbit.h"
#include "report/bank_hint.h"
#include "sass/sass.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { K_LD, K_ST, K_ATOM };
static const char *const kind_names[] = {"ld", "st", "atom"};

/* The figures of one source line and operation. */
typedef struct line_stat {
  uint32_t file, line; /* source position (file ~0u: PTX line) */
  int kind;            /* K_LD .. */
  uint32_t pc;         /* first instruction of the line */
  uint64_t requests, wavefronts, ideal;
  const bank_stat *worst; /* the instruction with the worst instance */
  uint32_t worst_pc;
  int merged;               /* accesses per request when ptxas merges them (ir/merge.c), else 1 */
  uint32_t merged_pc;       /* the first access of such a group */
  uint64_t merged_requests; /* requests of merged groups */
} line_stat;

static int kind_of(const insn *in) {
  uint32_t f = op_flags[in->op];
  return (f & OPF_ATOMIC) ? K_ATOM : (f & OPF_WRITE) ? K_ST : K_LD;
}

/* Sum the per-pc counters into lines; returns the count (*out malloc'd). */
static int collect(const smemu_ctx *ctx, line_stat **out) {
  const program *P = ctx->last_prog;
  const analysis *a = ctx->last_an;
  *out = NULL;
  if (!P || !a || !a->banks) return 0;
  line_stat *ls = calloc(P->ncode + 1, sizeof *ls);
  int n = 0;
  if (!ls) return -1;
  for (uint32_t pc = 0; pc < P->ncode; pc++) {
    const bank_stat *b = &a->banks[pc];
    if (!b->requests && !b->wavefronts) continue; /* ldmatrix: wavefronts, no requests (ncu) */
    const src_line *s = &P->lines[pc];
    uint32_t file = s->file, line = s->file == ~0u ? s->ptx_line : s->line;
    int k = kind_of(&P->code[pc]), j;
    for (j = 0; j < n; j++)
      if (ls[j].file == file && ls[j].line == line && ls[j].kind == k) break;
    if (j == n) ls[n++] = (line_stat){file, line, k, pc, 0, 0, 0, NULL, 0, 1, pc, 0};
    if (P->code[pc].merge > 1 && P->code[pc].merge != MERGE_FOLLOW) ls[j].merged_requests += b->requests;
    /* a group ptxas merges is counted at its first access, as the wide one */
    if (P->code[pc].merge > 1 && P->code[pc].merge != MERGE_FOLLOW && P->code[pc].merge > ls[j].merged) {
      ls[j].merged = P->code[pc].merge;
      ls[j].merged_pc = pc;
    }
    ls[j].requests += b->requests;
    ls[j].wavefronts += b->wavefronts;
    ls[j].ideal += b->ideal;
    if (!ls[j].worst || b->worst_degree > ls[j].worst->worst_degree) {
      ls[j].worst = b;
      ls[j].worst_pc = pc;
    }
  }
  *out = ls;
  return n;
}

static int by_conflicts(const void *x, const void *y) {
  const line_stat *a = x, *b = y;
  uint64_t ca = a->wavefronts - a->ideal, cb = b->wavefronts - b->ideal;
  if (ca != cb) return ca < cb ? 1 : -1;
  if (a->file != b->file) return a->file < b->file ? -1 : 1;
  return a->line < b->line ? -1 : a->line > b->line;
}

smemu_status smemu_last_bank_counts(const smemu_ctx *ctx, smemu_bank_counts *out) {
  if (!ctx || !out) return SMEMU_ERR_INVALID_VALUE;
  memset(out, 0, sizeof *out);
  const program *P = ctx->last_prog;
  const analysis *a = ctx->last_an;
  if (!P || !a || !a->banks) return SMEMU_ERR_NOT_FOUND;
  for (uint32_t pc = 0; pc < P->ncode; pc++) {
    const bank_stat *b = &a->banks[pc];
    int k = kind_of(&P->code[pc]);
    out->requests[k] += b->requests;
    out->wavefronts[k] += b->wavefronts;
    out->conflicts[k] += b->wavefronts - b->ideal;
    out->dshared_requests[k] += b->dsh_requests;
    out->dshared_sectors[k] += b->dsh_sectors;
    out->requests[0] += b->ld_requests; /* a CAS loop's loads (model/atomcost.h) */
    out->wavefronts[0] += b->ld_wavefronts;
    out->conflicts[0] += b->ld_wavefronts - b->ld_ideal;
  }
  return SMEMU_OK;
}

int smemu_bank_mode(const smemu_ctx *ctx) { return ctx ? ctx->bank_mode : 0; }

/* Line `n` of file `path` into buf, without the newline; 0 when unreadable.
 * A path that does not open is tried again beside the PTX file (`near`),
 * where a checked-in PTX and its source usually sit together. */
static int source_line(const char *path, const char *near, uint32_t n, char *buf, size_t size) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f && path && near) {
    const char *base = strrchr(path, '/'), *dir = strrchr(near, '/');
    char alt[1024];
    snprintf(alt, sizeof alt, "%.*s%s", dir ? (int)(dir - near + 1) : 0, near, base ? base + 1 : path);
    f = fopen(alt, "r");
  }
  if (!f) return 0;
  uint32_t k = 1;
  int ok = 0;
  while (fgets(buf, (int)size, f)) {
    if (k == n) {
      ok = 1;
      break;
    }
    if (strchr(buf, '\n')) k++;
  }
  fclose(f);
  if (ok) buf[strcspn(buf, "\r\n")] = 0;
  return ok;
}

/* The variable holding shared address a, or NULL. */
static const placed_var *var_at(const program *P, uint32_t a) {
  const placed_var *best = NULL;
  for (uint32_t i = 0; i < P->nvars; i++) {
    const placed_var *v = &P->vars[i];
    if (v->space != PTX_SPACE_SHARED || v->addr > a) continue;
    if (!v->dynamic && a >= v->addr + v->size) continue;
    if (!best || v->addr > best->addr) best = v;
  }
  return best;
}

/* "0, 8, 16, 24" (at most `max` numbers, then "...") */
static void list(char *buf, size_t n, const uint32_t *v, int count, int max) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < count && k < n; i++) {
    if (i == max && count > max + 1) {
      k += (size_t)snprintf(buf + k, n - k, ", ..., %u", v[count - 1]);
      break;
    }
    k += (size_t)snprintf(buf + k, n - k, "%s%u", i ? ", " : "", v[i]);
  }
}

static int cmp_u32(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return a < b ? -1 : a > b;
}

static void worst_instance(FILE *f, const smemu_ctx *ctx, const program *P, const line_stat *ls,
                           int bank_bytes) {
  const bank_stat *b = ls->worst;
  if (!b || b->worst_bank < 0 || b->worst_degree <= 1) return;
  uint32_t lanes[32] = {0}, words[32] = {0};
  int nl = 0, nw = 0;
  for (int l = 0; l < 32; l++)
    if (b->worst_lanes >> l & 1) lanes[nl++] = (uint32_t)l;
  const placed_var *v = nl ? var_at(P, b->worst_addr[lanes[0]]) : NULL;
  uint32_t base = v ? (uint32_t)v->addr : 0;
  for (int i = 0; i < nl; i++) {
    uint32_t wd = (b->worst_addr[lanes[i]] - base) / (uint32_t)bank_bytes;
    int seen = 0;
    for (int j = 0; j < nw; j++) seen |= words[j] == wd;
    if (!seen) words[nw++] = wd;
  }
  qsort(words, (size_t)nw, sizeof *words, cmp_u32);
  char lb[256], wb[256], vn[512];
  if (v) {
    /* a demoted local's demangled name ends in "::tile": show that part */
    smemu_demangle(v->name, vn, sizeof vn);
    const char *c = strstr(vn, ")::");
    if (c) memmove(vn, c + 3, strlen(c + 3) + 1);
  }
  list(lb, sizeof lb, lanes, nl, 8);
  list(wb, sizeof wb, words, nw, 8);
  fprintf(f, "      worst: lanes %s hit bank %d at words %s%s%s: %u-way\n", lb, b->worst_bank, wb,
          v ? " of " : "", v ? vn : "", b->bank_degree);
  /* ldmatrix/stmatrix rows are 16-byte units: padding by one element would
   * misalign them; an XOR swizzle of the 16-byte chunks (CuTe Swizzle<3,4,3>)
   * or a 16-byte pad spreads a matrix's 8 rows over all banks */
  int op = P->code[ls->worst_pc].op;
  if (op == OP_LDMATRIX || op == OP_STMATRIX) {
    if (nw >= 2)
      fprintf(f,
              "      hint: %s rows that share banks: pad each row by 16 bytes, or XOR the 16-byte chunk "
              "index with the row (mod 8), so that a matrix's 8 rows fall on 8 different 4-bank groups\n",
              op == OP_LDMATRIX ? "ldmatrix" : "stmatrix");
    return;
  }
  /* advice that fits the whole warp's pattern (bank_hint.c), if any */
  bank_pattern pat = {0};
  pat.active = b->worst_active;
  pat.size = b->worst_size;
  uint8_t mg = P->code[ls->worst_pc].merge;
  pat.elem = mg > 1 && mg != MERGE_FOLLOW ? b->worst_size / mg : 0;
  pat.banks = ctx->arch->banks;
  pat.bank_bytes = bank_bytes;
  pat.request_lanes = ctx->arch->request_lanes;
  uint32_t lo = base;
  for (int l = 0; l < 32; l++)
    if ((pat.active >> l & 1) && b->worst_addr[l] < lo) lo = b->worst_addr[l];
  for (int l = 0; l < 32; l++)
    if (pat.active >> l & 1) pat.addr[l] = b->worst_addr[l] - lo;
  char hint[1400];
  if (bank_hint(&pat, hint, sizeof hint)) fputs(hint, f);
}

/* "4 ld.shared.f32 merged into one LDS.128" for a line whose accesses
 * ptxas merges; empty otherwise. */
static const char *merged_text(const program *P, const analysis *a, const line_stat *l, char *buf, size_t n) {
  buf[0] = 0;
  if (l->merged <= 1) return buf;
  const bank_stat *b = &a->banks[l->merged_pc];
  uint32_t bits = b->worst_size ? b->worst_size * 8 : 0;
  const insn *in = &P->code[l->merged_pc];
  const char *sass = (op_flags[in->op] & OPF_WRITE) ? "STS" : "LDS";
  if (bits)
    snprintf(buf, n, "%d %s merged into one %s.%u", l->merged, P->lines[l->merged_pc].text, sass, bits);
  else
    snprintf(buf, n, "%d %s merged into one %s", l->merged, P->lines[l->merged_pc].text, sass);
  return buf;
}

/* What the conflicts counted are: Nsight Compute's also hold, on busy
 * kernels, wavefronts that arbitration with other L1 traffic adds
 * (tests/hw/arbitration/README.md), estimated apart (report/arbit.c). */
#define FROM_ADDRESSES                                                                                       \
  "bank conflicts from addresses (on busy kernels Nsight Compute adds arbitration with other L1 "            \
  "traffic: the arbitration estimate)"

int smemu_write_bank_report(const smemu_ctx *ctx, FILE *f, int max_lines) {
  if (!ctx || !f) return -1;
  const program *P = ctx->last_prog;
  line_stat *ls;
  int n = collect(ctx, &ls);
  if (n < 0 || !P) return -1;
  smemu_bank_counts c;
  smemu_last_bank_counts(ctx, &c);
  char name[512];
  smemu_demangle(P->name, name, sizeof name);
  fprintf(f, "== shared-memory banks: %s (%s, %d banks of %d bytes)\n", name, ctx->arch->name,
          ctx->arch->banks, ctx->bank_mode);
  static const char *const label[] = {"loads  ", "stores ", "atomics"};
  for (int k = 0; k < 3; k++)
    fprintf(f, "  %s %10" PRIu64 " requests %10" PRIu64 " wavefronts %10" PRIu64 " bank conflicts\n",
            label[k], c.requests[k], c.wavefronts[k], c.conflicts[k]);
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  if (st && st->shared_contention)
    fprintf(f,
            "    of which contention: %10" PRIu64
            " atomic requests (CAS retries in which no lane swapped: other warps wrote in between)\n",
            st->shared_contention);
  for (int k = 0; k < 3; k++)
    if (c.dshared_requests[k])
      fprintf(f,
              "  %s %10" PRIu64 " requests %10" PRIu64 " sectors to other blocks of the cluster (dshared)\n",
              label[k], c.dshared_requests[k], c.dshared_sectors[k]);
  report_arbit_text(ctx, f);
  smemu_counting cn;
  if (smemu_last_counting(ctx, &cn) == SMEMU_OK && cn.sass) {
    fprintf(f,
            "  counting: per SASS instruction (%d of %d shared accesses mapped, %d changed from the PTX"
            " rules, %d by PTX rules: ambiguous mapping); %s\n",
            cn.agree + cn.set, cn.accesses, cn.set, cn.fallback, FROM_ADDRESSES);
    for (int i = 0; i < cn.nlines; i++)
      fprintf(f, "    PTX counting at %s:%u (the SASS of this line did not map unambiguously)\n",
              cn.files[i] ? cn.files[i] : "?", cn.lines[i]);
  } else {
    fprintf(f, "  counting: by PTX rules (merged accesses and atomics as smemu predicts ptxas); %s\n",
            FROM_ADDRESSES);
  }
  qsort(ls, (size_t)n, sizeof *ls, by_conflicts);
  /* Nsight Compute counts SASS: say which counted requests are the wide
   * instructions ptxas makes of several PTX accesses */
  int nmerged = 0;
  for (int i = 0; i < n; i++) {
    const line_stat *l = &ls[i];
    if (l->merged <= 1) continue;
    if (!nmerged++)
      fprintf(f, "  counted as ptxas merges them (one request per wide access, as Nsight Compute counts):\n");
    const char *file = l->file != ~0u ? P->files[l->file] : NULL;
    char mt[256];
    if (file)
      fprintf(f, "    %s:%u", file, l->line);
    else
      fprintf(f, "    PTX line %u", l->line);
    fprintf(f, "  %s: %" PRIu64 " of the line's %" PRIu64 " requests\n",
            merged_text(P, ctx->last_an, l, mt, sizeof mt), l->merged_requests, l->requests);
  }
  int shown = 0;
  for (int i = 0; i < n && shown < max_lines; i++) {
    const line_stat *l = &ls[i];
    uint64_t conf = l->wavefronts - l->ideal;
    if (!conf) break;
    if (!shown) fprintf(f, "  source lines by bank conflicts:\n");
    shown++;
    const char *file = l->file != ~0u ? P->files[l->file] : NULL;
    char where[600];
    if (file)
      snprintf(where, sizeof where, "%s:%u", file, l->line);
    else
      snprintf(where, sizeof where, "PTX line %u", l->line);
    char mt[256], op[300];
    if (l->merged > 1)
      snprintf(op, sizeof op, "%s", merged_text(P, ctx->last_an, l, mt, sizeof mt));
    else
      snprintf(op, sizeof op, "%s", P->lines[l->worst_pc].text);
    const char *sop = sass_op_of(ctx->last_sass, l->worst_pc);
    fprintf(f,
            "    %s  %s (%s)%s%s%s  requests %" PRIu64 "  wavefronts %" PRIu64 "  conflicts %" PRIu64
            "  worst %u-way\n",
            where, kind_names[l->kind], op, sop ? " [SASS " : "", sop ? sop : "", sop ? "]" : "", l->requests,
            l->wavefronts, conf, l->worst ? l->worst->bank_degree : 0);
    char src[512];
    const char *near = ctx->last_prog_owner ? ctx->last_prog_owner->name : NULL;
    if (file && source_line(file, near, l->line, src, sizeof src)) {
      const char *s = src;
      while (*s == ' ' || *s == '\t') s++;
      fprintf(f, "      | %s\n", s);
    }
    worst_instance(f, ctx, P, l, ctx->bank_mode);
  }
  if (!n)
    fprintf(f, "  no shared-memory accesses\n");
  else if (!shown)
    fprintf(f, "  no bank conflicts\n");
  free(ls);
  return 0;
}

int smemu_write_bank_json(const smemu_ctx *ctx, FILE *f) {
  if (!ctx || !f) return -1;
  const program *P = ctx->last_prog;
  smemu_bank_counts c;
  if (smemu_last_bank_counts(ctx, &c) != SMEMU_OK) return -1;
  for (int k = 0; k < 3; k++)
    fprintf(f,
            "\"shared_%s_requests\": %" PRIu64 ", \"shared_%s_wavefronts\": %" PRIu64
            ", \"shared_%s_bank_conflicts\": %" PRIu64 ", ",
            kind_names[k], c.requests[k], kind_names[k], c.wavefronts[k], kind_names[k], c.conflicts[k]);
  line_stat *ls;
  int n = collect(ctx, &ls);
  fprintf(f, "\"lines\": [");
  for (int i = 0; i < n; i++) {
    const line_stat *l = &ls[i];
    const char *file = l->file != ~0u ? P->files[l->file] : NULL;
    fprintf(f, "%s{\"file\": ", i ? ", " : "");
    smemu_json_string(f, file);
    fprintf(f,
            ", \"line\": %u, \"ptx_line\": %u, \"op\": \"%s\", \"requests\": %" PRIu64
            ", \"wavefronts\": %" PRIu64 ", \"bank_conflicts\": %" PRIu64 ", \"worst_degree\": %u"
            ", \"merged\": %d}",
            file ? l->line : 0, P->lines[l->pc].ptx_line, kind_names[l->kind], l->requests, l->wavefronts,
            l->wavefronts - l->ideal, l->worst ? l->worst->bank_degree : 0, l->merged);
  }
  fprintf(f, "]");
  free(ls);
  return 0;
}
