/* decode.h: turning a parsed kernel into a program (program.h), and the
 * helpers the instruction families use to decode their own instructions.
 * Each family file in src/exec/ has a `dec_<family>` that reads the
 * statement's modifiers and operands through these helpers and picks the
 * handler; ops.def says which decoder an opcode goes to. */
#ifndef SMEMU_DECODE_H
#define SMEMU_DECODE_H

#include <stddef.h>
#include "ir/program.h"
#include "ptx/ptx.h"

/* What the loader tells the decoder about the target. */
typedef struct decode_env {
  uint32_t smem_reserved;      /* reserved shared bytes at offset 0 */
  void **var_addr;             /* host address of each module variable (by index), or NULL */
} decode_env;

/* Decode kernel `k` of module `m` into a new program. Returns 0, or -1 with
 * "file:line:col: message" in err. */
int decode_kernel(const ptx_module *m, const ptx_func *k, const decode_env *env,
                  program **out, char *err, size_t errsize);
void program_free(program *p);

/* ---- for the family decoders ---- */
typedef struct dctx dctx;

/* A statement under decode. */
typedef struct dstmt {
  const ptx_stmt *st;
  int types[4];      /* type modifiers, in order */
  int ntypes;
  uint64_t used;     /* modifiers consumed (bit i for mods[i]) */
  uint32_t pc;       /* pc of the instruction */
} dstmt;

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
int dec_addr(dctx *D, dstmt *S, int i, uint32_t *base, int64_t *off,
             int *space, uint8_t *flags);
/* Report an error at the statement (or its operand i, i < 0 for the
 * statement) and return -1. */
int dec_error(dctx *D, dstmt *S, int i, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Decode context queries used by control-flow families. */
int dec_label(dctx *D, dstmt *S, int i, uint32_t *pc);
int dec_call(dctx *D, dstmt *S, insn *in);
const char *dec_opcode_text(dstmt *S, char *buf, size_t n);
/* Append n slots to the program's slot lists (program.xslots); *index gets
 * the position of the first. Returns 0, or -1 when out of memory. */
int dec_xslots(dctx *D, const uint32_t *slots, uint32_t n, int64_t *index);

/* Family decoders (ops.def). */
typedef int (*dec_fn)(dctx *D, dstmt *S, insn *in);
#define DEC(name) int name(dctx *D, dstmt *S, insn *in);
DEC(dec_int) DEC(dec_setp) DEC(dec_float) DEC(dec_mov) DEC(dec_cvt) DEC(dec_cvta)
DEC(dec_ldst) DEC(dec_atom) DEC(dec_nop) DEC(dec_fence) DEC(dec_bra)
DEC(dec_unsupported) DEC(dec_call) DEC(dec_ret) DEC(dec_trap) DEC(dec_bar)
DEC(dec_warp) DEC(dec_cp) DEC(dec_video) DEC(dec_matrix) DEC(dec_mma) DEC(dec_wgmma) DEC(dec_mbarrier)
DEC(dec_bulk) /* cp.async.bulk (src/async/bulk.c), from dec_cp */
DEC(dec_tensormap) /* tensormap.replace (src/async/tma.c) */
DEC(dec_bulk_reduce) /* cp.reduce.async.bulk(.tensor) (src/async/tma.c), from dec_cp */
DEC(dec_mapa) DEC(dec_getctarank) /* src/exec/cluster.c */
DEC(dec_tex) /* src/exec/tex.c */
#undef DEC

/* Integer type classes for handler tables. */
enum { IT_U8, IT_U16, IT_U32, IT_U64, IT_S8, IT_S16, IT_S32, IT_S64, IT_NONE };
int int_class(int ptx_type);

#endif
