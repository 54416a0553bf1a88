/* devcall.c: the device runtime's functions (dynamic parallelism) as the
 * executor calls them. cudaMalloc and cudaFree take blocks of the device
 * heap, as malloc and free do; every other one goes, with its arguments'
 * bytes, to the launch's device-call hook (smemu_set_devcall: the CUDA
 * runtime queues child grids there), once per calling lane in lane order.
 * The result is the function's return value. */
#include "exec/exec.h"
#include "exec/heap.h"
#include "ir/decode.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct lane_ref {
  warp *w;
  int l;
  int faulted; /* an access faulted (and reported it) */
} lane_ref;

/* Reads or writes n bytes of the lane's memory in naturally aligned pieces
 * of up to 8 bytes: a parameter buffer holds structs of any size (36 bytes
 * at a 16-byte boundary is well aligned, though not a multiple of 36). */
static int lane_access(void *cookie, uint64_t addr, void *buf, uint32_t n, int write) {
  lane_ref *r = cookie;
  uint8_t *b = buf;
  while (n) {
    uint32_t step = 8;
    while (step > 1 && (addr % step || step > n)) step /= 2;
    uint8_t *p = exec_addr(r->w, r->l, PTX_SPACE_GENERIC, addr, step, write);
    if (!p) {
      r->faulted = 1;
      return -1;
    }
    if (write)
      memcpy(p, b, step);
    else
      memcpy(b, p, step);
    addr += step, b += step, n -= step;
  }
  return 0;
}

static void arg_bytes(warp *w, int l, const call_arg *a, uint32_t base, uint8_t *out, uint32_t n) {
  memset(out, 0, n);
  if (a->is_reg) {
    uint64_t v = w->r[a->where][l];
    memcpy(out, &v, a->size < 8 ? a->size : 8);
  } else {
    memcpy(out, ctrl_lane_local(w, l, base + a->where), a->size < n ? a->size : n);
  }
}

static void set_ret(warp *w, int l, const call_info *ci, uint32_t base, uint64_t v) {
  if (!ci->nrets) return;
  const call_arg *r = &ci->rets[0];
  if (r->is_reg)
    w->r[r->where][l] = v;
  else
    memcpy(ctrl_lane_local(w, l, base + r->where), &v, r->size < 8 ? r->size : 8);
}

/* cudaMalloc(void **p, size_t n) / cudaFree(void *p) on the device heap:
 * cudaErrorMemoryAllocation (2) when it is full, cudaErrorInvalidDevicePointer
 * (17) for a pointer it did not give. */
static int heap_call(warp *w, int l, const func_info *g, const call_info *ci, uint32_t base) {
  dev_heap *h = w->L->heap;
  uint8_t a0[16], a1[16];
  uint64_t p = 0, n = 0, ret = 0;
  if (ci->nargs > 0) arg_bytes(w, l, &ci->args[0], base, a0, sizeof a0);
  if (ci->nargs > 1) arg_bytes(w, l, &ci->args[1], base, a1, sizeof a1);
  memcpy(&p, a0, 8);
  memcpy(&n, a1, 8);
  if (g->builtin == BUILTIN_DEVRT_MALLOC) {
    uint64_t q = h ? heap_alloc(h, n) : 0;
    lane_ref r = {w, l, 0};
    if (lane_access(&r, p, &q, 8, 1) < 0) return -1;
    ret = q ? 0 : 2;
  } else if (p && (!h || heap_free(h, p, w->L->want_global_races))) {
    ret = 17;
  }
  set_ret(w, l, ci, base, ret);
  return 0;
}

int devcall_builtin(warp *w, uint32_t m, const func_info *g, const call_info *ci) {
  const program *P = w->L->prog;
  uint32_t base = w->frames[w->nframes - 1].local_base;
  uint32_t bx = w->L->block[0], by = w->L->block[1];
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    int l = __builtin_ctz(mm);
    if (g->builtin != BUILTIN_DEVRT) {
      if (heap_call(w, l, g, ci, base) < 0) return -1;
      continue;
    }
    if (!w->L->devcall) {
      exec_fault(w, l, SMEMU_ERR_UNSUPPORTED,
                 "%s: the device runtime (kernels launching kernels) needs the CUDA runtime: run the program "
                 "with smemu run",
                 g->name);
      return -1;
    }
    smemu_devcall c;
    memset(&c, 0, sizeof c);
    c.name = g->name;
    c.fn = ir_devrt_suffix(g->name);
    c.nargs = ci->nargs < 8 ? ci->nargs : 8;
    for (uint32_t i = 0; i < c.nargs; i++) {
      arg_bytes(w, l, &ci->args[i], base, c.args[i], sizeof c.args[i]);
      c.arg_size[i] = ci->args[i].size;
    }
    c.kernel = w->L->kernel;
    memcpy(c.block, w->blk->ctaid, sizeof c.block);
    uint32_t t = w->index * 32 + (uint32_t)l;
    c.thread[0] = t % bx;
    c.thread[1] = t / bx % by;
    c.thread[2] = t / (bx * by);
    memcpy(c.grid, w->L->grid, sizeof c.grid);
    memcpy(c.block_dim, w->L->block, sizeof c.block_dim);
    if (w->pc < P->ncode && P->lines[w->pc].file != ~0u) {
      c.file = P->files[P->lines[w->pc].file];
      c.line = P->lines[w->pc].line;
    }
    lane_ref r = {w, l, 0};
    c.access = lane_access;
    c.cookie = &r;
    uint64_t ret = 0;
    if (w->L->devcall(&c, &ret, w->L->devcall_user) < 0) {
      /* a fault an access made is reported already; else the hook's reason */
      if (!r.faulted) exec_fault(w, l, SMEMU_ERR_UNSUPPORTED, "%s: %s", g->name, c.msg[0] ? c.msg : "failed");
      return -1;
    }
    set_ret(w, l, ci, base, ret);
  }
  return 0;
}
