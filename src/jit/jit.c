/* jit.c: the compiled tier's code generator (jit.h). For each straight-line
 * run of a kernel's instructions (no branch, call, return, exit or barrier
 * inside) it emits one LLVM function working on the 32 lanes of a warp as
 * vectors: native code for the forms of forms.h, a call to the interpreter
 * handler for every other instruction (with the warp's counters and pcs
 * set as warp_run sets them), and compiles the kernel's functions with
 * LLVM's ORC JIT. Register slots stay in the warp's register file, so the
 * interpreter and the compiled code can take turns at any region edge. */
#include "jit/jit.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef SMEMU_HAVE_JIT

int jit_available(void) { return 0; }
jit_code *jit_compile(const program *P, int hooked, char *why, size_t n) {
  (void)P;
  (void)hooked;
  snprintf(why, n, "this build has no compiled tier (LLVM 19 was not found)");
  return NULL;
}
void jit_free(jit_code *J) { (void)J; }
int jit_cached(const program *P, int hooked) {
  (void)P;
  (void)hooked;
  return 0;
}

#else

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "exec/fpsem.h"
#include "exec/hooks.h"
#include "ir/merge.h"
#include "jit/forms.h"
#include "jit/jcache.h"
#include "jit/llvm_dl.h"
#include "mem/mem.h"

int jit_available(void) { return llvm_dl_present(); }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the process's JIT ---- */
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef lljit;
static LLVMTargetMachineRef host_tm, obj_tm;
static uint64_t host_id;       /* build, host CPU, code generation level */
static int no_disk_cache;

#define FNV_INIT 0xcbf29ce484222325ull
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}
static int32_t global_ok(warp *w, uint64_t lo, uint64_t hi, int32_t write);
static int jit_failed;

/* Code generation level (SMEMU_JIT_OPT, default 2): 0 saves little
 * compile time here and its code runs about 1.6 times slower. */
static int opt_level(void) {
  const char *ol = getenv("SMEMU_JIT_OPT");
  return ol && *ol >= '0' && *ol <= '3' ? *ol - '0' : 2;
}

/* What compiled code depends on besides the program (the disk cache's key),
 * found without loading LLVM, because the cache is looked up at launches
 * that may compile nothing: the host CPU as /proc/cpuinfo describes it
 * (vendor, family, model, stepping and flags, which LLVM's host CPU name
 * and features are derived from), the LLVM library, the code generation
 * level and this build of smemu. Without a way to tell this build or CPU
 * from another there is no disk cache. Under jit_lock. */
static void host_ident(void) {
  static int done;
  if (done) return;
  done = 1;
  static const char *const keep[] = {"vendor_id", "cpu family", "model", "stepping", "flags",
                                     "CPU implementer", "CPU architecture", "CPU variant", "CPU part", "Features"};
  uint64_t h = FNV_INIT;
  char line[16384];
  int lines = 0, lvl = opt_level();
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && fgets(line, sizeof line, f) && line[0] != '\n')
    for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
      if (!strncmp(line, keep[i], strlen(keep[i]))) {
        h = fnv(h, line, strlen(line));
        lines++;
        break;
      }
  if (f) fclose(f);
  h = fnv(h, SMEMU_LLVM_LIB, sizeof SMEMU_LLVM_LIB);
  h = fnv(h, &lvl, sizeof lvl);
  Dl_info di;
  struct stat sb;
  if (lines && dladdr((void *)(uintptr_t)jit_compile, &di) && di.dli_fname && stat(di.dli_fname, &sb) == 0) {
    h = fnv(h, di.dli_fname, strlen(di.dli_fname) + 1);
    h = fnv(h, &sb.st_size, sizeof sb.st_size);
    h = fnv(h, &sb.st_mtim, sizeof sb.st_mtim);
    h = fnv(h, &sb.st_ino, sizeof sb.st_ino);
  } else {
    no_disk_cache = 1;
  }
  host_id = h;
}

static int jit_init(char *why, size_t n) {
  if (lljit) return 0;
  if (jit_failed) {
    snprintf(why, n, "LLVM could not start");
    return -1;
  }
  if (llvm_dl_load(why, n) < 0) {
    jit_failed = 1;
    return -1;
  }
  /* The machine schedulers cost time quadratic in a block's length and buy
   * little on out-of-order hosts; the process's LLVM is smemu's alone. */
  static const char *const argv[] = {"smemu", "-enable-misched=false", "-enable-post-misched=false",
                                     "-post-RA-scheduler=false"};
  LLVMParseCommandLineOptions(4, argv, NULL);
  int lvl = opt_level();
  char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
  LLVMTargetRef T;
  char *err = NULL;
  LLVMOrcLLJITBuilderRef jb = NULL;
  if (!LLVMGetTargetFromTriple(triple, &T, &err)) {
    host_tm = LLVMCreateTargetMachine(T, triple, cpu, feat, LLVMCodeGenLevelDefault, LLVMRelocDefault,
                                      LLVMCodeModelJITDefault);
    LLVMTargetMachineRef jtm = LLVMCreateTargetMachine(T, triple, cpu, feat, (LLVMCodeGenOptLevel)lvl,
                                                       LLVMRelocDefault, LLVMCodeModelJITDefault);
    obj_tm = LLVMCreateTargetMachine(T, triple, cpu, feat, (LLVMCodeGenOptLevel)lvl, LLVMRelocDefault,
                                     LLVMCodeModelJITDefault);
    jb = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm));
  }
  if (err) LLVMDisposeMessage(err);
  host_ident();
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(feat);
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&lljit, jb);
  if (e) {
    char *m = LLVMGetErrorMessage(e);
    snprintf(why, n, "LLVM: %s", m);
    LLVMDisposeErrorMessage(m);
    jit_failed = 1;
    lljit = NULL;
    return -1;
  }
  /* the runtime functions the code calls, by name (code from the disk
   * cache is linked against this process's addresses) */
  LLVMOrcCSymbolMapPair syms[4] = {
      {LLVMOrcLLJITMangleAndIntern(lljit, "smemu_jit_global_ok"),
       {(LLVMOrcExecutorAddress)(uintptr_t)global_ok, {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}},
      {LLVMOrcLLJITMangleAndIntern(lljit, "smemu_jit_hook_mem"),
       {(LLVMOrcExecutorAddress)(uintptr_t)hook_mem, {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}},
      {LLVMOrcLLJITMangleAndIntern(lljit, "smemu_jit_bank_masks"),
       {(LLVMOrcExecutorAddress)(uintptr_t)hook_banks_masks,
        {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}},
      {LLVMOrcLLJITMangleAndIntern(lljit, "smemu_jit_hook_pattern"),
       {(LLVMOrcExecutorAddress)(uintptr_t)hook_mem_pattern,
        {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0}}}};
  e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(lljit), LLVMOrcAbsoluteSymbols(syms, 4));
  if (e) {
    char *m = LLVMGetErrorMessage(e);
    snprintf(why, n, "LLVM: %s", m);
    LLVMDisposeErrorMessage(m);
    jit_failed = 1;
    return -1;
  }
  return 0;
}

/* ---- code generation state ----
 * Lane-local instructions run in chunks of NL lanes (vectors the host's
 * SIMD width handles directly): a run of them becomes a loop over the
 * NC chunks of the warp, each chunk doing every instruction of the run.
 * That is the interpreter's order for every value a lane can see, since
 * such an instruction reads and writes only its own lane's registers and
 * predicate bits. Memory instructions and calls see all 32 lanes at once. */
#define NL 8
#define NC (32 / NL)

typedef struct cg {
  LLVMContextRef C;
  LLVMModuleRef M;
  LLVMBuilderRef B;
  const program *P;
  const func_info *F;     /* function of the region */
  LLVMTypeRef i1, i8, i16, i32, i64, i128, ptr, v1, v8, v16, v32, v64, vf, vd, v128;
  LLVMTypeRef fn_region, fn_handler;
  LLVMValueRef fn;        /* the region function */
  LLVMValueRef w, t, r, p, tmask, cnt, ninsn0, nthread0, sp0;
  LLVMValueRef code;      /* the launch's decoded instructions */
  LLVMValueRef coff;      /* i64: byte offset of the chunk in a register slot */
  LLVMValueRef csh;       /* i32: its first lane */
  LLVMValueRef scratch;   /* where inactive lanes' stores go (16 bytes) */
  LLVMValueRef addrs;     /* [32 x i64]: the lane addresses for hook_mem */
  LLVMValueRef bonly;     /* i1: the bank model is the only analysis (hooks_banks_only) */
  LLVMValueRef gnone;     /* i1: no analysis looks at global memory (hooks_global_none) */
  LLVMValueRef banks;     /* the worker's bank_stat array (where bonly) */
  LLVMValueRef bmasks;    /* i32: hook_banks_masks (where bonly) */
  /* Lane patterns of address slots (emit_hook), shared by the hooks of one
   * fused run, which all see the slots' values at its start: pm_ok i1
   * (lane l at a0 + (l%16)*st, a1 + (l%16)*st), a0, a1, st (i64,
   * without the instruction's offset). */
  uint32_t pm_slot[8], npm;
  LLVMValueRef pm_ok[8], pm_a0[8], pm_a1[8], pm_st[8];
  int hooked;             /* the variant for launches with analyses on */
  int stats;              /* SMEMU_JIT_STATS: 2 names the handlers called */
  int nofull;             /* SMEMU_JIT_NOFULL: no full-warp bodies (full_begin) */
  LLVMBasicBlockRef part; /* in a full-warp body: the general body's start */
  int nogather;           /* fused loads are known consecutive or uniform per chunk */
  struct liveness *live;  /* of F's registers, or NULL: all live */
  uint32_t live_pc;       /* where the run being emitted ends */
  uint32_t *wreg, *wpred; /* slots / predicates written in the run being formed: == wgen */
  uint32_t wgen;
  /* Inside a chunk loop's body: each slot's current value for the chunk,
   * so that values pass in registers (a masked store followed by a load
   * of the same bytes stalls the load); valid where cgen == gen. */
  LLVMValueRef *cache;
  uint32_t *cgen, gen;
  int caching;
} cg;

static LLVMValueRef c8(cg *g, uint64_t v) { return LLVMConstInt(g->i8, v, 0); }
static LLVMValueRef c32(cg *g, uint64_t v) { return LLVMConstInt(g->i32, v, 0); }
static LLVMValueRef c64(cg *g, uint64_t v) { return LLVMConstInt(g->i64, v, 0); }

/* A pointer `off` bytes into base. */
static LLVMValueRef atv(cg *g, LLVMValueRef base, LLVMValueRef off) {
  return LLVMBuildGEP2(g->B, g->i8, base, &off, 1, "");
}
static LLVMValueRef at(cg *g, LLVMValueRef base, uint64_t off) { return atv(g, base, c64(g, off)); }
static LLVMValueRef load(cg *g, LLVMTypeRef ty, LLVMValueRef base, uint64_t off) {
  return LLVMBuildLoad2(g->B, ty, at(g, base, off), "");
}
static void store(cg *g, LLVMValueRef v, LLVMValueRef base, uint64_t off) {
  LLVMBuildStore(g->B, v, at(g, base, off));
}

/* The decoded instruction at pc, from the launch's program (no address
 * of this process is built into the code: the disk cache keeps it). */
static LLVMValueRef insn_ptr(cg *g, uint32_t pc) {
  return at(g, g->code, (uint64_t)pc * sizeof(insn));
}
/* A runtime function the JIT links by name. */
static LLVMValueRef extern_fn(cg *g, const char *name, LLVMTypeRef ft) {
  LLVMValueRef f = LLVMGetNamedFunction(g->M, name);
  return f ? f : LLVMAddFunction(g->M, name, ft);
}

/* A call of intrinsic `name` overloaded on ovl[0..novl). */
static LLVMValueRef intr(cg *g, const char *name, LLVMTypeRef *ovl, int novl, LLVMValueRef *args, int nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->M, id, ovl, (size_t)novl);
  LLVMTypeRef ft = LLVMIntrinsicGetType(g->C, id, ovl, (size_t)novl);
  return LLVMBuildCall2(g->B, ft, f, args, (unsigned)nargs, "");
}
static LLVMValueRef intr1(cg *g, const char *name, LLVMTypeRef ty, LLVMValueRef a) {
  return intr(g, name, &ty, 1, &a, 1);
}

static LLVMTypeRef vint(cg *g, int bits) {
  return bits == 1 ? g->v1 : bits == 8 ? g->v8 : bits == 16 ? g->v16 : bits == 32 ? g->v32 : bits == 64 ? g->v64 : g->v128;
}
static LLVMValueRef splat(cg *g, LLVMTypeRef vty, LLVMValueRef scalar) {
  LLVMValueRef e[NL];
  for (int i = 0; i < NL; i++) e[i] = scalar;
  if (LLVMIsConstant(scalar)) return LLVMConstVector(e, NL);
  LLVMValueRef v = LLVMBuildInsertElement(g->B, LLVMGetUndef(vty), scalar, c32(g, 0), "");
  LLVMValueRef zeros[NL];
  for (int i = 0; i < NL; i++) zeros[i] = c32(g, 0);
  return LLVMBuildShuffleVector(g->B, v, LLVMGetUndef(vty), LLVMConstVector(zeros, NL), "");
}
static LLVMValueRef vconst(cg *g, int bits, uint64_t v) {
  return splat(g, vint(g, bits), LLVMConstInt(LLVMGetElementType(vint(g, bits)), v, 0));
}
/* Lane bits (i8) as <NL x i1>, and back. */
static LLVMValueRef lanes(cg *g, LLVMValueRef m8) {
  /* (m & lane bit) != 0: a broadcast, an and and a compare, where the
   * bitcast of an i8 costs a shift and an insert per lane on AVX2 */
  LLVMValueRef e[NL];
  for (int i = 0; i < NL; i++) e[i] = LLVMConstInt(g->i32, 1u << i, 0);
  LLVMValueRef v = splat(g, g->v32, LLVMBuildZExt(g->B, m8, g->i32, ""));
  return LLVMBuildICmp(g->B, LLVMIntNE, LLVMBuildAnd(g->B, v, LLVMConstVector(e, NL), ""), vconst(g, 32, 0), "");
}
static LLVMValueRef bits_of(cg *g, LLVMValueRef v1) { return LLVMBuildBitCast(g->B, v1, g->i8, ""); }
/* This chunk's bits of a 32-lane mask. */
static LLVMValueRef chunk_bits(cg *g, LLVMValueRef m32) {
  return LLVMBuildTrunc(g->B, LLVMBuildLShr(g->B, m32, g->csh, ""), g->i8, "");
}

/* ---- register slots ---- */
static int is_const_slot(cg *g, uint32_t s) {
  return s >= g->F->nregs - g->F->nconsts && s < g->F->nregs;
}

/* Slot s as <NL x i64> for this chunk: constants and lane-invariant
 * specials folded. */
static LLVMValueRef rd(cg *g, uint32_t s) {
  if (is_const_slot(g, s)) return vconst(g, 64, g->F->consts[s - (g->F->nregs - g->F->nconsts)]);
  if (s == SR_ZERO) return vconst(g, 64, 0);
  if (s == SR_ONE) return vconst(g, 64, 1);
  if (s == SR_LANEID) {
    LLVMValueRef e[NL];
    for (int i = 0; i < NL; i++) e[i] = c64(g, (uint64_t)i);
    return LLVMBuildAdd(g->B, LLVMConstVector(e, NL), splat(g, g->v64, LLVMBuildZExt(g->B, g->csh, g->i64, "")), "");
  }
  if (g->caching && g->cgen[s] == g->gen) return g->cache[s];
  LLVMValueRef v = LLVMBuildLoad2(g->B, g->v64, atv(g, at(g, g->r, (uint64_t)s * 256), g->coff), "");
  LLVMSetAlignment(v, 8);
  if (g->caching) {
    g->cache[s] = v;
    g->cgen[s] = g->gen;
  }
  return v;
}
/* Slot s's low `bits` bits. */
static LLVMValueRef rdn(cg *g, uint32_t s, int bits) {
  LLVMValueRef v = rd(g, s);
  return bits == 64 ? v : LLVMBuildTrunc(g->B, v, vint(g, bits), "");
}
static LLVMValueRef rdf(cg *g, uint32_t s) { return LLVMBuildBitCast(g->B, rdn(g, s, 32), g->vf, ""); }
static LLVMValueRef rdd(cg *g, uint32_t s) { return LLVMBuildBitCast(g->B, rd(g, s), g->vd, ""); }

struct liveness;
static int live_at(const struct liveness *L, uint32_t pc, uint32_t s);

/* Write v (<NL x i64>) to slot s for the lanes of m8 (inside a run: to the
 * register file only where the slot is live after the run). */
static void wr(cg *g, uint32_t s, LLVMValueRef v, LLVMValueRef m8) {
  LLVMValueRef dst = atv(g, at(g, g->r, (uint64_t)s * 256), g->coff);
  if (g->caching) {
    /* the whole chunk, inactive lanes with the values they hold */
    LLVMValueRef nv = LLVMBuildSelect(g->B, lanes(g, m8), v, rd(g, s), "");
    if (live_at(g->live, g->live_pc, s)) {
      LLVMValueRef st = LLVMBuildStore(g->B, nv, dst);
      LLVMSetAlignment(st, 8);
    }
    g->cache[s] = nv;
    g->cgen[s] = g->gen;
    return;
  }
  LLVMTypeRef ovl[2] = {g->v64, g->ptr};
  LLVMValueRef args[4] = {v, dst, c32(g, 8), lanes(g, m8)};
  intr(g, "llvm.masked.store", ovl, 2, args, 4);
}
/* Zero- / sign-extend an integer vector to 64 bits and write it. */
static void wrz(cg *g, uint32_t s, LLVMValueRef v, LLVMValueRef m8) {
  if (LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(v))) < 64) v = LLVMBuildZExt(g->B, v, g->v64, "");
  wr(g, s, v, m8);
}
static void wrs(cg *g, uint32_t s, LLVMValueRef v, LLVMValueRef m8) {
  if (LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(v))) < 64) v = LLVMBuildSExt(g->B, v, g->v64, "");
  wr(g, s, v, m8);
}
static void wrf(cg *g, uint32_t s, LLVMValueRef f, LLVMValueRef m8) {
  wrz(g, s, LLVMBuildBitCast(g->B, f, g->v32, ""), m8);
}

/* Predicates: one i32 lane mask each; prd gives this chunk's bits. */
static LLVMValueRef prd32(cg *g, uint32_t i) {
  if (i == PRED_TRUE) return c32(g, FULL_MASK);
  if (i == PRED_FALSE) return c32(g, 0);
  return load(g, g->i32, g->p, (uint64_t)i * 4);
}
static LLVMValueRef prd(cg *g, uint32_t i) { return chunk_bits(g, prd32(g, i)); }
/* p[d] = (p[d] & ~m) | (v & m) on this chunk's lanes */
static void pwr(cg *g, uint32_t d, LLVMValueRef v8, LLVMValueRef m8) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef old = load(g, g->i32, g->p, (uint64_t)d * 4);
  LLVMValueRef m = LLVMBuildShl(B, LLVMBuildZExt(B, m8, g->i32, ""), g->csh, "");
  LLVMValueRef v = LLVMBuildShl(B, LLVMBuildZExt(B, v8, g->i32, ""), g->csh, "");
  LLVMValueRef keep = LLVMBuildAnd(B, old, LLVMBuildNot(B, m, ""), "");
  store(g, LLVMBuildOr(B, keep, LLVMBuildAnd(B, v, m, ""), ""), g->p, (uint64_t)d * 4);
}

/* ---- float helpers (fpsem.h semantics) ---- */
static LLVMValueRef fbits(cg *g, LLVMValueRef f) { return LLVMBuildBitCast(g->B, f, g->v32, ""); }
static LLVMValueRef ffrom(cg *g, LLVMValueRef b) { return LLVMBuildBitCast(g->B, b, g->vf, ""); }
/* .ftz: a subnormal becomes the zero of its sign */
static LLVMValueRef ftz32(cg *g, LLVMValueRef f) {
  LLVMValueRef b = fbits(g, f);
  LLVMValueRef sub = LLVMBuildICmp(g->B, LLVMIntEQ, LLVMBuildAnd(g->B, b, vconst(g, 32, 0x7f800000u), ""),
                                   vconst(g, 32, 0), "");
  return ffrom(g, LLVMBuildSelect(g->B, sub, LLVMBuildAnd(g->B, b, vconst(g, 32, 0x80000000u), ""), b, ""));
}
static LLVMValueRef fconst(cg *g, float x) { return splat(g, g->vf, LLVMConstReal(LLVMFloatTypeInContext(g->C), x)); }
static LLVMValueRef dconst(cg *g, double x) { return splat(g, g->vd, LLVMConstReal(LLVMDoubleTypeInContext(g->C), x)); }
/* .sat: NaN and x <= 0 give +0, x > 1 gives 1 */
static LLVMValueRef sat32(cg *g, LLVMValueRef f) {
  LLVMValueRef le0 = LLVMBuildFCmp(g->B, LLVMRealULE, f, fconst(g, 0.0f), ""); /* NaN or <= 0 */
  LLVMValueRef gt1 = LLVMBuildFCmp(g->B, LLVMRealOGT, f, fconst(g, 1.0f), "");
  LLVMValueRef r = LLVMBuildSelect(g->B, gt1, fconst(g, 1.0f), f, "");
  return LLVMBuildSelect(g->B, le0, fconst(g, 0.0f), r, "");
}
static LLVMValueRef isnan_v(cg *g, LLVMValueRef f) { return LLVMBuildFCmp(g->B, LLVMRealUNO, f, f, ""); }
/* bits with every NaN as the canonical NaN */
static LLVMValueRef canon32(cg *g, LLVMValueRef f) {
  return LLVMBuildSelect(g->B, isnan_v(g, f), vconst(g, 32, FP_CANON_NAN32), fbits(g, f), "");
}
static LLVMValueRef canon64(cg *g, LLVMValueRef d) {
  return LLVMBuildSelect(g->B, isnan_v(g, d), vconst(g, 64, FP_CANON_NAN64), LLVMBuildBitCast(g->B, d, g->v64, ""), "");
}

/* PTX min/max pick (fpsem.c pick): b when it comes first in -0 < +0 order,
 * the other operand when one is NaN; `both` when both are. */
static LLVMValueRef fminmax(cg *g, LLVMValueRef a, LLVMValueRef b, int want_max, LLVMValueRef both_nan_val,
                            LLVMTypeRef ity) {
  LLVMValueRef ab = LLVMBuildBitCast(g->B, a, ity, ""), bb = LLVMBuildBitCast(g->B, b, ity, "");
  LLVMValueRef x = want_max ? a : b, y = want_max ? b : a; /* b first when x < y */
  LLVMValueRef xb = want_max ? ab : bb, yb = want_max ? bb : ab;
  LLVMValueRef zero = LLVMConstNull(ity);
  LLVMValueRef lt = LLVMBuildFCmp(g->B, LLVMRealOLT, x, y, "");
  LLVMValueRef eq = LLVMBuildFCmp(g->B, LLVMRealOEQ, x, y, "");
  LLVMValueRef xneg = LLVMBuildICmp(g->B, LLVMIntSLT, xb, zero, ""), ypos = LLVMBuildICmp(g->B, LLVMIntSGE, yb, zero, "");
  LLVMValueRef bfirst = LLVMBuildOr(g->B, lt, LLVMBuildAnd(g->B, eq, LLVMBuildAnd(g->B, xneg, ypos, ""), ""), "");
  LLVMValueRef na = isnan_v(g, a), nb = isnan_v(g, b);
  LLVMValueRef pickb = LLVMBuildOr(g->B, na, LLVMBuildAnd(g->B, LLVMBuildNot(g->B, nb, ""), bfirst, ""), "");
  LLVMValueRef r = LLVMBuildSelect(g->B, pickb, bb, ab, "");
  return LLVMBuildSelect(g->B, LLVMBuildAnd(g->B, na, nb, ""), both_nan_val, r, "");
}

/* ---- instructions (one chunk; m: its lane bits) ---- */

static void emit_int(cg *g, const insn *in, const jit_form *f, LLVMValueRef m) {
  LLVMBuilderRef B = g->B;
  int n = f->bits;
  LLVMTypeRef T = vint(g, n);
  LLVMValueRef a = rdn(g, in->a, n), b, c, r;
  switch (f->jop) {
  case J_ADD: r = LLVMBuildAdd(B, a, rdn(g, in->b, n), ""); break;
  case J_SUB: r = LLVMBuildSub(B, a, rdn(g, in->b, n), ""); break;
  case J_MULLO: r = LLVMBuildMul(B, a, rdn(g, in->b, n), ""); break;
  case J_AND: r = LLVMBuildAnd(B, a, rdn(g, in->b, n), ""); break;
  case J_OR: r = LLVMBuildOr(B, a, rdn(g, in->b, n), ""); break;
  case J_XOR: r = LLVMBuildXor(B, a, rdn(g, in->b, n), ""); break;
  case J_MIN: case J_MAX: {
    b = rdn(g, in->b, n);
    LLVMIntPredicate p = f->jop == J_MIN ? (f->sgn ? LLVMIntSLT : LLVMIntULT) : (f->sgn ? LLVMIntSGT : LLVMIntUGT);
    r = LLVMBuildSelect(B, LLVMBuildICmp(B, p, a, b, ""), a, b, "");
    break;
  }
  case J_MULHI: case J_MADHI: {
    LLVMTypeRef W = vint(g, 2 * n);
    LLVMValueRef x = f->sgn ? LLVMBuildSExt(B, a, W, "") : LLVMBuildZExt(B, a, W, "");
    b = rdn(g, in->b, n);
    LLVMValueRef y = f->sgn ? LLVMBuildSExt(B, b, W, "") : LLVMBuildZExt(B, b, W, "");
    LLVMValueRef pr = LLVMBuildMul(B, x, y, "");
    r = LLVMBuildTrunc(B, LLVMBuildLShr(B, pr, splat(g, W, LLVMConstInt(LLVMGetElementType(W), (uint64_t)n, 0)), ""), T, "");
    if (f->jop == J_MADHI) r = LLVMBuildAdd(B, r, rdn(g, in->c, n), "");
    break;
  }
  case J_MULWIDE: case J_MADWIDE: {
    LLVMTypeRef W = vint(g, 2 * n);
    b = rdn(g, in->b, n);
    LLVMValueRef x = f->sgn ? LLVMBuildSExt(B, a, W, "") : LLVMBuildZExt(B, a, W, "");
    LLVMValueRef y = f->sgn ? LLVMBuildSExt(B, b, W, "") : LLVMBuildZExt(B, b, W, "");
    r = LLVMBuildMul(B, x, y, "");
    if (f->jop == J_MADWIDE) r = LLVMBuildAdd(B, r, rdn(g, in->c, 2 * n), "");
    wrz(g, in->d, r, m);
    return;
  }
  case J_MADLO:
    r = LLVMBuildAdd(B, LLVMBuildMul(B, a, rdn(g, in->b, n), ""), rdn(g, in->c, n), "");
    break;
  case J_NOT: r = LLVMBuildNot(B, a, ""); break;
  case J_NEG: r = LLVMBuildNeg(B, a, ""); break;
  case J_ABS: {
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, a, LLVMConstNull(T), "");
    r = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, a, ""), a, "");
    break;
  }
  case J_CNOT: r = LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntEQ, a, LLVMConstNull(T), ""), T, ""); break;
  case J_POPC: r = intr1(g, "llvm.ctpop", T, a); if (n == 64) r = LLVMBuildTrunc(B, r, g->v32, ""); break;
  case J_CLZ: {
    LLVMValueRef args[2] = {a, LLVMConstInt(g->i1, 0, 0)};
    r = intr(g, "llvm.ctlz", &T, 1, args, 2);
    if (n == 64) r = LLVMBuildTrunc(B, r, g->v32, "");
    break;
  }
  case J_BREV: r = intr1(g, "llvm.bitreverse", T, a); break;
  case J_SHL: case J_SHR: {
    /* the amount is the low 32 bits of b, unsigned */
    LLVMValueRef s = rdn(g, in->b, 32);
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, s, vconst(g, 32, (uint64_t)n), "");
    LLVMValueRef sm = LLVMBuildAnd(B, s, vconst(g, 32, (uint64_t)n - 1), "");
    if (f->jop == J_SHR && f->sgn) sm = LLVMBuildSelect(B, big, vconst(g, 32, (uint64_t)n - 1), sm, "");
    if (n < 32) sm = LLVMBuildTrunc(B, sm, T, "");
    else if (n > 32) sm = LLVMBuildZExt(B, sm, T, "");
    if (f->jop == J_SHL) r = LLVMBuildShl(B, a, sm, "");
    else if (f->sgn) r = LLVMBuildAShr(B, a, sm, "");
    else r = LLVMBuildLShr(B, a, sm, "");
    if (!(f->jop == J_SHR && f->sgn)) r = LLVMBuildSelect(B, big, LLVMConstNull(T), r, "");
    break;
  }
  case J_MOV: r = a; break;
  default: return;
  }
  (void)c;
  wrz(g, in->d, r, m);
}

/* setp_finish: combine r with the predicate c and write d (and d2). */
static void setp_finish(cg *g, const insn *in, LLVMValueRef r, LLVMValueRef m) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef nr = LLVMBuildNot(B, r, "");
  if (in->mode) {
    LLVMValueRef c = prd(g, in->c);
    if (in->flags & IF_NEGC) c = LLVMBuildNot(B, c, "");
    switch (in->mode) {
    case 1: r = LLVMBuildAnd(B, r, c, ""); nr = LLVMBuildAnd(B, nr, c, ""); break;
    case 2: r = LLVMBuildOr(B, r, c, ""); nr = LLVMBuildOr(B, nr, c, ""); break;
    case 3: r = LLVMBuildXor(B, r, c, ""); nr = LLVMBuildXor(B, nr, c, ""); break;
    }
  }
  pwr(g, in->d, r, m);
  if (in->d2 != ~0u) pwr(g, in->d2, nr, m);
}

static void emit_setp(cg *g, const insn *in, const jit_form *f, LLVMValueRef m) {
  LLVMValueRef cmp;
  if (f->jop == J_SETP) {
    static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    cmp = LLVMBuildICmp(g->B, (f->sgn ? sp : up)[f->cmp], rdn(g, in->a, f->bits), rdn(g, in->b, f->bits), "");
  } else {
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealONE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT,
                                           LLVMRealOGE, LLVMRealUEQ, LLVMRealUNE, LLVMRealULT, LLVMRealULE,
                                           LLVMRealUGT, LLVMRealUGE, LLVMRealORD, LLVMRealUNO};
    LLVMValueRef a, b;
    if (f->bits == 32) {
      a = rdf(g, in->a);
      b = rdf(g, in->b);
      if (in->flags & IF_FTZ) { a = ftz32(g, a); b = ftz32(g, b); }
    } else {
      a = rdd(g, in->a);
      b = rdd(g, in->b);
    }
    cmp = LLVMBuildFCmp(g->B, fp[f->cmp], a, b, "");
  }
  setp_finish(g, in, bits_of(g, cmp), m);
}

/* f32 arithmetic as gen_f32 does it: flush inputs, operate, flush and
 * clamp the result; NaN results canonical except where bits are kept. */
static void emit_f32(cg *g, const insn *in, const jit_form *f, LLVMValueRef m) {
  LLVMBuilderRef B = g->B;
  int ftz = in->flags & IF_FTZ, sat = in->flags & IF_SAT;
  LLVMValueRef a = rdf(g, in->a), b = NULL, c = NULL, r;
  if (ftz) a = ftz32(g, a);
  int nsrc = f->jop == J_FFMA ? 3 : (f->jop == J_FABS || f->jop == J_FNEG || f->jop == J_FSQRT ||
                                     f->jop == J_FRCP || f->jop == J_FRCPA) ? 1 : 2;
  if (nsrc >= 2) { b = rdf(g, in->b); if (ftz) b = ftz32(g, b); }
  if (nsrc >= 3) { c = rdf(g, in->c); if (ftz) c = ftz32(g, c); }
  int keep = 0;
  switch (f->jop) {
  case J_FADD: r = LLVMBuildFAdd(B, a, b, ""); break;
  case J_FSUB: r = LLVMBuildFSub(B, a, b, ""); break;
  case J_FMUL: r = LLVMBuildFMul(B, a, b, ""); break;
  case J_FDIV: r = LLVMBuildFDiv(B, a, b, ""); break;
  case J_FFMA: {
    LLVMValueRef args[3] = {a, b, c};
    r = intr(g, "llvm.fma", &g->vf, 1, args, 3);
    break;
  }
  case J_FSQRT: r = intr1(g, "llvm.sqrt", g->vf, a); break;
  case J_FRCP: r = LLVMBuildFDiv(B, fconst(g, 1.0f), a, ""); break;
  case J_FRCPA:
    r = LLVMBuildFPTrunc(B, LLVMBuildFDiv(B, dconst(g, 1.0), LLVMBuildFPExt(B, a, g->vd, ""), ""), g->vf, "");
    break;
  case J_FABS: r = ffrom(g, LLVMBuildAnd(B, fbits(g, a), vconst(g, 32, 0x7fffffffu), "")); keep = 1; break;
  case J_FNEG: r = ffrom(g, LLVMBuildXor(B, fbits(g, a), vconst(g, 32, 0x80000000u), "")); keep = 1; break;
  case J_FMIN: case J_FMAX:
    /* two NaNs give the first, bits kept (float.c) */
    r = ffrom(g, fminmax(g, a, b, f->jop == J_FMAX, fbits(g, a), g->v32));
    keep = 1;
    break;
  default: return;
  }
  if (ftz) r = ftz32(g, r);
  if (sat) r = sat32(g, r);
  wrz(g, in->d, keep ? fbits(g, r) : canon32(g, r), m);
}

/* ---- cvt (mov.c cvt_one, for the forms forms.c lists) ---- */
static int is_f(int t) { return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64; }
static int is_s(int t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64; }

/* Round a <32 x double> to an integral value in cvt rounding mode rm. */
static LLVMValueRef rint_v(cg *g, LLVMValueRef x, int rm, LLVMTypeRef ty) {
  static const char *const fn[] = {"llvm.roundeven", "llvm.trunc", "llvm.floor", "llvm.ceil"};
  return intr1(g, fn[rm & 3], ty, x);
}

static int emit_cvt(cg *g, const insn *in, LLVMValueRef m) {
  LLVMBuilderRef B = g->B;
  int dt = in->type, st = in->type2, rm = in->mode, sat = in->flags & IF_SAT, ftz = in->flags & IF_FTZ;
  int db = ptx_type_size(dt) * 8, sb = ptx_type_size(st) * 8;
  if (!is_f(st) && !is_f(dt)) {
    LLVMValueRef v = rd(g, in->a);
    LLVMValueRef sv = v, uv = v;
    if (sb < 64) {
      LLVMValueRef n = rdn(g, in->a, sb);
      sv = LLVMBuildSExt(B, n, g->v64, "");
      uv = LLVMBuildZExt(B, n, g->v64, "");
    }
    LLVMValueRef r;
    if (sat) {
      if (is_s(dt)) {
        int64_t hi = (int64_t)((1ull << (db - 1)) - 1), lo = -hi - 1;
        if (is_s(st)) {
          r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, sv, vconst(g, 64, (uint64_t)hi), ""), vconst(g, 64, (uint64_t)hi), sv, "");
          r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, sv, vconst(g, 64, (uint64_t)lo), ""), vconst(g, 64, (uint64_t)lo), r, "");
        } else {
          r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, uv, vconst(g, 64, (uint64_t)hi), ""), vconst(g, 64, (uint64_t)hi), uv, "");
        }
      } else {
        uint64_t hi = db >= 64 ? ~0ull : (1ull << db) - 1;
        if (is_s(st)) {
          r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, sv, vconst(g, 64, hi), ""), vconst(g, 64, hi), sv, "");
          r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, sv, vconst(g, 64, 0), ""), vconst(g, 64, 0), r, "");
        } else {
          r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, uv, vconst(g, 64, hi), ""), vconst(g, 64, hi), uv, "");
        }
      }
    } else if (db == 32 && sb >= 32) {
      /* to 32 bits from 32 or 64 without .sat: the low half, zero-extended
       * in the register whatever the types' signs (mov.c cvt_zx32) */
      r = LLVMBuildZExt(B, rdn(g, in->a, 32), g->v64, "");
    } else {
      r = is_s(st) ? sv : uv;
      if (db < 64) {
        LLVMValueRef n = LLVMBuildTrunc(B, r, vint(g, db), "");
        r = is_s(dt) ? LLVMBuildSExt(B, n, g->v64, "") : LLVMBuildZExt(B, n, g->v64, "");
      }
    }
    wr(g, in->d, r, m);
    return 0;
  }
  if (is_f(st) && !is_f(dt)) {
    if (st != PTX_T_F32 && st != PTX_T_F64) return -1;
    LLVMValueRef x;
    if (st == PTX_T_F32) {
      LLVMValueRef f = rdf(g, in->a);
      if (ftz) f = ftz32(g, f);
      x = LLVMBuildFPExt(B, f, g->vd, "");
    } else {
      x = rdd(g, in->a);
    }
    LLVMValueRef rr = rint_v(g, x, rm, g->vd);
    LLVMTypeRef T = vint(g, db);
    LLVMTypeRef ovl[2] = {T, g->vd};
    LLVMValueRef r = intr(g, is_s(dt) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", ovl, 2, &rr, 1);
    int nan_zero = st != PTX_T_F64 && db < 64;
    if (!nan_zero) {
      uint64_t nanv = 1ull << (db - 1);
      r = LLVMBuildSelect(B, isnan_v(g, x), vconst(g, db, nanv), r, "");
    }
    if (is_s(dt)) wrs(g, in->d, r, m);
    else wrz(g, in->d, r, m);
    return 0;
  }
  if (!is_f(st) && is_f(dt)) {
    if (rm != FP_RN || sat || (dt != PTX_T_F32 && dt != PTX_T_F64)) return -1;
    LLVMValueRef v = sb < 64 ? rdn(g, in->a, sb) : rd(g, in->a);
    LLVMTypeRef T = dt == PTX_T_F32 ? g->vf : g->vd;
    LLVMValueRef r = is_s(st) ? LLVMBuildSIToFP(B, v, T, "") : LLVMBuildUIToFP(B, v, T, "");
    if (dt == PTX_T_F32) wrf(g, in->d, r, m);
    else wr(g, in->d, LLVMBuildBitCast(B, r, g->v64, ""), m);
    return 0;
  }
  /* float -> float */
  if (sat) return -1;
  if (st == PTX_T_F32 && dt == PTX_T_F64 && !(in->flags & IF_APPROX)) {
    LLVMValueRef f = rdf(g, in->a);
    if (ftz) f = ftz32(g, f);
    /* a NaN keeps its payload, quieted */
    LLVMValueRef d = LLVMBuildBitCast(B, LLVMBuildFPExt(B, f, g->vd, ""), g->v64, "");
    LLVMValueRef fb = LLVMBuildZExt(B, fbits(g, f), g->v64, "");
    LLVMValueRef nanb = LLVMBuildOr(B, LLVMBuildOr(B, LLVMBuildShl(B, LLVMBuildAnd(B, fb, vconst(g, 64, 0x80000000u), ""), vconst(g, 64, 32), ""),
                                                    vconst(g, 64, 0x7ff8000000000000ull), ""),
                                    LLVMBuildShl(B, LLVMBuildAnd(B, fb, vconst(g, 64, 0x3fffffu), ""), vconst(g, 64, 29), ""), "");
    wr(g, in->d, LLVMBuildSelect(B, isnan_v(g, f), nanb, d, ""), m);
    return 0;
  }
  if (st == PTX_T_F64 && dt == PTX_T_F32 && !(in->flags & IF_APPROX)) {
    if (rm != FP_RN) return -1;
    LLVMValueRef x = rdd(g, in->a);
    LLVMValueRef f = LLVMBuildFPTrunc(B, x, g->vf, "");
    if (ftz) f = ftz32(g, f);
    LLVMValueRef v = rd(g, in->a);
    LLVMValueRef nanb = LLVMBuildTrunc(B, LLVMBuildOr(B, LLVMBuildOr(B, LLVMBuildAnd(B, LLVMBuildLShr(B, v, vconst(g, 64, 32), ""), vconst(g, 64, 0x80000000u), ""),
                                                                   vconst(g, 64, 0x7fc00000u), ""),
                                                      LLVMBuildAnd(B, LLVMBuildLShr(B, v, vconst(g, 64, 29), ""), vconst(g, 64, 0x3fffffu), ""), ""),
                                       g->v32, "");
    wrz(g, in->d, LLVMBuildSelect(B, isnan_v(g, x), nanb, fbits(g, f), ""), m);
    return 0;
  }
  if (st == dt && (in->flags & IF_APPROX)) {
    if (st == PTX_T_F32) {
      LLVMValueRef f = rdf(g, in->a);
      if (ftz) f = ftz32(g, f);
      LLVMValueRef r = rint_v(g, f, rm, g->vf);
      if (ftz) r = ftz32(g, r);
      /* a NaN keeps the source's bits, quieted */
      LLVMValueRef nanb = LLVMBuildOr(B, rdn(g, in->a, 32), vconst(g, 32, 0x400000u), "");
      wrz(g, in->d, LLVMBuildSelect(B, isnan_v(g, f), nanb, fbits(g, r), ""), m);
      return 0;
    }
    if (st == PTX_T_F64) {
      LLVMValueRef r = rint_v(g, rdd(g, in->a), rm, g->vd);
      wr(g, in->d, canon64(g, r), m);
      return 0;
    }
  }
  return -1;
}


/* f64 forms that touch no NaN payload: abs/neg (bits), min/max. */
static void emit_f64_local(cg *g, const insn *in, const jit_form *f, LLVMValueRef m) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef a = rdd(g, in->a);
  if (f->jop == J_FABS || f->jop == J_FNEG) {
    LLVMValueRef x = LLVMBuildBitCast(B, a, g->v64, "");
    x = f->jop == J_FABS ? LLVMBuildAnd(B, x, vconst(g, 64, 0x7fffffffffffffffull), "")
                         : LLVMBuildXor(B, x, vconst(g, 64, 0x8000000000000000ull), "");
    wr(g, in->d, x, m);
    return;
  }
  /* min/max: two NaNs give the canonical NaN (fpsem.c mm64) */
  wr(g, in->d, fminmax(g, a, rdd(g, in->b), f->jop == J_FMAX, vconst(g, 64, FP_CANON_NAN64), g->v64), m);
}

/* The cvt forms emit_cvt compiles. */
static int cvt_ok(const insn *in) {
  int dt = in->type, st = in->type2, sat = in->flags & IF_SAT, apx = in->flags & IF_APPROX;
  if (!is_f(st) && !is_f(dt)) return 1;
  if (is_f(st) && !is_f(dt)) return st == PTX_T_F32 || st == PTX_T_F64;
  if (!is_f(st)) return in->mode == FP_RN && !sat && (dt == PTX_T_F32 || dt == PTX_T_F64);
  if (sat) return 0;
  if (st == PTX_T_F32 && dt == PTX_T_F64) return !apx;
  if (st == PTX_T_F64 && dt == PTX_T_F32) return !apx && in->mode == FP_RN;
  return st == dt && apx && (st == PTX_T_F32 || st == PTX_T_F64);
}

/* Instructions that end a region: they change control flow or wait. */
static int ends_region(const insn *in) {
  return (op_flags[in->op] & (OPF_BRANCH | OPF_CALL | OPF_RET | OPF_EXIT | OPF_BARRIER)) != 0;
}

/* The longest region. */
#define MAX_REGION 256

/* ---- steps over the whole warp ---- */

/* The 32-lane mask of instruction `in`: the entry's lanes under its guard. */
static LLVMValueRef insn_mask(cg *g, const insn *in) {
  if (in->guard < 0) return g->tmask;
  return LLVMBuildAnd(g->B, g->tmask, LLVMBuildXor(g->B, prd32(g, (uint32_t)in->guard), c32(g, in->guard_xor), ""), "");
}

/* A loop over the chunks: begin_loop leaves the builder in its body with
 * g->csh / g->coff set; accumulators (phis) start at init[k] and take the
 * values end_loop is given. */
typedef struct loop {
  LLVMBasicBlockRef pre, body, done;
  LLVMValueRef c, acc[4];
  int nacc;
} loop;
static loop begin_loop(cg *g, LLVMValueRef *init, int nacc) {
  loop lp;
  LLVMBuilderRef B = g->B;
  lp.pre = LLVMGetInsertBlock(B);
  lp.body = LLVMAppendBasicBlockInContext(g->C, g->fn, "chunk");
  lp.done = LLVMAppendBasicBlockInContext(g->C, g->fn, "chunks");
  lp.nacc = nacc;
  LLVMBuildBr(B, lp.body);
  LLVMPositionBuilderAtEnd(B, lp.body);
  lp.c = LLVMBuildPhi(B, g->i32, "c");
  LLVMValueRef zero = c32(g, 0);
  LLVMAddIncoming(lp.c, &zero, &lp.pre, 1);
  for (int k = 0; k < nacc; k++) {
    lp.acc[k] = LLVMBuildPhi(B, LLVMTypeOf(init[k]), "acc");
    LLVMAddIncoming(lp.acc[k], &init[k], &lp.pre, 1);
  }
  g->csh = LLVMBuildMul(B, lp.c, c32(g, NL), "");
  g->coff = LLVMBuildMul(B, LLVMBuildZExt(B, lp.c, g->i64, ""), c64(g, NL * 8), "");
  return lp;
}
/* Close the loop; out[k] gets accumulator k's final value. */
static void end_loop(cg *g, loop *lp, LLVMValueRef *next, LLVMValueRef *out) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef c1 = LLVMBuildAdd(B, lp->c, c32(g, 1), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, c1, c32(g, NC), ""), lp->body, lp->done);
  LLVMAddIncoming(lp->c, &c1, &latch, 1);
  for (int k = 0; k < lp->nacc; k++) LLVMAddIncoming(lp->acc[k], &next[k], &latch, 1);
  LLVMPositionBuilderAtEnd(B, lp->done);
  for (int k = 0; k < lp->nacc; k++) {
    LLVMValueRef phi = LLVMBuildPhi(B, LLVMTypeOf(next[k]), "");
    LLVMAddIncoming(phi, &next[k], &latch, 1);
    out[k] = phi;
  }
}

/* Emit a call of the interpreter handler of instruction pc (index i of the
 * region) with lanes m, after setting what warp_run sets; afterwards go on
 * only when the warp is as it was (running, same SIMT entry, same pc, same
 * lanes), else return i + 1 instructions run. */
static void emit_call(cg *g, uint32_t pc, uint32_t i, LLVMValueRef m) {
  store(g, c32(g, pc), g->w, offsetof(warp, pc));
  store(g, c32(g, pc + 1), g->t, offsetof(simt_entry, pc));
  store(g, LLVMBuildAdd(g->B, g->ninsn0, c64(g, i + 1), ""), g->w, offsetof(warp, ninsn));
  store(g, LLVMBuildAdd(g->B, g->nthread0, LLVMBuildMul(g->B, g->cnt, c64(g, i + 1), ""), ""), g->w,
        offsetof(warp, nthread));
  LLVMValueRef ip = insn_ptr(g, pc);
  LLVMValueRef args[3] = {g->w, ip, m};
  LLVMBuildCall2(g->B, g->fn_handler, load(g, g->ptr, ip, offsetof(insn, fn)), args, 3, "");
  LLVMValueRef ok = LLVMBuildICmp(g->B, LLVMIntEQ, load(g, g->i32, g->w, offsetof(warp, state)), c32(g, W_RUN), "");
  ok = LLVMBuildAnd(g->B, ok, LLVMBuildICmp(g->B, LLVMIntEQ, load(g, g->i32, g->t, offsetof(simt_entry, pc)), c32(g, pc + 1), ""), "");
  ok = LLVMBuildAnd(g->B, ok, LLVMBuildICmp(g->B, LLVMIntEQ, load(g, g->i32, g->t, offsetof(simt_entry, mask)), g->tmask, ""), "");
  ok = LLVMBuildAnd(g->B, ok, LLVMBuildICmp(g->B, LLVMIntEQ, load(g, g->i32, g->w, offsetof(warp, sp)), g->sp0, ""), "");
  LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(g->C, g->fn, "go");
  LLVMBasicBlockRef stop = LLVMAppendBasicBlockInContext(g->C, g->fn, "stop");
  LLVMBuildCondBr(g->B, ok, go, stop);
  LLVMPositionBuilderAtEnd(g->B, stop);
  LLVMBuildRet(g->B, c32(g, i + 1));
  LLVMPositionBuilderAtEnd(g->B, go);
}

/* A conditional branch to `cold` (taken rarely: the handler, the
 * interpreter, a gather) or `hot`, weighted so that LLVM lays out and
 * allocates registers for the hot path. */
static void cold_br(cg *g, LLVMValueRef cond, LLVMBasicBlockRef cold, LLVMBasicBlockRef hot) {
  LLVMValueRef br = LLVMBuildCondBr(g->B, cond, cold, hot);
  LLVMMetadataRef md[3] = {LLVMMDStringInContext2(g->C, "branch_weights", 14),
                           LLVMValueAsMetadata(c32(g, 1)), LLVMValueAsMetadata(c32(g, 2000))};
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(g->C, "prof", 4),
                  LLVMMetadataAsValue(g->C, LLVMMDNodeInContext2(g->C, md, 3)));
}

/* Native code when `slow` is false, else the handler: the builder is left
 * in the native block; finish() emits the handler side and joins. */
typedef struct split {
  LLVMBasicBlockRef fast, slow, join;
} split;
static split branch(cg *g, LLVMValueRef slow) {
  split s;
  s.fast = LLVMAppendBasicBlockInContext(g->C, g->fn, "fast");
  s.slow = LLVMAppendBasicBlockInContext(g->C, g->fn, "slow");
  s.join = LLVMAppendBasicBlockInContext(g->C, g->fn, "join");
  cold_br(g, slow, s.slow, s.fast);
  LLVMPositionBuilderAtEnd(g->B, s.fast);
  return s;
}
static void finish(cg *g, split *s, uint32_t pc, uint32_t i, LLVMValueRef m) {
  LLVMBuildBr(g->B, s->join);
  LLVMPositionBuilderAtEnd(g->B, s->slow);
  emit_call(g, pc, i, m);
  LLVMBuildBr(g->B, s->join);
  LLVMPositionBuilderAtEnd(g->B, s->join);
}

/* Any lane of m8 where v (<NL x i1>) holds, as i1. */
static LLVMValueRef any_in(cg *g, LLVMValueRef v, LLVMValueRef m8) {
  return LLVMBuildICmp(g->B, LLVMIntNE, LLVMBuildAnd(g->B, bits_of(g, v), m8, ""), c8(g, 0), "");
}

static int nsrc_f(const jit_form *f) {
  switch (f->jop) {
  case J_FFMA: return 3;
  case J_FABS: case J_FNEG: case J_FSQRT: case J_FRCP: case J_FRCPA: return 1;
  default: return 2;
  }
}

/* f64 arithmetic: a NaN input's payload travels as the host FPU passes it,
 * so a warp with a NaN input on an active lane runs the handler; otherwise
 * every NaN result is the default one, which both f64 paths make canonical. */
static void emit_f64(cg *g, const insn *in, const jit_form *f, uint32_t pc, uint32_t i) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef m32 = insn_mask(g, in), nan = LLVMConstInt(g->i1, 0, 0);
  int n = nsrc_f(f);
  loop lp = begin_loop(g, &nan, 1);
  LLVMValueRef x = isnan_v(g, rdd(g, in->a));
  if (n >= 2) x = LLVMBuildOr(B, x, isnan_v(g, rdd(g, in->b)), "");
  if (n >= 3) x = LLVMBuildOr(B, x, isnan_v(g, rdd(g, in->c)), "");
  LLVMValueRef next = LLVMBuildOr(B, lp.acc[0], any_in(g, x, chunk_bits(g, m32)), "");
  end_loop(g, &lp, &next, &nan);
  split s = branch(g, nan);
  lp = begin_loop(g, NULL, 0);
  LLVMValueRef a = rdd(g, in->a), b = n >= 2 ? rdd(g, in->b) : NULL, r;
  switch (f->jop) {
  case J_FADD: r = LLVMBuildFAdd(B, a, b, ""); break;
  case J_FSUB: r = LLVMBuildFSub(B, a, b, ""); break;
  case J_FMUL: r = LLVMBuildFMul(B, a, b, ""); break;
  case J_FDIV: r = LLVMBuildFDiv(B, a, b, ""); break;
  case J_FFMA: {
    LLVMValueRef args[3] = {a, b, rdd(g, in->c)};
    r = intr(g, "llvm.fma", &g->vd, 1, args, 3);
    break;
  }
  case J_FSQRT: r = intr1(g, "llvm.sqrt", g->vd, a); break;
  default: r = LLVMBuildFDiv(B, dconst(g, 1.0), a, ""); break; /* J_FRCP */
  }
  wr(g, in->d, canon64(g, r), chunk_bits(g, m32));
  end_loop(g, &lp, NULL, NULL);
  finish(g, &s, pc, i, m32);
}

/* The loads gather() and gather_p() choose between: one vector load at p0
 * where the whole chunk is active and consecutive (full && seq), one
 * scalar load splat where it all reads p0 (full && one), else a masked
 * gather from the lanes' pointers (base + at, or the pointer vector at
 * when base is NULL), inactive lanes reading a scratch slot. */
static LLVMValueRef load_by_pattern(cg *g, LLVMValueRef full, LLVMValueRef seq, LLVMValueRef one, LLVMValueRef p0,
                                    LLVMValueRef base, LLVMValueRef at, LLVMValueRef m8, LLVMTypeRef VT, int align) {
  LLVMBuilderRef B = g->B;
  LLVMBasicBlockRef bseq = LLVMAppendBasicBlockInContext(g->C, g->fn, "ldseq");
  LLVMBasicBlockRef bnot = LLVMAppendBasicBlockInContext(g->C, g->fn, "ldnseq");
  LLVMBasicBlockRef bone = LLVMAppendBasicBlockInContext(g->C, g->fn, "ldone");
  LLVMBasicBlockRef bgat = LLVMAppendBasicBlockInContext(g->C, g->fn, "ldgather");
  LLVMBasicBlockRef bend = LLVMAppendBasicBlockInContext(g->C, g->fn, "ldend");
  LLVMBuildCondBr(B, LLVMBuildAnd(B, full, seq, ""), bseq, bnot);
  LLVMPositionBuilderAtEnd(B, bseq);
  LLVMValueRef vseq = LLVMBuildLoad2(B, VT, p0, "");
  LLVMSetAlignment(vseq, (unsigned)align);
  LLVMBuildBr(B, bend);
  LLVMPositionBuilderAtEnd(B, bnot);
  cold_br(g, LLVMBuildNot(B, LLVMBuildAnd(B, full, one, ""), ""), bgat, bone);
  LLVMPositionBuilderAtEnd(B, bone);
  LLVMValueRef s1 = LLVMBuildLoad2(B, LLVMGetElementType(VT), p0, "");
  LLVMSetAlignment(s1, (unsigned)align);
  LLVMValueRef vone = splat(g, VT, s1);
  LLVMBuildBr(B, bend);
  LLVMPositionBuilderAtEnd(B, bgat);
  LLVMValueRef ptrs = base ? LLVMBuildGEP2(B, g->i8, base, &at, 1, "") : at;
  LLVMValueRef safe = LLVMBuildSelect(B, lanes(g, m8), ptrs, splat(g, LLVMTypeOf(ptrs), g->scratch), "");
  LLVMTypeRef ovl[2] = {VT, LLVMTypeOf(ptrs)};
  LLVMValueRef args[4] = {safe, c32(g, (uint64_t)align), LLVMConstAllOnes(g->v1), LLVMGetUndef(VT)};
  LLVMValueRef vgat = intr(g, "llvm.masked.gather", ovl, 2, args, 4);
  LLVMBuildBr(B, bend);
  LLVMPositionBuilderAtEnd(B, bend);
  LLVMValueRef phi = LLVMBuildPhi(B, VT, "");
  LLVMValueRef vals[3] = {vseq, vone, vgat};
  LLVMBasicBlockRef from[3] = {bseq, bone, bgat};
  LLVMAddIncoming(phi, vals, from, 3);
  return phi;
}

/* Load one element per lane from base + addr: active lanes from their
 * (checked) address, the others from a scratch slot, without branches (a
 * masked gather becomes a branch per lane on hosts without fast gathers). */
/* The shape of a chunk's addresses v (i64 lanes) for elements of size
 * bytes: lane 0's (*a0), all lanes consecutive from it (*seq), all equal
 * (*one); i1 each. */
static void chunk_shape(cg *g, LLVMValueRef v, int size, LLVMValueRef *a0, LLVMValueRef *seq, LLVMValueRef *one) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef e[NL];
  for (int i = 0; i < NL; i++) e[i] = c64(g, (uint64_t)(i * size));
  *a0 = LLVMBuildExtractElement(B, v, c32(g, 0), "");
  LLVMValueRef s0 = splat(g, g->v64, *a0);
  *seq = LLVMBuildICmp(B, LLVMIntEQ, bits_of(g, LLVMBuildICmp(B, LLVMIntEQ, v, LLVMBuildAdd(B, s0, LLVMConstVector(e, NL), ""), "")), c8(g, 0xff), "");
  *one = LLVMBuildICmp(B, LLVMIntEQ, bits_of(g, LLVMBuildICmp(B, LLVMIntEQ, v, s0, "")), c8(g, 0xff), "");
}

static LLVMValueRef gather(cg *g, LLVMValueRef base, LLVMValueRef areg, int64_t imm, LLVMValueRef m8, LLVMTypeRef VT,
                           int size) {
  LLVMBuilderRef B = g->B;
  /* Kernels mostly read consecutive elements or one element for all lanes
   * of a chunk: one vector load or one scalar load then. The patterns are
   * tested on the address register (the offset is the same for every
   * lane), so loads from one register share the tests. */
  LLVMValueRef addr = LLVMBuildAdd(B, areg, vconst(g, 64, (uint64_t)imm), "");
  LLVMValueRef r0, seq, one;
  chunk_shape(g, areg, size, &r0, &seq, &one);
  LLVMValueRef full = LLVMBuildICmp(B, LLVMIntEQ, m8, c8(g, 0xff), "");
  LLVMValueRef a0i = LLVMBuildAdd(B, r0, c64(g, (uint64_t)imm), "");
  if (g->nogather) {
    /* (emit_fused checked: every chunk consecutive or uniform, all lanes)
     * without branches (a diamond per load makes LLVM sink the arithmetic
     * below all the loads and spill them): a masked load of the whole
     * chunk, or of lane 0 only, then lane 0 broadcast where uniform */
    LLVMValueRef p0 = base ? LLVMBuildGEP2(B, g->i8, base, &a0i, 1, "") : LLVMBuildIntToPtr(B, a0i, g->ptr, "");
    LLVMValueRef sv = splat(g, g->v1, seq), first[NL], zeros[NL];
    for (int l = 0; l < NL; l++) {
      first[l] = LLVMConstInt(g->i1, l == 0, 0);
      zeros[l] = c32(g, 0);
    }
    LLVMTypeRef ovl[2] = {VT, g->ptr};
    LLVMValueRef args[4] = {p0, c32(g, (uint64_t)size), LLVMBuildOr(B, sv, LLVMConstVector(first, NL), ""),
                            LLVMGetUndef(VT)};
    LLVMValueRef v = intr(g, "llvm.masked.load", ovl, 2, args, 4);
    LLVMValueRef b0 = LLVMBuildShuffleVector(B, v, LLVMGetUndef(VT), LLVMConstVector(zeros, NL), "");
    return LLVMBuildSelect(B, sv, v, b0, "");
  }
  if (!base) {
    /* global: the address is the host pointer (inttoptr, not an offset
     * from null, which LLVM takes for a load that cannot happen) */
    LLVMValueRef ptrs = LLVMBuildIntToPtr(B, addr, LLVMVectorType(g->ptr, NL), "");
    return load_by_pattern(g, full, seq, one, LLVMBuildIntToPtr(B, a0i, g->ptr, ""), NULL, ptrs, m8, VT, size);
  }
  LLVMValueRef p0 = LLVMBuildGEP2(B, g->i8, base, &a0i, 1, "");
  return load_by_pattern(g, full, seq, one, p0, base, addr, m8, VT, size);
}

/* 1 when [lo, hi) lies in one of the warp's two cached global allocations
 * (read-only ones refused for a write); 0 sends the access to its handler,
 * which finds the allocation or reports the fault. */
static int32_t global_ok(warp *w, uint64_t lo, uint64_t hi, int32_t write) {
  const alloc *g = w->gcache;
  for (int k = 0; k < 2; k++, g = w->gcache2)
    if (g && lo >= g->base && hi <= g->base + g->size && hi >= lo) return !(write && g->readonly);
  return 0;
}

/* Load one element per lane through pointer vector ptrs (active lanes of
 * m8; the others read a scratch slot), as gather() does. */
static LLVMValueRef gather_p(cg *g, LLVMValueRef ptrs, LLVMValueRef m8, LLVMTypeRef VT, int size, int align) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef addr = LLVMBuildPtrToInt(B, ptrs, g->v64, "");
  LLVMValueRef a0s, seq, one;
  chunk_shape(g, addr, size, &a0s, &seq, &one);
  LLVMValueRef full = LLVMBuildICmp(B, LLVMIntEQ, m8, c8(g, 0xff), "");
  LLVMValueRef p0 = LLVMBuildIntToPtr(B, a0s, g->ptr, "");
  return load_by_pattern(g, full, seq, one, p0, NULL, ptrs, m8, VT, align);
}

/* The analyses' hook for memory instruction pc (index i of the region)
 * with the lanes of m32, as its handler calls it: pcs and counters as
 * warp_run leaves them, the active lanes' addresses (0 for the others). */
/* Are slot s's lanes at a0 + (l%16)*st (lanes 0-15) and a1 + (l%16)*st
 * (16-31), st from lanes 0 and 1 (bank_affine's key of a full warp)? In 64
 * bits, which implies it in the 32 the bank model sees. */
static LLVMValueRef lane_pattern(cg *g, uint32_t s, LLVMValueRef *a0, LLVMValueRef *a1, LLVMValueRef *st) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef coff = g->coff, csh = g->csh, v[NC], x = NULL, e[NL];
  for (int c = 0; c < NC; c++) {
    g->coff = c64(g, (uint64_t)c * NL * 8);
    g->csh = c32(g, (uint64_t)(c * NL));
    v[c] = rd(g, s);
  }
  g->coff = coff;
  g->csh = csh;
  *a0 = LLVMBuildExtractElement(B, v[0], c32(g, 0), "");
  *a1 = LLVMBuildExtractElement(B, v[16 / NL], c32(g, 0), "");
  *st = LLVMBuildSub(B, LLVMBuildExtractElement(B, v[0], c32(g, 1), ""), *a0, "");
  for (int k = 0; k < NL; k++) e[k] = c64(g, (uint64_t)k);
  LLVMValueRef step = LLVMBuildMul(B, LLVMConstVector(e, NL), splat(g, g->v64, *st), "");
  for (int c = 0; c < NC; c++) {
    uint32_t l0 = (uint32_t)(c * NL);
    LLVMValueRef b = LLVMBuildAdd(B, l0 < 16 ? *a0 : *a1, LLVMBuildMul(B, *st, c64(g, l0 % 16), ""), "");
    LLVMValueRef d = LLVMBuildXor(B, v[c], LLVMBuildAdd(B, splat(g, g->v64, b), step, ""), "");
    x = x ? LLVMBuildOr(B, x, d, "") : d;
  }
  return LLVMBuildICmp(B, LLVMIntEQ, intr1(g, "llvm.vector.reduce.or", g->v64, x), c64(g, 0), "");
}

/* Does emit_hook look instruction in up in the bank cache (where the bank
 * model is the only analysis)? */
static int hook_pattern(const insn *in) {
  return in->space == PTX_SPACE_SHARED && !in->usect && in->merge != MERGE_FOLLOW &&
         !(op_flags[in->op] & OPF_ATOMIC) && in->op != OP_LDMATRIX && in->op != OP_STMATRIX;
}

static void emit_hook_mem(cg *g, const insn *in, uint32_t pc, uint32_t i, LLVMValueRef m32, uint32_t total,
                          const LLVMValueRef *pat);
/* the bank cache entry's key as emit_hook reads it: 15 bytes at its start */
_Static_assert(offsetof(bank_centry, stride) == 0 && offsetof(bank_centry, gap) == 4 &&
                   offsetof(bank_centry, mask) == 8 && offsetof(bank_centry, size) == 12 &&
                   offsetof(bank_centry, base) == 14 && offsetof(bank_centry, req) >= 16,
               "bank_centry layout");
/* As hook_mem with the bank model the only analysis: nothing for a space
 * the bank model does not count or an access merged into its group's
 * leader; a full warp's shared access whose lanes are affine by halves
 * (bank_affine's pattern) through the bank cache (hook_banks_pattern) when
 * it has seen the pattern. With other analyses on, such an access goes to
 * hook_mem_pattern (the race and init checks from the halves). Anything
 * else goes through hook_mem. */
static void emit_hook(cg *g, const insn *in, uint32_t pc, uint32_t i, LLVMValueRef m32, uint32_t total) {
  LLVMBuilderRef B = g->B;
  uint32_t f = op_flags[in->op];
  int shared = in->space == PTX_SPACE_SHARED;
  int none = !in->gen_atom && !(f & OPF_ATOMIC) &&
             (in->merge == MERGE_FOLLOW || in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_LOCAL ||
              in->space == PTX_SPACE_PARAM || in->space == PTX_SPACE_CONST);
  int pattern = shared && hook_pattern(in);
  if (!none && !pattern) {
    emit_hook_mem(g, in, pc, i, m32, total, NULL);
    return;
  }
  LLVMBasicBlockRef full = LLVMAppendBasicBlockInContext(g->C, g->fn, "hookmem");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->C, g->fn, "hooked");
  if (none) {
    /* a space only the global checks see: no hook without them */
    int global = in->space == PTX_SPACE_GLOBAL || in->space == PTX_SPACE_LOCAL || in->space == PTX_SPACE_PARAM ||
                 in->space == PTX_SPACE_CONST;
    LLVMBuildCondBr(B, global ? LLVMBuildOr(B, g->bonly, g->gnone, "") : g->bonly, done, full);
  } else {
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(g->C, g->fn, "hookcache");
    LLVMValueRef ok, a0, a1, st, full32 = LLVMBuildICmp(B, LLVMIntEQ, m32, c32(g, FULL_MASK), "");
    uint32_t m;
    for (m = 0; m < g->npm && g->pm_slot[m] != in->a; m++) {}
    if (m < g->npm) { /* the fused run's */
      ok = LLVMBuildAnd(B, g->pm_ok[m], full32, "");
      a0 = g->pm_a0[m], a1 = g->pm_a1[m], st = g->pm_st[m];
    } else {
      LLVMBasicBlockRef pat = LLVMAppendBasicBlockInContext(g->C, g->fn, "hookpat");
      LLVMBuildCondBr(B, full32, pat, full);
      LLVMPositionBuilderAtEnd(B, pat);
      ok = lane_pattern(g, in->a, &a0, &a1, &st);
    }
    a0 = LLVMBuildAdd(B, a0, c64(g, (uint64_t)in->imm), "");
    a1 = LLVMBuildAdd(B, a1, c64(g, (uint64_t)in->imm), "");
    LLVMBasicBlockRef which = LLVMAppendBasicBlockInContext(g->C, g->fn, "hookwhich");
    LLVMBasicBlockRef halves = LLVMAppendBasicBlockInContext(g->C, g->fn, "hookhalves");
    LLVMBuildCondBr(B, ok, which, full);
    LLVMPositionBuilderAtEnd(B, which);
    LLVMBuildCondBr(B, g->bonly, call, halves);
    LLVMPositionBuilderAtEnd(B, halves);
    emit_hook_mem(g, in, pc, i, m32, total, (LLVMValueRef[]){a0, a1, st});
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, call);
    /* bank_cache_find(&banks[pc].cache, period, FULL_MASK, size, a0, s,
     * a1 - a0) on the entries' first 15 bytes (stride, gap, mask, size,
     * base mod the period) as one integer; a hit adds its figures as
     * banks_one does (a repeat is never a new worst instance) */
    uint32_t size = total * (in->merge ? in->merge : 1u);
    LLVMValueRef pm = LLVMBuildAnd(B, LLVMBuildLShr(B, g->bmasks, c32(g, size <= 4 ? 0 : size <= 8 ? 8 : 16), ""),
                                   c32(g, 0xff), "");
    LLVMValueRef b8 = LLVMBuildAnd(B, LLVMBuildTrunc(B, a0, g->i32, ""), pm, "");
    LLVMValueRef w3 = LLVMBuildOr(B, c32(g, size), LLVMBuildShl(B, b8, c32(g, 16), ""), "");
    LLVMValueRef key = LLVMBuildZExt(B, LLVMBuildAnd(B, st, c64(g, 0xffffffffu), ""), g->i128, "");
    LLVMValueRef gap = LLVMBuildAnd(B, LLVMBuildSub(B, a1, a0, ""), c64(g, 0xffffffffu), "");
    key = LLVMBuildOr(B, key, LLVMBuildShl(B, LLVMBuildZExt(B, gap, g->i128, ""), LLVMConstInt(g->i128, 32, 0), ""), "");
    key = LLVMBuildOr(B, key, LLVMConstIntOfArbitraryPrecision(g->i128, 2, (const uint64_t[]){0, FULL_MASK}), "");
    key = LLVMBuildOr(B, key, LLVMBuildShl(B, LLVMBuildZExt(B, w3, g->i128, ""), LLVMConstInt(g->i128, 96, 0), ""), "");
    LLVMValueRef keep = LLVMConstIntOfArbitraryPrecision(g->i128, 2, (const uint64_t[]){~0ull, ~0ull >> 8});
    LLVMValueRef sp = at(g, g->banks, (uint64_t)pc * sizeof(bank_stat)), ep = LLVMConstNull(g->ptr);
    for (int k = BANK_CACHE_WAYS - 1; k >= 0; k--) {
      LLVMValueRef pe = at(g, sp, offsetof(bank_stat, cache) + (uint64_t)k * sizeof(bank_centry));
      LLVMValueRef ent = LLVMBuildLoad2(B, g->i128, pe, "");
      LLVMSetAlignment(ent, 4);
      LLVMValueRef hit = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, ent, keep, ""), key, "");
      ep = LLVMBuildSelect(B, hit, pe, ep, "");
    }
    LLVMBasicBlockRef add = LLVMAppendBasicBlockInContext(g->C, g->fn, "bankhit");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, ep, ""), full, add);
    LLVMPositionBuilderAtEnd(B, add);
    static const size_t from[3] = {offsetof(bank_centry, req), offsetof(bank_centry, waves), offsetof(bank_centry, ideal)};
    static const size_t to[3] = {offsetof(bank_stat, requests), offsetof(bank_stat, wavefronts), offsetof(bank_stat, ideal)};
    for (int k = 0; k < 3; k++) {
      LLVMValueRef fig = LLVMBuildZExt(B, load(g, g->i32, ep, from[k]), g->i64, "");
      store(g, LLVMBuildAdd(B, load(g, g->i64, sp, to[k]), fig, ""), sp, to[k]);
    }
    LLVMBuildBr(B, done);
  }
  LLVMPositionBuilderAtEnd(B, full);
  emit_hook_mem(g, in, pc, i, m32, total, NULL);
  LLVMBuildBr(B, done);
  LLVMPositionBuilderAtEnd(B, done);
}

/* hook_mem for the instruction, as its handler calls it; with pat (a0, a1
 * and the stride of a full warp's lanes affine by halves), hook_mem_pattern. */
static void emit_hook_mem(cg *g, const insn *in, uint32_t pc, uint32_t i, LLVMValueRef m32, uint32_t total,
                          const LLVMValueRef *pat) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef coff = g->coff, csh = g->csh;
  for (int c = 0; c < NC; c++) {
    g->coff = c64(g, (uint64_t)c * NL * 8);
    g->csh = c32(g, (uint64_t)(c * NL));
    LLVMValueRef addr = LLVMBuildAdd(B, rd(g, in->a), vconst(g, 64, (uint64_t)in->imm), "");
    LLVMValueRef v = LLVMBuildSelect(B, lanes(g, chunk_bits(g, m32)), addr, vconst(g, 64, 0), "");
    LLVMValueRef st = LLVMBuildStore(B, v, at(g, g->addrs, (uint64_t)c * NL * 8));
    LLVMSetAlignment(st, 8);
  }
  g->coff = coff;
  g->csh = csh;
  store(g, c32(g, pc), g->w, offsetof(warp, pc));
  store(g, c32(g, pc + 1), g->t, offsetof(simt_entry, pc));
  store(g, LLVMBuildAdd(B, g->ninsn0, c64(g, i + 1), ""), g->w, offsetof(warp, ninsn));
  store(g, LLVMBuildAdd(B, g->nthread0, LLVMBuildMul(B, g->cnt, c64(g, i + 1), ""), ""), g->w, offsetof(warp, nthread));
  if (pat) {
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(g->C),
                                      (LLVMTypeRef[]){g->ptr, g->ptr, g->ptr, g->i32, g->i64, g->i64, g->i64}, 7, 0);
    LLVMValueRef args[7] = {g->w, insn_ptr(g, pc), g->addrs, c32(g, total), pat[0], pat[1], pat[2]};
    LLVMBuildCall2(B, ft, extern_fn(g, "smemu_jit_hook_pattern", ft), args, 7, "");
    return;
  }
  LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(g->C), (LLVMTypeRef[]){g->ptr, g->ptr, g->i32, g->ptr, g->i32}, 5, 0);
  LLVMValueRef args[5] = {g->w, insn_ptr(g, pc), m32, g->addrs, c32(g, total)};
  LLVMBuildCall2(B, ft, extern_fn(g, "smemu_jit_hook_mem", ft), args, 5, "");
}

/* ld/st in shared, global, local, param or const memory (forms.h): when
 * every active lane's access is in bounds and aligned (global: within the
 * warp's two cached allocations) the access is done here, after the
 * analyses' hook has seen the lane addresses when this code is the hooked
 * variant; otherwise the handler does all of it (and reports the fault). */
static void emit_mem(cg *g, const insn *in, const jit_form *f, uint32_t pc, uint32_t i) {
  LLVMBuilderRef B = g->B;
  int es = f->bits / 8, nel = f->cmp ? f->cmp : 1, total = es * nel, sp = f->sub, st = f->jop == J_ST;
  int global = sp == JS_GLOBAL || sp == JS_CONST;
  int align = sp == JS_PARAM ? 1 : es; /* param reads are not checked for alignment (exec_addr) */
  LLVMValueRef m32 = insn_mask(g, in);
  /* no lane: the handler (which still calls the hooks) */
  LLVMValueRef slow = LLVMBuildICmp(B, LLVMIntEQ, m32, c32(g, 0), "");
  LLVMValueRef base = NULL, lo = NULL, top = NULL, lsize = NULL;
  switch (sp) {
  case JS_SHARED: {
    LLVMValueRef blk = load(g, g->ptr, g->w, offsetof(warp, blk));
    LLVMValueRef ssize = LLVMBuildZExt(B, load(g, g->i32, blk, offsetof(block, smem_size)), g->i64, "");
    slow = LLVMBuildOr(B, slow, LLVMBuildICmp(B, LLVMIntULT, ssize, c64(g, (uint64_t)total), ""), "");
    top = splat(g, g->v64, LLVMBuildSub(B, ssize, c64(g, (uint64_t)total), ""));
    lo = vconst(g, 64, g->P->smem_lo);
    base = load(g, g->ptr, blk, offsetof(block, smem));
    break;
  }
  case JS_LOCAL: {
    lsize = LLVMBuildZExt(B, load(g, g->i32, g->w, offsetof(warp, local_size)), g->i64, "");
    slow = LLVMBuildOr(B, slow, LLVMBuildICmp(B, LLVMIntULT, lsize, c64(g, (uint64_t)total), ""), "");
    top = splat(g, g->v64, LLVMBuildSub(B, lsize, c64(g, (uint64_t)total), ""));
    base = load(g, g->ptr, g->w, offsetof(warp, local));
    break;
  }
  case JS_PARAM: {
    uint32_t pb = g->P->param_bytes;
    if (pb < (uint32_t)total) slow = LLVMConstInt(g->i1, 1, 0);
    top = vconst(g, 64, pb >= (uint32_t)total ? pb - (uint32_t)total : 0);
    LLVMValueRef L = load(g, g->ptr, g->w, offsetof(warp, L));
    base = load(g, g->ptr, L, offsetof(launch, params));
    break;
  }
  default: base = NULL; break; /* global: addresses are host pointers */
  }
  /* one pass over the lanes: misaligned or out-of-range lanes, and the
   * lowest and highest global address */
  LLVMValueRef init[3] = {slow, c64(g, ~0ull), c64(g, 0)}, out[3];
  loop lp = begin_loop(g, init, global ? 3 : 1);
  LLVMValueRef m8 = chunk_bits(g, m32);
  LLVMValueRef addr = LLVMBuildAdd(B, rd(g, in->a), vconst(g, 64, (uint64_t)in->imm), "");
  LLVMValueRef bad = LLVMConstNull(g->v1);
  if (sp != JS_PARAM)
    bad = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, addr, vconst(g, 64, (uint64_t)total - 1), ""), vconst(g, 64, 0), "");
  LLVMValueRef next[3];
  if (!global) {
    if (lo) bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntULT, addr, lo, ""), "");
    bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntUGT, addr, top, ""), "");
  } else {
    LLVMValueRef act = lanes(g, m8);
    LLVMValueRef l = intr1(g, "llvm.vector.reduce.umin", g->v64, LLVMBuildSelect(B, act, addr, vconst(g, 64, ~0ull), ""));
    LLVMValueRef h = intr1(g, "llvm.vector.reduce.umax", g->v64, LLVMBuildSelect(B, act, addr, vconst(g, 64, 0), ""));
    next[1] = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, l, lp.acc[1], ""), l, lp.acc[1], "");
    next[2] = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, h, lp.acc[2], ""), h, lp.acc[2], "");
  }
  next[0] = LLVMBuildOr(B, lp.acc[0], any_in(g, bad, m8), "");
  end_loop(g, &lp, next, out);
  slow = out[0];
  if (global) {
    /* the allocation check only where the rest passed (the highest
     * address + total must not wrap) */
    LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef ask = LLVMAppendBasicBlockInContext(g->C, g->fn, "gask");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->C, g->fn, "gdone");
    LLVMBuildCondBr(B, slow, done, ask);
    LLVMPositionBuilderAtEnd(B, ask);
    LLVMTypeRef ft = LLVMFunctionType(g->i32, (LLVMTypeRef[]){g->ptr, g->i64, g->i64, g->i32}, 4, 0);
    LLVMValueRef args[4] = {g->w, out[1], LLVMBuildAdd(B, out[2], c64(g, (uint64_t)total), ""), c32(g, (uint64_t)st)};
    LLVMValueRef ok = LLVMBuildCall2(B, ft, extern_fn(g, "smemu_jit_global_ok", ft), args, 4, "");
    LLVMValueRef gbad = LLVMBuildICmp(B, LLVMIntEQ, ok, c32(g, 0), "");
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, g->i1, "");
    LLVMValueRef vals[2] = {LLVMConstInt(g->i1, 1, 0), gbad};
    LLVMBasicBlockRef from[2] = {here, ask};
    LLVMAddIncoming(phi, vals, from, 2);
    slow = phi;
  }
  split s = branch(g, slow);
  if (g->hooked) emit_hook(g, in, pc, i, m32, (uint32_t)total);
  LLVMTypeRef VT = vint(g, es * 8);
  lp = begin_loop(g, NULL, 0);
  m8 = chunk_bits(g, m32);
  addr = LLVMBuildAdd(B, rd(g, in->a), vconst(g, 64, (uint64_t)in->imm), "");
  LLVMValueRef off = addr;
  if (sp == JS_LOCAL) {
    /* lane l's local memory starts at local + l * local_size */
    LLVMValueRef e[NL];
    for (int k = 0; k < NL; k++) e[k] = c64(g, (uint64_t)k);
    LLVMValueRef lane = LLVMBuildAdd(B, LLVMConstVector(e, NL), splat(g, g->v64, LLVMBuildZExt(B, g->csh, g->i64, "")), "");
    off = LLVMBuildAdd(B, off, LLVMBuildMul(B, lane, splat(g, g->v64, lsize), ""), "");
  }
  LLVMValueRef ptrs = base ? LLVMBuildGEP2(B, g->i8, base, &off, 1, "") : LLVMBuildIntToPtr(B, off, LLVMVectorType(g->ptr, NL), "");
  if (!st) {
    /* every address is checked before a register is written (ld_gen) */
    LLVMValueRef v[4];
    for (int k = 0; k < nel; k++) {
      if (in->v[k] == SLOT_SINK) continue;
      LLVMValueRef pk = ptrs;
      if (k) {
        LLVMValueRef ko = vconst(g, 64, (uint64_t)(k * es));
        pk = LLVMBuildGEP2(B, g->i8, ptrs, &ko, 1, "");
      }
      v[k] = gather_p(g, pk, m8, VT, es, align);
    }
    for (int k = 0; k < nel; k++) {
      if (in->v[k] == SLOT_SINK) continue;
      if (f->sgn) wrs(g, in->v[k], v[k], m8);
      else wrz(g, in->v[k], v[k], m8);
    }
  } else {
    /* lane by lane, element by element, so the highest lane wins where
     * addresses meet, as in the handler's loop; inactive lanes store to a
     * scratch slot */
    LLVMValueRef v[4], act = lanes(g, m8);
    for (int k = 0; k < nel; k++) v[k] = rdn(g, in->v[k], es * 8);
    LLVMBasicBlockRef lanewise = NULL, stored = NULL;
    if (nel == 1) {
      /* a whole chunk at consecutive addresses: one vector store (no two
       * lanes meet, so the order does not matter) */
      LLVMValueRef e[NL];
      for (int l = 0; l < NL; l++) e[l] = c64(g, (uint64_t)(l * es));
      LLVMValueRef o0 = LLVMBuildExtractElement(B, off, c32(g, 0), "");
      LLVMValueRef seq = LLVMBuildICmp(B, LLVMIntEQ, off, LLVMBuildAdd(B, splat(g, g->v64, o0), LLVMConstVector(e, NL), ""), "");
      seq = LLVMBuildICmp(B, LLVMIntEQ, bits_of(g, seq), c8(g, 0xff), "");
      LLVMValueRef whole = LLVMBuildAnd(B, seq, LLVMBuildICmp(B, LLVMIntEQ, m8, c8(g, 0xff), ""), "");
      LLVMBasicBlockRef vec = LLVMAppendBasicBlockInContext(g->C, g->fn, "stvec");
      lanewise = LLVMAppendBasicBlockInContext(g->C, g->fn, "stlanes");
      stored = LLVMAppendBasicBlockInContext(g->C, g->fn, "stored");
      LLVMBuildCondBr(B, whole, vec, lanewise);
      LLVMPositionBuilderAtEnd(B, vec);
      LLVMValueRef sv = LLVMBuildStore(B, v[0], LLVMBuildExtractElement(B, ptrs, c32(g, 0), ""));
      LLVMSetAlignment(sv, (unsigned)align);
      LLVMBuildBr(B, stored);
      LLVMPositionBuilderAtEnd(B, lanewise);
    }
    for (int l = 0; l < NL; l++) {
      LLVMValueRef li = c32(g, (uint64_t)l);
      LLVMValueRef pl = LLVMBuildSelect(B, LLVMBuildExtractElement(B, act, li, ""),
                                        LLVMBuildExtractElement(B, ptrs, li, ""), g->scratch, "");
      for (int k = 0; k < nel; k++) {
        LLVMValueRef pk = k ? at(g, pl, (uint64_t)(k * es)) : pl;
        LLVMValueRef sv = LLVMBuildStore(B, LLVMBuildExtractElement(B, v[k], li, ""), pk);
        LLVMSetAlignment(sv, (unsigned)align);
      }
    }
    if (stored) {
      LLVMBuildBr(B, stored);
      LLVMPositionBuilderAtEnd(B, stored);
    }
  }
  end_loop(g, &lp, NULL, NULL);
  finish(g, &s, pc, i, m32);
}

/* ---- regions ---- */
enum { K_LOCAL, K_F64, K_MEM, K_CALL };

static int kind_of(const insn *in, const jit_form **fp) {
  const jit_form *f = *fp = jit_form_of(in);
  if (!f) return K_CALL;
  switch (f->jop) {
  case J_LD: case J_ST: return K_MEM;
  case J_CVT: return cvt_ok(in) ? K_LOCAL : K_CALL;
  case J_FADD: case J_FSUB: case J_FMUL: case J_FFMA: case J_FDIV: case J_FSQRT: case J_FRCP:
    return f->bits == 64 ? K_F64 : K_LOCAL;
  default: return K_LOCAL;
  }
}

/* A lane-local instruction on the current chunk. */
static void emit_local(cg *g, const insn *in, const jit_form *f, LLVMValueRef m) {
  LLVMBuilderRef B = g->B;
  switch (f->jop) {
  case J_MOVP: pwr(g, in->d, LLVMBuildXor(B, prd(g, in->a), c8(g, (uint8_t)in->imm), ""), m); return;
  case J_SELP: wr(g, in->d, LLVMBuildSelect(B, lanes(g, prd(g, in->c)), rd(g, in->a), rd(g, in->b), ""), m); return;
  case J_SETP: case J_FSETP: emit_setp(g, in, f, m); return;
  case J_PAND: pwr(g, in->d, LLVMBuildAnd(B, prd(g, in->a), prd(g, in->b), ""), m); return;
  case J_POR: pwr(g, in->d, LLVMBuildOr(B, prd(g, in->a), prd(g, in->b), ""), m); return;
  case J_PXOR: pwr(g, in->d, LLVMBuildXor(B, prd(g, in->a), prd(g, in->b), ""), m); return;
  case J_PNOT: pwr(g, in->d, LLVMBuildNot(B, prd(g, in->a), ""), m); return;
  case J_CVTA: {
    LLVMValueRef k = vconst(g, 64, (uint64_t)in->imm), a = rd(g, in->a);
    LLVMValueRef r = f->sub ? LLVMBuildSub(B, a, k, "") : LLVMBuildAdd(B, a, k, "");
    if (f->sub && in->vec == 4) r = LLVMBuildAnd(B, r, vconst(g, 64, 0xffffffffu), "");
    wr(g, in->d, r, m);
    return;
  }
  case J_CVT: emit_cvt(g, in, m); return;
  case J_FADD: case J_FSUB: case J_FMUL: case J_FFMA: case J_FDIV: case J_FABS: case J_FNEG:
  case J_FMIN: case J_FMAX: case J_FSQRT: case J_FRCP: case J_FRCPA:
    if (f->bits == 32) emit_f32(g, in, f, m);
    else emit_f64_local(g, in, f, m);
    return;
  default: emit_int(g, in, f, m); return;
  }
}

/* Instructions [i0, i1) of the region at pc0, all lane-local: one loop
 * over the chunks of the warp. */
static void emit_run(cg *g, uint32_t pc0, uint32_t i0, uint32_t i1, const jit_form **forms) {
  g->live_pc = pc0 + i1;
  loop lp = begin_loop(g, NULL, 0);
  g->caching = 1;
  g->gen++;
  for (uint32_t i = i0; i < i1; i++) {
    const insn *in = &g->P->code[pc0 + i];
    emit_local(g, in, forms[i], chunk_bits(g, insn_mask(g, in)));
  }
  g->caching = 0;
  end_loop(g, &lp, NULL, NULL);
}

/* Leave the region after n instructions, with the counters and pcs
 * warp_run would leave; n = 0 returns before anything changed. */
static void emit_exit(cg *g, uint32_t pc0, uint32_t n) {
  LLVMBuilderRef B = g->B;
  if (n) {
    store(g, c32(g, pc0 + n), g->t, offsetof(simt_entry, pc));
    store(g, c32(g, pc0 + n - 1), g->w, offsetof(warp, pc));
    store(g, LLVMBuildAdd(B, g->ninsn0, c64(g, n), ""), g->w, offsetof(warp, ninsn));
    store(g, LLVMBuildAdd(B, g->nthread0, LLVMBuildMul(B, g->cnt, c64(g, n), ""), ""), g->w, offsetof(warp, nthread));
  }
  LLVMBuildRet(B, c32(g, n));
}

/* The address checks of a run's loads (emit_fused): 1 (i1) when one of
 * them cannot be done here (a lane's address is out of bounds or
 * misaligned, outside the cached global allocations). */
static LLVMValueRef loads_slow(cg *g, uint32_t pc0, uint32_t i0, uint32_t i1, const jit_form **forms,
                               const int *kinds) {
  LLVMBuilderRef B = g->B;
  LLVMValueRef slow = LLVMConstInt(g->i1, 0, 0);
  LLVMValueRef blk = load(g, g->ptr, g->w, offsetof(warp, blk));
  LLVMValueRef ssize = LLVMBuildZExt(B, load(g, g->i32, blk, offsetof(block, smem_size)), g->i64, "");
  LLVMValueRef init[3] = {slow, c64(g, ~0ull), c64(g, 0)}, out[3], next[3];
  int gsize = 0;
  for (uint32_t i = i0; i < i1; i++)
    if (kinds[i] == K_MEM && forms[i]->sub) gsize = forms[i]->bits / 8;
  /* Shared loads from one base register under one guard, at offsets that
   * keep the element alignment: checked together, from the lowest and
   * highest active lane's base and the group's lowest and highest offset
   * (the same verdict as lane by lane, load by load). */
  struct grp { uint32_t a, size; int32_t guard; uint32_t gx; int64_t imin, imax; } grp[16];
  int ngrp = 0;
  uint8_t grouped[MAX_REGION] = {0};
  for (uint32_t i = i0; i < i1; i++) {
    if (kinds[i] != K_MEM || forms[i]->sub) continue;
    const insn *in = &g->P->code[pc0 + i];
    int64_t size = forms[i]->bits / 8, imm = in->imm;
    if (imm % size || imm >= (1ll << 31) || imm <= -(1ll << 31)) continue;
    int k = 0;
    while (k < ngrp && !(grp[k].a == in->a && grp[k].size == (uint32_t)size && grp[k].guard == in->guard &&
                         grp[k].gx == in->guard_xor)) k++;
    if (k == ngrp) {
      if (ngrp == 16) continue;
      grp[ngrp++] = (struct grp){in->a, (uint32_t)size, in->guard, in->guard_xor, imm, imm};
    }
    if (imm < grp[k].imin) grp[k].imin = imm;
    if (imm > grp[k].imax) grp[k].imax = imm;
    grouped[i] = 1;
  }
  for (int k = 0; k < ngrp; k++) {
    insn gi;
    memset(&gi, 0, sizeof gi);
    gi.guard = grp[k].guard;
    gi.guard_xor = grp[k].gx;
    LLVMValueRef m32 = insn_mask(g, &gi);
    LLVMValueRef lo = c64(g, ~0ull), hi = c64(g, 0), any = c64(g, 0);
    for (int c = 0; c < NC; c++) {
      LLVMValueRef m8 = LLVMBuildTrunc(B, LLVMBuildLShr(B, m32, c32(g, (uint64_t)(c * NL)), ""), g->i8, "");
      LLVMValueRef act = lanes(g, m8);
      LLVMValueRef v = LLVMBuildLoad2(B, g->v64, at(g, g->r, (uint64_t)grp[k].a * 256 + (uint64_t)c * NL * 8), "");
      LLVMSetAlignment(v, 8);
      if (is_const_slot(g, grp[k].a) || grp[k].a == SR_ZERO || grp[k].a == SR_ONE || grp[k].a == SR_LANEID) {
        LLVMValueRef save = g->coff;
        g->coff = c64(g, (uint64_t)c * NL * 8);
        LLVMValueRef saveh = g->csh;
        g->csh = c32(g, (uint64_t)(c * NL));
        v = rd(g, grp[k].a);
        g->coff = save;
        g->csh = saveh;
      }
      LLVMValueRef l = intr1(g, "llvm.vector.reduce.umin", g->v64, LLVMBuildSelect(B, act, v, vconst(g, 64, ~0ull), ""));
      LLVMValueRef h = intr1(g, "llvm.vector.reduce.umax", g->v64, LLVMBuildSelect(B, act, v, vconst(g, 64, 0), ""));
      LLVMValueRef o = intr1(g, "llvm.vector.reduce.or", g->v64, LLVMBuildSelect(B, act, v, vconst(g, 64, 0), ""));
      lo = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, l, lo, ""), l, lo, "");
      hi = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, h, hi, ""), h, hi, "");
      any = LLVMBuildOr(B, any, o, "");
    }
    /* no active lane: nothing to check */
    LLVMValueRef live = LLVMBuildICmp(B, LLVMIntNE, m32, c32(g, 0), "");
    LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, any, c64(g, grp[k].size - 1), ""), c64(g, 0), "");
    bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntUGT, hi, c64(g, 0xffffffffu), ""), "");
    LLVMValueRef first = LLVMBuildAdd(B, lo, c64(g, (uint64_t)grp[k].imin), "");
    LLVMValueRef last = LLVMBuildAdd(B, hi, c64(g, (uint64_t)grp[k].imax), "");
    LLVMValueRef top = LLVMBuildSub(B, ssize, c64(g, grp[k].size), "");
    bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntSLT, first, c64(g, g->P->smem_lo), ""), "");
    bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntSGT, last, top, ""), "");
    slow = LLVMBuildOr(B, slow, LLVMBuildAnd(B, live, bad, ""), "");
  }
  init[0] = slow;
  loop lp = begin_loop(g, init, gsize ? 3 : 1);
  next[0] = lp.acc[0];
  if (gsize) next[1] = lp.acc[1], next[2] = lp.acc[2];
  for (uint32_t i = i0; i < i1; i++) {
    if (kinds[i] != K_MEM || grouped[i]) continue;
    const insn *in = &g->P->code[pc0 + i];
    int size = forms[i]->bits / 8;
    LLVMValueRef m8 = chunk_bits(g, insn_mask(g, in));
    LLVMValueRef addr = LLVMBuildAdd(B, rd(g, in->a), vconst(g, 64, (uint64_t)in->imm), "");
    LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, addr, vconst(g, 64, (uint64_t)size - 1), ""),
                                     vconst(g, 64, 0), "");
    if (!forms[i]->sub) {
      LLVMValueRef top = splat(g, g->v64, LLVMBuildSub(B, ssize, c64(g, (uint64_t)size), ""));
      bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntULT, addr, vconst(g, 64, g->P->smem_lo), ""), "");
      bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntUGT, addr, top, ""), "");
      /* shared memory smaller than the access: every address is out */
      next[0] = LLVMBuildOr(B, next[0], LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntULT, ssize, c64(g, (uint64_t)size), ""),
                                                   LLVMBuildICmp(B, LLVMIntNE, m8, c8(g, 0), ""), ""), "");
    } else {
      LLVMValueRef act = lanes(g, m8);
      LLVMValueRef l = intr1(g, "llvm.vector.reduce.umin", g->v64, LLVMBuildSelect(B, act, addr, vconst(g, 64, ~0ull), ""));
      LLVMValueRef h = intr1(g, "llvm.vector.reduce.umax", g->v64, LLVMBuildSelect(B, act, addr, vconst(g, 64, 0), ""));
      next[1] = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, l, next[1], ""), l, next[1], "");
      next[2] = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, h, next[2], ""), h, next[2], "");
    }
    next[0] = LLVMBuildOr(B, next[0], any_in(g, bad, m8), "");
  }
  end_loop(g, &lp, next, out);
  slow = out[0];
  if (gsize) {
    /* no active lane: lo > hi, nothing to ask */
    LLVMValueRef none = LLVMBuildICmp(B, LLVMIntUGT, out[1], out[2], "");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef ask = LLVMAppendBasicBlockInContext(g->C, g->fn, "gask");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->C, g->fn, "gdone");
    LLVMBuildCondBr(B, LLVMBuildOr(B, slow, none, ""), done, ask);
    LLVMPositionBuilderAtEnd(B, ask);
    LLVMTypeRef ft = LLVMFunctionType(g->i32, (LLVMTypeRef[]){g->ptr, g->i64, g->i64, g->i32}, 4, 0);
    LLVMValueRef args[4] = {g->w, out[1], LLVMBuildAdd(B, out[2], c64(g, (uint64_t)gsize), ""), c32(g, 0)};
    LLVMValueRef ok = LLVMBuildCall2(B, ft, extern_fn(g, "smemu_jit_global_ok", ft), args, 4, "");
    LLVMValueRef gbad = LLVMBuildICmp(B, LLVMIntEQ, ok, c32(g, 0), "");
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, g->i1, "");
    LLVMValueRef vals[2] = {slow, gbad};
    LLVMBasicBlockRef from[2] = {here, ask};
    LLVMAddIncoming(phi, vals, from, 2);
    slow = phi;
  }
  return slow;
}

/* A run of lane-local instructions and loads [i0, i1) whose addresses and
 * guards no earlier instruction of the run writes: the loads' addresses
 * are checked first, for the whole warp; then every instruction runs chunk
 * by chunk, the loads as gathers. When a check fails the region ends
 * before the run and the interpreter takes it. */
static void emit_fused(cg *g, uint32_t pc0, uint32_t i0, uint32_t i1, const jit_form **forms, const int *kinds) {
  LLVMBuilderRef B = g->B;
  LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->C, g->fn, "tointerp");
  LLVMBasicBlockRef check = LLVMAppendBasicBlockInContext(g->C, g->fn, "check");
  LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(g->C, g->fn, "fused");
  LLVMBuildBr(B, check);
  LLVMPositionBuilderAtEnd(B, check);
  LLVMValueRef slow = loads_slow(g, pc0, i0, i1, forms, kinds);
  cold_br(g, slow, out, go);
  LLVMPositionBuilderAtEnd(B, out);
  emit_exit(g, pc0, i0);
  LLVMPositionBuilderAtEnd(B, go);
  int guarded = 0;
  for (uint32_t i = i0; i < i1; i++) guarded |= kinds[i] == K_MEM && g->P->code[pc0 + i].guard >= 0;
  if (g->part && !g->hooked && !guarded) {
    /* a full-warp body, no load guarded: when every load's address
     * register is, in every chunk, consecutive elements or one address,
     * the loads need no gather
     * path (which costs the whole body registers); else the general body */
    LLVMValueRef ok = LLVMConstInt(g->i1, 1, 0);
    LLVMValueRef coff = g->coff, csh = g->csh;
    for (uint32_t i = i0; i < i1; i++) {
      if (kinds[i] != K_MEM) continue;
      const insn *in = &g->P->code[pc0 + i];
      int size = forms[i]->bits / 8, dup = 0;
      for (uint32_t k = i0; k < i; k++)
        dup |= kinds[k] == K_MEM && g->P->code[pc0 + k].a == in->a && forms[k]->bits == forms[i]->bits;
      if (dup) continue;
      LLVMValueRef e[NL];
      for (int l = 0; l < NL; l++) e[l] = c64(g, (uint64_t)(l * size));
      for (int c = 0; c < NC; c++) {
        g->coff = c64(g, (uint64_t)c * NL * 8);
        g->csh = c32(g, (uint64_t)(c * NL));
        LLVMValueRef v = rd(g, in->a);
        LLVMValueRef a0 = splat(g, g->v64, LLVMBuildExtractElement(B, v, c32(g, 0), ""));
        LLVMValueRef seq = LLVMBuildICmp(B, LLVMIntEQ, v, LLVMBuildAdd(B, a0, LLVMConstVector(e, NL), ""), "");
        LLVMValueRef one = LLVMBuildICmp(B, LLVMIntEQ, v, a0, "");
        LLVMValueRef both = LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntEQ, bits_of(g, seq), c8(g, 0xff), ""),
                                        LLVMBuildICmp(B, LLVMIntEQ, bits_of(g, one), c8(g, 0xff), ""), "");
        ok = LLVMBuildAnd(B, ok, both, "");
      }
    }
    g->coff = coff;
    g->csh = csh;
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(g->C, g->fn, "nogather");
    cold_br(g, LLVMBuildNot(B, ok, ""), g->part, fast);
    LLVMPositionBuilderAtEnd(B, fast);
    g->nogather = 1;
  }
  if (g->hooked) {
    /* the analyses see the loads first, in order: they read addresses
     * (no register of the run) and memory no instruction of the run
     * writes, so this is what they see when the loads run one by one.
     * Each address slot's lane pattern is found once for them all (the
     * tiled product's 16 loads from one row pointer). */
    g->npm = 0;
    for (uint32_t i = i0; i < i1; i++) {
      const insn *in = &g->P->code[pc0 + i];
      uint32_t k;
      for (k = 0; k < g->npm && g->pm_slot[k] != in->a; k++) {}
      if (kinds[i] == K_MEM && hook_pattern(in) && k == g->npm && g->npm < 8) g->pm_slot[g->npm++] = in->a;
    }
    for (uint32_t k = 0; k < g->npm; k++)
      g->pm_ok[k] = lane_pattern(g, g->pm_slot[k], &g->pm_a0[k], &g->pm_a1[k], &g->pm_st[k]);
    for (uint32_t i = i0; i < i1; i++)
      if (kinds[i] == K_MEM) {
        const insn *in = &g->P->code[pc0 + i];
        emit_hook(g, in, pc0 + i, i, insn_mask(g, in), (uint32_t)forms[i]->bits / 8);
      }
    g->npm = 0;
  }
  LLVMValueRef blk = load(g, g->ptr, g->w, offsetof(warp, blk));
  LLVMValueRef smem = load(g, g->ptr, blk, offsetof(block, smem));
  g->live_pc = pc0 + i1;
  loop lp = begin_loop(g, NULL, 0);
  g->caching = 1;
  g->gen++;
  for (uint32_t i = i0; i < i1; i++) {
    const insn *in = &g->P->code[pc0 + i];
    LLVMValueRef m8 = chunk_bits(g, insn_mask(g, in));
    if (kinds[i] != K_MEM) {
      emit_local(g, in, forms[i], m8);
      continue;
    }
    int size = forms[i]->bits / 8;
    LLVMTypeRef VT = vint(g, size * 8);
    wrz(g, in->d, gather(g, forms[i]->sub ? NULL : smem, rd(g, in->a), in->imm, m8, VT, size), m8);
  }
  g->caching = 0;
  g->nogather = 0;
  end_loop(g, &lp, NULL, NULL);
}

/* The register slot and predicates instruction `in` writes (~0u: none). */
static void writes(const insn *in, const jit_form *f, int kind, uint32_t *reg, uint32_t *p1, uint32_t *p2) {
  *reg = *p1 = *p2 = ~0u;
  if (kind == K_MEM) { *reg = in->d; return; }
  switch (f->jop) {
  case J_SETP: case J_FSETP: *p1 = in->d; *p2 = in->d2; return;
  case J_MOVP: case J_PAND: case J_POR: case J_PXOR: case J_PNOT: *p1 = in->d; return;
  default: *reg = in->d; return;
  }
}

/* ---- register liveness (per thread) ----
 * A run's results go to the register file only where a later instruction
 * may read them: slot s written in a run is stored when s is live where
 * the run ends. Liveness is per thread over the function's control flow:
 * a guarded write does not kill, and an instruction the tier does not
 * know reads every slot (handlers, calls, returns from device functions,
 * indirect branches), so the interpreter, the handlers and any later
 * region always find what they read. */
struct liveness {
  uint32_t words;     /* 64-bit words per set */
  uint64_t *in;       /* live-in set of each pc of the function */
  uint32_t entry, end;
};
typedef struct liveness liveness;

static void live_uses(const program *P, const func_info *F, uint32_t pc, uint64_t *use, uint64_t *kill, uint32_t words) {
  const insn *in = &P->code[pc];
  memset(use, 0, words * 8);
  memset(kill, 0, words * 8);
  const jit_form *f;
  int kind = kind_of(in, &f);
  uint32_t fl = op_flags[in->op];
  if (fl & OPF_EXIT) return;
  int all = kind == K_CALL;
  if ((fl & OPF_BRANCH) && in->op == OP_BRA) all = 0;
  /* bar / barrier: the barrier number and thread count operands */
  if ((fl & OPF_BARRIER) && (in->op == OP_BAR || in->op == OP_BARRIER)) all = 0;
  if ((fl & OPF_RET) && F == &P->funcs[0]) return; /* the kernel's ret ends the thread */
  if (all) {
    memset(use, 0xff, words * 8);
    return;
  }
  uint32_t u[8], nu = 0;
  if (fl & (OPF_BRANCH | OPF_BARRIER)) {
    u[nu++] = in->a;
    u[nu++] = in->b;
    u[nu++] = in->c;
    for (uint32_t k = 0; k < nu; k++)
      if (u[k] < F->nregs) use[u[k] / 64] |= 1ull << (u[k] % 64);
    return;
  }
  if (kind == K_MEM) {
    u[nu++] = in->a;
    if (f->jop == J_ST)
      for (int k = 0; k < (f->cmp ? f->cmp : 1); k++) u[nu++] = in->v[k];
    else if (in->guard < 0)
      for (int k = 0; k < (f->cmp ? f->cmp : 1); k++)
        if (in->v[k] < F->nregs) kill[in->v[k] / 64] |= 1ull << (in->v[k] % 64);
  } else {
    u[nu++] = in->a;
    u[nu++] = in->b;
    u[nu++] = in->c;
    uint32_t r, p1, p2;
    writes(in, f, kind, &r, &p1, &p2);
    if (r != ~0u && r < F->nregs && in->guard < 0) kill[r / 64] |= 1ull << (r % 64);
  }
  for (uint32_t k = 0; k < nu; k++)
    if (u[k] < F->nregs) use[u[k] / 64] |= 1ull << (u[k] % 64);
}

/* Liveness of function F, or NULL (everything live) when too large. */
static liveness *live_new(const program *P, const func_info *F) {
  uint32_t n = F->end - F->entry, words = (F->nregs + 63) / 64;
  if (!n || (uint64_t)n * words > (1u << 22)) return NULL;
  liveness *L = calloc(1, sizeof *L);
  uint64_t *use = malloc((size_t)n * words * 8), *kill = malloc((size_t)n * words * 8), *out = malloc(words * 8);
  if (L) L->in = calloc((size_t)n * words, 8);
  if (!L || !L->in || !use || !kill || !out) {
    if (L) free(L->in);
    free(L), free(use), free(kill), free(out);
    return NULL;
  }
  L->words = words;
  L->entry = F->entry;
  L->end = F->end;
  for (uint32_t i = 0; i < n; i++) live_uses(P, F, F->entry + i, use + (size_t)i * words, kill + (size_t)i * words, words);
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t i = n; i-- > 0;) {
      const insn *in = &P->code[F->entry + i];
      uint32_t fl = op_flags[in->op];
      memset(out, 0, words * 8);
      /* (a guarded exit, ret or bra falls through where its guard is false) */
      int fall = in->guard >= 0 || !((fl & (OPF_EXIT | OPF_RET)) || ((fl & OPF_BRANCH) && in->op == OP_BRA));
      if (fall && i + 1 < n)
        for (uint32_t k = 0; k < words; k++) out[k] |= L->in[(size_t)(i + 1) * words + k];
      if ((fl & OPF_BRANCH) && in->op == OP_BRA && in->target >= F->entry && in->target < F->end)
        for (uint32_t k = 0; k < words; k++) out[k] |= L->in[(size_t)(in->target - F->entry) * words + k];
      for (uint32_t k = 0; k < words; k++) {
        size_t x = (size_t)i * words + k;
        uint64_t v = use[x] | (out[k] & ~kill[x]);
        if (v != L->in[x]) {
          L->in[x] = v;
          changed = 1;
        }
      }
    }
  }
  free(use), free(kill), free(out);
  return L;
}

/* 1 when slot s may be read at pc (before it runs). */
static int live_at(const liveness *L, uint32_t pc, uint32_t s) {
  if (!L || pc < L->entry || pc >= L->end) return 1;
  return (L->in[(size_t)(pc - L->entry) * L->words + s / 64] >> (s % 64)) & 1;
}

static void live_free(liveness *L) {
  if (L) free(L->in);
  free(L);
}

/* A load that a run of lane-local instructions can take in (emit_fused):
 * one 32- or 64-bit element of shared or global memory, zero-extended. */
static int fusable(const cg *g, int kind, const jit_form *f) {
  return kind == K_MEM && f->jop == J_LD && f->cmp == 1 && !f->sgn &&
         (f->sub == JS_SHARED || f->sub == JS_GLOBAL) && (f->bits == 32 || f->bits == 64);
}

/* Full-warp specialisation: a run, memory or f64 step is emitted twice,
 * once for a region entered with all 32 lanes (the entry mask a constant,
 * so lane masks, blends with old register values and the pattern tests
 * of loads fold away) and once for any mask; a branch on the entry mask
 * picks one, in both variants. SMEMU_JIT_NOFULL=1 emits the general body
 * alone.
 *   for (pass = full_begin(g, &fs); pass >= 0; pass = full_next(g, &fs, pass)) emit...; */
typedef struct full_split {
  LLVMBasicBlockRef part, join;
  LLVMValueRef tmask;
} full_split;
static int full_begin(cg *g, full_split *fs) {
  if (g->nofull) return 1;
  LLVMBuilderRef B = g->B;
  LLVMBasicBlockRef full = LLVMAppendBasicBlockInContext(g->C, g->fn, "fullwarp");
  fs->part = LLVMAppendBasicBlockInContext(g->C, g->fn, "partwarp");
  fs->join = LLVMAppendBasicBlockInContext(g->C, g->fn, "warpjoin");
  fs->tmask = g->tmask;
  LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, g->tmask, c32(g, FULL_MASK), ""), full, fs->part);
  LLVMPositionBuilderAtEnd(B, full);
  g->tmask = c32(g, FULL_MASK);
  g->part = fs->part;
  return 0;
}
/* pass 0 (full) done: emit the general body; pass 1 done: join (-1). */
static int full_next(cg *g, full_split *fs, int pass) {
  if (g->nofull) return -1;
  LLVMBuildBr(g->B, fs->join);
  g->tmask = fs->tmask;
  g->part = NULL;
  LLVMPositionBuilderAtEnd(g->B, pass == 0 ? fs->part : fs->join);
  return pass == 0 ? 1 : -1;
}

/* Build the function of region [pc0, pc0 + len). */
static void build_region(cg *g, uint32_t pc0, uint32_t len, const char *name, jit_code *J) {
  LLVMBuilderRef B = g->B;
  g->fn = LLVMAddFunction(g->M, name, g->fn_region);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->C, g->fn, "entry");
  LLVMPositionBuilderAtEnd(B, entry);
  g->w = LLVMGetParam(g->fn, 0);
  g->t = LLVMGetParam(g->fn, 1);
  g->scratch = LLVMBuildAlloca(B, LLVMArrayType(g->i64, 2), "scratch");
  g->addrs = g->hooked ? LLVMBuildAlloca(B, LLVMArrayType(g->i64, 32), "addrs") : NULL;
  g->bonly = g->gnone = NULL;
  g->npm = 0;
  if (g->hooked) {
    /* hooks_banks_only(w), hooks_global_none(w) */
    LLVMValueRef L = load(g, g->ptr, g->w, offsetof(warp, L));
    g->gnone = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntEQ, load(g, g->i32, L, offsetof(launch, want_global_races)), c32(g, 0), ""),
                            LLVMBuildIsNull(B, load(g, g->ptr, L, offsetof(launch, ginit)), ""), "");
    LLVMValueRef an = load(g, g->ptr, load(g, g->ptr, g->w, offsetof(warp, blk)), offsetof(block, an));
    LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef has = LLVMAppendBasicBlockInContext(g->C, g->fn, "hasan");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->C, g->fn, "body");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, an, ""), body, has);
    LLVMPositionBuilderAtEnd(B, has);
    LLVMValueRef ok = LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, load(g, g->i32, L, offsetof(launch, want_banks)), c32(g, 0), ""),
                                   LLVMBuildICmp(B, LLVMIntEQ, load(g, g->i32, an, offsetof(analysis, has_race)), c32(g, 0), ""), "");
    ok = LLVMBuildAnd(B, ok, LLVMBuildIsNull(B, load(g, g->ptr, L, offsetof(launch, ginit)), ""), "");
    LLVMValueRef banks = load(g, g->ptr, an, offsetof(analysis, banks)), masks = c32(g, 0);
    int shared = 0; /* (the periods only where a shared access may use them) */
    for (uint32_t k = 0; k < len; k++) shared |= g->P->code[pc0 + k].space == PTX_SPACE_SHARED;
    if (shared) {
      LLVMTypeRef ft = LLVMFunctionType(g->i32, (LLVMTypeRef[]){g->ptr}, 1, 0);
      masks = LLVMBuildCall2(B, ft, extern_fn(g, "smemu_jit_bank_masks", ft), (LLVMValueRef[]){g->w}, 1, "");
    }
    LLVMBasicBlockRef has_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, body);
    LLVMPositionBuilderAtEnd(B, body);
    g->bonly = LLVMBuildPhi(B, g->i1, "bonly");
    LLVMValueRef vals[2] = {LLVMConstInt(g->i1, 0, 0), ok};
    LLVMBasicBlockRef from[2] = {here, has_end};
    LLVMAddIncoming(g->bonly, vals, from, 2);
    g->banks = LLVMBuildPhi(B, g->ptr, "banks");
    LLVMValueRef bv[2] = {LLVMConstNull(g->ptr), banks};
    LLVMAddIncoming(g->banks, bv, from, 2);
    g->bmasks = LLVMBuildPhi(B, g->i32, "bmasks");
    LLVMValueRef mv[2] = {c32(g, 0), masks};
    LLVMAddIncoming(g->bmasks, mv, from, 2);
  }
  g->r = load(g, g->ptr, g->w, offsetof(warp, r));
  g->p = load(g, g->ptr, g->w, offsetof(warp, p));
  g->tmask = load(g, g->i32, g->t, offsetof(simt_entry, mask));
  g->cnt = LLVMBuildZExt(B, intr1(g, "llvm.ctpop", g->i32, g->tmask), g->i64, "");
  g->ninsn0 = load(g, g->i64, g->w, offsetof(warp, ninsn));
  g->nthread0 = load(g, g->i64, g->w, offsetof(warp, nthread));
  g->sp0 = load(g, g->i32, g->w, offsetof(warp, sp));
  g->code = load(g, g->ptr, load(g, g->ptr, load(g, g->ptr, g->w, offsetof(warp, L)), offsetof(launch, prog)),
                 offsetof(program, code));
  const jit_form *forms[MAX_REGION];
  int kinds[MAX_REGION];
  full_split fs;
  for (uint32_t i = 0; i < len; i++) kinds[i] = kind_of(&g->P->code[pc0 + i], &forms[i]);
  for (uint32_t i = 0; i < len;) {
    uint32_t pc = pc0 + i;
    const insn *in = &g->P->code[pc];
    int load_here = fusable(g, kinds[i], forms[i]);
    if (kinds[i] == K_LOCAL || load_here) {
      /* the run: lane-local instructions and loads whose address and
       * guard it has not written, with at most one global load */
      uint32_t j = i, nloads = 0, nglobal = 0;
      for (; j < len; j++) {
        const insn *x = &g->P->code[pc0 + j];
        int ld = fusable(g, kinds[j], forms[j]);
        if (kinds[j] != K_LOCAL && !ld) break;
        if (ld) {
          int clash = (nglobal && forms[j]->sub) || g->wreg[x->a] == g->wgen ||
                      (x->guard >= 0 && g->wpred[x->guard] == g->wgen);
          if (clash) break;
          nloads++;
          nglobal += forms[j]->sub;
        }
        uint32_t r, p1, p2;
        writes(x, forms[j], kinds[j], &r, &p1, &p2);
        if (r != ~0u) g->wreg[r] = g->wgen;
        if (p1 != ~0u) g->wpred[p1] = g->wgen;
        if (p2 != ~0u) g->wpred[p2] = g->wgen;
      }
      g->wgen++;
      for (int pass = full_begin(g, &fs); pass >= 0; pass = full_next(g, &fs, pass)) {
        if (nloads) emit_fused(g, pc0, i, j, forms, kinds);
        else emit_run(g, pc0, i, j, forms);
      }
      J->ninsn_native += j - i;
      i = j;
      continue;
    }
    switch (kinds[i]) {
    case K_F64:
      for (int pass = full_begin(g, &fs); pass >= 0; pass = full_next(g, &fs, pass)) emit_f64(g, in, forms[i], pc, i);
      J->ninsn_native++;
      break;
    case K_MEM:
      for (int pass = full_begin(g, &fs); pass >= 0; pass = full_next(g, &fs, pass)) emit_mem(g, in, forms[i], pc, i);
      J->ninsn_native++;
      break;
    default:
      emit_call(g, pc, i, insn_mask(g, in));
      J->ninsn_called++;
      if (g->stats > 1)
        fprintf(stderr, "jit %s: line %u: %s runs its handler\n", g->P->name, g->P->lines[in->src].ptx_line, op_names[in->op]);
      break;
    }
    i++;
  }
  emit_exit(g, pc0, len);
}

static const func_info *func_at(const program *P, uint32_t pc) {
  for (uint32_t i = 0; i < P->nfuncs; i++)
    if (pc >= P->funcs[i].entry && pc < P->funcs[i].end) return &P->funcs[i];
  return NULL;
}

/* Region starts: function entries, branch targets, reconvergence points
 * and the instruction after one that ends a region. A region runs to the
 * next start or region-ending instruction, whichever is first. */
static uint8_t *region_starts(const program *P) {
  uint8_t *s = calloc(P->ncode + 1, 1);
  if (!s) return NULL;
  for (uint32_t i = 0; i < P->nfuncs; i++) s[P->funcs[i].entry] = 1;
  for (uint32_t pc = 0; pc < P->ncode; pc++) {
    const insn *in = &P->code[pc];
    if (ends_region(in)) s[pc + 1] = 1;
    if ((op_flags[in->op] & OPF_BRANCH) && in->target < P->ncode) s[in->target] = 1;
    /* (every instruction has its immediate post-dominator; only a branch
     * pushes it as a reconvergence point) */
    if ((op_flags[in->op] & OPF_BRANCH) && in->rpc != NO_RPC && in->rpc < P->ncode) s[in->rpc] = 1;
  }
  return s;
}

/* SMEMU_JIT_PERFMAP: name the regions in /tmp/perf-PID.map for perf
 * (each region's size is taken up to the next region's start). */
static int cmp_addr(const void *a, const void *b) {
  uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return x < y ? -1 : x > y;
}
static void perf_map(const program *P, const jit_code *J, const uint32_t *rstart, uint32_t nr, int hooked) {
  uintptr_t *sorted = malloc((nr + 1) * sizeof *sorted);
  if (!sorted) return;
  for (uint32_t k = 0; k < nr; k++) sorted[k] = (uintptr_t)J->entry[rstart[k]];
  qsort(sorted, nr, sizeof *sorted, cmp_addr);
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
  FILE *f = fopen(path, "a");
  for (uint32_t k = 0; f && k < nr; k++) {
    uintptr_t a = (uintptr_t)J->entry[rstart[k]], size = 4096;
    for (uint32_t j = 0; j < nr; j++)
      if (sorted[j] == a && j + 1 < nr && sorted[j + 1] - a < 65536) size = sorted[j + 1] - a;
    fprintf(f, "%lx %lx %s%s_pc%u_len%u\n", (unsigned long)a, (unsigned long)size, P->name, hooked ? "_hooked" : "",
            rstart[k], J->len[rstart[k]]);
  }
  if (f) fclose(f);
  free(sorted);
}

/* ---- compiled code kept: in the process and on disk ----
 * The code of a kernel depends only on its decoded instructions (not on
 * where they are: it reads them through the launch), on the variant, on
 * this build of smemu and on the host CPU; a 128-bit hash of all of that
 * names it. The process keeps each compiled kernel once (contexts that
 * load the same kernel share it); the disk cache keeps the object files,
 * so a program's second run links instead of compiling. The cache lies in
 * $SMEMU_CACHE, $XDG_CACHE_HOME/smemu or ~/.cache/smemu (as smemu run's),
 * subdirectory jit/, used only when it is the user's alone (owned, not a
 * link, no access for others); files appear by rename, complete, and end
 * with a hash of their contents, checked before use. SMEMU_JIT_CACHE=0
 * turns the disk cache off; SMEMU_JIT_CACHE_MAX bounds its size (jcache.h:
 * least recently used removed first, a hit counting as a use). */
typedef struct kept {
  uint64_t key[2];
  jit_code *J;
  uint32_t refs;
} kept;
static kept *kept_list;
static size_t nkept, capkept;

static void key_of(const program *P, int hooked, uint64_t key[2]) {
  uint64_t h[2] = {host_id, host_id ^ 0x9e3779b97f4a7c15ull};
  uint32_t hdr[9] = {P->ncode, P->nfuncs, P->smem_reserved, P->param_bytes, P->max_regs, P->max_preds,
                     (uint32_t)hooked, NL, P->smem_lo};
  for (int k = 0; k < 2; k++) h[k] = fnv(h[k], hdr, sizeof hdr);
  h[1] = fnv(h[1], getenv("SMEMU_JIT_NOLIVE") ? "n" : "l", 1);
  h[1] = fnv(h[1], getenv("SMEMU_JIT_NOFULL") && atoi(getenv("SMEMU_JIT_NOFULL")) ? "n" : "f", 1);
  for (uint32_t pc = 0; pc < P->ncode; pc++) {
    const insn *in = &P->code[pc];
    /* the handler as an offset in this build (it picks the native form) */
    int64_t fo = (int64_t)((uintptr_t)in->fn - (uintptr_t)jit_compile);
    /* (merge, usect, gen_atom, atom_form: the SASS mapping's, which the
     * hooked variant's code depends on and a context counting by PTX rules
     * has otherwise) */
    uint32_t f32[17] = {in->op, in->type, in->type2, in->mode, in->flags, in->space, in->vec, (uint32_t)in->guard,
                        in->guard_xor, in->d, in->a, in->b, in->c, in->d2, in->target, in->rpc,
                        (uint32_t)in->merge | (uint32_t)in->usect << 8 | (uint32_t)in->gen_atom << 16 |
                            (uint32_t)in->atom_form << 24};
    for (int k = 0; k < 2; k++) {
      h[k] = fnv(h[k], &fo, sizeof fo);
      h[k] = fnv(h[k], f32, sizeof f32);
      h[k] = fnv(h[k], in->v, sizeof in->v);
      h[k] = fnv(h[k], &in->imm, sizeof in->imm);
    }
    h[1] = (h[1] << 7 | h[1] >> 57) ^ pc;
  }
  for (uint32_t i = 0; i < P->nfuncs; i++) {
    const func_info *F = &P->funcs[i];
    uint32_t f32[5] = {F->entry, F->end, F->nregs, F->nconsts, F->npreds};
    for (int k = 0; k < 2; k++) {
      h[k] = fnv(h[k], f32, sizeof f32);
      if (F->nconsts) h[k] = fnv(h[k], F->consts, F->nconsts * sizeof *F->consts);
    }
  }
  key[0] = h[0];
  key[1] = h[1];
}

/* The disk cache's directory, or -1 (no cache) */
static int cache_dir(char *dir, size_t n) {
  const char *e = getenv("SMEMU_JIT_CACHE");
  if (no_disk_cache || (e && !strcmp(e, "0"))) return -1;
  const char *cache = getenv("SMEMU_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int k;
  if (cache && *cache) k = snprintf(dir, n, "%s/jit", cache);
  else if (xdg && *xdg) k = snprintf(dir, n, "%s/smemu/jit", xdg);
  else if (home && *home) k = snprintf(dir, n, "%s/.cache/smemu/jit", home);
  else k = snprintf(dir, n, "/tmp/smemu-cache-%u/jit", (unsigned)geteuid());
  if (k <= 0 || k >= (int)n) return -1;
  for (char *q = dir + 1; *q; q++)
    if (*q == '/') {
      *q = 0;
      if (mkdir(dir, 0700) && errno != EEXIST) return -1;
      *q = '/';
    }
  if (mkdir(dir, 0700) && errno != EEXIST) return -1;
  /* the user's alone: the cache's root and jit/ */
  for (int level = 0; level < 2; level++) {
    char d[PATH_MAX + 64];
    snprintf(d, sizeof d, "%s", dir);
    if (level) *strrchr(d, '/') = 0;
    struct stat st;
    if (lstat(d, &st) < 0 || S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077))
      return -1;
  }
  return 0;
}

/* The cached object for key, as a memory buffer, or NULL. */
static LLVMMemoryBufferRef cache_read(const char *dir, const uint64_t key[2]) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%016llx%016llx.o", dir, (unsigned long long)key[0], (unsigned long long)key[1]);
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  char *data = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_size > 8 &&
      st.st_size < (1 << 30) && (data = malloc((size_t)st.st_size))) {
    size_t got = 0;
    ssize_t r;
    while (got < (size_t)st.st_size && (r = read(fd, data + got, (size_t)st.st_size - got)) > 0) got += (size_t)r;
    uint64_t sum;
    size_t n = (size_t)st.st_size - 8;
    if (got == (size_t)st.st_size) {
      memcpy(&sum, data + n, 8);
      if (sum == fnv(FNV_INIT, data, n)) buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, n, "smemu-jit-cached");
    }
  }
  if (buf) futimens(fd, NULL); /* used now: trimmed last (jcache.h) */
  free(data);
  close(fd);
  return buf;
}

static void cache_write(const char *dir, const uint64_t key[2], const char *data, size_t n) {
  char tmp[PATH_MAX + 64], path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%016llx%016llx.o", dir, (unsigned long long)key[0], (unsigned long long)key[1]);
  snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
  int fd = mkstemp(tmp);
  if (fd < 0) return;
  uint64_t sum = fnv(FNV_INIT, data, n);
  int ok = 1;
  for (size_t put = 0; ok && put < n;) {
    ssize_t w = write(fd, data + put, n - put);
    if (w <= 0) ok = 0;
    else put += (size_t)w;
  }
  if (ok && write(fd, &sum, 8) != 8) ok = 0;
  if (close(fd) < 0) ok = 0;
  if (!ok || rename(tmp, path) < 0) {
    unlink(tmp);
    return;
  }
  /* the size limit, looked at by the first write of a process and one
   * write in 16 after it (a look reads the whole directory) */
  static _Atomic int writes;
  if (!atomic_fetch_add(&writes, 1) || !(key[0] & 15)) jit_cache_trim(dir, jit_cache_limit());
}

jit_code *jit_compile(const program *P, int hooked, char *why, size_t nwhy) {
  pthread_mutex_lock(&jit_lock);
  jit_code *J = NULL;
  double t0 = now(), t1 = t0, t2 = t0;
  if (jit_init(why, nwhy) < 0) goto out;
  uint64_t key[2];
  key_of(P, hooked, key);
  for (size_t i = 0; i < nkept; i++)
    if (kept_list[i].key[0] == key[0] && kept_list[i].key[1] == key[1]) {
      kept_list[i].refs++;
      J = kept_list[i].J;
      goto out;
    }
  if (nkept == capkept) {
    size_t cap = capkept ? capkept * 2 : 16;
    kept *nk = realloc(kept_list, cap * sizeof *nk);
    if (!nk) {
      snprintf(why, nwhy, "out of memory");
      goto out;
    }
    kept_list = nk;
    capkept = cap;
  }
  uint8_t *starts = region_starts(P);
  uint32_t *rstart = malloc((P->ncode + 1) * sizeof *rstart);
  J = calloc(1, sizeof *J);
  if (!starts || !rstart || !J || !(J->entry = calloc(P->ncode + 1, sizeof *J->entry)) ||
      !(J->len = calloc(P->ncode + 1, sizeof *J->len))) {
    free(starts);
    free(rstart);
    if (J) { free(J->entry); free(J->len); free(J); }
    J = NULL;
    snprintf(why, nwhy, "out of memory");
    goto out;
  }
  J->hooked = hooked;
  /* the regions */
  uint32_t nr = 0;
  for (uint32_t pc = 0; pc < P->ncode;) {
    const func_info *F = func_at(P, pc);
    if (!F || ends_region(&P->code[pc])) { pc++; continue; }
    uint32_t len = 1;
    while (pc + len < F->end && len < MAX_REGION && !starts[pc + len] && !ends_region(&P->code[pc + len])) len++;
    J->len[pc] = (uint16_t)len;
    rstart[nr++] = pc;
    pc += len;
  }
  free(starts);
  J->nregions = nr;
  char dir[PATH_MAX], stem[48];
  snprintf(stem, sizeof stem, "smemu_%016llx%016llx", (unsigned long long)key[0], (unsigned long long)key[1]);
  int cached = cache_dir(dir, sizeof dir) == 0;
  LLVMMemoryBufferRef obj = cached ? cache_read(dir, key) : NULL;
  int from_disk = obj != NULL;
  if (!obj) {
    cg G, *g = &G;
    memset(g, 0, sizeof G);
    g->C = LLVMContextCreate();
    g->M = LLVMModuleCreateWithNameInContext(stem, g->C);
    g->B = LLVMCreateBuilderInContext(g->C);
    g->P = P;
    g->hooked = hooked;
    g->stats = getenv("SMEMU_JIT_STATS") ? atoi(getenv("SMEMU_JIT_STATS")) : 0;
    g->nofull = getenv("SMEMU_JIT_NOFULL") && atoi(getenv("SMEMU_JIT_NOFULL"));
    g->i1 = LLVMInt1TypeInContext(g->C);
    g->i8 = LLVMInt8TypeInContext(g->C);
    g->i16 = LLVMInt16TypeInContext(g->C);
    g->i32 = LLVMInt32TypeInContext(g->C);
    g->i64 = LLVMInt64TypeInContext(g->C);
    g->i128 = LLVMInt128TypeInContext(g->C);
    g->ptr = LLVMPointerTypeInContext(g->C, 0);
    g->v1 = LLVMVectorType(g->i1, NL);
    g->v8 = LLVMVectorType(g->i8, NL);
    g->v16 = LLVMVectorType(g->i16, NL);
    g->v32 = LLVMVectorType(g->i32, NL);
    g->v64 = LLVMVectorType(g->i64, NL);
    g->v128 = LLVMVectorType(g->i128, NL);
    g->vf = LLVMVectorType(LLVMFloatTypeInContext(g->C), NL);
    g->vd = LLVMVectorType(LLVMDoubleTypeInContext(g->C), NL);
    g->fn_region = LLVMFunctionType(g->i32, (LLVMTypeRef[]){g->ptr, g->ptr}, 2, 0);
    g->fn_handler = LLVMFunctionType(LLVMVoidTypeInContext(g->C), (LLVMTypeRef[]){g->ptr, g->ptr, g->i32}, 3, 0);
    g->wreg = calloc(P->max_regs + SLOT_FIRST + 1, sizeof *g->wreg);
    g->wpred = calloc(P->max_preds + PRED_FIRST + 1, sizeof *g->wpred);
    g->wgen = 1;
    g->cache = calloc(P->max_regs + SLOT_FIRST + 1, sizeof *g->cache);
    g->cgen = calloc(P->max_regs + SLOT_FIRST + 1, sizeof *g->cgen);
    g->gen = 1;
    int ok = g->wreg && g->wpred && g->cache && g->cgen;
    for (uint32_t k = 0; ok && k < nr; k++) {
      uint32_t pc = rstart[k];
      const func_info *F = func_at(P, pc);
      if (g->F != F) {
        live_free(g->live);
        g->live = getenv("SMEMU_JIT_NOLIVE") ? NULL : live_new(P, F);
      }
      g->F = F;
      char fname[80];
      snprintf(fname, sizeof fname, "%s_r%u", stem, pc);
      build_region(g, pc, J->len[pc], fname, J);
    }
    live_free(g->live);
    free(g->wreg);
    free(g->wpred);
    free(g->cache);
    free(g->cgen);
    LLVMDisposeBuilder(g->B);
    char *verr = NULL;
    if (!ok) snprintf(why, nwhy, "out of memory");
    else if (LLVMVerifyModule(g->M, LLVMReturnStatusAction, &verr)) {
      snprintf(why, nwhy, "LLVM rejected the generated code: %.200s", verr ? verr : "?");
      ok = 0;
    }
    if (verr) LLVMDisposeMessage(verr);
    t1 = now();
    if (ok && host_tm) {
      LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
      LLVMErrorRef pe = LLVMRunPasses(g->M, "function(instcombine<no-verify-fixpoint>,early-cse<memssa>,gvn,dse,instcombine<no-verify-fixpoint>,simplifycfg)", host_tm, po);
      if (pe) LLVMConsumeError(pe);
      LLVMDisposePassBuilderOptions(po);
    }
    t2 = now();
    if (ok && getenv("SMEMU_JIT_DUMP")) {
      char *err2 = NULL;
      LLVMPrintModuleToFile(g->M, getenv("SMEMU_JIT_DUMP"), &err2);
      if (err2) LLVMDisposeMessage(err2);
    }
    char *eerr = NULL;
    if (ok && (!obj_tm || LLVMTargetMachineEmitToMemoryBuffer(obj_tm, g->M, LLVMObjectFile, &eerr, &obj))) {
      snprintf(why, nwhy, "LLVM: %s", eerr ? eerr : "no target");
      obj = NULL;
    }
    if (eerr) LLVMDisposeMessage(eerr);
    LLVMDisposeModule(g->M);
    LLVMContextDispose(g->C);
    if (obj && cached) cache_write(dir, key, LLVMGetBufferStart(obj), LLVMGetBufferSize(obj));
  }
  if (!obj) {
    free(rstart);
    jit_free(J);
    J = NULL;
    goto out;
  }
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(lljit);
  LLVMOrcResourceTrackerRef rt = LLVMOrcJITDylibCreateResourceTracker(jd);
  J->rt = rt;
  LLVMErrorRef e = LLVMOrcLLJITAddObjectFileWithRT(lljit, rt, obj);
  for (uint32_t k = 0; !e && k < nr; k++) {
    char fname[80];
    snprintf(fname, sizeof fname, "%s_r%u", stem, rstart[k]);
    LLVMOrcExecutorAddress a = 0;
    e = LLVMOrcLLJITLookup(lljit, &a, fname);
    J->entry[rstart[k]] = (jit_region_fn)(uintptr_t)a;
  }
  if (!e && getenv("SMEMU_JIT_PERFMAP")) perf_map(P, J, rstart, nr, hooked);
  free(rstart);
  if (getenv("SMEMU_JIT_STATS"))
    fprintf(stderr, "jit %s%s: %u regions, %u native, %u called; %s; IR %.3f s, passes %.3f s, codegen and link %.3f s\n",
            P->name, hooked ? " (analyses)" : "", J->nregions, J->ninsn_native, J->ninsn_called,
            from_disk ? "from the disk cache" : "compiled", t1 - t0, t2 - t1, now() - t2);
  if (e) {
    char *m = LLVMGetErrorMessage(e);
    snprintf(why, nwhy, "LLVM: %s", m);
    LLVMDisposeErrorMessage(m);
    jit_free(J);
    J = NULL;
    goto out;
  }
  J->key[0] = key[0];
  J->key[1] = key[1];
  kept_list[nkept++] = (kept){{key[0], key[1]}, J, 1};
out:
  pthread_mutex_unlock(&jit_lock);
  return J;
}

int jit_cached(const program *P, int hooked) {
  pthread_mutex_lock(&jit_lock);
  int r = 0;
  char dir[PATH_MAX], path[PATH_MAX + 64];
  uint64_t key[2];
  /* (without loading LLVM: most launches compile nothing) */
  if (!jit_failed && llvm_dl_present()) {
    host_ident();
    key_of(P, hooked, key);
    for (size_t i = 0; i < nkept && !r; i++) r = kept_list[i].key[0] == key[0] && kept_list[i].key[1] == key[1];
    struct stat st;
    if (!r && cache_dir(dir, sizeof dir) == 0) {
      snprintf(path, sizeof path, "%s/%016llx%016llx.o", dir, (unsigned long long)key[0], (unsigned long long)key[1]);
      r = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    }
  }
  pthread_mutex_unlock(&jit_lock);
  return r;
}

static void jit_release(jit_code *J) {
  if (J->rt) {
    LLVMOrcResourceTrackerRef rt = J->rt;
    LLVMErrorRef e = LLVMOrcResourceTrackerRemove(rt);
    if (e) LLVMConsumeError(e);
    LLVMOrcReleaseResourceTracker(rt);
  }
  free(J->entry);
  free(J->len);
  free(J);
}

void jit_free(jit_code *J) {
  if (!J) return;
  pthread_mutex_lock(&jit_lock);
  size_t i = 0;
  while (i < nkept && kept_list[i].J != J) i++;
  if (i < nkept && --kept_list[i].refs) {
    pthread_mutex_unlock(&jit_lock);
    return;
  }
  if (i < nkept) kept_list[i] = kept_list[--nkept];
  jit_release(J);
  pthread_mutex_unlock(&jit_lock);
}

#endif
