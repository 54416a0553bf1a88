/* cfg.c: immediate post-dominators per instruction, computed on the
 * reversed control-flow graph of each function with the iterative
 * algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
 * Algorithm"). Node n is the virtual exit every ret/exit/trap reaches.
 *
 * Paths on which threads end do not hold the others' reconvergence back:
 * a branch with a successor that goes on and one that only leads to the
 * end of the threads (an exit, a kernel's ret, or unconditional branches
 * to one) keeps just the edge that goes on. ptxas does the same: it copies
 * the kernel's return into each early `return` as EXIT and places the
 * convergence barrier at the if's join, which exited threads do not wait
 * for (tests/hw/reconv, early_return). Without this the lanes that go on
 * would meet only at the kernel's final ret.
 *
 * Loop exits from inside a loop's body (a `break`) do not hold the body's
 * joins back either: ptxas gives the body's ifs convergence barriers
 * inside the loop and takes the breaking threads out of them (BREAK) to
 * wait at the loop's exit. So an if whose one arm continues and whose
 * other breaks joins at the loop's latch, not after the loop
 * (tests/hw/reconv, loop_continue). A conditional branch in a loop's body
 * with one successor outside the loop (and no ending path) and one inside,
 * that is not the loop's latch, keeps only the edge that stays; decode
 * marks the branch (BRA_BREAK_*, program.h) and the executor parks the
 * lanes that take the other edge at its target. */
#include "ir/cfg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Successors of instruction i (local index) in a function of n nodes;
 * n stands for the exit. Returns the count (up to max_succs(p)). brx.idx
 * lists its targets in program.xslots (exec/brx.c). */
static int succs_all(const program *p, uint32_t base, uint32_t n, uint32_t i, uint32_t *s) {
  const insn *in = &p->code[base + i];
  uint32_t f = op_flags[in->op];
  if (in->op == OP_BRX) {
    int k = 0;
    for (uint32_t j = 0; j < in->c; j++) s[k++] = p->xslots[in->target + j] - base;
    if (in->guard >= 0) s[k++] = i + 1 < n ? i + 1 : n;
    return k;
  }
  if (f & (OPF_RET | OPF_EXIT)) {
    if (in->guard < 0) {
      s[0] = n;
      return 1;
    }
    s[0] = n;
    s[1] = i + 1 < n ? i + 1 : n;
    return 2;
  }
  if ((f & OPF_BRANCH) && in->op != OP_CALL) {
    uint32_t t = in->target - base;
    if (in->guard < 0) {
      s[0] = t;
      return 1;
    }
    s[0] = t;
    s[1] = i + 1 < n ? i + 1 : n;
    return s[0] == s[1] ? 1 : 2;
  }
  s[0] = i + 1 < n ? i + 1 : n;
  return 1;
}

/* ending[i]: the threads that reach instruction i (local index) end
 * without meeting other threads first: i is an unguarded exit or trap (or
 * a kernel's unguarded ret), or every successor of i ends and has i as its
 * only predecessor (or is such an end itself). The least fixed point, so
 * a loop never ends. ends_in[t]: an edge into t is such a path (t ends and
 * is an end itself or has one predecessor). */
static void find_ending(const program *p, uint32_t base, uint32_t n, int entry, uint8_t *ending,
                        uint8_t *ends_in, uint32_t *s) {
  uint8_t *term = calloc(n, 1);
  uint32_t *npred = calloc(n + 1, sizeof *npred);
  if (!term || !npred) { /* no filtering: the plain post-dominators */
    free(term);
    free(npred);
    return;
  }
  for (uint32_t i = 0; i < n; i++) {
    const insn *in = &p->code[base + i];
    uint32_t f = op_flags[in->op];
    ending[i] = term[i] = in->guard < 0 && ((f & OPF_EXIT) || (entry && (f & OPF_RET)));
    int k = succs_all(p, base, n, i, s);
    for (int j = 0; j < k; j++) npred[s[j]]++;
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t i = n; i-- > 0;) {
      if (ending[i]) continue;
      int k = succs_all(p, base, n, i, s), all = k > 0;
      for (int j = 0; j < k && all; j++) all = s[j] < n && ending[s[j]] && (term[s[j]] || npred[s[j]] == 1);
      if (all) ending[i] = changed = 1;
    }
  }
  /* an edge into t ends the threads that take it */
  for (uint32_t t = 0; t < n; t++) ends_in[t] = ending[t] && (term[t] || npred[t] == 1);
  free(term);
  free(npred);
}

/* Successors of i without its edges into ending paths, when it has a
 * successor that goes on (see the top of the file) and keep[i] is 0. */
static int succs(const program *p, uint32_t base, uint32_t n, uint32_t i, uint32_t *s, const uint8_t *ends_in,
                 const uint8_t *keep, const uint8_t *brk) {
  int k = succs_all(p, base, n, i, s);
  if (k < 2 || keep[i]) return k;
  if (brk[i]) { /* a break: the edge that stays in the loop */
    s[0] = brk[i] == BRA_BREAK_TAKEN ? i + 1 : p->code[base + i].target - base;
    return 1;
  }
  int on = 0;
  for (int j = 0; j < k; j++) on += s[j] == n || !ends_in[s[j]];
  if (!on || on == k) return k;
  int m = 0;
  for (int j = 0; j < k; j++)
    if (s[j] == n || !ends_in[s[j]]) s[m++] = s[j];
  return m;
}

/* A loop whose only way out ends the threads must keep that edge, or its
 * instructions would never reach the exit: keep[i] = 1 for every branch
 * whose filtered successors cannot reach it, until none is left. */
static void find_kept(const program *p, uint32_t base, uint32_t n, uint32_t *s, const uint8_t *ends_in,
                      uint8_t *keep, const uint8_t *brk, uint8_t *reach) {
  for (int again = 1; again;) {
    again = 0;
    memset(reach, 0, n + 1);
    reach[n] = 1;
    for (int changed = 1; changed;) {
      changed = 0;
      for (uint32_t i = n; i-- > 0;) {
        if (reach[i]) continue;
        int k = succs(p, base, n, i, s, ends_in, keep, brk);
        for (int j = 0; j < k && !reach[i]; j++) reach[i] = reach[s[j]];
        changed |= reach[i];
      }
    }
    for (uint32_t i = 0; i < n; i++)
      if (!reach[i] && !keep[i] && succs(p, base, n, i, s, ends_in, keep, brk) != succs_all(p, base, n, i, s))
        keep[i] = again = 1;
  }
}

/* The breaks of each loop (see the top of the file): for every header h
 * (the target of a branch at or after it), the natural loop of its back
 * edges; a conditional bra of the body, not itself a back edge, with one
 * successor in the body and one outside (not an ending path) breaks. A
 * branch that leaves several nested loops at once keeps the outermost
 * (lo[i]..hi[i], local indices). */
static int find_breaks(const program *p, uint32_t base, uint32_t n, const uint8_t *ends_in, uint8_t *brk,
                       uint32_t *lo, uint32_t *hi, uint32_t *s) {
  uint32_t *npred = calloc(n + 1, sizeof *npred), *pstart = calloc(n + 2, sizeof *pstart);
  uint32_t *stack = malloc((n + 1) * sizeof *stack), *plist = NULL, *body = malloc((n + 1) * sizeof *body);
  uint8_t *in = calloc(n + 1, 1);
  int rc = -1;
  if (!npred || !pstart || !stack || !body || !in) goto out;
  for (uint32_t i = 0; i < n; i++) {
    int k = succs_all(p, base, n, i, s);
    for (int j = 0; j < k; j++) npred[s[j]]++;
  }
  for (uint32_t v = 0; v <= n; v++) pstart[v + 1] = pstart[v] + npred[v];
  plist = malloc((pstart[n + 1] + 1) * sizeof *plist);
  if (!plist) goto out;
  memset(npred, 0, (n + 1) * sizeof *npred);
  for (uint32_t i = 0; i < n; i++) {
    int k = succs_all(p, base, n, i, s);
    for (int j = 0; j < k; j++) plist[pstart[s[j]] + npred[s[j]]++] = i;
  }
  for (uint32_t h = 0; h < n; h++) {
    /* the body: h and what reaches a back edge into h without passing h */
    uint32_t sp = 0, nb = 0, l = h, r = h;
    for (uint32_t j = pstart[h]; j < pstart[h] + npred[h]; j++)
      if (plist[j] >= h) stack[sp++] = plist[j];
    if (!sp) continue;
    in[h] = 1;
    body[nb++] = h;
    while (sp) {
      uint32_t u = stack[--sp];
      if (in[u]) continue;
      in[u] = 1;
      body[nb++] = u;
      for (uint32_t j = pstart[u]; j < pstart[u] + npred[u]; j++)
        if (!in[plist[j]]) stack[sp++] = plist[j];
    }
    for (uint32_t j = 0; j < nb; j++) {
      if (body[j] < l) l = body[j];
      if (body[j] > r) r = body[j];
    }
    for (uint32_t j = 0; j < nb; j++) {
      uint32_t i = body[j];
      const insn *b = &p->code[base + i];
      if (b->op != OP_BRA || b->guard < 0 || succs_all(p, base, n, i, s) != 2) continue;
      if (s[0] == h || s[1] == h) continue; /* a back edge: the loop's own test */
      int out0 = s[0] == n || !in[s[0]], out1 = s[1] == n || !in[s[1]];
      if (out0 == out1) continue;
      uint32_t x = out0 ? s[0] : s[1];
      if (x == n || ends_in[x]) continue;
      if (brk[i] && hi[i] - lo[i] >= r - l) continue; /* an outer loop's */
      brk[i] = out0 ? BRA_BREAK_TAKEN : BRA_BREAK_FALL;
      lo[i] = l;
      hi[i] = r;
    }
    for (uint32_t j = 0; j < nb; j++) in[body[j]] = 0;
  }
  rc = 0;
out:
  free(npred);
  free(pstart);
  free(stack);
  free(plist);
  free(body);
  free(in);
  return rc;
}

static uint32_t intersect(const uint32_t *ipdom, const uint32_t *order, uint32_t a, uint32_t b) {
  while (a != b) {
    while (order[a] < order[b]) a = ipdom[a];
    while (order[b] < order[a]) b = ipdom[b];
  }
  return a;
}

static int func_pdom(program *p, uint32_t base, uint32_t n, int entry) {
  uint32_t ms = 2;
  for (uint32_t i = 0; i < n; i++)
    if (p->code[base + i].op == OP_BRX && p->code[base + i].c + 1 > ms) ms = p->code[base + i].c + 1;
  uint32_t *s = malloc(ms * sizeof *s);
  uint32_t N = n + 1, *npred = calloc(N + 1, sizeof *npred);
  uint32_t *pstart = calloc(N + 1, sizeof *pstart), *plist = NULL;
  uint32_t *order = calloc(N, sizeof *order), *post = calloc(N, sizeof *post);
  uint32_t *ipdom = malloc(N * sizeof *ipdom), *stack = malloc(2 * N * sizeof *stack);
  uint8_t *seen = calloc(N, 1), *ending = calloc(N, 1), *ends_in = calloc(N, 1), *keep = calloc(N, 1);
  uint8_t *brk = calloc(N, 1);
  uint32_t *lo = calloc(N, sizeof *lo), *hi = calloc(N, sizeof *hi);
  int rc = -1;
  if (!s || !npred || !pstart || !order || !post || !ipdom || !stack || !seen || !ending || !ends_in ||
      !keep || !brk || !lo || !hi)
    goto out;
  find_ending(p, base, n, entry, ending, ends_in, s);
  if (find_breaks(p, base, n, ends_in, brk, lo, hi, s) < 0) goto out;
  find_kept(p, base, n, s, ends_in, keep, brk, seen);
  memset(seen, 0, N);
  /* reversed graph: predecessors of v in the reverse graph = successors in the CFG;
   * a DFS from the exit over reverse edges needs, for each node, its CFG predecessors */
  for (uint32_t i = 0; i < n; i++) {
    int k = succs(p, base, n, i, s, ends_in, keep, brk);
    for (int j = 0; j < k; j++) npred[s[j]]++;
  }
  for (uint32_t v = 0; v < N; v++) pstart[v + 1] = pstart[v] + npred[v];
  plist = malloc((pstart[N] + 1) * sizeof *plist);
  if (!plist) goto out;
  for (uint32_t v = 0; v < N; v++) npred[v] = 0;
  for (uint32_t i = 0; i < n; i++) {
    int k = succs(p, base, n, i, s, ends_in, keep, brk);
    for (int j = 0; j < k; j++) plist[pstart[s[j]] + npred[s[j]]++] = i;
  }
  /* post-order of a DFS from the exit along CFG-predecessor edges */
  uint32_t np = 0, sp = 0;
  stack[sp++] = n;
  seen[n] = 1;
  uint32_t *it = calloc(N, sizeof *it);
  if (!it) goto out;
  while (sp) {
    uint32_t v = stack[sp - 1];
    if (it[v] < npred[v]) {
      uint32_t u = plist[pstart[v] + it[v]++];
      if (!seen[u]) {
        seen[u] = 1;
        stack[sp++] = u;
      }
    } else {
      order[v] = np;
      post[np++] = v;
      sp--;
    }
  }
  free(it);
  for (uint32_t v = 0; v < N; v++) ipdom[v] = UINT32_MAX;
  ipdom[n] = n;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t k = np; k-- > 0;) {
      uint32_t v = post[k];
      if (v == n) continue;
      uint32_t nd = UINT32_MAX;
      int c = succs(p, base, n, v, s, ends_in, keep, brk);
      for (int j = 0; j < c; j++) {
        if (ipdom[s[j]] == UINT32_MAX) continue;
        nd = nd == UINT32_MAX ? s[j] : intersect(ipdom, order, s[j], nd);
      }
      if (nd != ipdom[v]) {
        ipdom[v] = nd;
        changed = 1;
      }
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    insn *in = &p->code[base + i];
    uint32_t d = ipdom[i];
    in->rpc = (d == UINT32_MAX || d == n) ? NO_RPC : base + d;
    if (in->op == OP_BRA) {
      in->mode = keep[i] ? 0 : brk[i];
      in->v[0] = in->mode ? base + lo[i] : 0;
      in->v[1] = in->mode ? base + hi[i] : 0;
    }
  }
  rc = 0;
out:
  free(npred);
  free(pstart);
  free(plist);
  free(order);
  free(post);
  free(ipdom);
  free(stack);
  free(seen);
  free(ending);
  free(ends_in);
  free(keep);
  free(brk);
  free(lo);
  free(hi);
  free(s);
  return rc;
}

int cfg_reconvergence(program *p, char *err, size_t errsize) {
  for (uint32_t f = 0; f < p->nfuncs; f++) {
    uint32_t b = p->funcs[f].entry, n = p->funcs[f].end - b;
    if (!n) continue;
    if (func_pdom(p, b, n, f == 0) < 0) {
      snprintf(err, errsize, "out of memory in control-flow analysis");
      return -1;
    }
  }
  cfg_mark_contention(p);
  return 0;
}
