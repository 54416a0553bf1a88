/* forms.h: which decoded instructions the compiled tier emits natively.
 * The tier does not re-derive PTX semantics from text: it decodes a list of
 * PTX forms through the interpreter's own decoder, once, and remembers each
 * form's decoded shape (handler, opcode, types, mode, flags, ...). A kernel
 * instruction of exactly that shape has exactly that semantics; anything
 * else runs through its interpreter handler. */
#ifndef SMEMU_JIT_FORMS_H
#define SMEMU_JIT_FORMS_H

#include "ir/program.h"
#include <stdint.h>

/* Native operations (the form's semantics; operands come from the insn). */
enum {
  J_NONE,
  /* integer, `bits` wide, `sgn` signed; results zero-extended to 64 bits */
  J_ADD,
  J_SUB,
  J_MULLO,
  J_AND,
  J_OR,
  J_XOR,
  J_MIN,
  J_MAX,
  J_MULHI,
  J_MULWIDE,
  J_MADLO,
  J_MADWIDE,
  J_MADHI,
  J_NOT,
  J_NEG,
  J_ABS,
  J_CNOT,
  J_POPC,
  J_CLZ,
  J_BREV,
  J_SHL,
  J_SHR,
  J_MOV,   /* d = a truncated to bits */
  J_MOVP,  /* predicate mov (imm: xor) */
  J_SELP,  /* d = p[c] ? a : b (all 64 bits) */
  J_SETP,  /* integer compare `cmp` (C_* below), setp_finish */
  J_FSETP, /* float compare (FP_EQ..FP_NANP), `bits` 32/64, ftz flag */
  J_PAND,
  J_POR,
  J_PXOR,
  J_PNOT,
  J_CVTA, /* d = (a + imm) or (a - imm) & mask */
  J_CVT,  /* integer <-> integer, float <-> integer, float <-> float */
  /* floating point; f32 with ftz/sat from the insn flags */
  J_FADD,
  J_FSUB,
  J_FMUL,
  J_FFMA,
  J_FDIV,
  J_FABS,
  J_FNEG,
  J_FMIN,
  J_FMAX,
  J_FSQRT,
  J_FRCP,
  J_FRCPA,
  /* ld/st: `bits` per element, `cmp` elements (1, 2, 4), `sub` the state
   * space (JS_*), `sgn` sign-extending */
  J_LD,
  J_ST,
  J_COUNT
};

/* State spaces of J_LD / J_ST. */
enum { JS_SHARED, JS_GLOBAL, JS_LOCAL, JS_PARAM, JS_CONST, JS_COUNT };

/* Integer comparisons of J_SETP. */
enum { JC_EQ, JC_NE, JC_LT, JC_LE, JC_GT, JC_GE };

typedef struct jit_form {
  uint16_t jop; /* J_* */
  uint8_t bits; /* operand width */
  uint8_t sgn;  /* signed integer */
  uint8_t cmp;  /* JC_* or FP_* */
  uint8_t sub;  /* J_CVTA: 1 subtracts; J_LD/J_ST: the space (JS_*) */
} jit_form;

/* The native form of instruction `in`, or NULL (run its handler). */
const jit_form *jit_form_of(const insn *in);

#endif
