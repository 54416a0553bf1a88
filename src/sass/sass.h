/* sass.h: the shared-memory instructions of a kernel's SASS, read from
 * NVIDIA's disassembler (nvdisasm -c -gi), and their mapping onto the PTX
 * accesses smemu executes, to count what the hardware executes.
 *
 * Nsight Compute counts SASS instructions; smemu runs PTX. ptxas merges
 * scalar accesses into LDS.64/.128, turns atomics into POPC.INC reductions,
 * warp-aggregated adds or CAS loops. With the disassembly at hand, the
 * grouping the hardware executes is read rather than guessed: per source
 * line, the PTX shared accesses are matched with the SASS ones and the
 * decoder's marks (insn.merge, insn.atom_form) are set from the SASS; the
 * bank model then counts each SASS instruction with the PTX lanes' real
 * addresses. Lines whose mapping is ambiguous keep the PTX-level marks. */
#ifndef SMEMU_SASS_H
#define SMEMU_SASS_H
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* Instruction classes. */
enum {
  SASS_LD = 0, /* LDS, LDSM; LD (generic) */
  SASS_ST,     /* STS, STSM; ST (generic) */
  SASS_ATOM,   /* ATOMS; ATOM, RED (generic) */
  SASS_VOTE,   /* VOTE/VOTEU (warp aggregation marker) */
  SASS_OTHER
};

/* ATOMS variants. */
enum { SASS_AT_PLAIN = 0, SASS_AT_POPC_INC, SASS_AT_CAST_SPIN, SASS_AT_CAS };

typedef struct sass_insn {
  uint32_t addr;  /* offset in the function */
  int cls;        /* SASS_* */
  int variant;    /* ATOMS/ATOM: SASS_AT_*; LDSM/STSM: 1 */
  int gen;        /* 1: a generic-address LD/ST/ATOM/RED (not LDS/STS/ATOMS) */
  int bytes;      /* bytes per lane (1..16); LDSM/STSM: matrices (1, 2, 4) */
  int block;      /* basic block index in the function */
  int after_exit; /* 1: its block follows a predicated EXIT (`@P1 EXIT`) */
  int file;       /* index into sass_func.files, -1 without line info */
  uint32_t line;  /* outermost source line (the "inlined at" one), 0 none */
  char text[80];  /* the opcode with its modifiers, e.g. "STS.128" */
} sass_insn;

typedef struct sass_func {
  char *name;     /* mangled function name */
  sass_insn *ins; /* shared-memory instructions and votes, in address order */
  int n, cap;
  int nblocks;
  uint8_t *selfloop; /* per block (nloop entries): 1 when it branches back to its start */
  int nloop;
} sass_func;

typedef struct sass_text {
  sass_func *funcs;
  int nfuncs;
  char **files; /* file names seen in line info */
  int nfiles;
} sass_text;

/* Parses nvdisasm output (any of -c, -g, -gi). Returns 0, or -1 when out of
 * memory; text that is not SASS yields no functions. */
int sass_parse(const char *text, size_t len, sass_text *out);
void sass_free(sass_text *s);
const sass_func *sass_find(const sass_text *s, const char *name);
/* Whether basic block `block` of f loops onto itself. */
int sass_block_loops(const sass_func *f, int block);

#endif

/* ---- mapping (map.c) ---- */
struct program;

/* What the mapping did to each PTX shared access of the kernel. */
enum { SASS_MAP_NONE = 0, SASS_MAP_AGREE, SASS_MAP_SET, SASS_MAP_FALLBACK };

typedef struct sass_map {
  uint8_t *status;       /* per pc: SASS_MAP_* (malloc'd, program ncode entries) */
  char (*op)[24];        /* per pc: the SASS instruction it maps to ("LDS.128"), or "" */
  int accesses;          /* PTX shared accesses of the kernel, and generic
                            ones the SASS keeps generic or makes shared */
  int agree;             /* whose PTX-level grouping the SASS confirmed */
  int set;               /* whose grouping/form was changed to the SASS's */
  int fallback;          /* counted by PTX rules: the mapping was ambiguous */
  int approx;            /* mapped by the SASS's widths where its instruction
                            counts differ from the PTX's (a subset of set
                            and agree) */
  uint32_t fb_lines[16]; /* first fallback source lines (file << 20 | line in
                            the program's numbering), for the report */
  int nfb_lines;
} sass_map;

/* Maps the shared (and generic) accesses of P's kernel (function 0) onto F
 * (its SASS, from S), and those of the functions it calls onto their own
 * SASS function in S or, where ptxas inlined them, onto F; sets
 * insn.merge / insn.atom_form / insn.gen_atom where the SASS says so.
 * Returns 0, or -1 when out of memory (P is then unchanged). */
int sass_apply(struct program *P, const sass_text *S, const sass_func *F, sass_map *out);
void sass_map_free(sass_map *m);
/* The SASS instruction pc maps to, or NULL. */
const char *sass_op_of(const sass_map *m, uint32_t pc);

/* ---- the toolchain (tool.c) ---- */

/* The disassembly (nvdisasm -c -gi -ndf) of `ptx` compiled by ptxas for `arch`
 * ("sm_90"; NULL: sm_90) with line info, both cached under
 * $SMEMU_CACHE, else $XDG_CACHE_HOME/smemu, else ~/.cache/smemu, keyed by a
 * hash of the text and the architecture. Returns malloc'd text (*len
 * bytes), or NULL with err set (a tool missing or failing). A tool that
 * fails is run again (3 tries in all, see run()); *broken (may be NULL) is
 * set when one was found but failed every time, 0 when one is missing. */
char *sass_from_ptx(const char *ptx, size_t len, const char *arch, size_t *out_len, char *err, size_t errsz,
                    int *broken);
/* The same for a cubin image. */
char *sass_from_cubin(const void *cubin, size_t len, size_t *out_len, char *err, size_t errsz, int *broken);
/* What sass_from_cubin and sass_from_ptx read from the environment and
 * the file system, taken at once (the tools to run, the cache directory,
 * created, and a copy of the environment for the tools), so that the
 * _with forms can run on another thread while the program changes its
 * environment. */
typedef struct sass_tools {
  char nvdisasm[PATH_MAX]; /* "" when none is found */
  char ptxas[PATH_MAX];    /* "" when none is found */
  char dir[PATH_MAX - 64];
  int dir_ok;  /* dir exists */
  char **envp; /* malloc'd copy of environ */
} sass_tools;
/* 0, or -1 when out of memory. */
int sass_tools_get(sass_tools *t);
void sass_tools_free(sass_tools *t);
char *sass_from_ptx_with(const sass_tools *t, const char *ptx, size_t len, const char *arch, size_t *out_len,
                         char *err, size_t errsz, int *broken);
char *sass_from_cubin_with(const sass_tools *t, const void *cubin, size_t len, size_t *out_len, char *err,
                           size_t errsz, int *broken);
/* The nvdisasm to run: $SMEMU_NVDISASM, the PATH, the CUDA toolkit
 * (/usr/local/cuda/bin), or the PyPI wheel installed into the build tree
 * (scripts/deps.sh: build/pydeps). NULL when none is found; the string is
 * static. */
const char *sass_nvdisasm(void);
