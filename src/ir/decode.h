/* decode.h: turning a parsed kernel into a program (program.h), and the
 * helpers the instruction families use to decode their own instructions.
 * Each family file in src/exec/ and src/async/ has a `dec_<family>` that
 * reads the statement's modifiers and operands through these helpers and
 * picks the handler; ops.def says which decoder an opcode goes to. The
 * table of decoders is the executor's (exec/dispatch.c: decode_kernel):
 * this floor only calls through the table it is given. */
#ifndef SMEMU_DECODE_H
#define SMEMU_DECODE_H

#include "ir/program.h"
#include "ptx/ptx.h"
#include <stddef.h>

/* What the loader tells the decoder about the target. */
typedef struct decode_env {
  uint32_t smem_reserved; /* reserved shared bytes at offset 0 */
  void **var_addr;        /* host address of each module variable (by index), or NULL */
} decode_env;

typedef struct dctx dctx;
typedef struct dstmt dstmt;
/* A family decoder: reads statement S into instruction `in` (its handler,
 * operands and flags). Returns 0, or -1 after dec_error. */
typedef int (*dec_fn)(dctx *D, dstmt *S, insn *in);

/* The instruction families, as the executor hands them to the decoder. */
typedef struct decode_families {
  const dec_fn *decoders;    /* OP_COUNT entries: the decoder of each opcode */
  int (*finish)(program *P); /* a pass over the whole decoded program, or NULL;
                                returns 0, or -1 when out of memory */
} decode_families;

/* Decode kernel `k` of module `m` into a new program with the families
 * `fam` (exec/dispatch.h: decode_kernel hands the executor's). Returns 0,
 * or -1 with "file:line:col: message" in err. */
int ir_decode(const ptx_module *m, const ptx_func *k, const decode_env *env, const decode_families *fam,
              program **out, char *err, size_t errsize);
void program_free(program *p);
/* Whether a call to the undefined function `name` is one the executor
 * provides (vprintf, malloc, ...): the device link leaves those unresolved. */
int ir_is_builtin(const char *name);
/* The device runtime's functions (devrt_names.c): BUILTIN_DEVRT* for a name
 * of one (__cudaCDP2Launch..., cudaGetParameterBuffer, ...), else
 * BUILTIN_NONE; ir_devrt_suffix gives the part after __cudaCDP2 or cuda
 * ("LaunchDeviceV2"), or NULL. */
int ir_devrt_builtin(const char *name);
const char *ir_devrt_suffix(const char *name);

/* ---- for the family decoders ---- */

/* A statement under decode. */
struct dstmt {
  const ptx_stmt *st;
  int types[4]; /* type modifiers, in order */
  int ntypes;
  uint64_t used; /* modifiers consumed (bit i for mods[i]) */
  uint32_t pc;   /* pc of the instruction */
};

/* 1 if modifier `mod` is present (and mark it used). */
int dec_take(dstmt *S, const char *mod);
/* Index in `list` (NULL-terminated) of the first present modifier, or -1. */
int dec_take_any(dstmt *S, const char *const *list);
/* Rounding modifier: FP_RN.. (fpsem.h) or -1 when none; `integer` selects
 * the .rni/.rzi/.rmi/.rpi forms. */
int dec_round(dstmt *S, int integer);
/* The memory space modifier, or PTX_SPACE_GENERIC when none. */
int dec_space(dstmt *S);
/* Vector modifier: 1, 2 or 4. */
int dec_vec(dstmt *S);

/* Require n operands / n types; on mismatch set an error and return -1. */
int dec_nops(dctx *D, dstmt *S, int n);
int dec_ntypes(dctx *D, dstmt *S, int n);

/* Operand i as a source register slot of type t (immediates become
 * constant slots converted to t). */
int dec_src(dctx *D, dstmt *S, int i, int t, uint32_t *slot);
/* A source operand given directly. */
int dec_src_opd(dctx *D, const ptx_operand *o, int t, uint32_t *slot);
/* Operand i as a destination register slot. */
int dec_dst(dctx *D, dstmt *S, int i, uint32_t *slot);
int dec_dst_opd(dctx *D, const ptx_operand *o, uint32_t *slot);
/* Operand i as a predicate (source: constants allowed, `neg` gets !). */
int dec_psrc(dctx *D, dstmt *S, int i, uint32_t *pred, int *neg);
int dec_pdst(dctx *D, dstmt *S, int i, uint32_t *pred);
/* The predicate after '|' in operand i (`%r|%p`): *pred gets it, PRED_SINK
 * for `_`, or stays as it was when there is none. */
int dec_pair(dctx *D, dstmt *S, int i, uint32_t *pred);
/* 1 if operand i is a predicate register. */
int dec_is_pred(dctx *D, dstmt *S, int i);
/* Operand i as an address: base slot and offset; sets IF_FRAME /
 * IF_KPARAM in *flags and may narrow *space from a symbol's space. */
int dec_addr(dctx *D, dstmt *S, int i, uint32_t *base, int64_t *off, int *space, uint8_t *flags);
/* Report an error at the statement (or its operand i, i < 0 for the
 * statement) and return -1. */
/* The kind of module-scope reference `name` (1 .texref, 2 .samplerref, 3
 * .surfref), 0 when it is none. */
int dec_opaque(dctx *D, const char *name);
/* Whether register `name` of the function being decoded is a .b128 one
 * (two slots from its own). */
int dec_is_b128(dctx *D, const char *name);
int dec_error(dctx *D, dstmt *S, int i, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Decode context queries used by control-flow families. */
int dec_label(dctx *D, dstmt *S, int i, uint32_t *pc);
/* A call site: its argument and result slots (program.calls) and callee;
 * sets in->target and in->imm. Returns 0 for a direct call, 1 for a call
 * through a function pointer (in->a the pointer, in->c candidates whose
 * (program index, module index) pairs are in xslots at in->target), -1 on
 * error. The handler is the call family's (exec/dispatch.c: dec_call). */
int dec_callsite(dctx *D, dstmt *S, insn *in);
/* The function under decode (its statements: .branchtargets lists). */
const ptx_func *dec_cur_func(dctx *D);
const char *dec_opcode_text(dstmt *S, char *buf, size_t n);
/* Append n slots to the program's slot lists (program.xslots); *index gets
 * the position of the first. Returns 0, or -1 when out of memory. */
int dec_xslots(dctx *D, const uint32_t *slots, uint32_t n, int64_t *index);

/* The family decoders, one per decoder named in ops.def (a decoder that
 * several rows name is declared once per row), defined by the families in
 * src/exec/ and src/async/: a new family is its file and its ops.def rows. */
#define OP(id, name, dec, flags) int dec(dctx *D, dstmt *S, insn *in);
#include "ir/ops.def"
#undef OP
/* Decoders the families call from their own (not in ops.def). */
int dec_bulk(dctx *D, dstmt *S, insn *in); /* cp.async.bulk (src/async/bulk.c), from dec_cp */
int dec_bulk_reduce(dctx *D, dstmt *S,
                    insn *in); /* cp.reduce.async.bulk(.tensor) (src/async/tma.c), from dec_cp */
int dec_cp_async(dctx *D, dstmt *S, insn *in); /* cp.async, its groups (src/exec/mem.c), from dec_cp */
int dec_fence_form(dctx *D, dstmt *S,
                   insn *in); /* membar, fence (src/exec/ctrl.c): 1 for fence.proxy.async */
int dec_unsupported(dctx *D, dstmt *S, insn *in); /* an ops.def row of forms not run yet (src/exec/ctrl.c) */

/* Integer type classes for handler tables. */
enum { IT_U8, IT_U16, IT_U32, IT_U64, IT_S8, IT_S16, IT_S32, IT_S64, IT_NONE };
int int_class(int ptx_type);

#endif
