/* parse.c: reads nvdisasm's text. The lines it cares about:
 *   .text.NAME:                                  a function starts
 *   .L_x_12:                                     a label (a block starts)
 *   //## File "F", line N [inlined at "G", line M ...]   line info
 *   /\*0130*\/   @!P0 LDS.128 R20, [R7] ;            an instruction
 * The location kept is the outermost one (the last "inlined at"), which
 * is what smemu's PTX line table holds. A block ends at a label and after a
 * branch, exit, return or call. */
#include "sass/sass.h"

#include <stdlib.h>
#include <string.h>

static int file_index(sass_text *s, const char *name, size_t len) {
  for (int i = 0; i < s->nfiles; i++)
    if (strlen(s->files[i]) == len && !strncmp(s->files[i], name, len)) return i;
  char **f = realloc(s->files, (size_t)(s->nfiles + 1) * sizeof *f);
  if (!f) return -2;
  s->files = f;
  char *c = malloc(len + 1);
  if (!c) return -2;
  memcpy(c, name, len);
  c[len] = 0;
  s->files[s->nfiles] = c;
  return s->nfiles++;
}

/* "//## File "F", line N ..." : the last (file, line) pair of the line. */
static int line_info(sass_text *s, const char *p, const char *end, int *file, uint32_t *line) {
  const char *q = p;
  int ok = 0;
  while (q < end) {
    const char *f = strstr(q, "\"");
    if (!f || f >= end) break;
    const char *g = memchr(f + 1, '"', (size_t)(end - f - 1));
    if (!g) break;
    const char *l = strstr(g, "line ");
    if (!l || l >= end) break;
    int fi = file_index(s, f + 1, (size_t)(g - f - 1));
    if (fi == -2) return -1;
    *file = fi;
    *line = (uint32_t)strtoul(l + 5, NULL, 10);
    ok = 1;
    q = l + 5;
  }
  (void)ok;
  return 0;
}

static int width_of(const char *mods) {
  if (strstr(mods, ".128")) return 16;
  if (strstr(mods, ".64") || strstr(mods, ".U64") || strstr(mods, ".S64") || strstr(mods, ".F64")) return 8;
  if (strstr(mods, ".U16") || strstr(mods, ".S16")) return 2;
  if (strstr(mods, ".U8") || strstr(mods, ".S8")) return 1;
  return 4;
}

static int push(sass_func *f, const sass_insn *in) {
  if (f->n == f->cap) {
    int cap = f->cap ? f->cap * 2 : 16;
    sass_insn *p = realloc(f->ins, (size_t)cap * sizeof *p);
    if (!p) return -1;
    f->ins = p;
    f->cap = cap;
  }
  f->ins[f->n++] = *in;
  return 0;
}

/* Classifies opcode `op` (with modifiers); SASS_OTHER for the rest. */
static int classify(const char *op, sass_insn *in) {
  char base[32];
  size_t k = strcspn(op, ".");
  if (k >= sizeof base) return SASS_OTHER;
  memcpy(base, op, k);
  base[k] = 0;
  const char *mods = op + k;
  in->variant = 0;
  in->gen = 0;
  in->bytes = width_of(mods);
  if (!strcmp(base, "LDS")) return SASS_LD;
  if (!strcmp(base, "STS")) return SASS_ST;
  if (!strcmp(base, "LDSM") || !strcmp(base, "STSM")) {
    in->variant = 1;
    /* LDSM.16.M88.4: the last modifier is the number of 8x8 matrices */
    const char *last = strrchr(mods, '.');
    in->bytes = last && (last[1] == '2' || last[1] == '4') && !last[2] ? last[1] - '0' : 1;
    return base[0] == 'L' ? SASS_LD : SASS_ST;
  }
  if (!strcmp(base, "ATOMS")) {
    in->variant = strstr(mods, ".POPC.INC")    ? SASS_AT_POPC_INC
                  : strstr(mods, ".CAST.SPIN") ? SASS_AT_CAST_SPIN
                  : strstr(mods, ".CAS")       ? SASS_AT_CAS
                                               : SASS_AT_PLAIN;
    return SASS_ATOM;
  }
  /* generic addresses: LD.E.64, ST.E.U8, ATOM.E.ADD.STRONG.GPU, RED.E.ADD
   * (the global LDG/STG/ATOMG/REDG and local LDL/STL are other opcodes) */
  if (!strcmp(base, "LD") || !strcmp(base, "ST")) {
    in->gen = 1;
    return base[0] == 'L' ? SASS_LD : SASS_ST;
  }
  if (!strcmp(base, "ATOM") || !strcmp(base, "RED")) {
    in->gen = 1;
    in->variant = strstr(mods, ".CAS") ? SASS_AT_CAS : SASS_AT_PLAIN;
    return SASS_ATOM;
  }
  if (!strcmp(base, "VOTE") || !strcmp(base, "VOTEU")) return SASS_VOTE;
  return SASS_OTHER;
}

static int ends_block(const char *op) {
  return !strncmp(op, "BRA", 3) || !strncmp(op, "EXIT", 4) || !strncmp(op, "RET", 3) ||
         !strncmp(op, "CALL", 4) || !strncmp(op, "BRX", 3) || !strncmp(op, "JMP", 3);
}

/* A label and the block it starts (self-loop detection). */
typedef struct label {
  char name[32];
  int block;
} label;

/* Marks block b of f as a loop onto itself (a branch back to its start). */
static int mark_loop(sass_func *f, int b) {
  if (b >= f->nloop) {
    int n = b + 16;
    uint8_t *l = realloc(f->selfloop, (size_t)n);
    if (!l) return -1;
    memset(l + f->nloop, 0, (size_t)(n - f->nloop));
    f->selfloop = l;
    f->nloop = n;
  }
  f->selfloop[b] = 1;
  return 0;
}

int sass_parse(const char *text, size_t len, sass_text *out) {
  memset(out, 0, sizeof *out);
  const char *p = text, *end = text + len;
  sass_func *cur = NULL;
  int file = -1, block = 0, fresh = 1, pexit = 0;
  uint32_t line = 0;
  label *labels = NULL;
  int nlabels = 0, rc = -1;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    const char *q = p;
    while (q < e && (*q == ' ' || *q == '\t')) q++;
    if (q == p && e - q > 7 && !strncmp(q, ".text.", 6) && e[-1] == ':') {
      sass_func *fs = realloc(out->funcs, (size_t)(out->nfuncs + 1) * sizeof *fs);
      if (!fs) goto out;
      out->funcs = fs;
      cur = &fs[out->nfuncs++];
      memset(cur, 0, sizeof *cur);
      size_t n = (size_t)(e - 1 - (q + 6));
      if (!(cur->name = malloc(n + 1))) goto out;
      nlabels = 0;
      memcpy(cur->name, q + 6, n);
      cur->name[n] = 0;
      file = -1;
      line = 0;
      block = 0;
      fresh = 1;
      pexit = 0;
    } else if (cur && q == p && e - q > 4 && !strncmp(q, ".L_", 3) && e[-1] == ':') {
      if (!fresh) block++;
      fresh = 1;
      pexit = 0; /* (a join: other paths come in) */
      size_t n = (size_t)(e - 1 - q);
      if (n < sizeof labels->name) {
        label *l = realloc(labels, (size_t)(nlabels + 1) * sizeof *l);
        if (!l) goto out;
        labels = l;
        memcpy(labels[nlabels].name, q, n);
        labels[nlabels].name[n] = 0;
        labels[nlabels++].block = block;
      }
    } else if (cur && e - q > 8 && !strncmp(q, "//## File", 9)) {
      if (line_info(out, q, e, &file, &line) < 0) goto out;
    } else if (cur && e - q > 8 && !strncmp(q, "/*", 2)) {
      char *stop;
      unsigned long addr = strtoul(q + 2, &stop, 16);
      if (stop == q + 2 || strncmp(stop, "*/", 2)) goto next;
      const char *r = stop + 2;
      while (r < e && (*r == ' ' || *r == '\t')) r++;
      int guarded = r < e && *r == '@';
      if (guarded) { /* predicate */
        while (r < e && *r != ' ' && *r != '\t') r++;
        while (r < e && (*r == ' ' || *r == '\t')) r++;
      }
      char op[80];
      size_t k = 0;
      while (r + k < e && r[k] != ' ' && r[k] != '\t' && r[k] != ';' && k + 1 < sizeof op) {
        op[k] = r[k];
        k++;
      }
      op[k] = 0;
      if (!k) goto next;
      sass_insn in;
      memset(&in, 0, sizeof in);
      in.cls = classify(op, &in);
      fresh = 0;
      if (in.cls != SASS_OTHER) {
        in.addr = (uint32_t)addr;
        in.block = block;
        in.after_exit = pexit;
        in.file = file;
        in.line = line;
        memcpy(in.text, op, k + 1);
        if (push(cur, &in) < 0) goto out;
      }
      if (!strncmp(op, "BRA", 3)) {
        /* `(.L_x_8): a branch back to the start of this block makes it a loop */
        const char *t = r + k, *lp;
        while (t < e && *t != '(') t++;
        lp = t + 1;
        while (t < e && *t != ')') t++;
        for (int i = 0; t < e && i < nlabels; i++)
          if (labels[i].block == block && (size_t)(t - lp) == strlen(labels[i].name) &&
              !strncmp(lp, labels[i].name, (size_t)(t - lp)) && mark_loop(cur, block) < 0)
            goto out;
      }
      if (ends_block(op)) {
        block++;
        fresh = 1;
        pexit = guarded && !strncmp(op, "EXIT", 4);
      }
      cur->nblocks = block + 1;
    }
  next:
    p = nl ? nl + 1 : end;
  }
  rc = 0;
out:
  free(labels);
  return rc;
}

int sass_block_loops(const sass_func *f, int block) {
  return block >= 0 && block < f->nloop && f->selfloop[block];
}

void sass_free(sass_text *s) {
  for (int i = 0; i < s->nfuncs; i++) {
    free(s->funcs[i].name);
    free(s->funcs[i].ins);
    free(s->funcs[i].selfloop);
  }
  for (int i = 0; i < s->nfiles; i++) free(s->files[i]);
  free(s->funcs);
  free(s->files);
  memset(s, 0, sizeof *s);
}

const sass_func *sass_find(const sass_text *s, const char *name) {
  for (int i = 0; i < s->nfuncs; i++)
    if (!strcmp(s->funcs[i].name, name)) return &s->funcs[i];
  return NULL;
}
