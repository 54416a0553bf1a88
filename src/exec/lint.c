/* lint.c: smemu_lint_ptx, the decoder run over every kernel of a module
 * without running any. The decoder stops at a kernel's first problem; to
 * list them all, the statement it names is turned into a no-op in this
 * private copy of the module and the kernel is decoded again, until it
 * decodes or the problem is not a statement's (a declaration, a missing
 * function): then the kernel's list ends there. The next kernel gets a
 * fresh copy, so a statement in a function several kernels call is listed
 * for each (and counted once). */
#include "exec/dispatch.h"
#include "ir/decode.h"
#include "ptx/ptx.h"
#include "smemu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINT_MAX_ROUNDS 100000 /* problems listed per kernel, at most */

/* "NAME:LINE:COL: ..." -> line, col; 0 when the message has no position. */
static int position(const char *msg, const char *name, uint32_t *line, uint32_t *col) {
  size_t n = strlen(name);
  if (strncmp(msg, name, n) || msg[n] != ':') return 0;
  char *e;
  unsigned long l = strtoul(msg + n + 1, &e, 10);
  if (*e != ':') return 0;
  unsigned long c = strtoul(e + 1, &e, 10);
  if (*e != ':' || !l) return 0;
  *line = (uint32_t)l;
  *col = (uint32_t)c;
  return 1;
}

/* The statement at (line, col): starting there, holding an operand that
 * starts there, or else the last one on that line that starts before it. */
static ptx_stmt *statement_at(ptx_module *m, uint32_t line, uint32_t col) {
  ptx_stmt *best = NULL;
  for (int i = 0; i < m->nfuncs; i++)
    for (int s = 0; s < m->funcs[i].nbody; s++) {
      ptx_stmt *st = &m->funcs[i].body[s];
      if (st->label || st->pos.line != line) continue;
      if (st->pos.col == col) return st;
      for (int k = 0; k < st->nops; k++)
        if (st->ops[k].pos.line == line && st->ops[k].pos.col == col) return st;
      if (st->pos.col < col && (!best || st->pos.col > best->pos.col)) best = st;
    }
  return best;
}

/* Whether msg is in the list; adds it when not. */
static int seen(char ***list, int *n, const char *msg) {
  for (int i = 0; i < *n; i++)
    if (!strcmp((*list)[i], msg)) return 1;
  char **l = realloc(*list, (size_t)(*n + 1) * sizeof *l);
  char *c = strdup(msg);
  if (!l || !c) {
    free(c);
    if (l) *list = l;
    return 1;
  }
  *list = l;
  l[(*n)++] = c;
  return 0;
}

int smemu_lint_ptx(const char *ptx, size_t len, const char *name, smemu_lint_fn fn, void *user,
                   int *nkernels) {
  char err[1024];
  ptx_module *m = NULL;
  if (nkernels) *nkernels = 0;
  if (!name) name = "<ptx>";
  if (ptx_parse(ptx, len, name, &m, err, sizeof err) < 0) {
    fn(user, NULL, err);
    return 1;
  }
  /* the no-op a listed statement becomes: nanosleep takes no modifiers
   * here and no operands */
  static const char *const nop = "nanosleep";
  char **msgs = NULL;
  int nmsgs = 0, rc = 0, dirty = 0;
  /* variables get no storage, only distinct addresses: the decoder takes
   * their addresses and nothing runs */
  void **addr = calloc((size_t)m->nvars + 1, sizeof *addr);
  if (!addr) rc = -1;
  for (int v = 0; addr && v < m->nvars; v++) addr[v] = (void *)(uintptr_t)(0x10000 + 0x100 * (uint64_t)v);
  decode_env env = {0, addr};
  for (int i = 0; rc == 0 && i < m->nfuncs; i++) {
    if (!m->funcs[i].is_entry || !m->funcs[i].has_body) continue;
    if (nkernels) (*nkernels)++;
    if (dirty) {
      /* statements were turned into no-ops for the kernel before: a
       * fresh copy, so a function this kernel shares is listed for it too */
      ptx_free(m);
      m = NULL;
      if (ptx_parse(ptx, len, name, &m, err, sizeof err) < 0) {
        rc = -1;
        break;
      }
      dirty = 0;
    }
    const ptx_func *k = &m->funcs[i];
    for (int round = 0; round < LINT_MAX_ROUNDS; round++) {
      program *p = NULL;
      if (decode_kernel(m, k, &env, &p, err, sizeof err) == 0) {
        program_free(p);
        break;
      }
      seen(&msgs, &nmsgs, err);
      fn(user, k->name, err);
      uint32_t line, col;
      ptx_stmt *st = position(err, name, &line, &col) ? statement_at(m, line, col) : NULL;
      if (!st || !strcmp(st->opcode, nop)) break;
      st->opcode = nop;
      st->nmods = 0;
      st->nops = 0;
      st->guard = NULL;
      dirty = 1;
    }
  }
  for (int i = 0; i < nmsgs; i++) free(msgs[i]);
  free(msgs);
  free(addr);
  ptx_free(m);
  if (rc < 0) {
    fn(user, NULL, "out of memory");
    return -1;
  }
  return nmsgs;
}
