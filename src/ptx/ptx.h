/* ptx.h: the PTX front end's interface. ptx_parse() turns PTX text into a
 * ptx_module: directives, variables, functions and their statements, with the
 * source position of everything and the .loc debug line of each instruction.
 * The parser checks syntax only; opcode and operand meaning are the decoder's
 * business (src/ir/). All memory of a module lives in one arena. */
#ifndef SMEMU_PTX_H
#define SMEMU_PTX_H

#include <stddef.h>
#include <stdint.h>

/* State spaces. */
enum ptx_space {
  PTX_SPACE_NONE = 0,
  PTX_SPACE_REG,
  PTX_SPACE_SREG,
  PTX_SPACE_CONST,
  PTX_SPACE_GLOBAL,
  PTX_SPACE_LOCAL,
  PTX_SPACE_PARAM,
  PTX_SPACE_SHARED,
  PTX_SPACE_TEX,
  PTX_SPACE_GENERIC,
  PTX_SPACE_SHARED_CLUSTER /* .shared::cluster (instructions only; exec/cluster.h) */
};

/* Fundamental types, as written in declarations (.b32, .f16x2, .pred ...). */
enum ptx_type {
  PTX_T_NONE = 0,
  PTX_T_B8,
  PTX_T_B16,
  PTX_T_B32,
  PTX_T_B64,
  PTX_T_B128,
  PTX_T_U8,
  PTX_T_U16,
  PTX_T_U32,
  PTX_T_U64,
  PTX_T_S8,
  PTX_T_S16,
  PTX_T_S32,
  PTX_T_S64,
  PTX_T_F16,
  PTX_T_F16X2,
  PTX_T_BF16,
  PTX_T_BF16X2,
  PTX_T_F32,
  PTX_T_F64,
  PTX_T_PRED,
  PTX_T_U16X2,
  PTX_T_S16X2, /* packed 16-bit integer pairs (add, min, max) */
  PTX_T_COUNT
};

enum ptx_linkage { PTX_LINK_NONE = 0, PTX_LINK_VISIBLE, PTX_LINK_EXTERN, PTX_LINK_WEAK, PTX_LINK_COMMON };

/* A position in the PTX text: 1-based line and column. */
typedef struct ptx_pos {
  uint32_t line;
  uint32_t col;
} ptx_pos;

/* An address in a variable's initializer: at byte `offset` of the variable,
 * store the address of `symbol` plus `addend` (generic(sym) sets generic). */
typedef struct ptx_reloc {
  uint64_t offset;    /* byte offset inside the variable */
  const char *symbol; /* symbol whose address is stored */
  int64_t addend;     /* added to the address */
  int size;           /* bytes stored: 4 or 8 */
  int generic;        /* 1 for generic(sym) */
} ptx_reloc;

/* A variable or parameter declaration: .global/.shared/.const/.local/.param. */
typedef struct ptx_var {
  const char *name;   /* identifier */
  int space;          /* enum ptx_space */
  int type;           /* enum ptx_type of one element (.u64 for .texref & co) */
  int vec;            /* 1, 2 or 4 (.v2/.v4) */
  int align;          /* .align N, or 0 when not given */
  uint64_t nelems;    /* array elements (product of all dimensions); 1 for a scalar */
  int is_array;       /* declared with [] */
  int unsized;        /* declared with an empty [] (extern shared arrays) */
  int linkage;        /* enum ptx_linkage */
  int ptr_space;      /* .ptr .global/.shared/... on a kernel parameter, else 0 */
  int ptr_align;      /* .ptr .align N on a kernel parameter, else 0 */
  int managed;        /* .attribute(.managed): a __managed__ variable */
  int opaque;         /* 1 .texref, 2 .samplerref, 3 .surfref (then type is .u64:
                         the variable holds the object handle bound to it) */
  uint8_t *init;      /* initializer bytes (little-endian), or NULL */
  uint64_t init_size; /* bytes in init (may be less than the variable's size) */
  ptx_reloc *relocs;  /* addresses in the initializer */
  int nrelocs;        /* entries in relocs */
  ptx_pos pos;        /* where the name is */
} ptx_var;

/* One register declaration: `.reg .b32 %r<12>;` gives name "%r", count 12 (the
 * registers %r0 .. %r11); `.reg .b64 %SP;` gives name "%SP", count 0. */
typedef struct ptx_regdecl {
  const char *name; /* name or prefix */
  int type;         /* enum ptx_type */
  int vec;          /* 1, 2 or 4 */
  int count;        /* 0 for a single register, N for name<N> */
  ptx_pos pos;
} ptx_regdecl;

enum ptx_opd_kind {
  PTX_OPD_REG = 1, /* name: a register or special register (%r1, %tid.x) */
  PTX_OPD_SYM,     /* name: a variable, function or label used as a value */
  PTX_OPD_INT,     /* ival: an integer literal */
  PTX_OPD_F32,     /* bits: a 0fXXXXXXXX literal (low 32 bits) */
  PTX_OPD_F64,     /* bits: a 0dXXXX... literal or a decimal floating literal */
  PTX_OPD_ADDR,    /* [name+ival] or [ival]: name is NULL for an absolute address */
  PTX_OPD_VEC,     /* {a, b, ...}: elems/nelems */
  PTX_OPD_SINK,    /* _ */
  PTX_OPD_LIST     /* (a, b, ...) in call: elems/nelems */
};

/* An operand. `neg` is set for !%p; `pair` is the second name of %r|%p
 * (shfl, setp with two results) and otherwise NULL. */
typedef struct ptx_operand {
  int kind;                  /* enum ptx_opd_kind */
  int neg;                   /* logical negation (!%p) */
  const char *name;          /* REG, SYM, ADDR base (may be NULL for ADDR) */
  const char *pair;          /* %a|%b: the name after | */
  int64_t ival;              /* INT value, ADDR offset, SYM offset (mov d, var+8) */
  uint64_t bits;             /* F32/F64 bit pattern */
  struct ptx_operand *elems; /* VEC / LIST elements; ADDR: items after the first of [tex, smp, {x, y}] */
  int nelems;                /* entries in elems */
  ptx_pos pos;               /* where the operand starts */
} ptx_operand;

/* A source line reference from .loc: file index, line, column; line 0 when
 * unknown. inl_* give the location this one was inlined at (0 if none). */
typedef struct ptx_loc {
  uint32_t file, line, col;
  uint32_t inl_file, inl_line, inl_col;
  uint32_t frame; /* with inlined_at: 1 + its index in ptx_module.inl; else 0 */
} ptx_loc;

/* A position inside an inlined function (a .loc with inlined_at): the
 * function (function_name, resolved through .debug_str) and where it was
 * called, itself inside the inlined function `parent` (1 + index in
 * ptx_module.inl), or inside the function being compiled (0). */
typedef struct ptx_inline {
  uint32_t file, line;           /* the position (.loc FILE LINE) */
  const char *func;              /* the inlined function's (mangled) name, or NULL */
  uint32_t call_file, call_line; /* inlined_at FILE LINE */
  uint32_t parent;               /* the caller's own inline position, or 0 */
} ptx_inline;

/* A statement of a function body: a label or an instruction. For an
 * instruction, `opcode` is the first dotted word ("ld") and `mods` the rest
 * ("global", "nc", "v4", "f32") in order. Call operands: for
 * `call.uni (r), f, (a, b);` the operands are LIST(r), SYM f, LIST(a, b);
 * for `call f, (a);` SYM f, LIST(a); for `call f;` just SYM f.
 * `t: .branchtargets L1, L2;` (and .calltargets) is a statement with opcode
 * ".branchtargets" and operands SYM t, SYM L1, SYM L2. */
typedef struct ptx_stmt {
  const char *label;  /* non-NULL for a label statement */
  const char *guard;  /* predicate register of @%p / @!%p, or NULL */
  int guard_neg;      /* 1 for @!%p */
  const char *opcode; /* instruction name */
  const char **mods;  /* modifiers without the dots */
  int nmods;          /* entries in mods */
  ptx_operand *ops;   /* operands */
  int nops;           /* entries in ops */
  ptx_loc loc;        /* the last .loc before this statement */
  ptx_pos pos;        /* where the statement starts in the PTX text */
} ptx_stmt;

/* A .entry or .func. Variables declared in the body (.shared, .local, .param
 * inside call sequences, .reg) are collected flat; `{ }` scopes are not kept. */
typedef struct ptx_func {
  const char *name;
  int is_entry;    /* .entry (kernel) rather than .func */
  int linkage;     /* enum ptx_linkage */
  int has_body;    /* 0 for a declaration (prototype) only */
  ptx_var *params; /* parameters, in order */
  int nparams;
  ptx_var *rets; /* return parameters of a .func */
  int nrets;
  ptx_regdecl *regs; /* .reg declarations */
  int nregs;
  ptx_var *vars; /* .shared/.local/.param/.const/.global declared in the body */
  int nvars;
  ptx_stmt *body; /* statements */
  int nbody;
  uint32_t maxntid[3];     /* .maxntid, 0 when absent */
  uint32_t reqntid[3];     /* .reqntid, 0 when absent */
  uint32_t minnctapersm;   /* .minnctapersm, 0 when absent */
  uint32_t reqncluster[3]; /* .reqnctapercluster, 0 when absent */
  uint32_t maxclusterrank; /* .maxclusterrank, 0 when absent */
  int explicit_cluster;    /* .explicitcluster */
  uint32_t maxnreg;        /* .maxnreg, 0 when absent */
  int noreturn;            /* .noreturn */
  ptx_pos pos;
  const char *alias_of; /* `.alias NAME, TARGET;`: TARGET on the function NAME, else NULL */
} ptx_func;

/* A .file directive. */
typedef struct ptx_file {
  uint32_t index;   /* the number used by .loc */
  const char *path; /* file name as written */
} ptx_file;

typedef struct ptx_module {
  const char *filename; /* the name given to ptx_parse, for messages */
  int version_major, version_minor;
  const char *target;      /* first .target word: "sm_90", "sm_20"; NULL when absent */
  int texmode_independent; /* .target ..., texmode_independent */
  int address_size;        /* 32 or 64 (64 when absent) */
  ptx_var *vars;           /* module-scope variables, in order */
  int nvars;
  ptx_func *funcs; /* functions, in order (declarations included) */
  int nfuncs;
  ptx_file *files; /* .file directives */
  int nfiles;
  ptx_inline *inl; /* the inlined positions .loc names (ptx_loc.frame) */
  int ninl;
  void *arena; /* owns all memory of the module */
} ptx_module;

/* Bytes of one element of a type (PTX_T_PRED: 1; PTX_T_B128: 16). */
int ptx_type_size(int type);
/* The type's name without the dot ("u32"), or "?" */
const char *ptx_type_name(int type);
/* A type from its name without the dot, or PTX_T_NONE. */
int ptx_type_from_name(const char *s);

/* Parse `len` bytes of PTX. On success *out gets the module and 0 is
 * returned; on error, -1 is returned, *out is NULL and err gets
 * "FILE:LINE:COL: message" (NUL-terminated, truncated to errsize). Never
 * crashes or loops on any input. */
int ptx_parse(const char *text, size_t len, const char *filename, ptx_module **out, char *err,
              size_t errsize);
void ptx_free(ptx_module *m);

#endif
