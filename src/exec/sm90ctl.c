/* sm90ctl.c: sm_90 instructions that steer the hardware rather than
 * compute: programmatic dependent launch (griddepcontrol), the register
 * budget of a warpgroup (setmaxnreg), cache and eviction hints (createpolicy,
 * applypriority, discard) and the multimem family, which needs NVLink
 * multicast hardware one emulated device does not have.
 *
 * griddepcontrol: smemu runs the grids of a stream one after the other, a
 * dependent grid starting only once its primary has finished, so
 * launch_dependents (let the dependent grid start early) and wait (wait for
 * the primary's memory to be visible) have nothing left to order: both are
 * no-ops, and a program that relies on the ordering still sees it. */
#include "exec/exec.h"
#include "ir/decode.h"
#include <string.h>

int dec_griddep(dctx *D, dstmt *S, insn *in);
int dec_setmaxnreg(dctx *D, dstmt *S, insn *in);
int dec_hint(dctx *D, dstmt *S, insn *in);
int dec_multimem(dctx *D, dstmt *S, insn *in);

static void h_noop(warp *w, const insn *in, uint32_t m) { (void)w, (void)in, (void)m; }

int dec_griddep(dctx *D, dstmt *S, insn *in) {
  if (!dec_take(S, "launch_dependents") && !dec_take(S, "wait"))
    return dec_error(D, S, -1, "griddepcontrol needs .launch_dependents or .wait");
  if (dec_nops(D, S, 0) < 0) return -1;
  in->fn = h_noop;
  return 0;
}

/* setmaxnreg.{inc,dec}.sync.aligned.u32 N: all 128 threads of a warpgroup
 * execute the same one (the GPU's rule); a warp of the warpgroup that
 * arrives with fewer lanes, or with another count or direction than a warp
 * of its warpgroup that executed as many setmaxnreg before, faults. The
 * register budget itself is not modelled: smemu's registers are not a
 * shared file. */
static void h_setmaxnreg(warp *w, const insn *in, uint32_t m) {
  uint32_t want = w->valid & ~w->exited;
  if (m != w->valid || want != w->valid) {
    exec_fault(
        w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
        "setmaxnreg.sync.aligned executed by lanes 0x%08x of warp %u: all 128 threads of the warpgroup "
        "must execute it together",
        m, w->index);
    return;
  }
  block *b = w->blk;
  uint32_t g = w->index / 4;
  if (4 * g + 4 > b->nwarps) {
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "setmaxnreg in warp %u, whose warpgroup is not whole (the block has %u threads)", w->index,
               b->nthreads);
    return;
  }
  uint16_t mine = (uint16_t)((in->mode ? 0x8000u : 0) | (uint32_t)in->imm);
  w->nreg_count++;
  w->nreg_last = mine;
  for (uint32_t k = 4 * g; k < 4 * g + 4; k++) {
    const warp *o = &b->warps[k];
    if (o == w || o->nreg_count != w->nreg_count || o->nreg_last == mine) continue;
    exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
               "setmaxnreg.%s %u in warp %u, but setmaxnreg.%s %u in warp %u of the same warpgroup: all its "
               "threads must execute the same one",
               in->mode ? "inc" : "dec", (unsigned)in->imm, w->index, (o->nreg_last & 0x8000) ? "inc" : "dec",
               (unsigned)(o->nreg_last & 0x7fff), k);
    return;
  }
}

int dec_setmaxnreg(dctx *D, dstmt *S, insn *in) {
  int inc = dec_take(S, "inc"), dec = dec_take(S, "dec");
  if (inc == dec) return dec_error(D, S, -1, "setmaxnreg needs .inc or .dec");
  if (!dec_take(S, "sync") || !dec_take(S, "aligned"))
    return dec_error(D, S, -1, "setmaxnreg needs .sync.aligned");
  if (dec_ntypes(D, S, 1) < 0) return -1;
  if (S->types[0] != PTX_T_U32) return dec_error(D, S, -1, "setmaxnreg takes .u32");
  if (dec_nops(D, S, 1) < 0) return -1;
  const ptx_operand *o = &S->st->ops[0];
  if (o->kind != PTX_OPD_INT) return dec_error(D, S, 0, "setmaxnreg takes an immediate register count");
  if (o->ival < 24 || o->ival > 256 || o->ival % 8)
    return dec_error(D, S, 0, "setmaxnreg's register count is a multiple of 8 from 24 to 256, not %lld",
                     (long long)o->ival);
  in->imm = o->ival;
  in->mode = (uint8_t)inc;
  in->fn = h_setmaxnreg;
  return 0;
}

/* createpolicy, applypriority, discard: hints to the L2 cache, which smemu
 * does not model. createpolicy still writes a 64-bit policy for the
 * .L2::cache_hint operands that take it (its value is opaque: any value is
 * accepted there); discard's data becomes undefined on the GPU, here it
 * keeps its value, which is one of the values it may have. */
static void h_policy(warp *w, const insn *in, uint32_t m) {
  uint64_t *Dd = w->r[in->d];
  LANES(m, Dd[l] = 0x1000000000000000ull | (uint64_t)in->mode);
}

int dec_hint(dctx *D, dstmt *S, insn *in) {
  static const char *const evict[] = {"L2::evict_last", "L2::evict_normal", "L2::evict_first",
                                      "L2::evict_unchanged", NULL};
  const char *op = S->st->opcode;
  if (!strcmp(op, "createpolicy")) {
    int frac = dec_take(S, "fractional"), range = dec_take(S, "range");
    dec_take(S, "global");
    if (dec_take(S, "cvt")) {
      /* createpolicy.cvt.L2.b64 d, a: a CUDA 11 policy converted */
      dec_take(S, "L2");
      if (dec_ntypes(D, S, 1) < 0 || dec_nops(D, S, 2) < 0 || dec_dst(D, S, 0, &in->d) < 0 ||
          dec_src(D, S, 1, PTX_T_B64, &in->a) < 0)
        return -1;
      in->fn = h_policy;
      return 0;
    }
    if (frac == range) return dec_error(D, S, -1, "createpolicy needs .fractional or .range");
    int prim = dec_take_any(S, evict), sec = dec_take_any(S, evict);
    if (prim < 0) return dec_error(D, S, -1, "createpolicy needs a primary eviction priority");
    if (dec_ntypes(D, S, 1) < 0) return -1;
    if (S->types[0] != PTX_T_B64) return dec_error(D, S, -1, "createpolicy gives .b64");
    int n = S->st->nops;
    if (frac ? (n != 1 && n != 2) : n != 4)
      return dec_error(D, S, -1, "createpolicy%s takes %s", frac ? ".fractional" : ".range",
                       frac ? "d{, fraction}" : "d, [a], primary size, total size");
    if (dec_dst(D, S, 0, &in->d) < 0) return -1;
    if (frac && n == 2) {
      const ptx_operand *f = &S->st->ops[1];
      if (f->kind == PTX_OPD_F32 || f->kind == PTX_OPD_F64) {
        double v;
        if (f->kind == PTX_OPD_F32) {
          float x;
          uint32_t u = (uint32_t)f->bits;
          memcpy(&x, &u, 4);
          v = x;
        } else {
          memcpy(&v, &f->bits, 8);
        }
        if (!(v > 0.0 && v <= 1.0)) return dec_error(D, S, 1, "createpolicy's fraction lies in (0, 1]");
      } else if (f->kind != PTX_OPD_REG) {
        return dec_error(D, S, 1, "createpolicy's fraction is an .f32 value");
      } else {
        uint32_t slot;
        if (dec_src(D, S, 1, PTX_T_F32, &slot) < 0) return -1;
      }
    } else if (!frac) {
      uint32_t base, slot;
      int64_t off;
      int space = PTX_SPACE_GLOBAL;
      uint8_t fl = 0;
      if (dec_addr(D, S, 1, &base, &off, &space, &fl) < 0 || dec_src(D, S, 2, PTX_T_U32, &slot) < 0 ||
          dec_src(D, S, 3, PTX_T_U32, &slot) < 0)
        return -1;
    }
    in->mode = (uint8_t)(prim | (sec < 0 ? 0 : (sec + 1) << 2));
    in->fn = h_policy;
    return 0;
  }
  /* applypriority.global.L2::evict_normal [a], size;
   * discard.global.L2 [a], size; (size: 128) */
  int ap = !strcmp(op, "applypriority");
  dec_take(S, "global");
  if (ap ? !dec_take(S, "L2::evict_normal") : !dec_take(S, "L2"))
    return dec_error(D, S, -1, ap ? "applypriority takes .L2::evict_normal" : "discard takes .L2");
  if (dec_nops(D, S, 2) < 0) return -1;
  const ptx_operand *sz = &S->st->ops[1];
  if (sz->kind != PTX_OPD_INT || sz->ival != 128) return dec_error(D, S, 1, "%s covers 128 bytes", op);
  uint32_t base;
  int64_t off;
  int space = PTX_SPACE_GLOBAL;
  uint8_t fl = 0;
  if (dec_addr(D, S, 0, &base, &off, &space, &fl) < 0) return -1;
  in->fn = h_noop;
  return 0;
}

/* multimem.ld_reduce / st / red, cp.reduce.async.bulk's multimem forms:
 * they address a multicast object spread over the GPUs of an NVLink
 * domain. They decode (so lint and the loader accept the kernel) and fault
 * when run. */
static void h_multimem(warp *w, const insn *in, uint32_t m) {
  (void)in, (void)m;
  exec_fault(w, -1, SMEMU_ERR_ILLEGAL_INSTRUCTION,
             "multimem needs NVLink multicast hardware (a multicast object over several GPUs), which one "
             "emulated device does not have");
}

int dec_multimem(dctx *D, dstmt *S, insn *in) {
  S->used = S->st->nmods >= 64 ? ~0ull : (1ull << S->st->nmods) - 1;
  if (S->st->nops < 2) return dec_error(D, S, -1, "multimem takes an address and a value");
  in->fn = h_multimem;
  return 0;
}

/* The .L2::cache_hint operand of a memory instruction (ld, st, atom, red,
 * cp.async, ...): a 64-bit policy from createpolicy, the last operand. The
 * hint changes no result, so it is checked and dropped: *copy gets the
 * statement without it and S->st points there (the caller keeps copy alive
 * while it decodes). Returns 0, or -1 after an error. */
int dec_cache_hint(dctx *D, dstmt *S, ptx_stmt *copy);
int dec_cache_hint(dctx *D, dstmt *S, ptx_stmt *copy) {
  if (!dec_take(S, "L2::cache_hint")) return 0;
  int n = S->st->nops;
  if (n < 2 || S->st->ops[n - 1].kind != PTX_OPD_REG)
    return dec_error(D, S, -1, "'.L2::cache_hint' needs a 64-bit cache policy register as the last operand");
  uint32_t slot;
  if (dec_src(D, S, n - 1, PTX_T_B64, &slot) < 0) return -1;
  *copy = *S->st;
  copy->nops--;
  S->st = copy;
  return 0;
}
