/* html.c: the HTML report (html.h). A leaf over the data the text reports
 * use: the per-pc bank counters and worst instances of check/analysis.c
 * (as banks_report.c sums them), the hazards and barrier errors of
 * race_report.c (smemu_hazard_get / smemu_sync_error_get). Everything a page
 * needs is copied when a launch is noted, because the context keeps only
 * its last launch. The page has no script beyond a marker that it loaded
 * and no reference to anything outside itself. */
#include "api/internal.h"
#include "exec/hooks.h"
#include "ir/merge.h"
#include "smemu.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LAUNCH_ROWS 500 /* launches listed in the table (all are counted) */
#define MAX_GRIDS 3         /* worst instances drawn per kernel */
#define MAX_FINDINGS 200    /* hazards / barrier errors / faults kept per kernel */
#define CONTEXT_LINES 2     /* source lines shown around the kernel's lines */

enum { K_LD, K_ST, K_ATOM };

typedef struct h_launch {
  uint32_t grid[3], block[3], sh_static, sh_dyn;
  uint64_t warp, thread;
  double seconds;
  int have_banks;
  smemu_bank_counts bc;
  const char *status;
} h_launch;

/* The figures of one source line (PTX line when file is -1) of a kernel. */
typedef struct h_line {
  int file;
  uint32_t line;
  unsigned kinds; /* 1 << K_LD | ... */
  uint64_t requests, wavefronts, ideal;
  uint32_t worst_degree; /* worst instance's wavefronts - ideal + 1 */
  char text[48];         /* an instruction of the line */
} h_line;

/* The recorded worst execution of one instruction. */
typedef struct h_inst {
  int file;
  uint32_t line;
  char text[48];
  uint32_t addr[32], active, degree, waves, lanes_on_worst;
  int worst_bank, size;
  uint32_t var_base;
  char var[96];
} h_inst;

typedef struct h_hazard {
  char type[4], first[8], second[8];
  int error, global;
  int f1, f2; /* file indices or -1 */
  uint32_t l1, l2;
  uint64_t count;
  char var[96];
} h_hazard;

typedef struct h_sync {
  char kind[32];
  int file;
  uint32_t line;
  uint32_t block[3], thread[3];
  uint64_t count;
} h_sync;

typedef struct h_kernel {
  char *name, *pretty;
  uint64_t launches, failed, warp, thread;
  double seconds;
  int have_banks, checked;
  smemu_bank_counts bc;
  h_launch *rows;
  int nrows;
  char **files;      /* source paths as the PTX names them */
  char **paths;      /* where they were found (NULL: unreadable) */
  uint32_t *lo, *hi; /* line range of the kernel per file */
  int nfiles;
  h_line *lines;
  int nlines;
  h_inst *insts;
  int ninsts;
  h_hazard *hz;
  int nhz;
  h_sync *sy;
  int nsy;
  char **faults;
  int nfaults;
  char *pipe; /* the async pipeline of its last launch (text), or NULL */
} h_kernel;

struct smemu_html {
  char *title;
  char arch[32];
  int banks, bank_bytes;
  h_kernel *k;
  int nk;
  uint64_t launches;
};

static char *dup(const char *s) { return s ? strdup(s) : NULL; }

/* Room for element n of an array grown one at a time: the capacity is
 * the next power of two, so only then is it reallocated. */
static void *grow(void *p, int n, size_t size) {
  if (n && (n & (n - 1))) return p;
  return realloc(p, (size_t)(n ? 2 * n : 1) * size);
}

smemu_html *smemu_html_new(const char *title) {
  smemu_html *h = calloc(1, sizeof *h);
  if (h) h->title = dup(title ? title : "smemu report");
  return h;
}

static h_kernel *kernel_for(smemu_html *h, const char *name) {
  for (int i = 0; i < h->nk; i++)
    if (!strcmp(h->k[i].name, name)) return &h->k[i];
  h_kernel *k = grow(h->k, h->nk, sizeof *k);
  if (!k) return NULL;
  h->k = k;
  k = &h->k[h->nk];
  memset(k, 0, sizeof *k);
  char pretty[1024];
  smemu_demangle(name, pretty, sizeof pretty);
  k->name = dup(name);
  k->pretty = dup(pretty);
  if (!k->name || !k->pretty) return NULL;
  h->nk++;
  return k;
}

/* The path a source file opens at: as named, else beside the PTX file. */
static char *find_source(const char *path, const char *near) {
  if (!path) return NULL;
  FILE *f = fopen(path, "r");
  if (f) {
    fclose(f);
    return dup(path);
  }
  if (!near) return NULL;
  const char *base = strrchr(path, '/'), *dir = strrchr(near, '/');
  char alt[2048];
  snprintf(alt, sizeof alt, "%.*s%s", dir ? (int)(dir - near + 1) : 0, near, base ? base + 1 : path);
  f = fopen(alt, "r");
  if (!f) return NULL;
  fclose(f);
  return dup(alt);
}

/* The kernel's index of program file i (added on first use), or -1. */
static int file_index(h_kernel *k, const program *P, uint32_t i, const char *near) {
  if (i == ~0u || i >= P->nfiles || !P->files[i]) return -1;
  for (int j = 0; j < k->nfiles; j++)
    if (!strcmp(k->files[j], P->files[i])) return j;
  char **f = grow(k->files, k->nfiles, sizeof *f), **p;
  if (!f) return -1;
  k->files = f;
  if (!(p = grow(k->paths, k->nfiles, sizeof *p))) return -1;
  k->paths = p;
  uint32_t *lo = grow(k->lo, k->nfiles, sizeof *lo), *hi;
  if (!lo) return -1;
  k->lo = lo;
  if (!(hi = grow(k->hi, k->nfiles, sizeof *hi))) return -1;
  k->hi = hi;
  k->files[k->nfiles] = dup(P->files[i]);
  k->paths[k->nfiles] = find_source(P->files[i], near);
  k->lo[k->nfiles] = ~0u;
  k->hi[k->nfiles] = 0;
  return k->nfiles++;
}

static int kind_of(const insn *in) {
  uint32_t f = op_flags[in->op];
  return (f & OPF_ATOMIC) ? K_ATOM : (f & OPF_WRITE) ? K_ST : K_LD;
}

static h_line *line_for(h_kernel *k, int file, uint32_t line) {
  for (int i = 0; i < k->nlines; i++)
    if (k->lines[i].file == file && k->lines[i].line == line) return &k->lines[i];
  h_line *l = grow(k->lines, k->nlines, sizeof *l);
  if (!l) return NULL;
  k->lines = l;
  l = &k->lines[k->nlines++];
  memset(l, 0, sizeof *l);
  l->file = file;
  l->line = line;
  return l;
}

/* s cut to n - 1 bytes (names and instructions only label the page) */
static void copy_text(char *dst, size_t n, const char *s) {
  size_t k = s ? strlen(s) : 0;
  if (k >= n) k = n - 1;
  memcpy(dst, s ? s : "", k);
  dst[k] = 0;
}

/* The shared variable holding address a (its demangled short name). */
static void var_name(const program *P, uint32_t a, char *out, size_t n, uint32_t *base) {
  const placed_var *best = NULL;
  for (uint32_t i = 0; i < P->nvars; i++) {
    const placed_var *v = &P->vars[i];
    if (v->space != PTX_SPACE_SHARED || v->addr > a || (!v->dynamic && a >= v->addr + v->size)) continue;
    if (!best || v->addr > best->addr) best = v;
  }
  *base = best ? (uint32_t)best->addr : 0;
  out[0] = 0;
  if (!best) return;
  char vn[512];
  smemu_demangle(best->name, vn, sizeof vn);
  const char *c = strstr(vn, ")::");
  copy_text(out, n, c ? c + 3 : vn);
}

/* Bytes one lane of the instruction moves (a merged group counts whole). */
static int access_size(const insn *in) {
  int s = ptx_type_size(in->type) * (in->vec > 1 ? in->vec : 1);
  if (in->merge == 2 || in->merge == 4) s *= in->merge;
  return s > 0 ? s : 4;
}

static void note_banks(h_kernel *k, const smemu_ctx *ctx, const char *near) {
  const program *P = ctx->last_prog;
  const analysis *a = ctx->last_an;
  for (uint32_t pc = 0; pc < P->ncode; pc++) {
    const src_line *s = &P->lines[pc];
    int fi = file_index(k, P, s->file, near);
    uint32_t ln = fi >= 0 ? s->line : s->ptx_line;
    if (fi >= 0 && ln) {
      if (ln < k->lo[fi]) k->lo[fi] = ln;
      if (ln > k->hi[fi]) k->hi[fi] = ln;
    }
    if (!a || !a->banks || !a->banks[pc].requests) continue;
    const bank_stat *b = &a->banks[pc];
    h_line *l = line_for(k, fi, ln);
    if (!l) return;
    l->kinds |= 1u << kind_of(&P->code[pc]);
    l->requests += b->requests;
    l->wavefronts += b->wavefronts;
    l->ideal += b->ideal;
    if (!l->text[0] || b->worst_degree > l->worst_degree) copy_text(l->text, sizeof l->text, s->text);
    if (b->worst_degree > l->worst_degree) l->worst_degree = b->worst_degree;
    if (b->worst_degree <= 1 || b->worst_bank < 0) continue;
    /* the worst instance of this line so far */
    h_inst *in = NULL;
    for (int i = 0; i < k->ninsts; i++)
      if (k->insts[i].file == fi && k->insts[i].line == ln) in = &k->insts[i];
    if (in && in->degree >= b->worst_degree) continue;
    if (!in) {
      h_inst *v = grow(k->insts, k->ninsts, sizeof *v);
      if (!v) return;
      k->insts = v;
      in = &k->insts[k->ninsts++];
    }
    memset(in, 0, sizeof *in);
    in->file = fi;
    in->line = ln;
    copy_text(in->text, sizeof in->text, s->text);
    memcpy(in->addr, b->worst_addr, sizeof in->addr);
    in->active = b->worst_active;
    in->degree = b->worst_degree;
    in->waves = b->worst_waves;
    in->lanes_on_worst = b->worst_lanes;
    in->worst_bank = b->worst_bank;
    in->size = access_size(&P->code[pc]);
    uint32_t first = 0;
    for (int l2 = 0; l2 < 32; l2++)
      if (in->active >> l2 & 1) {
        first = in->addr[l2];
        break;
      }
    var_name(P, first, in->var, sizeof in->var, &in->var_base);
  }
}

static int file_of(h_kernel *k, const char *path) {
  if (!path) return -1;
  for (int j = 0; j < k->nfiles; j++)
    if (!strcmp(k->files[j], path)) return j;
  return -1;
}

static void note_checks(h_kernel *k, const smemu_ctx *ctx) {
  int nh = smemu_hazard_count(ctx), ns = smemu_sync_error_count(ctx);
  for (int i = 0; i < nh; i++) {
    const smemu_hazard *z = smemu_hazard_get(ctx, i);
    if (!z) break;
    int f1 = file_of(k, z->first_file), f2 = file_of(k, z->second_file), j;
    for (j = 0; j < k->nhz; j++) {
      h_hazard *o = &k->hz[j];
      if (!strcmp(o->type, z->type) && o->f1 == f1 && o->f2 == f2 && o->l1 == z->first_line &&
          o->l2 == z->second_line && o->global == z->global) {
        o->count += z->count;
        o->error |= z->error;
        break;
      }
    }
    if (j < k->nhz || k->nhz >= MAX_FINDINGS) continue;
    h_hazard *v = grow(k->hz, k->nhz, sizeof *v);
    if (!v) return;
    k->hz = v;
    v = &k->hz[k->nhz++];
    memset(v, 0, sizeof *v);
    copy_text(v->type, sizeof v->type, z->type);
    copy_text(v->first, sizeof v->first, z->first_access);
    copy_text(v->second, sizeof v->second, z->second_access);
    if (z->variable) { /* "_ZZ4kernE1s" -> "s", as the bank grid names it */
      char vn[512];
      smemu_demangle(z->variable, vn, sizeof vn);
      const char *c = strstr(vn, ")::");
      copy_text(v->var, sizeof v->var, c ? c + 3 : vn);
    }
    v->error = z->error;
    v->global = z->global;
    v->f1 = f1;
    v->f2 = f2;
    v->l1 = z->first_line;
    v->l2 = z->second_line;
    v->count = z->count;
  }
  for (int i = 0; i < ns; i++) {
    const smemu_sync_error *e = smemu_sync_error_get(ctx, i);
    if (!e) break;
    int f = file_of(k, e->file), j;
    uint32_t ln = f >= 0 ? e->line : e->ptx_line;
    for (j = 0; j < k->nsy; j++)
      if (!strcmp(k->sy[j].kind, e->kind) && k->sy[j].file == f && k->sy[j].line == ln) {
        k->sy[j].count += e->count;
        break;
      }
    if (j < k->nsy || k->nsy >= MAX_FINDINGS) continue;
    h_sync *v = grow(k->sy, k->nsy, sizeof *v);
    if (!v) return;
    k->sy = v;
    v = &k->sy[k->nsy++];
    copy_text(v->kind, sizeof v->kind, e->kind);
    v->file = f;
    v->line = ln;
    memcpy(v->block, e->block, sizeof v->block);
    memcpy(v->thread, e->thread, sizeof v->thread);
    v->count = e->count;
  }
}

void smemu_html_add(smemu_html *h, const smemu_ctx *ctx, smemu_status s) {
  if (!h || !ctx) return;
  const smemu_launch_stats *st = smemu_last_stats(ctx);
  if (!st || !st->kernel) return;
  h_kernel *k = kernel_for(h, st->kernel);
  if (!k) return;
  snprintf(h->arch, sizeof h->arch, "%s", ctx->arch->name);
  h->banks = ctx->arch->banks;
  h->bank_bytes = ctx->bank_mode;
  h->launches++;
  k->launches++;
  k->warp += st->warp_instructions;
  k->thread += st->thread_instructions;
  k->seconds += st->seconds;
  {
    /* the async pipeline (SMEMU_ANALYZE_PIPELINE): the last launch's */
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
      int n = smemu_write_pipeline_report(ctx, m);
      fclose(m);
      if (n > 0) {
        free(k->pipe);
        k->pipe = buf;
      } else {
        free(buf);
      }
    }
  }
  smemu_bank_counts bc;
  int have = smemu_last_bank_counts(ctx, &bc) == SMEMU_OK;
  if (have) {
    k->have_banks = 1;
    for (int i = 0; i < 3; i++) {
      k->bc.requests[i] += bc.requests[i];
      k->bc.wavefronts[i] += bc.wavefronts[i];
      k->bc.conflicts[i] += bc.conflicts[i];
    }
  }
  if (k->nrows < MAX_LAUNCH_ROWS) {
    h_launch *r = grow(k->rows, k->nrows, sizeof *r);
    if (r) {
      k->rows = r;
      r = &k->rows[k->nrows++];
      memset(r, 0, sizeof *r);
      memcpy(r->grid, st->grid, sizeof r->grid);
      memcpy(r->block, st->block, sizeof r->block);
      r->sh_static = st->shared_static_bytes;
      r->sh_dyn = st->shared_dynamic_bytes;
      r->warp = st->warp_instructions;
      r->thread = st->thread_instructions;
      r->seconds = st->seconds;
      r->have_banks = have;
      if (have) r->bc = bc;
      r->status = smemu_status_name(s);
    }
  }
  const char *near = ctx->last_prog_owner ? ctx->last_prog_owner->name : NULL;
  if (ctx->last_prog && !strcmp(ctx->last_prog->name, st->kernel)) note_banks(k, ctx, near);
  if (ctx->last_an && ctx->last_an->has_race) {
    k->checked = 1;
    note_checks(k, ctx);
  }
  if (s != SMEMU_OK) {
    k->failed++;
    if (k->nfaults < MAX_FINDINGS) {
      char **f = grow(k->faults, k->nfaults, sizeof *f);
      if (f) {
        k->faults = f;
        char msg[4400];
        snprintf(msg, sizeof msg, "%s (%s)", smemu_errmsg(ctx), smemu_status_name(s));
        if ((f[k->nfaults] = dup(msg))) k->nfaults++;
      }
    }
  }
}

/* ---- writing ---- */

static void esc(FILE *f, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<':
      fputs("&lt;", f);
      break;
    case '>':
      fputs("&gt;", f);
      break;
    case '&':
      fputs("&amp;", f);
      break;
    case '"':
      fputs("&quot;", f);
      break;
    default:
      fputc(*s, f);
    }
  }
}

/* Lines lo..hi of a file (1-based) into a malloc'd array of strings. */
static char **read_lines(const char *path, uint32_t lo, uint32_t hi) {
  if (!path || hi < lo || hi - lo > 100000) return NULL;
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  char **out = calloc(hi - lo + 1, sizeof *out);
  char buf[4096];
  uint32_t n = 1;
  while (out && n <= hi && fgets(buf, sizeof buf, f)) {
    int whole = strchr(buf, '\n') != NULL;
    buf[strcspn(buf, "\r\n")] = 0;
    if (n >= lo && !out[n - lo]) out[n - lo] = dup(buf);
    if (whole) n++;
  }
  fclose(f);
  return out;
}

/* cache[file] holds the kernel's lines with CONTEXT_LINES around them */
static uint32_t first_shown(const h_kernel *k, int file) {
  return k->lo[file] > CONTEXT_LINES ? k->lo[file] - CONTEXT_LINES : 1;
}

static const char *source_text(char ***cache, const h_kernel *k, int file, uint32_t line) {
  if (file < 0 || !cache[file] || line < first_shown(k, file) || line > k->hi[file] + CONTEXT_LINES)
    return NULL;
  return cache[file][line - first_shown(k, file)];
}

static void where(FILE *f, const h_kernel *k, int file, uint32_t line) {
  if (file >= 0) {
    esc(f, k->files[file]);
    fprintf(f, ":%u", line);
  } else {
    fprintf(f, "PTX line %u", line);
  }
}

static const char *kinds(unsigned m) {
  static const char *const s[] = {"", "ld", "st", "ld st", "atom", "ld atom", "st atom", "ld st atom"};
  return s[m & 7];
}

static const char style[] =
    "body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.05em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:2px "
    "6px;text-align:right}"
    "th{background:#f3f3f3}td.l,th.l{text-align:left}"
    "table.src td{border:none;padding:0 8px}table.src "
    "td.code{text-align:left;white-space:pre;font-family:monospace}"
    "table.src tr.hot td.code{font-weight:bold}.bad{color:#b00}"
    "table.grid td{width:2.2em;height:2.4em;font:10px "
    "monospace;text-align:center;vertical-align:middle;padding:1px}"
    "table.grid td.hit{background:#cde}table.grid td.worst{background:#f99}"
    "pre.code{background:#f6f6f6;padding:4px 8px;margin:2px 0}.note{color:#666}"
    "h2,td.kn{overflow-wrap:anywhere}td.kn{max-width:40em}"; /* Numba's long mangled names */

static void grid(FILE *f, const h_kernel *k, const h_inst *in, int banks, int bank_bytes) {
  /* per bank, the distinct words the lanes touch (in the order met) and
   * the lanes on each: one row per pass through the banks */
  enum { MAXW = 32 * 4 };
  uint32_t word[64][MAXW];
  uint32_t lanes[64][MAXW];
  int nw[64] = {0}, rows = 0;
  if (banks > 64 || banks <= 0 || bank_bytes <= 0) return;
  for (int l = 0; l < 32; l++) {
    if (!(in->active >> l & 1)) continue;
    for (int o = 0; o < in->size; o += bank_bytes) {
      uint32_t w = (in->addr[l] + (uint32_t)o) / (uint32_t)bank_bytes;
      int b = (int)(w % (uint32_t)banks), j;
      for (j = 0; j < nw[b]; j++)
        if (word[b][j] == w) break;
      if (j == nw[b]) {
        if (j == MAXW) continue;
        word[b][j] = w;
        lanes[b][j] = 0;
        nw[b]++;
      }
      lanes[b][j] |= 1u << l;
      if (nw[b] > rows) rows = nw[b];
    }
  }
  fprintf(f, "<div class=\"inst\" data-way=\"%u\" data-line=\"%u\"><h3>", in->degree, in->line);
  where(f, k, in->file, in->line);
  fprintf(f, " <code>");
  esc(f, in->text);
  fprintf(f, "</code>: worst instance %u-way, %u wavefronts (model)</h3>\n", in->degree, in->waves);
  fprintf(
      f,
      "<p class=\"note\">Columns are the %d banks, rows the passes: a cell is a word (in %d-byte units%s%s) "
      "and the lanes that read or write it. Bank %d (red) serves %u distinct words.</p>\n",
      banks, bank_bytes, in->var[0] ? " from the start of " : "", in->var, in->worst_bank,
      (unsigned)nw[in->worst_bank >= 0 && in->worst_bank < 64 ? in->worst_bank : 0]);
  fprintf(f, "<table class=\"grid\"><tr><th>pass</th>");
  for (int b = 0; b < banks; b++) fprintf(f, "<th>%d</th>", b);
  fprintf(f, "</tr>\n");
  for (int r = 0; r < rows; r++) {
    fprintf(f, "<tr><th>%d</th>", r + 1);
    for (int b = 0; b < banks; b++) {
      if (r >= nw[b]) {
        fprintf(f, "<td></td>");
        continue;
      }
      char ll[200];
      size_t n = 0;
      int cnt = 0, first = -1;
      ll[0] = 0;
      for (int l = 0; l < 32; l++)
        if (lanes[b][r] >> l & 1) {
          if (first < 0) first = l;
          cnt++;
          n += (size_t)snprintf(ll + n, sizeof ll - n, "%s%d", n ? "," : "", l);
          if (n >= sizeof ll) n = sizeof ll - 1;
        }
      uint32_t w = word[b][r] - in->var_base / (uint32_t)bank_bytes;
      fprintf(f, "<td class=\"%s\" title=\"bank %d word %u lanes %s\">w%u<br>L%d%s</td>",
              b == in->worst_bank ? "hit worst" : "hit", b, w, ll, w, first, cnt > 1 ? "+" : "");
    }
    fprintf(f, "</tr>\n");
  }
  fprintf(f, "</table></div>\n");
}

static int by_conflicts(const void *x, const void *y) {
  const h_line *a = x, *b = y;
  uint64_t ca = a->wavefronts - a->ideal, cb = b->wavefronts - b->ideal;
  return ca != cb ? (ca < cb ? 1 : -1) : 0;
}

static void source_rows(FILE *f, const h_kernel *k, char ***cache, uint64_t maxc) {
  for (int fi = 0; fi < k->nfiles; fi++) {
    if (k->lo[fi] > k->hi[fi]) continue;
    uint32_t lo = first_shown(k, fi), hi = k->hi[fi] + CONTEXT_LINES;
    fprintf(f, "<h3>");
    esc(f, k->files[fi]);
    fprintf(f,
            "%s</h3>\n<table class=\"src\"><tr><th>line</th><th class=\"l\">source</th><th>ops</th>"
            "<th>requests</th><th>wavefronts</th><th>conflicts</th><th>worst</th></tr>\n",
            cache[fi] ? "" : " (source not found: figures only)");
    for (uint32_t ln = lo; ln <= hi; ln++) {
      const h_line *l = NULL;
      for (int i = 0; i < k->nlines; i++)
        if (k->lines[i].file == fi && k->lines[i].line == ln) l = &k->lines[i];
      const char *code = cache[fi] ? cache[fi][ln - lo] : NULL;
      if (!cache[fi] && !l) continue;
      uint64_t c = l ? l->wavefronts - l->ideal : 0;
      /* shade: white to red by the line's share of the kernel's worst line */
      int shade = maxc && c ? (int)(40 + 180 * c / maxc) : 0;
      fprintf(f, "<tr class=\"%s\" data-line=\"%u\" data-conflicts=\"%" PRIu64 "\"", l ? "hot" : "", ln, c);
      if (shade)
        fprintf(f, " style=\"background:rgb(255,%d,%d)\"", 255 - shade, 255 - shade);
      else if (l)
        fprintf(f, " style=\"background:#eef6ee\"");
      fprintf(f, "><td>%u</td><td class=\"code\">", ln);
      esc(f, code ? code : "");
      if (l)
        fprintf(f,
                "</td><td>%s</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
                "</td><td>%u-way</td></tr>\n",
                kinds(l->kinds), l->requests, l->wavefronts, c, l->worst_degree);
      else
        fprintf(f, "</td><td></td><td></td><td></td><td></td><td></td></tr>\n");
    }
    fprintf(f, "</table>\n");
  }
  /* lines without a source file */
  int any = 0;
  for (int i = 0; i < k->nlines; i++) {
    const h_line *l = &k->lines[i];
    if (l->file >= 0) continue;
    if (!any++)
      fprintf(f, "<h3>PTX lines (no source line information)</h3>\n<table class=\"src\"><tr><th>PTX line</th>"
                 "<th class=\"l\">instruction</th><th>ops</th><th>requests</th><th>wavefronts</th>"
                 "<th>conflicts</th><th>worst</th></tr>\n");
    uint64_t c = l->wavefronts - l->ideal;
    int shade = maxc && c ? (int)(40 + 180 * c / maxc) : 0;
    fprintf(f,
            "<tr class=\"hot\" data-line=\"%u\" data-conflicts=\"%" PRIu64
            "\" style=\"background:rgb(255,%d,%d)\">"
            "<td>%u</td><td class=\"code\">",
            l->line, c, 255 - shade, 255 - shade, l->line);
    esc(f, l->text);
    fprintf(f,
            "</td><td>%s</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
            "</td><td>%u-way</td></tr>\n",
            kinds(l->kinds), l->requests, l->wavefronts, c, l->worst_degree);
  }
  if (any) fprintf(f, "</table>\n");
}

static void code_line(FILE *f, const h_kernel *k, char ***cache, int file, uint32_t line) {
  const char *t = source_text(cache, k, file, line);
  fprintf(f, "<pre class=\"code\">");
  where(f, k, file, line);
  fprintf(f, ": ");
  esc(f, t ? t : "(source not available)");
  fprintf(f, "</pre>\n");
}

static void kernel_section(FILE *f, const smemu_html *h, const h_kernel *k, int idx) {
  char ***cache = calloc((size_t)k->nfiles + 1, sizeof *cache);
  if (!cache) return;
  for (int i = 0; i < k->nfiles; i++) {
    if (k->lo[i] <= k->hi[i]) cache[i] = read_lines(k->paths[i], first_shown(k, i), k->hi[i] + CONTEXT_LINES);
  }
  fprintf(f, "<h2 id=\"k%d\" class=\"kernel\">", idx);
  esc(f, k->pretty);
  fprintf(f,
          "</h2>\n<p>%" PRIu64 " launch%s%s, %" PRIu64 " warp / %" PRIu64
          " thread instructions, %.3f s of emulation.</p>\n",
          k->launches, k->launches == 1 ? "" : "es", k->failed ? " (some failed)" : "", k->warp, k->thread,
          k->seconds);
  if (k->pipe) {
    fprintf(f, "<h3>Async pipeline (last launch)</h3>\n<pre class=\"pipeline\">");
    esc(f, k->pipe);
    fprintf(f, "</pre>\n");
  }
  if (k->have_banks) {
    static const char *const what[] = {"loads", "stores", "atomics"};
    uint64_t total = k->bc.conflicts[0] + k->bc.conflicts[1] + k->bc.conflicts[2];
    fprintf(
        f, "<table class=\"banks\"><tr><th class=\"l\">shared memory</th><th>requests</th><th>wavefronts</th>"
           "<th>bank conflicts</th></tr>\n");
    for (int i = 0; i < 3; i++)
      fprintf(
          f, "<tr><td class=\"l\">%s</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td></tr>\n",
          what[i], k->bc.requests[i], k->bc.wavefronts[i], k->bc.conflicts[i]);
    fprintf(f, "</table>\n<p class=\"total\" data-conflicts=\"%" PRIu64 "\">%s</p>\n", total,
            total ? "" : "No bank conflicts.");
    uint64_t maxc = 0;
    for (int i = 0; i < k->nlines; i++)
      if (k->lines[i].wavefronts - k->lines[i].ideal > maxc)
        maxc = k->lines[i].wavefronts - k->lines[i].ideal;
    source_rows(f, k, cache, maxc);
    if (k->ninsts) {
      /* the worst instances of the lines with the most conflicts */
      h_line *order = malloc((size_t)k->nlines * sizeof *order);
      if (order) {
        memcpy(order, k->lines, (size_t)k->nlines * sizeof *order);
        qsort(order, (size_t)k->nlines, sizeof *order, by_conflicts);
        fprintf(f, "<h3>Worst instances</h3>\n");
        int drawn = 0;
        for (int i = 0; i < k->nlines && drawn < MAX_GRIDS; i++)
          for (int j = 0; j < k->ninsts; j++)
            if (k->insts[j].file == order[i].file && k->insts[j].line == order[i].line &&
                order[i].wavefronts > order[i].ideal) {
              grid(f, k, &k->insts[j], h->banks, h->bank_bytes);
              drawn++;
              break;
            }
        free(order);
      }
    }
  } else {
    fprintf(f, "<p class=\"note\">The bank model was off for this kernel.</p>\n");
  }
  if (k->checked) {
    fprintf(f, "<h3>Races</h3>\n");
    if (!k->nhz) fprintf(f, "<p class=\"races none\">No hazards.</p>\n");
    for (int i = 0; i < k->nhz; i++) {
      const h_hazard *z = &k->hz[i];
      fprintf(f,
              "<div class=\"race %s\"><p class=\"%s\">%s %s hazard (%s memory, %" PRIu64
              " hazard%s)%s%s: %s then %s</p>\n",
              z->error ? "error" : "warning", z->error ? "bad" : "",
              z->error ? "Error:" : "Warning:", z->type, z->global ? "global" : "shared", z->count,
              z->count == 1 ? "" : "s", z->var[0] ? " on " : "", z->var, z->first, z->second);
      code_line(f, k, cache, z->f1, z->l1);
      code_line(f, k, cache, z->f2, z->l2);
      fprintf(f, "</div>\n");
    }
    fprintf(f, "<h3>Barriers</h3>\n");
    if (!k->nsy) fprintf(f, "<p class=\"sync none\">No barrier errors.</p>\n");
    for (int i = 0; i < k->nsy; i++) {
      const h_sync *e = &k->sy[i];
      fprintf(f,
              "<div class=\"sync error\"><p class=\"bad\">%s: block (%u,%u,%u) thread (%u,%u,%u), %" PRIu64
              " reported</p>\n",
              e->kind, e->block[0], e->block[1], e->block[2], e->thread[0], e->thread[1], e->thread[2],
              e->count);
      code_line(f, k, cache, e->file, e->line);
      fprintf(f, "</div>\n");
    }
  } else {
    fprintf(f,
            "<p class=\"note\">Races and barriers were not checked (<code>--check races,sync</code>).</p>\n");
  }
  if (k->nfaults) {
    fprintf(f, "<h3>Memory and other errors</h3>\n");
    for (int i = 0; i < k->nfaults; i++) {
      fprintf(f, "<pre class=\"fault bad\">");
      esc(f, k->faults[i]);
      fprintf(f, "</pre>\n");
    }
  }
  for (int i = 0; i < k->nfiles; i++) {
    if (!cache[i]) continue;
    for (uint32_t j = 0; j <= k->hi[i] + CONTEXT_LINES - first_shown(k, i); j++) free(cache[i][j]);
    free(cache[i]);
  }
  free(cache);
}

int smemu_html_write(const smemu_html *h, const char *path) {
  if (!h || !path) return -1;
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>smemu: ");
  esc(f, h->title);
  fprintf(f, "</title>\n<style>%s</style></head>\n<body>\n<h1>smemu report</h1>\n<p><code>", style);
  esc(f, h->title);
  fprintf(f, "</code></p>\n<p>%" PRIu64 " launch%s on %s (%d banks of %d bytes), smemu %s.</p>\n",
          h->launches, h->launches == 1 ? "" : "es", h->arch[0] ? h->arch : "?", h->banks, h->bank_bytes,
          smemu_version());
  fprintf(f,
          "<h2>Launches</h2>\n<table class=\"launches\"><tr><th "
          "class=\"l\">kernel</th><th>grid</th><th>block</th>"
          "<th>static shared</th><th>dynamic shared</th><th>warp insns</th><th>thread insns</th><th>s</th>"
          "<th>ld req</th><th>ld wavefronts</th><th>st req</th><th>st wavefronts</th><th>bank conflicts</th>"
          "<th class=\"l\">status</th></tr>\n");
  for (int i = 0; i < h->nk; i++) {
    const h_kernel *k = &h->k[i];
    for (int j = 0; j < k->nrows; j++) {
      const h_launch *r = &k->rows[j];
      fprintf(f, "<tr><td class=\"l kn\"><a href=\"#k%d\">", i);
      esc(f, k->pretty);
      fprintf(f,
              "</a></td><td>%u,%u,%u</td><td>%u,%u,%u</td><td>%u</td><td>%u</td><td>%" PRIu64
              "</td><td>%" PRIu64 "</td><td>%.3f</td>",
              r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2], r->sh_static,
              r->sh_dyn, r->warp, r->thread, r->seconds);
      if (r->have_banks)
        fprintf(f,
                "<td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
                "</td><td class=\"conflicts\">%" PRIu64 "</td>",
                r->bc.requests[0], r->bc.wavefronts[0], r->bc.requests[1], r->bc.wavefronts[1],
                r->bc.conflicts[0] + r->bc.conflicts[1] + r->bc.conflicts[2]);
      else
        fprintf(f, "<td></td><td></td><td></td><td></td><td></td>");
      fprintf(f, "<td class=\"l%s\">%s</td></tr>\n", strcmp(r->status, "SMEMU_OK") ? " bad" : "", r->status);
    }
    if ((uint64_t)k->nrows < k->launches)
      fprintf(f, "<tr><td class=\"l\" colspan=\"14\">(%" PRIu64 " more launches of this kernel)</td></tr>\n",
              k->launches - (uint64_t)k->nrows);
  }
  fprintf(f, "</table>\n");
  for (int i = 0; i < h->nk; i++) kernel_section(f, h, &h->k[i], i);
  /* the one script: a marker a browser test reads to know the page ran */
  fprintf(f, "<script>document.body.setAttribute('data-loaded', "
             "String(document.querySelectorAll('h2.kernel').length));"
             "</script>\n</body></html>\n");
  return fclose(f) == 0 ? 0 : -1;
}

void smemu_html_free(smemu_html *h) {
  if (!h) return;
  for (int i = 0; i < h->nk; i++) {
    h_kernel *k = &h->k[i];
    free(k->name);
    free(k->pretty);
    free(k->rows);
    for (int j = 0; j < k->nfiles; j++) {
      free(k->files[j]);
      free(k->paths[j]);
    }
    free(k->files);
    free(k->paths);
    free(k->lo);
    free(k->hi);
    free(k->lines);
    free(k->insts);
    free(k->hz);
    free(k->sy);
    for (int j = 0; j < k->nfaults; j++) free(k->faults[j]);
    free(k->faults);
    free(k->pipe);
  }
  free(h->k);
  free(h->title);
  free(h);
}
