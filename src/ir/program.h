/* program.h: the decoded form of a kernel, built once at module load.
 * The PTX of a kernel and every .func it reaches becomes one array of
 * compact instructions with resolved operands; handlers never see text.
 *
 * Register file of a function frame (per warp, lane-major, 64 bits a slot):
 *
 *   slot 0 .. SR_COUNT-1     special registers (%tid.x ... filled per warp)
 *   slot SR_COUNT ..         declared registers, in declaration order
 *   then                     constants: every immediate operand, deduplicated,
 *                            stored already converted to its operand type
 *
 * Predicates live apart, as one 32-bit lane mask each (pred index space),
 * with two constant predicates: PRED_TRUE and PRED_FALSE.
 *
 * Instruction (struct insn):
 *   fn      handler, chosen at decode for (opcode, types, modifiers)
 *   op      OP_* from ops.def           type/type2  PTX_T_* of the operands
 *   mode    rounding / comparison / atomic / shuffle mode (family-defined)
 *   flags   IF_* bits                    space       PTX_SPACE_* of memory ops
 *   vec     1, 2 or 4 elements           guard       predicate index or -1
 *   d a b c register (or predicate) indices of destination and sources
 *   v[4]    vector element registers     imm         address offset, or a
 *   target  branch target / callee       rpc         reconvergence pc
 *   src     index into program.lines (source location) */
#ifndef SMEMU_PROGRAM_H
#define SMEMU_PROGRAM_H

#include "ptx/ptx.h"
#include <stdint.h>

struct warp;
struct insn;
typedef void (*exec_fn)(struct warp *w, const struct insn *in, uint32_t mask);

/* Opcode flags. */
enum {
  OPF_MEM = 1 << 0,    /* accesses memory */
  OPF_READ = 1 << 1,   /* reads memory */
  OPF_WRITE = 1 << 2,  /* writes memory */
  OPF_ATOMIC = 1 << 3, /* atomic read-modify-write */
  OPF_BRANCH = 1 << 4, /* changes pc */
  OPF_CALL = 1 << 5,
  OPF_RET = 1 << 6,
  OPF_EXIT = 1 << 7,
  OPF_BARRIER = 1 << 8, /* block-level barrier */
  OPF_FENCE = 1 << 9,
  OPF_WARP = 1 << 10 /* warp-level collective */
};

enum {
#define OP(id, name, dec, flags) OP_##id,
#include "ir/ops.def"
#undef OP
  OP_COUNT,
  /* internal operations the decoder adds */
  OP_RDCLOCK = OP_COUNT, /* read %clock / %clock64 / %globaltimer */
  OP_LOCALADDR,          /* address of a .local symbol in the current frame */
  OP_NOP,
  OP_ALL
};

extern const char *const op_names[OP_ALL];
extern const uint32_t op_flags[OP_ALL];

/* Instruction flag bits (insn.flags). */
enum {
  IF_FTZ = 1 << 0,
  IF_SAT = 1 << 1,
  IF_FRAME = 1 << 2, /* address is relative to the frame's local base */
  IF_UNI = 1 << 3,   /* .uni branch */
  IF_SIGNED = 1 << 4,
  IF_APPROX = 1 << 5,
  IF_NEGC = 1 << 6,  /* negate the predicate operand c (setp ... !%p) */
  IF_KPARAM = 1 << 7 /* ld.param from the kernel's parameter buffer */
};

/* Special register slots. */
enum {
  SR_TID_X,
  SR_TID_Y,
  SR_TID_Z,
  SR_NTID_X,
  SR_NTID_Y,
  SR_NTID_Z,
  SR_CTAID_X,
  SR_CTAID_Y,
  SR_CTAID_Z,
  SR_NCTAID_X,
  SR_NCTAID_Y,
  SR_NCTAID_Z,
  SR_LANEID,
  SR_WARPID,
  SR_NWARPID,
  SR_SMID,
  SR_NSMID,
  SR_GRIDID,
  SR_LANEMASK_EQ,
  SR_LANEMASK_LT,
  SR_LANEMASK_LE,
  SR_LANEMASK_GT,
  SR_LANEMASK_GE,
  SR_DYN_SMEM,
  SR_TOTAL_SMEM,
  SR_AGGR_SMEM,
  SR_RSV_BEGIN,
  SR_RSV_END,
  SR_RSV_CAP, /* %reserved_smem_offset_* */
  SR_RSV_OFF, /* %reserved_smem_offset_0 and _1 */
  SR_ZERO,
  SR_ONE,
  SR_ENVREG1, /* the grid workspace of a cooperative launch: high word */
  SR_ENVREG2, /* and low word */
  /* thread-block clusters (exec/cluster.c) */
  SR_CLUSTER_CTAID_X,
  SR_CLUSTER_CTAID_Y,
  SR_CLUSTER_CTAID_Z,
  SR_CLUSTER_NCTAID_X,
  SR_CLUSTER_NCTAID_Y,
  SR_CLUSTER_NCTAID_Z,
  SR_CLUSTER_CTARANK,
  SR_CLUSTER_NCTARANK,
  SR_CLUSTERID_X,
  SR_CLUSTERID_Y,
  SR_CLUSTERID_Z,
  SR_NCLUSTERID_X,
  SR_NCLUSTERID_Y,
  SR_NCLUSTERID_Z,
  SR_COUNT
};

/* PRED_EXPLICIT: %is_explicit_cluster, set per warp from the launch */
enum {
  PRED_TRUE = 0,
  PRED_FALSE = 1,
  PRED_SINK = 2,
  PRED_CARRY = 3,
  PRED_SCRATCH = 4,
  PRED_EXPLICIT = 5,
  PRED_FIRST = 6
};
/* Register slot that swallows `_` destinations. */
#define SLOT_SINK SR_COUNT
#define SLOT_FIRST (SR_COUNT + 1)
#define NO_RPC 0xffffffffu
/* A bra whose edge leaves a loop from inside its body (a `break`; ir/cfg.c)
 * has mode BRA_BREAK_TAKEN or BRA_BREAK_FALL (which edge) and v[0], v[1]
 * the first and last pc of the loop: the lanes that take that edge wait at
 * its target for the rest of the loop's lanes (exec/ctrl.c). */
enum { BRA_BREAK_TAKEN = 1, BRA_BREAK_FALL = 2, BRA_BREAK = 3 };
/* mode bit of a loop's backward bra whose body retries a shared CAS or
 * exchange or polls shared memory (ir/contention.c): a warp ends its turn
 * there (exec/contend.c) */
enum { BRA_CONTENDED = 4 };
/* with BRA_CONTENDED: the loop only polls (no CAS or exchange in it) */
enum { BRA_POLL = 8 };
/* The value of a function's address (mov.u64 %rd, f): this plus the
 * function's index in the module (exec/icall.c). */
#define FUNC_ADDR_BASE 0xffffb00000000000ull

typedef struct insn {
  exec_fn fn;          /* handler */
  uint16_t op;         /* OP_* */
  uint8_t type;        /* main operand type */
  uint8_t type2;       /* second type (cvt source, set result ...) */
  uint8_t mode;        /* family-defined mode */
  uint8_t flags;       /* IF_* */
  uint8_t space;       /* PTX_SPACE_* of a memory operation */
  uint8_t vec;         /* vector elements of ld/st/mov */
  int32_t guard;       /* predicate index, or -1 when unguarded */
  uint32_t guard_xor;  /* 0 or ~0: xor applied to the guard mask (@!%p) */
  uint32_t d, a, b, c; /* operand registers / predicates */
  uint32_t d2;         /* second destination (predicate) or ~0u */
  uint32_t v[4];       /* vector elements */
  int64_t imm;         /* address offset / small immediate */
  uint32_t target;     /* branch target pc, callee function index */
  uint32_t rpc;        /* reconvergence pc of a branch, or NO_RPC */
  uint32_t src;        /* index into program.lines */
  uint8_t merge;       /* 2 or 4: first of a group ptxas merges (merge.c);
                          MERGE_FOLLOW: counted with that first; 0: alone */
  uint8_t atom_form;   /* shared atomics: ATOMSEL_* form ptxas gives it (model/atomsel.h) */
  uint8_t usect;       /* 1 + index into program.usects: the loop body this access
                          belongs to runs in ptxas's re-unrolled sections; 0: no */
  uint8_t gen_atom;    /* 1: a generic atom/red that is a generic ATOM/RED in the SASS
                          (src/sass): one shared-pipe wavefront even when no lane
                          reaches shared memory (measured, tests/hw/sass_programs) */
} insn;

/* A source location an instruction maps to. */
typedef struct src_line {
  const char *text;   /* the instruction as written ("ld.global.u32") */
  uint32_t ptx_line;  /* line in the PTX text */
  uint32_t file;      /* index into program.files, or ~0u when none */
  uint32_t line, col; /* user source position (outermost inlined_at) */
  uint32_t frame;     /* inside inlined functions: 1 + index in program.inl of
                         the innermost position (file, line, function); 0: none */
} src_line;

/* A variable placed in a memory space, for reports ("s + 12"). */
typedef struct placed_var {
  const char *name;
  int space;     /* PTX_SPACE_* */
  uint64_t addr; /* shared offset, host address, or frame offset */
  uint64_t size; /* bytes; for the dynamic array, 0 */
  int dynamic;   /* the extern (dynamic) shared array */
} placed_var;

/* A decoded function (the kernel is function 0). */
typedef struct func_info {
  const char *name;
  uint32_t entry;   /* pc of the first instruction */
  uint32_t end;     /* one past the last instruction */
  uint32_t nregs;   /* register slots of a frame (specials+declared+consts) */
  uint32_t npreds;  /* predicate slots of a frame */
  uint64_t *consts; /* values of constant slots [nregs - nconsts, nregs) */
  uint32_t nconsts;
  uint32_t frame_bytes; /* local memory of a frame: depot, params, call params */
  uint32_t param_off;   /* frame offset of the formal parameters */
  uint32_t ret_off;     /* frame offset of the return parameters */
  uint32_t nparams, nrets;
  uint32_t *param_offs; /* frame offsets of each formal parameter */
  uint32_t *param_sizes;
  uint32_t *ret_offs;
  uint32_t *ret_sizes;
  int builtin; /* BUILTIN_* for vprintf/__assertfail, else 0 */
} func_info;

/* BUILTIN_DEVRT: a device runtime function (dynamic parallelism) the host
 * side answers through the context's device-call hook (exec/devcall.c);
 * BUILTIN_DEVRT_MALLOC/FREE: the device runtime's cudaMalloc/cudaFree, on
 * the device heap as malloc/free. */
enum {
  BUILTIN_NONE,
  BUILTIN_VPRINTF,
  BUILTIN_ASSERTFAIL,
  BUILTIN_MALLOC,
  BUILTIN_FREE,
  BUILTIN_DEVRT,
  BUILTIN_DEVRT_MALLOC,
  BUILTIN_DEVRT_FREE
};

typedef struct kparam {
  const char *name;
  uint32_t offset, size, align;
  int is_pointer;
  int is_local; /* .ptr .shared: shared bytes sized at launch */
} kparam;

/* An argument or result of a call: bytes in the caller's frame (a .param
 * variable) or a register slot. */
typedef struct call_arg {
  uint32_t is_reg; /* 1: register slot, 0: caller frame offset */
  uint32_t where;  /* slot or frame offset */
  uint32_t size;   /* bytes */
} call_arg;

typedef struct call_info {
  call_arg *args; /* in order of the callee's parameters */
  uint32_t nargs;
  call_arg *rets;
  uint32_t nrets;
} call_info;

/* How ptxas unrolled a PTX loop body again (src/sass): the
 * body's shared accesses run in sections of m[i] bodies, in this order; a
 * section that loops takes as many of a lane's remaining bodies as fit, the
 * others take m[i] bodies once when that many remain (each lane greedily,
 * the warp runs a section while any lane is in it). The bank model records
 * the body's accesses per warp and counts them in that order when the loop
 * instance ends (check/analysis.c); it assumes each lane runs every access
 * of the body once per iteration, and counts in PTX order where the
 * records say otherwise. Measured: tests/programs hist_used (H100). */
#define USECT_MAX 8
typedef struct unroll_sect {
  uint8_t n;               /* sections */
  uint8_t m[USECT_MAX];    /* bodies per section */
  uint8_t loop[USECT_MAX]; /* 1: the section loops */
} unroll_sect;

/* A shared load ptxas sinks past a conditional exit (src/sass/regload.c):
 * the SASS runs it after `@P EXIT`, for the lanes that stay, where the PTX
 * loads before the branch that leaves. The exit's condition, compared at
 * the load from registers that already hold its operands, picks them. */
enum { SINK_EQ = 0, SINK_NE, SINK_LT, SINK_LE, SINK_GT, SINK_GE };
typedef struct load_sink {
  uint32_t pc;    /* the load */
  uint32_t ra;    /* the condition's first operand is ra + oa (slots) */
  uint32_t rb;    /* and its second rb + ob */
  int64_t oa, ob; /* (added in wa, wb bytes, then extended: sa, sb signed) */
  uint8_t wa, wb, sa, sb;
  uint8_t cmp;   /* SINK_*: a (cmp) b */
  uint8_t sgn;   /* 1: signed comparison */
  uint8_t bytes; /* operand size: 2, 4 or 8 */
  uint8_t leave; /* the lanes leave when the comparison is this (0 or 1) */
} load_sink;

/* A decoded kernel. */
typedef struct program {
  const char *name; /* mangled name */
  insn *code;       /* instructions of all functions */
  uint32_t ncode;
  func_info *funcs; /* [0] is the kernel */
  uint32_t nfuncs;
  src_line *lines; /* source locations */
  uint32_t nlines;
  const char **files; /* source file paths (from .file) */
  uint32_t nfiles;
  const struct ptx_inline *inl; /* inlined positions (the module's; src_line.frame) */
  uint32_t ninl;
  kparam *params; /* kernel parameters */
  uint32_t nparams;
  uint32_t param_bytes;    /* size of the parameter buffer */
  uint32_t smem_reserved;  /* reserved shared bytes at offset 0 */
  uint32_t smem_lo;        /* the lowest shared offset the kernel may address:
                            * smem_reserved, or 0 when it reads
                            * %reserved_smem_offset_0/1 (README: reserved
                            * shared memory) */
  uint32_t smem_static;    /* static shared bytes (after the reserved ones) */
  uint32_t smem_dyn_align; /* alignment of the dynamic array */
  placed_var *vars;        /* shared and global variables, for reports */
  uint32_t nvars;
  uint32_t reqntid[3], maxntid[3];
  uint32_t reqncluster[3]; /* .reqnctapercluster, 0 when absent */
  uint32_t maxclusterrank; /* .maxclusterrank, 0 when absent */
  int explicit_cluster;    /* .explicitcluster: launched only with cluster dimensions */
  call_info *calls;        /* call sites; insn.imm indexes it */
  uint32_t ncalls;
  uint32_t *xslots; /* operand slot lists of instructions with more
                       operands than an insn holds (mma: D, A, B, C);
                       such an insn's imm indexes the first */
  uint32_t nxslots;
  uint32_t max_regs;   /* largest frame register count */
  uint32_t max_preds;  /* largest frame predicate count */
  int has_calls;       /* any call instruction */
  int contended;       /* a loop retries a shared CAS or exchange or polls
                          shared memory (ld.volatile/.relaxed/.acquire): its
                          backward bra has BRA_CONTENDED (ir/contention.c) */
  uint8_t *reread;     /* per pc: 1 for a CAS in a loop that also polls
                          shared memory (ir/contention.c; the warp ends its
                          turn before it, exec/contend.c), or NULL: none */
  exec_fn *wg_orig;    /* per pc: the handler of an instruction that may
                          touch a wgmma register (wgmma.c guards it), or
                          NULL; the array is NULL without wgmma */
  unroll_sect *usects; /* re-unrolled loop bodies (insn.usect), from the SASS */
  uint32_t nusects;
  load_sink *sinks; /* loads the SASS runs after a conditional exit, in pc order */
  uint32_t nsinks;
} program;

#endif
