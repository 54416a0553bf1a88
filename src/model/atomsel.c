/* atomsel.c: the SASS ptxas (CUDA 13.0, sm_90) emits for a PTX atomic on
 * shared memory, as seen in the disassembly of tests/hw/model/model.cu
 * (sass_counts.tsv there) and counted on an H200 (vectors.tsv):
 *  - add of the immediate 1 (atomicAdd(p, 1), atomicSub(p, -1)) or inc with
 *    the limit 0xffffffff, on 32-bit integers, whose result is not used:
 *    ATOMS.POPC.INC.32 (kernels add1_*, inc_max_*, cnt_s0); any other
 *    immediate (add2_*, inc_100_*) or a register operand: plain ATOMS.ADD.
 *  - add on 32-bit integers at an address ptxas proves uniform: warp
 *    aggregation. Result used, an immediate: VOTEU.ANY, POPC, one ATOMS.ADD
 *    by the lowest active lane, SHFL.IDX (cnt_used_*, add1_used_su_*).
 *    Result used, a register: if VOTE.ANY says the warp is full, a SHFL.UP
 *    scan and one ATOMS.ADD by lane 31, else the plain ATOMS.ADD
 *    (addreg_used_su_*). Result unused: VOTEU.ANY, then REDUX.SUM (a
 *    register) or POPC (an immediate other than 1), one ATOMS.ADD by the
 *    lowest active lane (addreg_su_*, sadd_su_*, add2_su_*).
 *  - and/or/xor/min/max on 32 bits at a uniform address whose result is
 *    unused: VOTEU.ANY, REDUX.AND/OR/XOR/MIN/MAX, one ATOMS by the lowest
 *    active lane (or1_su_*, orreg_su_*, maxreg_su_*, ...); used
 *    (maxreg_used_su_*) and exch (exch1_su_*): plain.
 *  - add on f32, f64, u64/s64 and min/max/and/or/xor on 64 bits have no
 *    ATOMS: LDS(.64) then ATOMS.CAST.SPIN(.64) in a loop until the swap
 *    succeeds (fadd_*, dadd_*, add64_*, max64_*, or64_*); exch and cas on
 *    64 bits stay native (exch64_s0). A 64-bit add of an immediate at a
 *    uniform address whose result is unused is aggregated first: the
 *    lowest active lane alone runs the loop (add64_su_s0).
 * Everything else is one plain ATOMS. The pass works on PTX, so "result
 * used" is "the destination register is read somewhere in the function"
 * and "uniform" is a flow-insensitive divergence analysis: a register is
 * uniform when every definition reads only immediates, symbols, kernel
 * parameters (a .func's are the caller's values: lane-dependent),
 * %ctaid/%ntid/%nctaid-like registers and uniform registers (a load from a
 * uniform address included); guarded definitions, atomics, shuffles and
 * lane-dependent special registers make it non-uniform, and so does a
 * definition in more than one basic block. ptxas may know
 * more (or less) in rare cases; then smemu counts the plain form. */
#include "model/atomsel.h"

#include <stdlib.h>
#include <string.h>

static int has_mod(const ptx_stmt *st, const char *m) {
  for (int i = 0; i < st->nmods; i++)
    if (!strcmp(st->mods[i], m)) return 1;
  return 0;
}

static const char *find_mod(const ptx_stmt *st, const char *const *set) {
  for (int i = 0; i < st->nmods; i++)
    for (int k = 0; set[k]; k++)
      if (!strcmp(st->mods[i], set[k])) return set[k];
  return NULL;
}

static const char *const OPS[] = {"add", "inc", "dec", "and", "or", "xor", "min", "max", "exch", "cas", NULL};
static const char *const TYPES[] = {"u32", "s32", "b32",   "u64",  "s64",    "b64", "f32",
                                    "f64", "f16", "f16x2", "bf16", "bf16x2", NULL};

int atomsel_form(const char *op, const char *type, int imm_operand, int64_t imm, int result_used,
                 int uniform_addr) {
  if (!op || !type) return ATOMSEL_PLAIN;
  int int32 = !strcmp(type, "u32") || !strcmp(type, "s32");
  int bits64 = !strcmp(type, "u64") || !strcmp(type, "s64") || !strcmp(type, "b64");
  int add = !strcmp(op, "add");
  if (add && (!strcmp(type, "u64") || !strcmp(type, "s64")) && uniform_addr && !result_used && imm_operand)
    return ATOMSEL_AGG_LOOP;
  if ((add && (!strcmp(type, "f32") || !strcmp(type, "f64"))) ||
      (bits64 && (add || !strcmp(op, "min") || !strcmp(op, "max") || !strcmp(op, "and") ||
                  !strcmp(op, "or") || !strcmp(op, "xor"))))
    return ATOMSEL_CAS_LOOP;
  if (!result_used && imm_operand &&
      ((int32 && add && imm == 1) ||
       (!strcmp(op, "inc") && !strcmp(type, "u32") && (uint32_t)imm == 0xffffffffu)))
    return ATOMSEL_POPC_INC;
  if (uniform_addr && add && int32) return result_used && !imm_operand ? ATOMSEL_AGG_SCAN : ATOMSEL_AGG_ONE;
  int logic = !strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor");
  int minmax = !strcmp(op, "min") || !strcmp(op, "max");
  if (uniform_addr && !result_used && ((logic && (!strcmp(type, "b32") || int32)) || (minmax && int32)))
    return ATOMSEL_AGG_ONE;
  return ATOMSEL_PLAIN;
}

/* Special registers every lane of a warp reads alike. */
static int uniform_special(const char *name) {
  static const char *const U[] = {"%ctaid",
                                  "%ntid",
                                  "%nctaid",
                                  "%nwarpid",
                                  "%nsmid",
                                  "%gridid",
                                  "%clusterid",
                                  "%nclusterid",
                                  "%cluster_ctaid",
                                  "%cluster_nctaid",
                                  "%cluster_ctarank",
                                  "%cluster_nctarank",
                                  "%is_explicit_cluster",
                                  "%warpid",
                                  "%smid",
                                  "%envreg",
                                  "%dynamic_smem_size",
                                  "%total_smem_size",
                                  "%aggr_smem_size",
                                  "WARP_SZ",
                                  NULL};
  for (int i = 0; U[i]; i++)
    if (!strncmp(name, U[i], strlen(U[i]))) return 1;
  return 0;
}

/* Whether operand o may differ between lanes. */
static int opd_nonuni(const atomsel_ctx *C, const ptx_operand *o) {
  switch (o->kind) {
  case PTX_OPD_REG: {
    int32_t s = C->reg_slot(C->user, o->name);
    if (s >= 0) return (uint32_t)s < C->nslots ? C->nonuni[s] : 1;
    return !uniform_special(o->name);
  }
  case PTX_OPD_ADDR:
    if (!o->name) return 0;
    {
      int32_t s = C->reg_slot(C->user, o->name);
      if (s >= 0) return (uint32_t)s < C->nslots ? C->nonuni[s] : 1;
      return 0; /* a symbol */
    }
  case PTX_OPD_VEC:
  case PTX_OPD_LIST:
    for (int i = 0; i < o->nelems; i++)
      if (opd_nonuni(C, &o->elems[i])) return 1;
    return 0;
  default:
    return 0;
  }
}

/* Statements whose first operand is not a destination. */
static int no_dest(const char *op) {
  return !strcmp(op, "st") || !strcmp(op, "red") || !strcmp(op, "bar") || !strcmp(op, "barrier") ||
         !strcmp(op, "bra") || !strcmp(op, "call") || !strcmp(op, "ret") || !strcmp(op, "exit") ||
         !strcmp(op, "prefetch") || !strcmp(op, "membar") || !strcmp(op, "fence") || !strcmp(op, "cp") ||
         !strcmp(op, "stmatrix") || !strcmp(op, "mbarrier") || !strcmp(op, "trap") || !strcmp(op, "brkpt");
}

/* Results that differ between lanes whatever the inputs. */
static int lane_result(const ptx_stmt *st) {
  const char *op = st->opcode;
  if (!strcmp(op, "atom") || !strcmp(op, "shfl") || !strcmp(op, "match") || !strcmp(op, "activemask") ||
      !strcmp(op, "ldmatrix") || !strcmp(op, "mma") || !strcmp(op, "wmma") || !strcmp(op, "tex") ||
      !strcmp(op, "suld") || !strcmp(op, "call"))
    return 1;
  if (!strcmp(op, "vote") && !has_mod(st, "ballot") && !has_mod(st, "uni"))
    return 0; /* any/all: the same for the warp */
  if (!strcmp(op, "ld") && has_mod(st, "local")) return 1;
  return 0;
}

static void set_nonuni(atomsel_ctx *C, const ptx_operand *d, int *changed) {
  if (d->kind == PTX_OPD_REG) {
    int32_t s = C->reg_slot(C->user, d->name);
    if (s >= 0 && (uint32_t)s < C->nslots && !C->nonuni[s]) {
      C->nonuni[s] = 1;
      *changed = 1;
    }
  } else if (d->kind == PTX_OPD_VEC) {
    for (int i = 0; i < d->nelems; i++) set_nonuni(C, &d->elems[i], changed);
  }
}

static void count_uses(atomsel_ctx *C, const ptx_operand *o) {
  if ((o->kind == PTX_OPD_REG || o->kind == PTX_OPD_ADDR) && o->name) {
    int32_t s = C->reg_slot(C->user, o->name);
    if (s >= 0 && (uint32_t)s < C->nslots) C->uses[s]++;
  }
  for (int i = 0; i < o->nelems; i++) count_uses(C, &o->elems[i]);
}

void atomsel_pass(atomsel_ctx *C, const ptx_func *f, uint32_t first_pc) {
  memset(C->nonuni, 0, C->nslots);
  memset(C->uses, 0, C->nslots * sizeof *C->uses);
  /* reads of every register */
  for (int s = 0; s < f->nbody; s++) {
    const ptx_stmt *st = &f->body[s];
    if (st->label || !st->opcode) continue;
    for (int i = no_dest(st->opcode) ? 0 : 1; i < st->nops; i++) count_uses(C, &st->ops[i]);
    if (!no_dest(st->opcode) && st->nops && st->ops[0].kind == PTX_OPD_ADDR) count_uses(C, &st->ops[0]);
  }
  /* a register defined in more than one basic block may hold different
   * values in different lanes after a divergent branch (a phi), and this
   * analysis does not follow control dependence: such registers count as
   * non-uniform (a loop counter too: conservative, it only loses an
   * aggregation ptxas might have made) */
  int changed = 0;
  {
    uint32_t block = 1;
    uint32_t *def_block = C->uses ? calloc(C->nslots, sizeof *def_block) : NULL;
    for (int s = 0; def_block && s < f->nbody; s++) {
      const ptx_stmt *st = &f->body[s];
      if (st->label) {
        block++;
        continue;
      }
      if (!st->opcode) continue;
      if (!no_dest(st->opcode) && st->nops && st->ops[0].kind == PTX_OPD_REG) {
        int32_t slot = C->reg_slot(C->user, st->ops[0].name);
        if (slot >= 0 && (uint32_t)slot < C->nslots) {
          if (def_block[slot] && def_block[slot] != block) C->nonuni[slot] = 1;
          def_block[slot] = block;
        }
      }
      if (!strcmp(st->opcode, "bra") || !strcmp(st->opcode, "ret") || !strcmp(st->opcode, "exit")) block++;
    }
    if (!def_block) /* out of memory: nothing is uniform */
      memset(C->nonuni, 1, C->nslots);
    free(def_block);
  }
  /* divergence, to a fixpoint */
  do {
    changed = 0;
    for (int s = 0; s < f->nbody; s++) {
      const ptx_stmt *st = &f->body[s];
      if (st->label || !st->opcode || !st->nops || no_dest(st->opcode)) continue;
      /* a .func's parameters are the caller's values: lane-dependent */
      int nu = st->guard != NULL || lane_result(st) ||
               (!f->is_entry && !strcmp(st->opcode, "ld") && has_mod(st, "param"));
      for (int i = 1; i < st->nops && !nu; i++) nu = opd_nonuni(C, &st->ops[i]);
      if (nu) set_nonuni(C, &st->ops[0], &changed);
    }
  } while (changed);
  /* the atomics */
  uint32_t pc = first_pc;
  for (int s = 0; s < f->nbody; s++) {
    const ptx_stmt *st = &f->body[s];
    if (st->label) continue;
    if (!st->opcode) {
      pc++;
      continue;
    }
    int atom = !strcmp(st->opcode, "atom"), red = !strcmp(st->opcode, "red");
    if ((atom || red) && has_mod(st, "shared")) {
      const ptx_operand *o = st->ops;
      int n = st->nops, ai = atom ? 1 : 0;
      const ptx_operand *val = n > ai + 1 ? &o[ai + 1] : NULL;
      int used = 0;
      if (atom && n > 0 && o[0].kind == PTX_OPD_REG) {
        int32_t slot = C->reg_slot(C->user, o[0].name);
        used = slot < 0 || (uint32_t)slot >= C->nslots || C->uses[slot] > 0;
      }
      int imm = val && val->kind == PTX_OPD_INT;
      int uni = n > ai && !opd_nonuni(C, &o[ai]);
      int form = atomsel_form(find_mod(st, OPS), find_mod(st, TYPES), imm, imm ? val->ival : 0, used, uni);
      if (form != ATOMSEL_PLAIN) C->mark(C->user, pc, (uint8_t)form);
    }
    pc++;
  }
}
