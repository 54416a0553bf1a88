/* ctrl.c: control flow and barriers: bra with divergence and reconvergence,
 * call/ret with per-warp frames, exit, trap, bar/barrier (sync, arrive,
 * red), bar.warp.sync, fences, and the built-in functions nvcc calls
 * (vprintf, __assertfail). */
#include "async/async.h"
#include "exec/cluster.h"
#include "exec/contend.h"
#include "exec/exec.h"
#include "exec/heap.h"
#include "exec/hooks.h"
#include "exec/sched.h"
#include "ir/decode.h"
#include "smemu.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static simt_entry *top(warp *w) { return &w->stack[w->sp - 1]; }

static int push(warp *w, uint32_t pc, uint32_t rpc, uint32_t mask) {
  uint32_t cap = 64 + 4 * (w->L->prog->has_calls ? MAX_CALL_DEPTH : 1);
  if (w->sp >= cap) {
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION, "divergence stack overflow");
    return -1;
  }
  w->stack[w->sp++] = (simt_entry){pc, rpc, mask, 0, ~0u, 0, 0, 0};
  return 0;
}

int simt_push(warp *w, uint32_t pc, uint32_t rpc, uint32_t mask) { return push(w, pc, rpc, mask); }

uint32_t simt_diverge(warp *w, simt_entry *t, const insn *in) {
  uint32_t rpc = in->rpc == NO_RPC ? t->rpc : in->rpc;
  if (t->rpc == rpc)
    w->sp--;
  else
    t->pc = rpc;
  return rpc;
}

/* ---- bra ---- */

/* Lanes `out` of the top entry take a loop's break edge to L (insn.mode,
 * ir/cfg.c): they leave the entries of the loop's body (those whose join
 * lies in the loop, in->v[0]..v[1]) and wait at L, in the entry already
 * waiting there or in one made under the entry that runs the loop, as
 * ptxas's BREAK takes threads out of the body's convergence barriers.
 * Returns 0 when the top entry is that loop entry and all its lanes
 * leave: the plain jump does it. */
static int leave_loop(warp *w, const insn *in, uint32_t out, uint32_t L) {
  uint32_t base = w->frames[w->nframes - 1].stack_base, k = w->sp;
  while (k-- > base) {
    simt_entry *e = &w->stack[k];
    if (k < w->sp - 1 && e->pc == L && !e->blocked) break; /* waiting at L already */
    if (e->rpc == NO_RPC || e->rpc < in->v[0] || e->rpc > in->v[1]) {
      /* the entry that runs the loop: its lanes will wait at L */
      if (k == w->sp - 1 && out == e->mask) return 0;
      if (e->rpc == L && k > base && w->stack[k - 1].pc == L) { /* the entry below waits there */
        k--;
        break;
      }
      if (push(w, 0, 0, 0) < 0) return 1;
      memmove(&w->stack[k + 1], &w->stack[k], (w->sp - 1 - k) * sizeof *w->stack);
      e = &w->stack[k];
      e->pc = L;
      e->blocked = 0;
      e->red_dst = ~0u;
      w->stack[k + 1].rpc = L;
      break;
    }
  }
  if (k == UINT32_MAX || k < base) return 0;
  simt_remove(w, out, k + 1);
  return 1;
}

static void h_bra(warp *w, const insn *in, uint32_t m) {
  simt_entry *t = top(w);
  uint32_t active = t->mask, taken = m & active;
  /* a loop that retries a shared atomic or polls shared memory: one
   * iteration per turn (exec/contend.c) */
  if ((in->mode & BRA_CONTENDED) && w->blk->nwarps > 1) contend_branch(w, in, taken, active);
  if (in->mode & BRA_BREAK) {
    uint32_t out = (in->mode & BRA_BREAK) == BRA_BREAK_TAKEN ? taken : active & ~taken;
    uint32_t L = (in->mode & BRA_BREAK) == BRA_BREAK_TAKEN ? in->target : t->pc;
    if (out && leave_loop(w, in, out, L)) {
      if (w->state == W_FAULT) return;
      t = top(w);
      if (!t->mask) {
        simt_cleanup(w);
        return;
      }
      /* the lanes left all take the other edge */
      if ((in->mode & BRA_BREAK) == BRA_BREAK_FALL) t->pc = in->target;
      return;
    }
  }
  if (taken == active) {
    t->pc = in->target;
    return;
  }
  if (!taken) return;
  uint32_t fallpc = t->pc, fall = active & ~taken, rpc = simt_diverge(w, t, in);
  if (fallpc != rpc && push(w, fallpc, rpc, fall) < 0) return;
  if (in->target != rpc) push(w, in->target, rpc, taken);
  if (w->sp == 0 || top(w)->mask == 0) simt_cleanup(w);
}

int dec_bra(dctx *D, dstmt *S, insn *in) {
  if (dec_take(S, "uni")) in->flags |= IF_UNI;
  if (dec_nops(D, S, 1) < 0 || dec_label(D, S, 0, &in->target) < 0) return -1;
  in->fn = h_bra;
  return 0;
}

/* ---- exit and ret ---- */
static void do_exit(warp *w, uint32_t m) {
  block *b = w->blk;
  m &= ~w->exited;
  w->exited |= m;
  simt_remove(w, m, 0);
  b->exited_threads += (uint32_t)__builtin_popcount(m);
  simt_cleanup(w);
  barrier_check_all(b);
}

static void h_exit(warp *w, const insn *in, uint32_t m) {
  if (m) do_exit(w, m);
}

static void h_ret(warp *w, const insn *in, uint32_t m) {
  if (!m) return;
  if (w->nframes == 1) {
    do_exit(w, m);
    return;
  }
  simt_remove(w, m, w->frames[w->nframes - 1].stack_base);
  simt_cleanup(w);
}

int dec_ret(dctx *D, dstmt *S, insn *in) {
  dec_take(S, "uni");
  if (dec_nops(D, S, 0) < 0) return -1;
  in->fn = in->op == OP_EXIT ? h_exit : h_ret;
  return 0;
}

/* ---- calls ---- */
static uint8_t *lane_local(warp *w, int l, uint32_t off) {
  return w->local + (size_t)l * w->local_size + off;
}

uint8_t *ctrl_lane_local(warp *w, int l, uint32_t off) { return lane_local(w, l, off); }

static void copy_arg(warp *w, int l, const call_arg *a, uint32_t frame_base, uint8_t *dst, int to_reg) {
  (void)to_reg;
  if (a->is_reg) {
    uint64_t v = w->r[a->where][l];
    memcpy(dst, &v, a->size > 8 ? 8 : a->size);
  } else {
    memcpy(dst, lane_local(w, l, frame_base + a->where), a->size);
  }
}

void ctrl_return(warp *w) {
  const program *P = w->L->prog;
  frame *f = &w->frames[w->nframes - 1], *c = &w->frames[w->nframes - 2];
  const func_info *g = &P->funcs[f->func];
  const call_info *ci = &P->calls[ctrl_call_info(P, f->call_pc, f->func)];
  uint64_t(*cr)[32] = w->regstack + c->reg_base;
  uint32_t lanes = w->stack[w->sp - 1].mask & ~w->exited;
  for (uint32_t i = 0; i < ci->nrets; i++) {
    const call_arg *a = &ci->rets[i];
    LANES(lanes, {
      const uint8_t *src = lane_local(w, l, f->local_base + g->ret_offs[i]);
      if (a->is_reg) {
        uint64_t v = 0;
        memcpy(&v, src, a->size > 8 ? 8 : a->size);
        cr[a->where][l] = v;
      } else {
        memcpy(lane_local(w, l, c->local_base + a->where), src, a->size);
      }
    });
  }
  w->nframes--;
  w->r = cr;
  w->p = w->predstack + c->pred_base;
  w->local_base = c->local_base;
}

int builtin_call(warp *w, const insn *in, uint32_t m, const func_info *g, const call_info *ci);

/* Make room for frames up to `regs` register slots and `preds` predicates,
 * moving the stacks (frames hold offsets, so only w->r and w->p change). */
static int grow_frames(warp *w, uint32_t regs, uint32_t preds) {
  if (regs > w->reg_cap) {
    uint32_t cap = w->reg_cap * 2 > regs ? w->reg_cap * 2 : regs;
    uint64_t(*r)[32] = realloc(w->regstack, (size_t)cap * sizeof *r);
    if (!r) return -1;
    w->r = r + (w->r - w->regstack);
    w->regstack = r;
    w->reg_cap = cap;
  }
  if (preds > w->pred_cap) {
    uint32_t cap = w->pred_cap * 2 > preds ? w->pred_cap * 2 : preds;
    uint32_t *p = realloc(w->predstack, (size_t)cap * sizeof *p);
    if (!p) return -1;
    w->p = p + (w->p - w->predstack);
    w->predstack = p;
    w->pred_cap = cap;
  }
  return 0;
}

void ctrl_call_handler(warp *w, const insn *in, uint32_t m) {
  const program *P = w->L->prog;
  const func_info *g = &P->funcs[in->target];
  const call_info *ci = &P->calls[in->imm];
  simt_entry *t = top(w);
  if (!m) return;
  if (g->builtin) {
    builtin_call(w, in, m, g, ci);
    return;
  }
  if (m != t->mask) {
    /* a guarded call taken by some lanes: run it as its own path */
    push(w, w->pc, t->pc, m);
    return;
  }
  frame *cf = &w->frames[w->nframes - 1];
  const func_info *cfun = &P->funcs[cf->func];
  if (w->nframes >= MAX_CALL_DEPTH) {
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION, "call depth exceeds %d", MAX_CALL_DEPTH);
    return;
  }
  uint32_t rb = cf->reg_base + cfun->nregs, pb = cf->pred_base + cfun->npreds;
  uint32_t lb = cf->local_base + cfun->frame_bytes;
  if (grow_frames(w, rb + g->nregs, pb + g->npreds) < 0) {
    exec_fault(w, -1, SMEMU_ERR_OUT_OF_MEMORY, "out of host memory for the call stack calling %s", g->name);
    return;
  }
  if ((uint64_t)lb + g->frame_bytes > (w->alloca_low ? w->alloca_low : w->local_size)) {
    exec_fault(w, __builtin_ctz(m), SMEMU_ERR_ILLEGAL_ADDRESS,
               "stack overflow calling %s: frames need %u bytes, each thread has %u (raise the stack size)",
               g->name, lb + g->frame_bytes, w->local_size);
    return;
  }
  for (uint32_t i = 0; i < ci->nargs; i++) {
    const call_arg *a = &ci->args[i];
    LANES(m, copy_arg(w, l, a, cf->local_base, lane_local(w, l, lb + g->param_offs[i]), 0));
  }
  uint64_t(*r)[32] = w->regstack + rb;
  exec_fill_specials(w, r, g);
  w->predstack[pb + PRED_TRUE] = FULL_MASK;
  w->predstack[pb + PRED_FALSE] = 0;
  w->predstack[pb + PRED_EXPLICIT] = w->L->cluster_explicit ? FULL_MASK : 0;
  w->frames[w->nframes++] = (frame){in->target, rb, pb, lb, t->pc, w->pc, w->sp};
  push(w, g->entry, NO_RPC, m);
  w->r = r;
  w->p = w->predstack + pb;
  w->local_base = lb;
}

/* ---- trap ---- */
static void h_trap(warp *w, const insn *in, uint32_t m) {
  if (!m) return;
  exec_fault(w, __builtin_ctz(m), SMEMU_ERR_TRAP,
             in->op == OP_TRAP ? "trap instruction executed" : "breakpoint (brkpt) executed");
}

int dec_trap(dctx *D, dstmt *S, insn *in) {
  if (dec_nops(D, S, 0) < 0) return -1;
  in->fn = h_trap;
  return 0;
}

/* ---- no-ops ---- */
static void h_nop(warp *w, const insn *in, uint32_t m) {
  (void)w;
  (void)in;
  (void)m;
}

int dec_nop(dctx *D, dstmt *S, insn *in) {
  static const char *const ok[] = {"L1",    "L2",    "tensormap", "global", "local",
                                   "const", "param", "mask",      NULL};
  while (dec_take_any(S, ok) >= 0) {
  }
  for (int i = 0; i < S->st->nops; i++)
    if (S->st->ops[i].kind == PTX_OPD_REG) {
      uint32_t slot;
      if (dec_src(D, S, i, PTX_T_U32, &slot) < 0) return -1;
    }
  in->fn = h_nop;
  return 0;
}

/* A gpu/system-scope fence: the global race check's release point. */
static void h_fence(warp *w, const insn *in, uint32_t m) {
  if (!in->mode) hook_fence(w, m);
}

/* membar and fence; 1 for fence.proxy.async, whose handler is the async
 * family's (dec_fence, exec/dispatch.c). */
int dec_fence_form(dctx *D, dstmt *S, insn *in) {
  static const char *const ok[] = {"cta",
                                   "gl",
                                   "gpu",
                                   "sys",
                                   "sc",
                                   "acq_rel",
                                   "cluster",
                                   "proxy",
                                   "async",
                                   "alias",
                                   "shared::cta",
                                   "shared::cluster",
                                   "global",
                                   "shared",
                                   "mbarrier_init",
                                   "tensormap::generic",
                                   "release",
                                   "acquire",
                                   "sync_restrict::shared::cta",
                                   "sync_restrict::shared::cluster",
                                   "async::generic",
                                   NULL};
  int k, async = 0, tensormap = 0;
  in->mode = 0;
  /* .cta, proxy and mbarrier_init fences, and those restricted to shared
   * memory, order nothing between blocks */
  while ((k = dec_take_any(S, ok)) >= 0) {
    if (k == 0 || k == 7 || k == 14 || k >= 18) in->mode = 1;
    async |= k == 8;
    tensormap |= k == 15;
  }
  if (tensormap) {
    /* fence.proxy.tensormap::generic.release.SCOPE, or .acquire.SCOPE
     * [addr], 128: tensormap.replace writes the map smemu reads next */
    if (S->st->nops == 2) {
      uint32_t base, size;
      int64_t off;
      int space = PTX_SPACE_GENERIC;
      uint8_t fl = 0;
      if (dec_addr(D, S, 0, &base, &off, &space, &fl) < 0 || dec_src(D, S, 1, PTX_T_U32, &size) < 0)
        return -1;
    } else if (dec_nops(D, S, 0) < 0) {
      return -1;
    }
    in->mode = 1;
    in->fn = h_fence;
    return 0;
  }
  if (dec_nops(D, S, 0) < 0) return -1;
  in->fn = h_fence;
  return async;
}

int dec_unsupported(dctx *D, dstmt *S, insn *in) {
  char buf[128];
  return dec_error(D, S, -1, "'%s' is not supported", dec_opcode_text(S, buf, sizeof buf));
}

/* ---- barriers ---- */
enum { BAR_SYNC, BAR_ARRIVE, BAR_RED, BAR_WARP };

/* Run a sibling path of the same branch while this one waits, as the
 * hardware (sm_70+) lets threads of a warp reach a barrier separately. */
int simt_run_sibling(warp *w) {
  simt_entry *t = top(w);
  uint32_t base = w->frames[w->nframes - 1].stack_base;
  for (uint32_t k = w->sp - 1; k-- > base;) {
    simt_entry *e = &w->stack[k];
    if (e->pc == t->rpc) break;
    if (e->rpc == t->rpc && !e->blocked && e->mask) {
      simt_entry tmp = *e;
      *e = *t;
      *t = tmp;
      return 1;
    }
  }
  /* No sibling path: the lanes waiting at the reconvergence point just
   * below go on without the blocked ones (sm_70+ schedules threads
   * independently). The blocked path moves under them and now rejoins
   * where that entry would have. */
  if (w->sp >= 2 && w->sp - 2 >= base) {
    simt_entry *r = &w->stack[w->sp - 2];
    if (r->pc == t->rpc && !r->blocked && (r->mask & ~t->mask)) {
      simt_entry blocked = *t, rest = *r;
      blocked.rpc = r->rpc;
      rest.mask &= ~t->mask;
      *r = blocked;
      *t = rest;
      return 1;
    }
  }
  return 0;
}

static void h_bar(warp *w, const insn *in, uint32_t m) {
  if (!m) return;
  int l0 = __builtin_ctz(m);
  uint32_t id = (uint32_t)w->r[in->a][l0];
  uint32_t count = in->b != ~0u ? (uint32_t)w->r[in->b][l0] : 0;
  if (id >= MAX_BARRIERS) {
    exec_fault(w, l0, SMEMU_ERR_ILLEGAL_INSTRUCTION, "barrier id %u is out of range (0..15)", id);
    return;
  }
  if (count && (count % 32 || count > (w->blk->nthreads + 31) / 32 * 32)) {
    /* PTX requires a multiple of the warp size: an H200 stops the kernel
     * with an illegal-instruction error (tests/hw/races, sync_bar_count) */
    exec_fault(
        w, l0, SMEMU_ERR_ILLEGAL_INSTRUCTION,
        "illegal instruction: barrier thread count %u is not a multiple of 32 within the block's %u threads",
        count, w->blk->nthreads);
    return;
  }
  if (in->mode != BAR_ARRIVE) hook_bar_arrive(w, id, m);
  uint32_t predmask = 0;
  if (in->mode == BAR_RED) predmask = w->p[in->c] ^ ((in->flags & IF_NEGC) ? FULL_MASK : 0);
  if (in->mode == BAR_ARRIVE) {
    /* the arriving lanes' earlier accesses are ordered before the waiting
     * threads' later ones when the barrier completes */
    w->arrive_mask[id] |= m;
    barrier_arrive(w, id, count, m, 0, 0);
    return;
  }
  simt_entry *t = top(w);
  if (in->mode == BAR_RED) {
    t->red_dst = in->d;
    t->red_mask = m;
    t->red_kind = (uint8_t)in->type2;
    t->red_pred = in->d2 == 1;
  }
  t->blocked = id + 1;
  int r = barrier_arrive(w, id, count, m, predmask, 1);
  if (r != 0) return;
  /* (a warp with one path has no sibling to run) */
  if (w->sp == 1 || !simt_run_sibling(w)) w->state = W_BAR;
}

static void h_warpsync(warp *w, const insn *in, uint32_t m) {
  if (!m) return;
  /* the checker first: each lane's own mask, every calling lane named on a
   * bad one (check/sync.c); then the hardware: a mask without the caller
   * traps on an H100 (tests/hw/fidelity), as warp_groups does for the other
   * .sync operations. Under racecheck the warp goes on past it (recorded:
   * tests/hw/races sync_warp_mask_half reports the read after it), so it
   * does here with --check races. */
  const uint64_t *M = w->r[in->a];
  hook_warpsync_masks(w, m, M);
  uint32_t bad = 0;
  LANES(m, bad |= (uint32_t)(~M[l] >> l & 1) << l);
  if (bad && !w->L->want_races) {
    int l = __builtin_ctz(bad);
    exec_fault(w, l, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "bar.warp.sync: the executing thread is not in its membermask 0x%08x", (uint32_t)M[l]);
  }
}

int dec_bar(dctx *D, dstmt *S, insn *in) {
  static const char *const kinds[] = {"sync", "arrive", "red", NULL};
  if (dec_take(S, "cluster")) return dec_barrier_cluster(D, S, in);
  dec_take(S, "cta");
  dec_take(S, "aligned");
  int k = dec_take(S, "warp") ? BAR_WARP : dec_take_any(S, kinds);
  if (k < 0) k = BAR_SYNC; /* plain `bar 0` is bar.sync */
  in->mode = (uint8_t)k;
  in->b = ~0u;
  if (k == BAR_WARP) {
    if (!dec_take(S, "sync")) return dec_error(D, S, -1, "expected bar.warp.sync");
    if (dec_nops(D, S, 1) < 0 || dec_src(D, S, 0, PTX_T_U32, &in->a) < 0) return -1;
    in->fn = h_warpsync;
    return 0;
  }
  int first = 0, n = S->st->nops;
  if (k == BAR_RED) {
    static const char *const ops[] = {"popc", "and", "or", NULL};
    int o = dec_take_any(S, ops);
    if (o < 0) return dec_error(D, S, -1, "bar.red needs .popc, .and or .or");
    in->type2 = (uint8_t)o;
    if (n < 3 || n > 4) return dec_error(D, S, -1, "bar.red takes 3 or 4 operands");
    if (o == 0) {
      if (dec_dst(D, S, 0, &in->d) < 0) return -1;
      in->d2 = 0;
    } else {
      if (dec_pdst(D, S, 0, &in->d) < 0) return -1;
      in->d2 = 1;
    }
    int neg;
    if (dec_psrc(D, S, n - 1, &in->c, &neg) < 0) return -1;
    if (neg) in->flags |= IF_NEGC;
    first = 1;
    n--;
  }
  if (n - first < 1 || n - first > 2)
    return dec_error(D, S, -1, "expected a barrier id and an optional thread count");
  if (dec_src(D, S, first, PTX_T_U32, &in->a) < 0) return -1;
  if (n - first == 2 && dec_src(D, S, first + 1, PTX_T_U32, &in->b) < 0) return -1;
  if (k == BAR_ARRIVE && in->b == ~0u) return dec_error(D, S, -1, "bar.arrive needs a thread count");
  in->fn = h_bar;
  return 0;
}

/* ---- built-in functions ---- */

/* Copy a NUL-terminated string from device memory at generic address p. */
static int dev_string(warp *w, int l, uint64_t p, char *buf, size_t n) {
  size_t i = 0;
  for (; i + 1 < n; i++) {
    const uint8_t *c = exec_addr(w, l, PTX_SPACE_GENERIC, p + i, 1, 0);
    if (!c) return -1;
    buf[i] = (char)*c;
    if (!*c) return 0;
  }
  buf[i] = 0;
  return 0;
}

static uint64_t arg_value(warp *w, int l, const call_arg *a, uint32_t base) {
  uint64_t v = 0;
  if (a->is_reg) return w->r[a->where][l];
  memcpy(&v, lane_local(w, l, base + a->where), a->size > 8 ? 8 : a->size);
  return v;
}

/* Format CUDA's printf: arguments packed in a buffer, each aligned to its
 * size. Writes at most n bytes to out. */
static int format_printf(warp *w, int l, const char *fmt, uint64_t args, char *out, size_t n) {
  size_t k = 0, off = 0;
  for (const char *p = fmt; *p && k + 1 < n;) {
    if (*p != '%') {
      out[k++] = *p++;
      continue;
    }
    if (p[1] == '%') {
      out[k++] = '%';
      p += 2;
      continue;
    }
    char spec[32];
    size_t s = 0;
    spec[s++] = *p++;
    while (*p && strchr("-+ #0123456789.*", *p) && s < 20) spec[s++] = *p++;
    int longs = 0;
    while (*p && strchr("hlLqjzt", *p)) {
      if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't') longs++;
      p++;
    }
    char conv = *p ? *p++ : 0;
    if (!conv) break;
    int size = strchr("eEfgGaA", conv) ? 8 : (conv == 's' || conv == 'p' || longs) ? 8 : 4;
    off = (off + (size_t)size - 1) / (size_t)size * (size_t)size;
    const uint8_t *src = exec_addr(w, l, PTX_SPACE_GENERIC, args + off, (uint32_t)size, 0);
    if (!src) return -1;
    uint64_t v = 0;
    memcpy(&v, src, (size_t)size);
    off += (size_t)size;
    int r = 0;
    if (strchr("eEfgGaA", conv)) {
      double d;
      memcpy(&d, &v, 8);
      spec[s++] = conv;
      spec[s] = 0;
      r = snprintf(out + k, n - k, spec, d);
    } else if (conv == 's') {
      char str[1024];
      if (dev_string(w, l, v, str, sizeof str) < 0) return -1;
      spec[s++] = 's';
      spec[s] = 0;
      r = snprintf(out + k, n - k, spec, str);
    } else if (conv == 'p') {
      r = snprintf(out + k, n - k, "0x%" PRIx64, v);
    } else if (strchr("dicuxXo", conv)) {
      spec[s++] = 'l';
      spec[s++] = 'l';
      spec[s++] = conv;
      spec[s] = 0;
      long long x = size == 8                      ? (long long)v
                    : (conv == 'd' || conv == 'i') ? (long long)(int32_t)v
                                                   : (long long)(uint32_t)v;
      if (conv == 'c') x = (unsigned char)v;
      r = snprintf(out + k, n - k, spec, x);
    } else {
      r = snprintf(out + k, n - k, "%%%c", conv);
    }
    if (r > 0) k += (size_t)r < n - k ? (size_t)r : n - k - 1;
  }
  out[k] = 0;
  return 0;
}

int builtin_call(warp *w, const insn *in, uint32_t m, const func_info *g, const call_info *ci) {
  const program *P = w->L->prog;
  uint32_t base = w->frames[w->nframes - 1].local_base;
  uint32_t bx = w->L->block[0], by = w->L->block[1];
  (void)P;
  (void)in;
  if (g->builtin == BUILTIN_VPRINTF) {
    static char buf[8192];
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      int l = __builtin_ctz(mm);
      char fmt[2048];
      uint64_t fp = arg_value(w, l, &ci->args[0], base), ap = arg_value(w, l, &ci->args[1], base);
      pthread_mutex_lock(&w->L->lock);
      int ok =
          dev_string(w, l, fp, fmt, sizeof fmt) == 0 && format_printf(w, l, fmt, ap, buf, sizeof buf) == 0;
      if (ok) {
        fputs(buf, stdout);
        fflush(stdout);
      }
      pthread_mutex_unlock(&w->L->lock);
      if (!ok) return -1;
      if (ci->nrets) {
        const call_arg *r = &ci->rets[0];
        if (r->is_reg)
          w->r[r->where][l] = 0;
        else
          memset(lane_local(w, l, base + r->where), 0, r->size);
      }
    }
    return 0;
  }
  if (g->builtin == BUILTIN_ASSERTFAIL) {
    int l = __builtin_ctz(m);
    char msg[512] = "?", file[512] = "?", fn[256] = "?";
    dev_string(w, l, arg_value(w, l, &ci->args[0], base), msg, sizeof msg);
    dev_string(w, l, arg_value(w, l, &ci->args[1], base), file, sizeof file);
    dev_string(w, l, arg_value(w, l, &ci->args[3], base), fn, sizeof fn);
    uint32_t line = (uint32_t)arg_value(w, l, &ci->args[2], base);
    uint32_t t = w->index * 32 + (uint32_t)l;
    block *b = w->blk;
    pthread_mutex_lock(&w->L->lock);
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
            fn, b->ctaid[0], b->ctaid[1], b->ctaid[2], t % bx, t / bx % by, t / (bx * by), msg);
    pthread_mutex_unlock(&w->L->lock);
    exec_fault(w, l, SMEMU_ERR_TRAP, "device-side assertion `%s` failed", msg);
    return -1;
  }
  if (g->builtin == BUILTIN_MALLOC || g->builtin == BUILTIN_FREE) {
    /* per lane, in lane order: each thread gets its own block */
    dev_heap *h = w->L->heap;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      int l = __builtin_ctz(mm);
      uint64_t a = ci->nargs ? arg_value(w, l, &ci->args[0], base) : 0, r = 0;
      if (g->builtin == BUILTIN_MALLOC)
        r = h ? heap_alloc(h, a) : 0;
      else if (h ? heap_free(h, a, w->L->want_global_races) : (a ? -1 : 0)) {
        exec_fault(w, l, SMEMU_ERR_ILLEGAL_ADDRESS,
                   "free(0x%" PRIx64 "): not a block device-side malloc returned", a);
        return -1;
      }
      if (ci->nrets) {
        const call_arg *rr = &ci->rets[0];
        if (rr->is_reg)
          w->r[rr->where][l] = r;
        else
          memcpy(lane_local(w, l, base + rr->where), &r, rr->size < 8 ? rr->size : 8);
      }
    }
    return 0;
  }
  if (g->builtin == BUILTIN_DEVRT || g->builtin == BUILTIN_DEVRT_MALLOC || g->builtin == BUILTIN_DEVRT_FREE)
    return devcall_builtin(w, m, g, ci);
  exec_fault(w, __builtin_ctz(m), SMEMU_ERR_UNSUPPORTED, "device function '%s' is not supported", g->name);
  return -1;
}
