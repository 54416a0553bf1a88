/* fuzz_ptx.c: the libFuzzer target of the PTX front end. Any input must
 * parse or fail with a "fuzz.ptx:LINE:COL: ..." message; a parsed module is
 * walked whole so that ASan sees every pointer in it, and then loaded
 * through the API, so that the decoder (operands, symbols, frames, the
 * control-flow analysis) sees it too. `make fuzz` builds it
 * with clang; tests/fuzz/replay.c runs it over the corpus without libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "smemu.h"

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
    /* decode every kernel: an error is fine, a crash is not */
    static smemu_ctx *ctx;
    if (!ctx) {
      smemu_options o = {0};
      o.threads = 1;
      o.max_warp_instructions = 20000; /* a fuzzed loop ends as an error */
      o.analyses = SMEMU_ANALYZE_BANKS | SMEMU_ANALYZE_RACES | SMEMU_ANALYZE_SYNC;
      if (smemu_create(&o, &ctx) != SMEMU_OK) abort();
    }
    smemu_module *mod = NULL;
    if (smemu_module_load_data(ctx, (const char *)data, size, "fuzz.ptx", &mod) == SMEMU_OK) {
      for (int i = 0; i < smemu_module_kernel_count(mod); i++) {
        smemu_kernel *k = smemu_module_kernel(mod, i);
        sink = (size_t)smemu_kernel_param_count(k) + smemu_kernel_static_shared(k);
        /* run it on one small block: every parameter points to a zeroed
         * buffer (or is that pointer's bits); a fault is fine, a crash not */
        static void *buf;
        if (!buf && smemu_malloc(ctx, &buf, 4096) != SMEMU_OK) abort();
        memset(buf, 0, 4096);
        void *args[64];
        int np = smemu_kernel_param_count(k);
        if (np > 64) continue;
        static uint8_t scratch[64][256];
        for (int j = 0; j < np; j++) {
          memset(scratch[j], 0, sizeof scratch[j]);
          memcpy(scratch[j], &buf, sizeof buf);
          args[j] = scratch[j];
        }
        smemu_param_info pi;
        int big = 0;
        for (int j = 0; j < np; j++)
          if (smemu_kernel_param(k, j, &pi) == SMEMU_OK && (pi.size > 256 || pi.is_local)) big = 1;
        if (big) continue;
        const uint32_t g[3] = {2, 1, 1}, b[3] = {64, 1, 1};
        smemu_status st = smemu_launch(ctx, k, g, b, 256, args);
        if (st != SMEMU_OK && !smemu_errmsg(ctx)[0]) abort();
      }
      smemu_module_unload(mod);
    } else if (!smemu_errmsg(ctx)[0]) {
      abort(); /* a failure always says why */
    }
  } else {
    /* a failure names the position and leaves a terminated message */
    if (rc != -1 || m || !memchr(err, 0, sizeof err) || !position_ok(data, size, err)) abort();
  }
  return 0;
}
