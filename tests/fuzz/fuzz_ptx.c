/* fuzz_ptx.c: the libFuzzer target of the PTX front end. Any input must
 * parse or fail with a "fuzz.ptx:LINE:COL: ..." message; a parsed module is
 * walked whole so that ASan sees every pointer in it. `make fuzz` builds it
 * with clang; tests/fuzz/replay.c runs it over the corpus without libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t touch_str(const char *s) { return s ? strlen(s) : 0; }

static size_t touch_operand(const ptx_operand *o, int depth) {
  if (depth > 4) abort(); /* operands nest at most address > vector > element */
  size_t n = touch_str(o->name) + touch_str(o->pair) + (size_t)o->kind;
  for (int i = 0; i < o->nelems; i++) n += touch_operand(&o->elems[i], depth + 1);
  return n;
}

static size_t touch_var(const ptx_var *v) {
  size_t n = touch_str(v->name);
  for (uint64_t i = 0; i < v->init_size; i++) n += v->init[i];
  for (int i = 0; i < v->nrelocs; i++) {
    if (v->relocs[i].offset + (uint64_t)v->relocs[i].size > v->init_size) abort();
    n += touch_str(v->relocs[i].symbol);
  }
  return n;
}

/* Reads every byte the module points to; returns a sum so nothing is
 * optimised away. */
static size_t touch_module(const ptx_module *m) {
  size_t n = touch_str(m->filename) + touch_str(m->target);
  for (int i = 0; i < m->nvars; i++) n += touch_var(&m->vars[i]);
  for (int i = 0; i < m->nfiles; i++) n += touch_str(m->files[i].path);
  for (int i = 0; i < m->nfuncs; i++) {
    const ptx_func *f = &m->funcs[i];
    n += touch_str(f->name) + touch_str(f->alias_of);
    for (int j = 0; j < f->nparams; j++) n += touch_var(&f->params[j]);
    for (int j = 0; j < f->nrets; j++) n += touch_var(&f->rets[j]);
    for (int j = 0; j < f->nvars; j++) n += touch_var(&f->vars[j]);
    for (int j = 0; j < f->nregs; j++) n += touch_str(f->regs[j].name);
    for (int j = 0; j < f->nbody; j++) {
      const ptx_stmt *s = &f->body[j];
      n += touch_str(s->label) + touch_str(s->guard) + touch_str(s->opcode);
      for (int k = 0; k < s->nmods; k++) n += touch_str(s->mods[k]);
      for (int k = 0; k < s->nops; k++) n += touch_operand(&s->ops[k], 0);
    }
  }
  return n;
}

/* Whether the LINE:COL of a message lies in the text, or just past the end
 * of a line. */
static int position_ok(const uint8_t *data, size_t size, const char *err) {
  unsigned long line, col;
  if (sscanf(err, "fuzz.ptx:%lu:%lu:", &line, &col) != 2 || line == 0 || col == 0) return 0;
  size_t start = 0;
  for (unsigned long l = 1; l < line; l++) {
    const uint8_t *nl = start < size ? memchr(data + start, '\n', size - start) : NULL;
    if (!nl) return 0;
    start = (size_t)(nl - data) + 1;
  }
  const uint8_t *nl = start < size ? memchr(data + start, '\n', size - start) : NULL;
  size_t len = (nl ? (size_t)(nl - data) : size) - start;
  return col <= len + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ptx_module *m = NULL;
  char err[256];
  memset(err, 'x', sizeof err);
  int rc = ptx_parse((const char *)data, size, "fuzz.ptx", &m, err, sizeof err);
  if (rc == 0) {
    if (!m) abort();
    volatile size_t sink = touch_module(m);
    (void)sink;
    ptx_free(m);
  } else {
    /* a failure names the position and leaves a terminated message */
    if (rc != -1 || m || !memchr(err, 0, sizeof err) || !position_ok(data, size, err)) abort();
  }
  return 0;
}
